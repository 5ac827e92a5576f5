# bankscope - shared-memory bank-conflict microbenchmarks and analyzer.
#
# One non-recursive Makefile; everything it builds goes under build/.
#
#   make              build/bankscope (the CLI), build/libbankscope.a and,
#                     where CUPTI's headers are, build/libbankscope_inject.so
#   make check        build and run the Check test suite, the pattern
#                     fuzzer's seeds (no libFuzzer), the report test,
#                     the browser lab's test and the build test (exits
#                     non-zero on any failure);
#                     SANITIZE=1 builds the suite with ASan + UBSan under
#                     build/san/, MSAN=1 with clang's MemorySanitizer under
#                     build/msan/.  Without the CUDA toolkit it runs every
#                     test that needs none and says what it skipped.
#   make check-report build the report from the committed H100 dataset and
#                     load it in headless Chromium
#   make web          build/web/index.html: the lab, one offline page (the
#                     model in WebAssembly; make deps-web installs clang's)
#   make check-web    load the lab in headless Chromium and compare it with
#                     bankscope predict
#   make check-build  the build's own test (tests/build_test.sh): target
#                     choice, dependencies, stamps, install, man page
#   make check-archs  compile the probes, the tutorial and the profile
#                     sample for each of ARCHS (sm_80 sm_89 sm_90 sm_100)
#   make bench        prediction speed: 10 million random accesses per width;
#                     profile --replay of crafted records directories;
#                     calibrate's time and memory on a 1 GB dataset
#                     (BENCH_DISTINCT=N: on N rows of distinct accesses)
#   make profile-bench  on a GPU: profile against the bare programs and ncu,
#                     then the cost per launch (make launch-bench)
#                     (SAMPLES=cuda-samples checkout; scripts/profile-bench.sh)
#   make fuzz         libFuzzer on the pattern reader, the expression
#                     parser, the tile options, the profile readers and
#                     calibrate's datasets, FUZZ_SECONDS (60) each
#   make probes       build/bankscope-probe, the GPU probe runner, and
#                     build/bankscope-tutorial (nvcc; see NVCC_ARCH below)
#   make explain      build/libbankscope_explain.so and its patch module,
#                     for profile --explain (the CUDA Sanitizer API;
#                     make deps-sanitizer installs it from PyPI)
#   make probe-stride probe-broadcast probe-padding probe-wide probe-random
#                     probe-ldsm probe-stsm probe-atoms probe-cpasync
#   make probe-all    measure on the GPU into data/<gpu>/, then check
#   make probe-dsmem  distributed shared memory (sm_90 clusters), with its
#                     own runner build/bankscope-dsmem, into data/<gpu>/
#   build/bankscope-gmma  wgmma and TMA in shared memory (sm_90a), issue 29:
#                     scripts/gmma-sweep.sh builds and runs it on a GPU
#   make sass         the probes' SASS into build/sass/ (needs cuobjdump),
#                     with a count of each shared-memory opcode (those of
#                     the kinds table, as bankscope archs --kinds lists it)
#   build/bankscope-tutorial  the tutorial kernels, for bankscope profile
#   make plots        charts of DATA (a dataset CSV) into build/plots/
#   make report       build/report/: measure when a GPU is present, else the
#                     newest committed dataset
#   make man          build/man/bankscope.1, generated from docs/bankscope.md
#   make install      bankscope, bankscope-probe and bankscope-dsmem (when
#                     built), the injection library, the gnuplot
#                     scripts and the man page under
#                     DESTDIR/PREFIX (/usr/local): bin/, lib/bankscope/,
#                     share/bankscope/plots/, share/man/man1/
#   make uninstall    remove what make install put there
#   make deps         install the Debian packages the build needs
#   make clean        remove build/
#
# Overrides go in an ignored config.mk (CC, CFLAGS, NVCC, NVCC_ARCH,
# CUDA_HOME, PREFIX, ...).  NVCC_ARCH is a space-separated list of nvcc
# targets: sm_XY for machine code, compute_XY for PTX the driver compiles
# on newer GPUs ("sm_80 sm_90 compute_90").  Unset, the probes are built
# for the GPU found here (nvidia-smi, else the toolkit's device query),
# else for sm_90 plus compute_90 PTX; scripts/nvcc-arch.sh decides, and
# make prints the choice and its reason once.
#
# Every object depends on the headers it includes (-MMD -MP, nvcc too)
# and on a stamp of the flags that built it (build/stamp/, as git's
# GIT-CFLAGS): changing CFLAGS, NVCC_ARCH or a header rebuilds what it
# touches.  The version (git describe, GIT_DESCRIBE overrides) has its own
# stamp, so a new commit rebuilds analyzer/base/version.c alone.

-include config.mk

CC ?= cc
CLANG ?= clang
CUDA_HOME ?= /usr/local/cuda
ifndef NVCC
NVCC := $(shell command -v nvcc 2>/dev/null || echo $(CUDA_HOME)/bin/nvcc)
endif
OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# The library's files see only their own wing's header (analyzer/WING/
# bs_WING.h, which includes the wings below it): they are built without
# -Ianalyzer, so a library file that includes bankscope.h fails to build.
# (LIB_CFLAGS is ALL_CFLAGS less -Ianalyzer, recursive so that it takes
# the sanitizers' flags added below.)
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -Ianalyzer $(CFLAGS)
LIB_CFLAGS = $(filter-out -Ianalyzer,$(ALL_CFLAGS))
LDLIBS := -lm
FUZZ_SECONDS ?= 60
DEPS := scripts/deps.sh
PREFIX ?= /usr/local
INSTALL ?= install
ifndef GIT_DESCRIBE
GIT_DESCRIBE := $(if $(wildcard .git),$(shell git describe --always --dirty 2>/dev/null),)
GIT_DESCRIBE := $(or $(GIT_DESCRIBE),unknown)
endif

ifdef SANITIZE
B := build/san
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	      -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=address,undefined
else ifdef MSAN
# Check is not instrumented: tests/runner.c turns off MemorySanitizer's
# heap poisoning in the runner only; the commands it runs keep it.
ifeq ($(shell command -v $(CLANG)),)
$(error MSAN=1 needs clang and its runtime: make deps-fuzz)
endif
B := build/msan
CC := $(CLANG)
ALL_CFLAGS += -fsanitize=memory -fsanitize-memory-track-origins=2 \
	      -fno-omit-frame-pointer
SAN_LDFLAGS := -fsanitize=memory
else
B := build
endif
# Any sanitizer build: the CUDA side and the report test stay out of it.
SANITIZED := $(SANITIZE)$(MSAN)

# The library: the analyzer, the probe families' point lists, and the
# built-in architectures (analyzer/archs/*.arch compiled in as text).
ARCH_FILES := $(sort $(wildcard analyzer/archs/*.arch))
LIB_SRC := $(wildcard analyzer/*/*.c)
LIB_H := $(wildcard analyzer/*.h analyzer/*/*.h)
CLI_SRC := $(wildcard cli/*.c cli/*/*.c)
TEST_SRC := $(wildcard tests/check_*.c) tests/runner.c tests/testutil.c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/archs.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/obj/%.o)
LIB := $(B)/libbankscope.a
CLI := $(B)/bankscope
# Built with nvcc and CUPTI (no GPU needed to build them).
PROBE := build/bankscope-probe
DSMEM := build/bankscope-dsmem
GMMA := build/bankscope-gmma
INJECT := build/libbankscope_inject.so
# The explain library needs the CUDA Sanitizer API (see its rules below).
SANITIZER_PIP := build/sanitizer-api/nvidia/cu13
SANITIZER_HOME ?= $(patsubst %/include/sanitizer.h,%,$(firstword $(wildcard \
	$(CUDA_HOME)/compute-sanitizer/include/sanitizer.h \
	$(SANITIZER_PIP)/include/sanitizer.h)))
SANITIZER_DIR := $(SANITIZER_HOME)
SANITIZER_LIBDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard $(SANITIZER_DIR)/libsanitizer-public.so $(SANITIZER_DIR)/lib/libsanitizer-public.so))))
EXPLAIN := build/libbankscope_explain.so build/bankscope_explain_patch.fatbin
HAVE_SANITIZER := $(and $(SANITIZER_DIR),$(SANITIZER_LIBDIR))
TUTORIAL := build/bankscope-tutorial
SMOKE := build/counters-smoke
MAN_PAGE := build/man/bankscope.1

# ---- the CUDA toolkit ----------------------------------------------------------
# nvcc builds the probe kernels, the tutorial and the profile sample;
# CUPTI's headers and library the runner's counters, the counters' smoke
# test and the injection library.  Where either is missing, what needs it
# is not built, and make check says so.
HAVE_NVCC := $(shell command -v '$(NVCC)' >/dev/null 2>&1 && echo yes)
HAVE_CUPTI := $(if $(wildcard $(CUDA_HOME)/include/cupti.h),yes)
NO_NVCC := no nvcc at $(NVCC) (set NVCC, or CUDA_HOME to the CUDA toolkit)
NO_CUPTI := no CUPTI headers at $(CUDA_HOME)/include/cupti.h (set CUDA_HOME)

# The nvcc targets: NVCC_ARCH, else scripts/nvcc-arch.sh, run once and only
# when a recipe needs them (it asks nvidia-smi).
comma := ,
ifdef NVCC_ARCH
NVCC_TARGETS = $(NVCC_ARCH)
NVCC_WHY = given by NVCC_ARCH
else
NVCC_AUTO = $(eval NVCC_AUTO := $$(shell scripts/nvcc-arch.sh '$(NVCC)'))$(NVCC_AUTO)
NVCC_TARGETS = $(subst $(comma), ,$(firstword $(NVCC_AUTO)))
NVCC_WHY = $(wordlist 2,$(words $(NVCC_AUTO)),$(NVCC_AUTO))
endif
# $(call gencode,TARGETS): sm_XY is machine code, compute_XY PTX.
gencode = $(foreach t,$(1),$(if $(filter sm_%,$(t)),-gencode=arch=compute_$(t:sm_%=%)$(comma)code=$(t),$(if $(filter compute_%,$(t)),-gencode=arch=$(t)$(comma)code=$(t),$(error NVCC_ARCH: '$(t)' is neither sm_XY nor compute_XY))))
NVCC_GENCODE = $(call gencode,$(NVCC_TARGETS))
NVCC_STD := -std=c++17 -O3 -Ianalyzer -Iprobes -Icudabase -Xcompiler -Wall,-Wextra
NVCC_FLAGS = $(NVCC_STD) $(NVCC_GENCODE)
# make check also compiles the probe kernels for this target, so that an
# instruction the older architecture lacks fails in CI (probes/target.h).
CHECK_NVCC_ARCH ?= sm_80
CHECK_ARCH_OBJ := build/arch/$(CHECK_NVCC_ARCH)/probes/kernels.o
# make check-archs: every .cu file for each of these.
ARCHS ?= sm_80 sm_89 sm_90 sm_100

PROBE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(OPT) -g \
		-Icudabase -Iprobes/cinclude -I$(CUDA_HOME)/include
PROFILE_SAMPLE := build/tests/transpose
CUDA_CHECK_BUILDS := $(if $(HAVE_NVCC),$(TUTORIAL) $(PROFILE_SAMPLE) \
	$(CHECK_ARCH_OBJ) $(if $(HAVE_CUPTI),$(PROBE) $(DSMEM) $(GMMA))) \
	$(if $(HAVE_CUPTI),$(INJECT) $(SMOKE)) \
	$(if $(and $(HAVE_NVCC),$(HAVE_SANITIZER)),$(EXPLAIN))
CUDA_SKIPPED := $(if $(HAVE_NVCC),,check: skipped, $(NO_NVCC): $(PROBE), \
	$(TUTORIAL), $(PROFILE_SAMPLE) and the $(CHECK_NVCC_ARCH) compile of \
	the probe kernels; the probe runner tests and bankscope-probe --version; \
	the nvcc steps of the build \
	test\n)$(if $(HAVE_CUPTI),,check: skipped, $(NO_CUPTI): $(INJECT), \
	$(SMOKE) and $(PROBE); the build test's steps for check.h and the \
	installed injection library\n)

# Check is found through pkg-config, after the deps step has run.
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS = $(shell pkg-config --libs check)

.PHONY: all check check-build check-archs bench fuzz deps deps-check clean \
	probes sass man install uninstall FORCE
# The injection library needs CUPTI's headers: built where CUDA is.
all: $(CLI) $(LIB) $(if $(HAVE_CUPTI),$(INJECT))

# ---- stamps ------------------------------------------------------------------
# $(call stamp_sh,TEXT): the recipe of a stamp file holding TEXT, rewritten
# (and so newer than what depends on it) only when TEXT changes.  Every
# line of a stamp's recipe starts with "+", so that make -n and -q run it
# and compare too, instead of taking every stamp, and so everything, as
# changed.  The temporary is the shell's own ($$), so that two makes in
# one tree never write one temporary.
# $(call sq,TEXT): TEXT as one single-quoted shell word, its quotes
# escaped, so that a value given to make is never run as shell code.
sq = '$(subst ','\'',$(1))'
stamp_sh = mkdir -p $(@D) && printf '%s\n' '$(subst ','\'',$(1))' >$@.tmp$$$$ && \
	{ cmp -s $@.tmp$$$$ $@ && rm -f $@.tmp$$$$ || mv -f $@.tmp$$$$ $@; }

FORCE:

$(B)/stamp/cflags: FORCE
	+@$(call stamp_sh,$(CC) $(ALL_CFLAGS); library: $(LIB_CFLAGS))

build/stamp/version: FORCE
	+@$(call stamp_sh,$(GIT_DESCRIBE))

# ---- the library and the CLI ---------------------------------------------------
$(B)/obj/%.o: %.c $(B)/stamp/cflags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(B)/obj/analyzer/%.o: analyzer/%.c $(B)/stamp/cflags
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

$(B)/gen/archs.c: $(ARCH_FILES) scripts/embed-archs.sh
	@mkdir -p $(@D)
	sh scripts/embed-archs.sh $(ARCH_FILES) > $@.tmp$$$$ && \
		mv -f $@.tmp$$$$ $@

$(B)/obj/gen/archs.o: $(B)/gen/archs.c $(B)/stamp/cflags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -c $< -o $@

# The one object that holds the version: rebuilt when it changes.
$(B)/obj/analyzer/base/version.o: analyzer/base/version.c build/stamp/version \
		$(B)/stamp/cflags
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -DBS_VERSION='"$(GIT_DESCRIBE)"' -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# -pthread: predict --format csv streams a large file on threads
# (cli/stream.c); the library stays single-threaded.
$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(SAN_LDFLAGS) -pthread -o $@ $(CLI_OBJ) $(LIB) \
		$(LDLIBS)

# ---- tests ---------------------------------------------------------------
# Every tests/check_<module>.c defines "Suite *<module>_suite(void)"; the
# runner's list of suites is generated from those definitions.
$(B)/tests/suites.h: $(wildcard tests/check_*.c)
	@mkdir -p $(@D)
	sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/SUITE(\1)/p' $^ > $@

$(B)/obj/tests/%.o: tests/%.c $(B)/stamp/cflags | deps-check
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes $(CHECK_CFLAGS) -I$(B)/tests \
		-MMD -MP -c $< -o $@

$(B)/obj/tests/runner.o: $(B)/tests/suites.h

$(B)/check_bankscope: $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(SAN_LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) \
		$(CHECK_LIBS) $(LDLIBS)

deps-check:
	@$(DEPS) check pkg-config

# The pattern fuzzer without libFuzzer (tests/fuzz_replay.c hands it each
# file named): make check replays fuzz/seeds/pattern/, so a seed that
# breaks one of its invariants fails the suite without clang.
$(B)/fuzz_pattern_replay: $(B)/obj/fuzz/fuzz_pattern.o \
		$(B)/obj/tests/fuzz_replay.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(SAN_LDFLAGS) -o $@ $^ $(LDLIBS)

# make check also compiles the CUDA side (nvcc and CUPTI's headers are
# needed, a GPU is not): the probe runner, the tutorial, the profile
# sample, the injection library, the counters' smoke test, and the probe
# kernels for CHECK_NVCC_ARCH besides the default target.  What the
# toolkit here cannot build is skipped, and the last lines say what.
# The CUDA side is built without sanitizers (a sub-make without SANITIZE
# or MSAN: nvcc links it).  Without either, make check also builds the report
# from the committed H100 dataset and opens it in headless Chromium
# (tests/report_test.sh), does the same with the browser lab
# (tests/web_test.sh), and runs the build test (tests/build_test.sh).
check: $(B)/check_bankscope $(CLI) $(B)/fuzz_pattern_replay \
		$(if $(SANITIZED),,$(CUDA_CHECK_BUILDS) \
		$(MAN_PAGE))
ifneq ($(SANITIZED),)
	$(if $(CUDA_CHECK_BUILDS),$(MAKE) --no-print-directory SANITIZE= MSAN= $(CUDA_CHECK_BUILDS))
endif
	$(B)/fuzz_pattern_replay $(sort $(wildcard fuzz/seeds/pattern/*))
	BANKSCOPE=$(CLI) PROBE=$(if $(filter $(PROBE),$(CUDA_CHECK_BUILDS)),$(PROBE)) \
		DSMEM=$(if $(filter $(DSMEM),$(CUDA_CHECK_BUILDS)),$(DSMEM)) \
		GMMA=$(if $(filter $(GMMA),$(CUDA_CHECK_BUILDS)),$(GMMA)) \
		COUNTERS_SMOKE=$(if $(filter $(SMOKE),$(CUDA_CHECK_BUILDS)),$(SMOKE)) \
		BS_VERSION='$(GIT_DESCRIBE)' CK_FORK=yes $(B)/check_bankscope
ifeq ($(SANITIZED),)
	$(MAKE) --no-print-directory check-report
	$(MAKE) --no-print-directory check-web
	MAKE='$(MAKE)' $(BUILD_TEST)
endif
	@printf '%b' '$(subst ','\'',$(CUDA_SKIPPED))'

# (MAKE is named in the recipe lines, so that make hands its jobs on.)
BUILD_TEST = CC='$(CC)' NVCC='$(NVCC)' CUDA_HOME='$(CUDA_HOME)' \
	HAVE_NVCC='$(HAVE_NVCC)' HAVE_CUPTI='$(HAVE_CUPTI)' sh tests/build_test.sh
check-build: $(CLI) $(CUDA_CHECK_BUILDS) $(MAN_PAGE)
	MAKE='$(MAKE)' $(BUILD_TEST)

# make check-msan: the suite under clang's MemorySanitizer (MSAN=1 above).
.PHONY: check-msan
check-msan:
	$(MAKE) --no-print-directory check MSAN=1

# ---- benchmark -------------------------------------------------------------
$(B)/bench_predict: $(B)/obj/tests/bench_predict.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

bench: $(B)/bench_predict $(CLI)
	$(B)/bench_predict
	sh tests/bench_stream.sh $(CLI)
	sh tests/bench_replay.sh $(CLI)
	sh tests/bench_calibrate.sh $(CLI)

# ---- fuzzing (clang's libFuzzer) --------------------------------------------
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Ianalyzer -O1 -g \
	      -fsanitize=fuzzer,address,undefined
build/fuzz/%: fuzz/%.c $(LIB_SRC) $(B)/gen/archs.c $(LIB_H) \
		| deps-fuzz
	@mkdir -p $(@D) build/fuzz/corpus-$*
	$(CLANG) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(B)/gen/archs.c -lm
# fuzz_arch drives the CLI's printers of an architecture too (archs, the
# report's rule text): the CLI without its main().
FUZZ_CLI_SRC := $(filter-out cli/main.c,$(CLI_SRC))
build/fuzz/fuzz_arch: fuzz/fuzz_arch.c $(LIB_SRC) $(FUZZ_CLI_SRC) \
		$(B)/gen/archs.c \
		$(LIB_H) $(wildcard cli/*.h cli/*/*.h) \
		| deps-fuzz
	@mkdir -p $(@D) build/fuzz/corpus-fuzz_arch
	$(CLANG) $(FUZZ_FLAGS) -pthread -o $@ $< $(LIB_SRC) $(FUZZ_CLI_SRC) \
		$(B)/gen/archs.c -lm

.PHONY: deps-fuzz
deps-fuzz:
	@$(DEPS) clang libclang-rt-14-dev

# Each fuzzer in turn, on its corpus and its seeds; make stops at the
# first that finds a crash.
FUZZERS := pattern expr tile profile arch cubin calibrate
define run_fuzzer
build/fuzz/fuzz_$(1) -max_total_time=$(FUZZ_SECONDS) build/fuzz/corpus-fuzz_$(1) fuzz/seeds/$(1)

endef
fuzz: $(FUZZERS:%=build/fuzz/fuzz_%)
	$(foreach f,$(FUZZERS),$(call run_fuzzer,$(f)))

# ---- GPU probes (nvcc; run where a CUDA device is) -----------------------------
# The nvcc stamp holds the compiler and its flags, targets included: a
# new NVCC_ARCH rebuilds every CUDA object.  Its recipe runs once per
# make, and says which targets and why.
build/stamp/nvcc: FORCE
	+@$(if $(HAVE_NVCC),:,echo 'make: $(NO_NVCC): the CUDA toolkit is needed here' >&2; exit 1)
	+@echo 'nvcc: building for $(NVCC_TARGETS): $(NVCC_WHY)'
	+@$(call stamp_sh,$(NVCC) $(NVCC_FLAGS))

build/stamp/cuda-cc: FORCE
	+@$(if $(HAVE_CUPTI),:,echo 'make: $(NO_CUPTI): the CUDA toolkit is needed here' >&2; exit 1)
	+@$(call stamp_sh,$(CC) $(PROBE_CFLAGS))

PROBE_SRC := $(wildcard probes/*.cu)
PROBE_OBJ := $(PROBE_SRC:%.cu=build/obj/%.o) build/obj/probes/counters.o \
	     build/obj/cudabase/cupti_reason.o
CUPTI_LIBS := -L$(CUDA_HOME)/lib64 \
	      -Xlinker --disable-new-dtags -Xlinker -rpath=$(CUDA_HOME)/lib64 \
	      -lcupti

build/obj/%.o: %.cu build/stamp/nvcc
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) $(NVCC_EXTRA) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

# The tutorial and the profile sample name their source lines (-lineinfo).
build/obj/examples/tutorial/tutorial.o build/obj/tests/cuda/transpose.o \
build/obj/tests/cuda/atomics.o: \
	NVCC_EXTRA := -lineinfo

# cupti_profiler_host.h includes <string>: probes/cinclude holds an empty one.
# cudabase/ holds the CUDA helpers the probes, the profiler, the examples
# and tests/cuda share: check.h's macros and cupti_reason.
build/obj/probes/counters.o \
build/obj/probes/counters_smoke.o: build/obj/probes/%.o: probes/%.c \
		build/stamp/cuda-cc
	@mkdir -p $(@D)
	$(CC) $(PROBE_CFLAGS) -MMD -MP -c $< -o $@
build/obj/cudabase/cupti_reason.o: cudabase/cupti_reason.c build/stamp/cuda-cc
	@mkdir -p $(@D)
	$(CC) $(PROBE_CFLAGS) -MMD -MP -c $< -o $@

$(PROBE): $(PROBE_OBJ) build/libbankscope.a
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_GENCODE) -o $@ $(PROBE_OBJ) build/libbankscope.a \
		$(CUPTI_LIBS) -lm

probes: $(PROBE) $(TUTORIAL) $(if $(HAVE_CUPTI),$(DSMEM) $(GMMA))

# Distributed shared memory (probes/dsmem/dsmem.cu): thread-block clusters
# exist from sm_90 on, so it is built for sm_90 (plus compute_90 PTX)
# whatever NVCC_ARCH says.  make probe-dsmem measures into data/<gpu>/.
DSMEM_GENCODE := $(call gencode,sm_90 compute_90)
build/obj/probes/dsmem/dsmem.o: probes/dsmem/dsmem.cu build/stamp/nvcc
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_STD) $(DSMEM_GENCODE) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(DSMEM): build/obj/probes/dsmem/dsmem.o build/obj/probes/counters.o \
		build/obj/cudabase/cupti_reason.o build/libbankscope.a
	@mkdir -p $(@D)
	$(NVCC) $(DSMEM_GENCODE) -o $@ $^ $(CUPTI_LIBS) -lm

# wgmma and TMA (probes/gmma/): sm_90a only (wgmma is not in plain sm_90
# or its PTX), whatever NVCC_ARCH says; the kernels in four files that
# make -j builds side by side.  scripts/gmma-sweep.sh runs it on a GPU.
# wgmma_ops.cuh is generated by probes/gmma/gen_ops.py and committed.
GMMA_GENCODE := -gencode=arch=compute_90a,code=sm_90a
GMMA_CU := $(wildcard probes/gmma/*.cu)
GMMA_OBJ := $(GMMA_CU:%.cu=build/obj/%.o)
$(GMMA_OBJ): build/obj/probes/gmma/%.o: probes/gmma/%.cu build/stamp/nvcc
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_STD) $(GMMA_GENCODE) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(GMMA): $(GMMA_OBJ) build/obj/probes/counters.o \
		build/obj/cudabase/cupti_reason.o build/libbankscope.a
	@mkdir -p $(@D)
	$(NVCC) $(GMMA_GENCODE) -o $@ $^ $(CUPTI_LIBS) -lm

.PHONY: probe-dsmem
probe-dsmem:
	@nvidia-smi -L >/dev/null 2>&1 || [ -e /dev/nvidia0 ] || { \
		echo "make $@: no NVIDIA GPU here (nvidia-smi -L lists none, no /dev/nvidia0); the committed datasets in data/ need none" >&2; \
		exit 1; }
	@$(MAKE) --no-print-directory $(DSMEM)
	$(DSMEM)

# The tutorial kernels: a program for bankscope profile.
$(TUTORIAL): build/obj/examples/tutorial/tutorial.o
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_GENCODE) -o $@ $<

# The counters alone (probes/counters_smoke.c), on a GPU: build/counters-smoke --run
$(SMOKE): build/obj/probes/counters_smoke.o build/obj/probes/counters.o \
		build/obj/cudabase/cupti_reason.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ -L$(CUDA_HOME)/lib64 \
		-Wl,--disable-new-dtags,-rpath,$(CUDA_HOME)/lib64 \
		-lcupti -lcudart -ldl

# One .cu file for one target other than NVCC_ARCH's: build/arch/TARGET/.
define arch_rule
build/arch/$(1)/%.o: %.cu build/stamp/nvcc
	@mkdir -p $$(@D)
	$$(NVCC) $$(NVCC_STD) $$(call gencode,$(1)) -MMD -MP -MF $$(@:.o=.d) -c $$< -o $$@
endef
$(foreach a,$(sort $(ARCHS) $(CHECK_NVCC_ARCH)),$(eval $(call arch_rule,$(a))))

ARCH_SRC := $(PROBE_SRC) examples/tutorial/tutorial.cu tests/cuda/transpose.cu \
	tests/cuda/atomics.cu
check-archs: $(foreach a,$(ARCHS),$(ARCH_SRC:%.cu=build/arch/$(a)/%.o)) \
		$(if $(HAVE_CUPTI),$(INJECT))
	@echo 'check-archs: $(words $(ARCH_SRC)) .cu files compiled for each of $(ARCHS); the injection library is host code, the same for all'

# make probe-NAME: any family of the table in analyzer/families/families.c
# (bankscope-probe --list), or all.  Measure, write
# data/<gpu>/<probe>-<time>.csv, then check it.  Without a GPU, one line
# says so before anything is compiled.
probe-%:
	@nvidia-smi -L >/dev/null 2>&1 || [ -e /dev/nvidia0 ] || { \
		echo "make $@: no NVIDIA GPU here (nvidia-smi -L lists none, no /dev/nvidia0); the committed datasets in data/ need none" >&2; \
		exit 1; }
	@$(MAKE) --no-print-directory $(PROBE) build/bankscope
	@f=$$($(PROBE) --probe $*) && build/bankscope check $$f

CUOBJDUMP ?= $(shell command -v cuobjdump 2>/dev/null || echo $(CUDA_HOME)/bin/cuobjdump)
# The opcodes counted are the kinds table's (analyzer/model/kinds.c), as
# the CLI lists them (their SASS column up to the first '.'): a new kind
# is counted without a second list here to keep in step.
sass:
	@command -v '$(CUOBJDUMP)' >/dev/null 2>&1 || { \
		echo "make sass: no cuobjdump at $(CUOBJDUMP): it comes with the CUDA toolkit (NVIDIA's package cuda-cuobjdump-<version>); set CUOBJDUMP or CUDA_HOME" >&2; \
		exit 1; }
	@$(MAKE) --no-print-directory build/obj/probes/kernels.o $(CLI)
	@mkdir -p build/sass
	$(CUOBJDUMP) -sass build/obj/probes/kernels.o > build/sass/kernels.sass
	@ops=$$($(CLI) archs --kinds | awk 'NR > 1 && !/distributed shared memory/ { sub(/\..*/, "", $$2); print $$2 }' | sort -u | paste -sd '|') && \
		grep -oE "($$ops)(\.[A-Z0-9]+)*" build/sass/kernels.sass | sort | uniq -c
	@echo "SASS in build/sass/kernels.sass"

# ---- profile: the injection library and a sample program -------------------
# build/libbankscope_inject.so is what `bankscope profile` sets as
# CUDA_INJECTION64_PATH (profiler/inject/*.c, whose files inject.h lists;
# gcc and the CUDA headers build it, no GPU needed); profiler/select.h, its
# choice of launches, and profiler/common.h are the explain library's too.  DT_RPATH (--disable-new-dtags), not RUNPATH: it
# lets libcupti dlopen libnvperf_host.so from the CUDA lib folder.
# build/tests/transpose is the sample the profile was checked with.
INJECT_SRC := $(wildcard profiler/inject/*.c)
$(INJECT): $(INJECT_SRC) profiler/inject/inject.h profiler/select.h \
		profiler/common.h cudabase/cupti_reason.c cudabase/cupti_reason.h \
		cudabase/check.h probes/metrics.h $(LIB_H) build/stamp/cuda-cc
	@mkdir -p $(@D)
	$(CC) $(PROBE_CFLAGS) -fPIC -shared -fvisibility=hidden \
		-Iprofiler -Iprobes -Icudabase -Ianalyzer \
		-o $@ $(INJECT_SRC) cudabase/cupti_reason.c \
		-L$(CUDA_HOME)/lib64 \
		-Wl,--disable-new-dtags,-rpath,$(CUDA_HOME)/lib64 \
		-lcupti -ldl -lpthread

# ---- explain: the Sanitizer API library and its patch module ----------------
# build/libbankscope_explain.so (profiler/explain/explain.c, linked to
# libsanitizer-public.so) and build/bankscope_explain_patch.fatbin
# (profiler/explain/patch.cu, nvcc --fatbin --compile-as-tools-patch) are what
# `bankscope profile --explain` loads.  They need the CUDA Sanitizer API:
# compute-sanitizer's folder where CUDA is installed whole, else the PyPI
# package nvidia-cuda-sanitizer-api that scripts/sanitizer-deps.sh puts
# under build/sanitizer-api (make deps-sanitizer).  Without it `make`
# builds everything else and `make explain` says what is missing.

.PHONY: explain deps-sanitizer
ifneq ($(HAVE_SANITIZER),)
explain: $(EXPLAIN)
all: $(if $(HAVE_CUPTI),$(EXPLAIN))
else
explain:
	@echo "explain: the CUDA Sanitizer API (sanitizer.h, libsanitizer-public.so) is missing: run make deps-sanitizer, or set SANITIZER_HOME to compute-sanitizer's folder" >&2; exit 1
endif

deps-sanitizer:
	@sh scripts/sanitizer-deps.sh

build/libbankscope_explain.so: profiler/explain/explain.c \
		profiler/explain/explain.h profiler/select.h profiler/common.h \
		cudabase/check.h $(LIB_H)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(OPT) -g -fPIC -shared -fvisibility=hidden \
		-Iprofiler/explain -Iprofiler -Icudabase -Iprobes -Ianalyzer \
		-I$(SANITIZER_DIR)/include \
		-I$(CUDA_HOME)/include -o $@ profiler/explain/explain.c \
		-L$(SANITIZER_LIBDIR) -Wl,-rpath,$(abspath $(SANITIZER_LIBDIR)) \
		-lsanitizer-public -ldl -lpthread

# The patch module: machine code of the targets, and PTX of each for JIT.
build/bankscope_explain_patch.fatbin: profiler/explain/patch.cu \
		profiler/explain/explain.h build/stamp/cuda-cc
	@mkdir -p $(@D)
	$(NVCC) --fatbin --compile-as-tools-patch $(NVCC_GENCODE) \
		$(foreach t,$(filter sm_%,$(NVCC_TARGETS)),$(if $(filter compute_$(t:sm_%=%),$(NVCC_TARGETS)),,-gencode=arch=compute_$(t:sm_%=%)$(comma)code=compute_$(t:sm_%=%))) \
		-I$(SANITIZER_DIR)/include -Iprofiler/explain -o $@ -c $<

$(PROFILE_SAMPLE): build/obj/tests/cuda/transpose.o
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_GENCODE) -o $@ $<

# A warp's float and 64-bit atomicAdd: the retry loops, for profile --explain.
build/tests/atomics: build/obj/tests/cuda/atomics.o
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_GENCODE) -o $@ $<

# ---- charts and report (gnuplot) ---------------------------------------------
# BEGIN report block
# Charts of a dataset (gnuplot, plots/*.gp) into PLOTS_DIR (build/plots/),
# and the report (bankscope report, HTML and Markdown) into REPORT_OUT
# (build/report/).  DATA defaults to the newest committed H100 dataset with
# counters; scripts/report.sh has the choice, and make report measures
# first where a CUDA device is.  make plots draws the charts the dataset
# supports and lists the others, with the reason, in PLOTS_DIR/not-drawn.txt.
# make check-report builds its own report under build/report-test/, never
# REPORT_OUT.  make bench-report: report's memory on a 1 GB dataset.
# The report and make plots show distributed shared memory from the
# newest bankscope-dsmem file of DATA's folder (dsmem-*.csv there or in a
# dsmem-*/ folder, by its "# date:"; scripts/report.sh says which);
# DSMEM_DATA=FILE names one, DSMEM_DATA=none leaves it out.
REPORT_SH := scripts/report.sh
DATA ?= $(shell $(REPORT_SH) newest)
PLOTS_DIR ?= build/plots
REPORT_OUT ?= build/report
GNUPLOT ?= gnuplot
REPORT_ENV = CLI=$(CLI) MAKE=$(call sq,$(MAKE)) GNUPLOT=$(call sq,$(GNUPLOT)) \
	PLOTS_DIR=$(call sq,$(PLOTS_DIR)) REPORT_OUT=$(call sq,$(REPORT_OUT)) \
	DSMEM_DATA=$(call sq,$(DSMEM_DATA))

.PHONY: plots report check-report bench-report deps-plots
deps-plots:
	@command -v $(GNUPLOT) >/dev/null 2>&1 || $(DEPS) gnuplot-nox

plots: $(CLI) deps-plots
	@$(REPORT_ENV) WHO=plots $(REPORT_SH) plots $(call sq,$(DATA))

report: $(CLI)
	@DATA=$(call sq,$(DATA)) DATA_ORIGIN='$(origin DATA)' $(REPORT_ENV) \
		$(REPORT_SH) report

check-report: $(CLI)
	CLI=$(CLI) sh tests/report_test.sh

bench-report: $(CLI)
	sh tests/bench_report.sh $(CLI)
# END report block

# make profile-bench: on a GPU machine, `bankscope profile` against the bare
# programs and Nsight Compute, and one run against per-kernel runs
# (scripts/profile-bench.sh; SAMPLES names a checkout of NVIDIA's
# cuda-samples, python3 needs torch and triton; results under OUT).
# Then what a launch costs (launch-bench: 1 to 10^5 short launches, a
# long kernel launched 100 times, scan, globalToShmemAsyncCopy and
# matrixMul, two processes; scripts/launch-bench.sh), alone with make
# launch-bench.
.PHONY: profile-bench launch-bench
profile-bench:
	SAMPLES=$(call sq,$(SAMPLES)) OUT=$(call sq,$(or $(OUT),build/profile-bench)) \
		bash scripts/profile-bench.sh
	SAMPLES=$(call sq,$(or $(SAMPLES),.carry/samples)) \
		OUT=$(call sq,$(or $(OUT),build/profile-bench))/launches \
		bash scripts/launch-bench.sh

launch-bench:
	SAMPLES=$(call sq,$(or $(SAMPLES),.carry/samples)) \
		OUT=$(call sq,$(or $(OUT),build/launch-bench)) \
		bash scripts/launch-bench.sh

# ---- the browser lab (WebAssembly) ------------------------------------------
# build/web/index.html: one offline page, the model compiled to WebAssembly
# from the library's sources (web/build.sh says which) with the committed
# H100 and H200 runs inside it.  make check-web loads it in headless
# Chromium (tests/web_test.sh) against build/bankscope predict.  Without
# the toolchain (clang, lld, wasi-libc, libclang-rt-14-dev-wasm32: make
# deps-web) make web says what is missing; nothing else needs it.
WEB_DATA := data/h100-sxm/all-20261124-153149.csv data/h200/all-20261124-153809.csv
WEB_PAGE := build/web/index.html

.PHONY: web check-web deps-web
web: $(WEB_PAGE)

deps-web:
	@$(DEPS) clang lld wasi-libc libclang-rt-14-dev-wasm32

$(WEB_PAGE): $(wildcard web/*) $(wildcard docs/labs/lab*.md) $(LIB_SRC) $(LIB_H) \
		$(B)/gen/archs.c $(WEB_DATA) build/stamp/version | deps-web
	@mkdir -p $(@D)
	CLANG='$(CLANG)' GIT_DESCRIBE='$(GIT_DESCRIBE)' sh web/build.sh $(@D) \
		$(B)/gen/archs.c $(WEB_DATA)

check-web: $(WEB_PAGE) $(CLI)
	BANKSCOPE=$(CLI) sh tests/web_test.sh

# ---- the man page and install ----------------------------------------------------
# The man page is generated from its web copy, docs/bankscope.md.
man: $(MAN_PAGE)

$(MAN_PAGE): docs/bankscope.md scripts/md2man.awk build/stamp/version
	@mkdir -p $(@D)
	awk -v version='$(GIT_DESCRIBE)' -f scripts/md2man.awk docs/bankscope.md \
		> $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# bankscope profile finds the injection library, and profile --explain the
# explain library and its patch module, beside its executable or in
# ../lib/bankscope/ from it: both the build tree and this layout work.
# The explain pair is installed when it is built (make explain).
EXPLAIN_SO = $(wildcard $(filter %.so,$(EXPLAIN)))
EXPLAIN_PATCH = $(wildcard $(filter %.fatbin,$(EXPLAIN)))
bindir ?= $(PREFIX)/bin
pkglibdir ?= $(PREFIX)/lib/bankscope
pkgdatadir ?= $(PREFIX)/share/bankscope
man1dir ?= $(PREFIX)/share/man/man1
PLOT_SCRIPTS := $(notdir $(wildcard plots/*.gp))

install: $(CLI) $(if $(HAVE_CUPTI),$(INJECT)) $(MAN_PAGE)
	$(INSTALL) -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(pkgdatadir)/plots' \
		'$(DESTDIR)$(man1dir)'
	$(INSTALL) -m 755 $(CLI) '$(DESTDIR)$(bindir)/bankscope'
	$(if $(wildcard $(PROBE)),$(INSTALL) -m 755 $(PROBE) '$(DESTDIR)$(bindir)/bankscope-probe')
	$(if $(wildcard $(DSMEM)),$(INSTALL) -m 755 $(DSMEM) '$(DESTDIR)$(bindir)/bankscope-dsmem')
	$(if $(wildcard $(GMMA)),$(INSTALL) -m 755 $(GMMA) '$(DESTDIR)$(bindir)/bankscope-gmma')
	$(if $(HAVE_CUPTI),$(INSTALL) -d '$(DESTDIR)$(pkglibdir)')
	$(if $(HAVE_CUPTI),$(INSTALL) -m 755 $(INJECT) '$(DESTDIR)$(pkglibdir)/')
	$(if $(EXPLAIN_SO)$(EXPLAIN_PATCH),$(INSTALL) -d '$(DESTDIR)$(pkglibdir)')
	$(if $(EXPLAIN_SO),$(INSTALL) -m 755 $(EXPLAIN_SO) '$(DESTDIR)$(pkglibdir)/')
	$(if $(EXPLAIN_PATCH),$(INSTALL) -m 644 $(EXPLAIN_PATCH) '$(DESTDIR)$(pkglibdir)/')
	$(INSTALL) -m 644 $(addprefix plots/,$(PLOT_SCRIPTS)) '$(DESTDIR)$(pkgdatadir)/plots/'
	$(INSTALL) -m 644 $(MAN_PAGE) '$(DESTDIR)$(man1dir)/bankscope.1'

uninstall:
	rm -f '$(DESTDIR)$(bindir)/bankscope' '$(DESTDIR)$(bindir)/bankscope-probe' \
		'$(DESTDIR)$(bindir)/bankscope-dsmem' '$(DESTDIR)$(bindir)/bankscope-gmma' \
		'$(DESTDIR)$(pkglibdir)/libbankscope_inject.so' \
		$(foreach f,$(EXPLAIN),'$(DESTDIR)$(pkglibdir)/$(notdir $(f))') \
		'$(DESTDIR)$(man1dir)/bankscope.1' \
		$(PLOT_SCRIPTS:%='$(DESTDIR)$(pkgdatadir)/plots/%')
	rmdir '$(DESTDIR)$(pkgdatadir)/plots' '$(DESTDIR)$(pkgdatadir)' \
		'$(DESTDIR)$(pkglibdir)' 2>/dev/null || true

deps:
	@$(DEPS) check pkg-config gnuplot-nox clang libclang-rt-14-dev man-db

clean:
	rm -rf build

-include $(sort $(wildcard $(foreach d,$(B)/obj build/obj build/arch,$(d)/*.d \
	$(d)/*/*.d $(d)/*/*/*.d $(d)/*/*/*/*.d)))
