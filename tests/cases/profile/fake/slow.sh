#!/bin/sh
# slow.sh - stands in for a program whose explain run would go on long
# after it had sampled every kernel (a kernel launched many times).  The
# first run (BANKSCOPE_PROFILE_DIR) measures a() and b(), as the injection
# library would (with BANKSCOPE_PROFILE_LAUNCH=all every launch marked
# "*", a() twice); the explain run (BANKSCOPE_EXPLAIN_DIR alone) writes the
# status lines of a sampled launch of a() and b(), as the explain library
# does once their records are out, starts a child that would outlive it,
# then would run 30 s more and write explain-finished.  bankscope ends
# it, child and all, once both kernels are sampled.  Not a measurement.
tab=$(printf '\t')
if [ -n "$BANKSCOPE_PROFILE_DIR" ]; then
	d=$BANKSCOPE_PROFILE_DIR
	echo ok > "$d/status.txt"
	printf 'kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\tinst_executed\twavefronts\twavefronts_ideal\n' > "$d/records.tsv"
	if [ "$BANKSCOPE_PROFILE_LAUNCH" = all ]; then
		# every launch in one window, a() twice: one drain sums them
		printf 'launch\tkernel\tpc_records\n0\ta()\t*\n1\tb()\t*\n2\ta()\t*\n' > "$d/launches.tsv"
		printf 'a()\t-\t7\t0\t_Z1av\t0x10\t2\t20\t20\nb()\t-\t7\t0\t_Z1bv\t0x10\t1\t11\t10\n' >> "$d/records.tsv"
	else
		printf 'launch\tkernel\tpc_records\n0\ta()\t1\n1\tb()\t1\n2\ta()\t-\n' > "$d/launches.tsv"
		printf 'a()\t0\t7\t0\t_Z1av\t0x10\t1\t10\t10\nb()\t1\t7\t0\t_Z1bv\t0x10\t1\t11\t10\n' >> "$d/records.tsv"
	fi
	echo slow
	exit 0
fi
d=$BANKSCOPE_EXPLAIN_DIR
(sleep 30; echo child > "$d/explain-child-finished") &
echo $! > "$d/explain-child.pid"
echo ok > "$d/explain-status.txt"
echo "launch 0${tab}a()${tab}0 records" >> "$d/explain-status.txt"
sleep 1
echo "launch 1${tab}b()${tab}0 records" >> "$d/explain-status.txt"
sleep 30
echo done > "$d/explain-finished"
