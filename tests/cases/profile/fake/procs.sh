#!/bin/sh
# procs.sh - stands in for a program whose two processes use the GPU (a
# multiprocessing job), with the injection library in each, so the
# profile command's handling of processes can be tested without a GPU.
# The first process (pid 1001, the one bankscope started) keeps
# $BANKSCOPE_PROFILE_DIR and launches kernel a() once; the second (pid
# 1002, its child) writes $BANKSCOPE_PROFILE_DIR/process-1002, as
# profiler/common.h's bs_process_dir does for a later process, and
# launches d() twice.  BANKSCOPE_PROFILE_TARGET=application-only leaves
# the second alone (its parent is not bankscope).  Each process writes
# status.txt, process.txt, launches.tsv and records.tsv; one execution of
# a() moves 12 wavefronts (ideal 4), of d() 8 (ideal 8).  Prints "procs"
# and exits 0.  Not a measurement.
tab=$(printf '\t')
proc() { # DIR PID PPID COMMAND KERNEL LAUNCHES WAVEFRONTS IDEAL
	d=$1
	echo ok > "$d/status.txt"
	printf 'pid\t%s\nppid\t%s\ncommand\t%s\n' "$2" "$3" "$4" > "$d/process.txt"
	printf '9.0\tNVIDIA H200\n' > "$d/device.txt"
	printf 'launch\tkernel\tpc_records\n' > "$d/launches.tsv"
	printf 'kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\tpc_offset\tinst_executed\twavefronts\twavefronts_ideal\n' > "$d/records.tsv"
	echo "0${tab}$5()${tab}1" >> "$d/launches.tsv"
	i=1
	while [ $i -lt "$6" ]; do
		echo "$i${tab}$5()${tab}-" >> "$d/launches.tsv"
		i=$((i + 1))
	done
	echo "$5()${tab}0${tab}7${tab}0${tab}_Z1$5v${tab}0x10${tab}1${tab}$7${tab}$8" >> "$d/records.tsv"
}
d=$BANKSCOPE_PROFILE_DIR
proc "$d" 1001 999 "procs.sh --rank 0" a 1 12 4
if [ "$BANKSCOPE_PROFILE_TARGET" != application-only ]; then
	mkdir "$d/process-1002"
	proc "$d/process-1002" 1002 1001 "procs.sh --rank 1" d 2 8 8
fi
echo procs
