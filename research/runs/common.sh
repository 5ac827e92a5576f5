# common.sh - what the one-call GPU scripts of research/runs share, sourced
# from the repository root (. research/runs/common.sh): the log, the
# machine's header, the build, and Nsight Compute's SourceCounters per
# SASS instruction.  Each script used to carry its own copy of these.

say() { printf '== %s\n' "$*"; }

# run_log LOG TITLE: everything from here on goes to LOG (its folder made)
# as well as to the terminal; then TITLE, the GPU's clocks, and CUDA's
# tools on PATH.
run_log() {
	mkdir -p "$(dirname "$1")"
	exec > >(tee "$1") 2>&1
	say "$2"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
	export PATH=$PATH:/usr/local/cuda/bin
}

# build LOG MAKE-ARGUMENTS...: make, its output in LOG; on failure says so
# with LOG's last lines and fails, for the caller to stop or go on.
build() {
	local log=$1; shift
	make "$@" >"$log" 2>&1 && return 0
	say "build failed"
	tail -30 "$log"
	return 1
}

# ncu_sass DIR NAME CSV NCU-ARGUMENTS... PROGRAM: Nsight Compute's
# SourceCounters section of PROGRAM (clocks left alone) into DIR/NAME.ncu-rep,
# then as csv per SASS instruction into CSV; each step's exit status.
ncu_sass() {
	local dir=$1 name=$2 csv=$3; shift 3
	ncu --clock-control none --section SourceCounters -f -o "$dir/$name" \
		"$@" > "$dir/ncu-collect.log" 2>&1
	echo "rc $?"; tail -5 "$dir/ncu-collect.log"
	ncu -i "$dir/$name.ncu-rep" --page source --print-source sass --csv \
		> "$csv" 2> "$dir/ncu-source.err"
	echo "rc $?"
}
