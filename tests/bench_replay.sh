#!/bin/sh
# bench_replay.sh BANKSCOPE - `profile --replay` on crafted records
# directories: is reading linear in their size?  (Issue 13: 200000 records
# with out-of-order launch numbers took 17.6 s, 20000 instructions joined
# with --patterns 37.2 s: both grew as the square of the count.)
#
#   sh tests/bench_replay.sh build/bankscope
#
# awk writes two directories under a temporary folder (removed on exit):
#   launches/  N records (BENCH_RECORDS, 200000) of one instruction, each
#              with its own launch number, in a scrambled order, and a
#              launches.tsv of the same launches in reverse order
#   join/      M instructions (BENCH_INSNS, 20000): 100 kernels of M/100
#              LDS instructions on as many source lines, a disassembly
#              naming them and a pattern file with a pattern for each
# and times `BANKSCOPE profile --replay DIR` (with --patterns for join/),
# output to /dev/null, then the same with a tenth of the count: a linear
# reader takes about ten times as long for ten times the lines.  Prints
# seconds (from date +%s%N) for both sizes.  Exit status: 0, 2 when a
# command fails.  Not a test: timing is a benchmark's business.
set -eu

bin=${1:?usage: sh tests/bench_replay.sh path/to/bankscope}
records=${BENCH_RECORDS:-200000}
insns=${BENCH_INSNS:-20000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bankscope-replay.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

make_launches() {	# DIR N
	mkdir -p "$1"
	echo ok > "$1/status.txt"
	awk -v n="$2" 'BEGIN {
		OFS = "\t"
		print "kernel", "launch", "cubin_crc", "function_index",
		      "function", "pc_offset", "inst_executed", "wavefronts",
		      "wavefronts_ideal"
		for (i = 0; i < n; i++)
			print "k()", (i * 7919) % n, 7, 0, "_Z1kv", "0x10", 1,
			      2, 1
	}' > "$1/records.tsv"
	awk -v n="$2" 'BEGIN {
		print "launch\tkernel\tpc_records"
		for (i = n - 1; i >= 0; i--)
			print i "\tk()\t1"
	}' > "$1/launches.tsv"
	printf '\tFunction : _Z1kv\n        /*0010*/                   LDS R1, [R2] ;\n' \
		> "$1/cubin-7.sass"
}

make_join() {	# DIR M
	mkdir -p "$1"
	echo ok > "$1/status.txt"
	printf 'launch\tkernel\tpc_records\n' > "$1/launches.tsv"
	awk -v m="$2" -v dir="$1" 'BEGIN {
		per = int(m / 100)
		rec = dir "/records.tsv"; sass = dir "/cubin-7.sass"
		pat = dir "/patterns"
		print "kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\t" \
		      "pc_offset\tinst_executed\twavefronts\twavefronts_ideal" > rec
		for (k = 0; k < 100; k++) {
			print "\tFunction : _Z2k" k "v" > sass
			for (i = 0; i < per; i++) {
				pc = sprintf("%x", 16 * (i + 1))
				print "k" k "()\t0\t7\t" k "\t_Z2k" k "v\t0x" pc \
				      "\t1\t1\t1" > rec
				print "        //## File \"b.cu\", line " i + 1 > sass
				print "        /*" pc "*/ LDS R1, [R2] ;" > sass
				line = "k" k ":ld:" i " 4 ld"
				for (l = 0; l < 32; l++)
					line = line " " 4 * l
				print line > pat
			}
		}
	}'
}

seconds() {	# COMMAND...: its wall time
	s=$(date +%s%N)
	"$@" > /dev/null 2>&1 || { echo "bench_replay: $* failed" >&2; exit 2; }
	e=$(date +%s%N)
	echo "$(( (e - s) / 1000000 ))" | awk '{ printf "%.3f", $1 / 1000 }'
}

for scale in 10 1; do
	n=$((records / scale))
	m=$((insns / scale))
	make_launches "$tmp/l$scale" "$n"
	make_join "$tmp/j$scale" "$m"
	echo "replay, $n records in scrambled launch order: $(seconds "$bin" profile --replay "$tmp/l$scale") s"
	echo "replay --patterns, $m instructions: $(seconds "$bin" profile --replay "$tmp/j$scale" --patterns "$tmp/j$scale/patterns") s"
done
