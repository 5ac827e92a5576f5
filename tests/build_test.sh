#!/bin/sh
# build_test.sh - the build's own behaviour, without a GPU.
#
#   - scripts/nvcc-arch.sh picks the targets of the GPU found (fake
#     nvidia-smi, nvcc and __nvcc_device_query in a temporary PATH), and
#     sm_90 plus compute_90 PTX when there is none; make prints the
#     choice once, and NVCC_ARCH overrides it;
#   - dependencies and stamps (make -n, with -W to pretend a header
#     changed): a header rebuilds what includes it and nothing else, a new
#     NVCC_ARCH every CUDA object, new CFLAGS every C object, a new
#     version analyzer/base/version.c alone; afterwards make -q finds the tree
#     up to date;
#   - cudabase/check.h (tests/cuda/check_macros.c): each macro's line
#     names what failed, then file, line, call and the error's name; the
#     no-driver case reads "no NVIDIA driver", not an upgrade; a program
#     with BS_CHECK_PROGRAM prints it and exits 1;
#   - probes/target.h: without its guard an sm_90 instruction fails the
#     sm_80 build, with it sm_80 builds and only compute_90 PTX has it;
#   - without a GPU, make probe-stride stops in one line before compiling
#     anything, and names no driver upgrade; make sass without cuobjdump
#     and make probes without nvcc say what is missing (each line followed
#     by make's own "*** [target] Error 1", and make's exit status 2);
#   - scripts/md2man.awk turns tests/cases/md2man/input.md into exactly
#     expected.1;
#   - make install into a DESTDIR: the installed bankscope runs
#     (--version, predict), points --help at man bankscope (the build
#     tree's at docs/bankscope.md), finds the installed injection library
#     and profile --explain's library and patch module (stand-ins where
#     make explain could not build them), and
#     `man -l` renders the page with every section of docs/bankscope.md
#     and no warning; make uninstall leaves no file behind.
#
# make check runs it (make check-build) with MAKE, CC, NVCC, CUDA_HOME,
# HAVE_NVCC and HAVE_CUPTI set, on a tree it has just brought up to date;
# the steps that need nvcc or CUPTI are skipped where the toolkit is
# missing, and the last line says which.  The stamps
# under build/stamp/ that make -n rewrites are put back as they were
# (content and time), so the test leaves the build as it found it.
# Exit status 0 when every check passed; each failure is a "FAIL:" line.
set -u
cd "$(dirname "$0")/.." || exit 1
# Under make -n the makes below would only pretend: run nothing then.
flags=${MAKEFLAGS:-}
case ${flags%% *} in
-* | *=*) ;;
*n*) echo "build test: not run under make -n"; exit 0 ;;
esac
MAKE=${MAKE:-make}
NVCC=${NVCC:-nvcc}
HAVE_NVCC=${HAVE_NVCC:-}
HAVE_CUPTI=${HAVE_CUPTI:-}
fails=0
skipped=""
T=$(mktemp -d "${TMPDIR:-/tmp}/bankscope-build-test.XXXXXX") || exit 1
mkdir "$T/stamps"
cp -p build/stamp/* "$T/stamps/" 2>/dev/null
# put the stamps back as they were before a make -n with other flags
put_back() {
	for f in "$T"/stamps/*; do
		[ -e "$f" ] && cp -p "$f" build/stamp/
	done
}
trap 'put_back; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	echo "ok: $*"
}

skip() {
	skipped="$skipped${skipped:+; }$*"
}

# mk ARGS...: make, quietly about directories, stdout and stderr in $out
mk() {
	out=$($MAKE --no-print-directory "$@" 2>&1)
}

# has TEXT PATTERN / lacks TEXT PATTERN (grep -E)
has() {
	printf '%s\n' "$1" | grep -Eq -- "$2"
}

# ---- scripts/nvcc-arch.sh ------------------------------------------------
fake=$T/fake
mkdir -p "$fake/bin" "$fake/cuda"
# tool NAME EXIT OUTPUT: a fake program in $fake/bin
tool() {
	printf '#!/bin/sh\nprintf "%s"\nexit %s\n' "$3" "$2" > "$fake/bin/$1"
	chmod +x "$fake/bin/$1"
}
printf '#!/bin/sh\n[ "$1" = --list-gpu-code ] && printf "sm_75\\nsm_80\\nsm_86\\nsm_89\\nsm_90\\nsm_100\\n"\n' \
	> "$fake/cuda/nvcc"
chmod +x "$fake/cuda/nvcc"
# arch_case WHAT EXPECTED-FIRST-WORD REASON-PATTERN
arch_case() {
	got=$(PATH="$fake/bin:/usr/bin:/bin" sh scripts/nvcc-arch.sh "$fake/cuda/nvcc")
	first=${got%% *}
	if [ "$first" = "$2" ] && has "$got" "$3"; then
		ok "nvcc-arch.sh, $1: $got"
	else
		fail "nvcc-arch.sh, $1: got '$got', expected '$2 ...$3...'"
	fi
}
tool nvidia-smi 0 '9.0\n'
arch_case "one H100" sm_90 'the GPU here \(compute capability 9\.0, from nvidia-smi\)'
tool nvidia-smi 0 '9.0\n8.9\n9.0\n'
arch_case "two kinds of GPU" sm_89,sm_90 'compute capability 8\.9, 9\.0'
tool nvidia-smi 9 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.\n'
printf '#!/bin/sh\necho 100\n' > "$fake/cuda/__nvcc_device_query"
chmod +x "$fake/cuda/__nvcc_device_query"
arch_case "nvidia-smi failing, the toolkit's query" sm_100 'from __nvcc_device_query'
printf '#!/bin/sh\necho 120\n' > "$fake/cuda/__nvcc_device_query"
arch_case "a GPU newer than nvcc" sm_100,compute_100 'knows no sm_120, so sm_100 and its PTX'
printf '#!/bin/sh\necho "failed to call load_driver_entries()" >&2; exit 1\n' \
	> "$fake/cuda/__nvcc_device_query"
arch_case "no GPU" sm_90,compute_90 'no GPU found'
rm -f "$fake/bin/nvidia-smi"
arch_case "no nvidia-smi at all" sm_90,compute_90 'no GPU found'

# ---- make: the choice, said once; NVCC_ARCH -------------------------------
if [ -n "$HAVE_NVCC" ]; then
	tool nvidia-smi 0 '8.9\n'
	out=$(PATH="$fake/bin:$PATH" $MAKE --no-print-directory -n build/obj/probes/kernels.o 2>&1)
	n=$(printf '%s\n' "$out" | grep -c '^nvcc: building for')
	if [ "$n" = 1 ] && has "$out" '^nvcc: building for sm_89: the GPU here' &&
		has "$out" 'gencode=arch=compute_89,code=sm_89 .*-c probes/kernels\.cu'; then
		ok "make builds for the GPU nvidia-smi names, and says so once"
	else
		fail "make with an sm_89 GPU ($n lines 'nvcc: building for'): $out"
	fi
	mk -n NVCC_ARCH="sm_80 compute_100" build/obj/probes/kernels.o
	if has "$out" '^nvcc: building for sm_80 compute_100: given by NVCC_ARCH' &&
		has "$out" 'gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_100,code=compute_100 '; then
		ok "NVCC_ARCH overrides, sm_ as machine code, compute_ as PTX"
	else
		fail "NVCC_ARCH=\"sm_80 compute_100\": $out"
	fi
	if mk -n NVCC_ARCH=89 build/obj/probes/kernels.o; then
		fail "NVCC_ARCH=89 was accepted: $out"
	elif has "$out" "NVCC_ARCH: '89' is neither sm_XY nor compute_XY"; then
		ok "a malformed NVCC_ARCH is named"
	else
		fail "NVCC_ARCH=89: $out"
	fi
else
	skip "make's choice of nvcc targets (no nvcc)"
fi

# ---- dependencies and stamps ----------------------------------------------
# compiled OUT: the sources make -n would compile, sorted, one a line
compiled() {
	printf '%s\n' "$1" | sed -n 's/.* -c \([^ ]*\) .*/\1/p' | sort
}
# deps_case WHAT TARGET EXPECTED-SOURCES MAKE-ARGS...
deps_case() {
	what=$1 target=$2 want=$3
	shift 3
	put_back
	mk -n "$@" "$target"
	got=$(compiled "$out" | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		ok "$what: rebuilds $got"
	else
		fail "$what: rebuilds '$got', expected '$want'"
	fi
}
lib_c=$( (ls analyzer/*/*.c cli/*.c cli/*/*.c; echo build/gen/archs.c) | sort | tr '\n' ' ')
deps_case "new CFLAGS" build/bankscope "$lib_c" CFLAGS='-O1 -g'
deps_case "a new version" build/bankscope "analyzer/base/version.c " GIT_DESCRIBE=build-test-version
# A wing's header rebuilds its own files and the CLI (which includes
# bankscope.h), and no file of another library wing.  (A wing above it,
# as sass is above fix, reaches it as ../fix/bs_fix.h: make -W names the
# one spelling, so those files are not in the list, though a real change
# rebuilds them.)
includers=$(ls analyzer/fix/*.c cli/*.c cli/*/*.c | sort | tr '\n' ' ')
deps_case "analyzer/fix/bs_fix.h changed" build/bankscope "$includers" -W analyzer/fix/bs_fix.h

# A sanitizer build instruments the library too (its files have flags of
# their own: without -Ianalyzer, with everything else of ALL_CFLAGS).
for san in SANITIZE MSAN; do
	if [ $san = MSAN ] && ! command -v clang >/dev/null 2>&1; then
		skip "MSAN=1's library flags (no clang)"
		continue
	fi
	mk -n -B "$san=1" "build/$( [ $san = MSAN ] && echo msan || echo san)/obj/analyzer/base/util.o"
	case "$out" in
	*-fsanitize=*) ok "$san=1 builds the library's files with the sanitizer" ;;
	*) fail "$san=1 builds analyzer/base/util.c without -fsanitize: $out" ;;
	esac
done

# The wings' bounds: a library file includes one header of the project,
# its own wing's, or a private header of its wing's folder (families.h,
# calibrate.h: not bs_*.h), never the umbrella bankscope.h nor another
# wing's header.
bad_inc=""
for f in analyzer/*/*.c; do
	wing=$(basename "$(dirname "$f")")
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case "$h" in
		"bs_$wing.h") ;;
		*/* | bs_*) bad_inc="$bad_inc $f:$h" ;;
		*) [ -f "analyzer/$wing/$h" ] || bad_inc="$bad_inc $f:$h" ;;
		esac
	done
done
if [ -z "$bad_inc" ]; then
	ok "every library file includes its own wing's headers only"
else
	fail "library files reaching outside their wing:$bad_inc"
fi
if [ -n "$HAVE_NVCC" ] && [ -n "$HAVE_CUPTI" ]; then
	deps_case "probes/counters.h changed" build/bankscope-probe \
		"probes/counters.c probes/runner.cu " -W probes/counters.h
	deps_case "probes/probe.h changed" build/bankscope-probe \
		"$(ls probes/*.cu | sort | tr '\n' ' ')" -W probes/probe.h
	deps_case "a new NVCC_ARCH" build/bankscope-probe \
		"$(ls probes/*.cu | sort | tr '\n' ' ')" NVCC_ARCH=sm_89
	mk -n NVCC_ARCH=sm_89 build/bankscope-probe
	if [ "$(printf '%s\n' "$out" | grep -c 'code=sm_89')" -ge "$(ls probes/*.cu | wc -l)" ]; then
		ok "every CUDA object of the new NVCC_ARCH is built for sm_89"
	else
		fail "NVCC_ARCH=sm_89: $out"
	fi
	put_back
	if $MAKE -q build/bankscope build/bankscope-probe >/dev/null 2>&1; then
		ok "make -q: the tree is up to date again"
	else
		fail "make -q: build/bankscope or build/bankscope-probe out of date after the stamps came back"
	fi
else
	skip "the CUDA objects' dependencies (no nvcc or no CUPTI)"
fi

put_back

# ---- probes/target.h --------------------------------------------------------
if [ -n "$HAVE_NVCC" ]; then
	g=tests/cuda/target_guard.cu
	sed 's/^#if BS_TARGET_HAS(90)$/#if 1/' "$g" > "$T/unguarded.cu"
	if "$NVCC" -Iprobes -c -gencode=arch=compute_80,code=sm_80 "$T/unguarded.cu" \
		-o "$T/u.o" >"$T/u.log" 2>&1; then
		fail "target_guard.cu without its guard built for sm_80: the test proves nothing"
	elif ! "$NVCC" -Iprobes -c -gencode=arch=compute_80,code=sm_80 "$g" -o "$T/g.o" >"$T/g.log" 2>&1; then
		fail "target_guard.cu with BS_TARGET_HAS(90) fails for sm_80: $(cat "$T/g.log")"
	elif ! "$NVCC" -Iprobes -ptx -arch=compute_80 "$g" -o "$T/80.ptx" ||
		! "$NVCC" -Iprobes -ptx -arch=compute_90 "$g" -o "$T/90.ptx"; then
		fail "target_guard.cu: no PTX"
	elif grep -q stmatrix "$T/80.ptx" || ! grep -q stmatrix "$T/90.ptx"; then
		fail "target_guard.cu: stmatrix in compute_80 PTX $(grep -c stmatrix "$T/80.ptx") times, in compute_90 $(grep -c stmatrix "$T/90.ptx")"
	else
		ok "BS_TARGET_HAS(90): sm_80 builds without stmatrix (unguarded it fails), compute_90 has it"
	fi
else
	skip "probes/target.h's guard (no nvcc)"
fi

# ---- cudabase/check.h ------------------------------------------------------
if [ -n "$HAVE_CUPTI" ]; then
	cm=tests/cuda/check_macros.c
	cuda=${CUDA_HOME:-/usr/local/cuda}
	flags="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Icudabase -Iprobes/cinclude -I$cuda/include"
	libs="-L$cuda/lib64 -Wl,-rpath,$cuda/lib64 -lcupti -lcudart -ldl"
	if ! ${CC:-cc} $flags -o "$T/cm" $cm cudabase/cupti_reason.c $libs >"$T/cm.log" 2>&1 ||
		! ${CC:-cc} -DEXIT_MODE $flags -o "$T/cm-exit" $cm cudabase/cupti_reason.c $libs >>"$T/cm.log" 2>&1; then
		fail "tests/cuda/check_macros.c does not build: $(head -5 "$T/cm.log")"
	else
		got=$("$T/cm")
		rc=$?
		"$T/cm-exit" >"$T/exit.out" 2>"$T/exit.err"
		erc=$?
		w='\[check_macros\.c:[0-9]+: '
		if [ "$rc" != 0 ]; then
			fail "check_macros: exit status $rc: $got"
		elif ! printf '%s\n' "$got" | sed -n 1p | grep -Eq "^out of memory ${w}cuda_returns\(e\): cudaErrorMemoryAllocation\]$" ||
			! printf '%s\n' "$got" | sed -n 2p | grep -Eq "^(no NVIDIA driver: libcuda\.so\.1 cannot be loaded|CUDA driver version is insufficient for CUDA runtime version) ${w}cuda_returns\(e\): cudaErrorInsufficientDriver\]$" ||
			! printf '%s\n' "$got" | sed -n 3p | grep -Eq "^(CUDA driver error ${w}cu_returns\(r\): CUresult 2|out of memory ${w}cu_returns\(r\): CUDA_ERROR_OUT_OF_MEMORY)\]$" ||
			! printf '%s\n' "$got" | sed -n 4p | grep -Eq "^CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need root or NVreg_RestrictProfilingToAdminUsers=0 ${w}cupti_returns\(r\): CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\]$" ||
			[ "$(printf '%s\n' "$got" | sed -n 5p)" != "out of " ]; then
			fail "check.h's lines: $got"
		elif [ "$erc" != 1 ] || [ -s "$T/exit.out" ] ||
			! grep -Eq "^check_macros: out of memory ${w}cuda_returns\(cudaErrorMemoryAllocation\): cudaErrorMemoryAllocation\]$" "$T/exit.err"; then
			fail "check.h with BS_CHECK_PROGRAM: exit status $erc, stderr $(cat "$T/exit.err")"
		else
			ok "check.h: CHECK_CUDA, CHECK_CU, CHECK_CUPTI name what, file, line, call and error; BS_CHECK_PROGRAM exits 1"
		fi
	fi
else
	skip "cudabase/check.h's macros (no CUPTI headers)"
fi

# ---- messages when something is missing -----------------------------------
# only_line OUT PATTERN TARGET: OUT is one line matching PATTERN, then
# make's own "*** [...TARGET] Error 1" (make exits 2 when a recipe fails)
only_line() {
	[ "$(printf '%s\n' "$1" | wc -l)" = 2 ] &&
		printf '%s\n' "$1" | head -1 | grep -Eq -- "$2" &&
		printf '%s\n' "$1" | tail -1 |
		grep -Eq -- "^make(\[[0-9]+\])?: \*\*\* \[.*$3\] Error 1\$"
}
if nvidia-smi -L >/dev/null 2>&1 || [ -e /dev/nvidia0 ]; then
	skip "make probe-stride without a GPU (a GPU is here)"
elif mk probe-stride; then
	fail "make probe-stride without a GPU succeeded: $out"
elif only_line "$out" '^make probe-stride: no NVIDIA GPU here \(nvidia-smi -L lists none, no /dev/nvidia0\); the committed datasets in data/ need none$' probe-stride &&
	! has "$out" 'nvcc|insufficient|driver version'; then
	ok "make probe-stride without a GPU: $(printf '%s\n' "$out" | head -1)"
else
	fail "make probe-stride without a GPU, expected one line before any compile: $out"
fi
if mk sass CUOBJDUMP=/nonexistent/cuobjdump; then
	fail "make sass without cuobjdump succeeded: $out"
elif only_line "$out" '^make sass: no cuobjdump at /nonexistent/cuobjdump: it comes with the CUDA toolkit' sass; then
	ok "make sass without cuobjdump: $(printf '%s\n' "$out" | head -1)"
else
	fail "make sass without cuobjdump: $out"
fi
if mk probes NVCC=/nonexistent/nvcc; then
	fail "make probes without nvcc succeeded: $out"
elif has "$out" '^make: no nvcc at /nonexistent/nvcc \(set NVCC, or CUDA_HOME' &&
	! has "$out" 'No such file'; then
	ok "make probes without nvcc names what is missing"
else
	fail "make probes without nvcc: $out"
fi

# ---- the man page generator -----------------------------------------------
c=tests/cases/md2man
if awk -v version=1.2-3 -f scripts/md2man.awk "$c/input.md" > "$T/demo.1" &&
	cmp -s "$T/demo.1" "$c/expected.1"; then
	ok "md2man.awk: $c/input.md gives expected.1"
else
	fail "md2man.awk: $c/input.md differs from expected.1: $(diff "$c/expected.1" "$T/demo.1" | head -8)"
fi

# ---- make install / uninstall ---------------------------------------------
D=$T/dest
P=/opt/bankscope-test
# The explain pair as built (make explain), else stand-ins of the same names
# (it needs the CUDA Sanitizer API): make install puts them where the
# installed profile --explain looks.
EXPLAIN="build/libbankscope_explain.so build/bankscope_explain_patch.fatbin"
if ! [ -f build/libbankscope_explain.so ] || ! [ -f build/bankscope_explain_patch.fatbin ]; then
	mkdir "$T/explain"
	: >"$T/explain/libbankscope_explain.so"
	: >"$T/explain/bankscope_explain_patch.fatbin"
	EXPLAIN="$T/explain/libbankscope_explain.so $T/explain/bankscope_explain_patch.fatbin"
fi
if ! mk install DESTDIR="$D" PREFIX="$P" EXPLAIN="$EXPLAIN"; then
	fail "make install: $out"
else
	bin=$D$P/bin/bankscope
	if [ "$("$bin" --version)" = "$(build/bankscope --version)" ]; then
		ok "installed bankscope --version: $("$bin" --version)"
	else
		fail "installed bankscope --version: '$("$bin" --version 2>&1)'"
	fi
	got=$("$bin" --help | tail -1)
	here=$(build/bankscope --help | tail -1)
	if [ "$got" = "See man bankscope." ] && [ "$here" = "See docs/bankscope.md." ]; then
		ok "installed bankscope --help points at man bankscope, build/bankscope at docs/bankscope.md"
	else
		fail "--help's pointer: installed '$got', build/bankscope '$here'"
	fi
	got=$("$bin" predict --format csv --expr 'lane*2' --name f32_s2 2>&1 | tail -1)
	if [ "$got" = "f32_s2,4,ld,32,1,0,2,1,1,2,35.00" ]; then
		ok "installed bankscope predict: $got"
	else
		fail "installed bankscope predict: '$got'"
	fi
	n=$(ls "$D$P/share/bankscope/plots" | wc -l)
	if [ "$n" = "$(ls plots/*.gp | wc -l)" ]; then
		ok "the $n gnuplot scripts installed"
	else
		fail "$n gnuplot scripts installed, plots/ has $(ls plots/*.gp | wc -l)"
	fi
	if [ -e build/bankscope-probe ] && ! [ -x "$D$P/bin/bankscope-probe" ]; then
		fail "build/bankscope-probe is built but was not installed"
	fi
	if [ -e build/bankscope-dsmem ] && ! [ -x "$D$P/bin/bankscope-dsmem" ]; then
		fail "build/bankscope-dsmem is built but was not installed"
	fi
	if [ -n "$HAVE_CUPTI" ]; then
		lib=$D$P/lib/bankscope/libbankscope_inject.so
		got=$(env -u BANKSCOPE_INJECT "$bin" profile -- true 2>&1)
		if [ -f "$lib" ] && has "$got" "or $lib did not load\)$"; then
			ok "installed bankscope profile uses $P/lib/bankscope/libbankscope_inject.so"
		else
			fail "installed bankscope profile: '$got'"
		fi
	else
		skip "the installed injection library (no CUPTI headers)"
	fi
	xlib=$D$P/lib/bankscope/libbankscope_explain.so
	xpatch=$D$P/lib/bankscope/bankscope_explain_patch.fatbin
	got=$(BANKSCOPE_INJECT=/dev/null "$bin" profile --explain -- true 2>&1)
	if ! [ -x "$xlib" ] || ! [ -f "$xpatch" ] || [ -x "$xpatch" ]; then
		fail "make install: no $P/lib/bankscope/libbankscope_explain.so (mode 755) and bankscope_explain_patch.fatbin (644): $(ls -l "$D$P/lib/bankscope" 2>&1)"
	elif has "$got" "neither beside"; then
		fail "installed bankscope profile --explain: '$got'"
	else
		ok "installed bankscope profile --explain finds $P/lib/bankscope/libbankscope_explain.so and its patch module"
	fi
	man1=$D$P/share/man/man1/bankscope.1
	if ! command -v man >/dev/null 2>&1; then
		scripts/deps.sh man-db >/dev/null 2>&1
	fi
	if ! command -v man >/dev/null 2>&1; then
		fail "man is missing and scripts/deps.sh man-db could not install it"
	else
		page=$(MANWIDTH=80 man -l "$man1" 2>"$T/man.err")
		missing=""
		for s in $(sed -n 's/^## //p' docs/bankscope.md | tr ' ' '_'); do
			printf '%s\n' "$page" | grep -qx "$(echo "$s" | tr '_' ' ')" ||
				missing="$missing $s"
		done
		where=$(MANPATH="$D$P/share/man" man -w bankscope 2>&1)
		if [ -s "$T/man.err" ]; then
			fail "man -l $man1 warns: $(cat "$T/man.err")"
		elif [ -n "$missing" ]; then
			fail "man -l: sections missing:$missing"
		elif ! has "$page" '^ +bankscope +- +predict +and +check +the +shared-memory +bank +conflicts'; then
			fail "man -l: no NAME line: $(printf '%s\n' "$page" | head -5)"
		elif has "$page" '```|\*\*|\]\(|\\f'; then
			fail "man -l: Markdown or roff left in the page: $(printf '%s\n' "$page" | grep -E '```|\*\*|\]\(|\\f' | head -3)"
		elif [ "$where" != "$man1" ]; then
			fail "MANPATH=$D$P/share/man man -w bankscope: '$where'"
		else
			ok "man -l renders every section, no warning; man finds the installed page"
		fi
	fi
	if ! mk uninstall DESTDIR="$D" PREFIX="$P" EXPLAIN="$EXPLAIN"; then
		fail "make uninstall: $out"
	elif [ -n "$(find "$D" -type f)" ] || [ -e "$D$P/share/bankscope" ] ||
		[ -e "$D$P/lib/bankscope" ]; then
		fail "make uninstall left: $(find "$D" -type f -o -name bankscope | head -5)"
	else
		ok "make uninstall removed every file"
	fi
fi

[ -n "$skipped" ] && echo "build test: skipped: $skipped"
if [ "$fails" = 0 ]; then
	echo "build test: all checks passed"
else
	echo "build test: $fails failed"
	exit 1
fi
