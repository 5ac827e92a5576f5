# bankscope - shared-memory bank-conflict microbenchmarks and analyzer.
#
# One non-recursive Makefile; everything it builds goes under build/.
#
#   make              build/bankscope (the CLI) and build/libbankscope.a
#   make check        build and run the Check test suite and the report test
#                     (exits non-zero on any failure); SANITIZE=1 builds the
#                     suite with ASan + UBSan under build/san/
#   make check-msan   the suite with bankscope built by clang's MemorySanitizer
#   make check-report build the report from the committed H100 dataset and
#                     load it in headless Chromium
#   make bench        prediction speed: 10 million random accesses per width;
#                     profile --replay of crafted records directories
#   make fuzz         libFuzzer on the pattern reader, the expression
#                     parser and the profile readers, FUZZ_SECONDS (60) each
#   make probes       build/bankscope-probe, the GPU probe runner (nvcc)
#   make explain      build/libbankscope_explain.so and its patch module,
#                     for profile --explain (the CUDA Sanitizer API;
#                     make deps-sanitizer installs it from PyPI)
#   make probe-stride probe-broadcast probe-padding probe-wide probe-random
#   make probe-all    measure on the GPU into data/<gpu>/, then check
#   make sass         the probes' SASS into build/sass/
#   build/bankscope-tutorial  the tutorial kernels, for bankscope profile
#   make plots        charts of DATA (a dataset CSV) into build/plots/
#   make report       build/report/: measure when a GPU is present, else the
#                     newest committed dataset
#   make deps         install the Debian packages the build needs
#   make clean        remove build/
#
# Overrides go in an ignored config.mk (CC, CFLAGS, NVCC, NVCC_ARCH, ...).

-include config.mk

CC ?= cc
CLANG ?= clang
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(shell command -v nvcc || echo $(CUDA_HOME)/bin/nvcc)
# Space-separated targets: NVCC_ARCH="sm_90 sm_100" builds for both.
NVCC_ARCH ?= sm_90
OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -Ianalyzer $(CFLAGS)
LDLIBS := -lm
FUZZ_SECONDS ?= 60
DEPS := scripts/deps.sh

ifdef SANITIZE
B := build/san
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	      -fno-sanitize-recover=all
SAN_LDFLAGS := -fsanitize=address,undefined
else
B := build
endif

LIB_SRC := $(wildcard analyzer/*.c)
CLI_SRC := $(wildcard analyzer/cli/*.c)
TEST_SRC := $(wildcard tests/check_*.c) tests/runner.c tests/testutil.c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/obj/%.o)
LIB := $(B)/libbankscope.a
CLI := $(B)/bankscope
# Built with nvcc and CUPTI (no GPU needed to build them).
PROBE := build/bankscope-probe
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

# Check is found through pkg-config, after the deps step has run.
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS = $(shell pkg-config --libs check)

.PHONY: all check bench fuzz deps deps-check clean probes sass
# The injection library needs CUPTI's headers: built where CUDA is.
all: $(CLI) $(LIB) $(if $(wildcard $(CUDA_HOME)/include/cupti.h),$(INJECT))

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(SAN_LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

# ---- tests ---------------------------------------------------------------
# Every tests/check_<module>.c defines "Suite *<module>_suite(void)"; the
# runner's list of suites is generated from those definitions.
$(B)/tests/suites.h: $(wildcard tests/check_*.c)
	@mkdir -p $(@D)
	sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/SUITE(\1)/p' $^ > $@

$(B)/obj/tests/%.o: tests/%.c | deps-check
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes $(CHECK_CFLAGS) -I$(B)/tests \
		-MMD -MP -c $< -o $@

$(B)/obj/tests/runner.o: $(B)/tests/suites.h

$(B)/check_bankscope: $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(SAN_LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) \
		$(CHECK_LIBS) $(LDLIBS)

deps-check:
	@$(DEPS) check pkg-config

# make check also compiles the GPU probes (nvcc is needed, a GPU is not).
# Without SANITIZE it also builds the report from the committed H100
# dataset and opens it in headless Chromium (tests/report_test.sh).
check: $(B)/check_bankscope $(CLI) $(PROBE) $(INJECT) \
		$(if $(HAVE_SANITIZER),$(EXPLAIN))
	BANKSCOPE=$(CLI) PROBE=$(PROBE) CK_FORK=yes $(B)/check_bankscope
ifndef SANITIZE
	$(MAKE) --no-print-directory check-report
endif

# ---- MemorySanitizer ----------------------------------------------------------
# make check-msan: the suite again, with the bankscope it runs built by clang
# with -fsanitize=memory (uninitialized reads; the test runner itself is the
# normal one: Check is not built with MSan).  The command is where an
# uninitialized message once reached the user (issue 13).
MSAN_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Ianalyzer -O1 -g \
	      -fsanitize=memory -fsanitize-memory-track-origins \
	      -fno-omit-frame-pointer
build/msan/bankscope: $(LIB_SRC) $(CLI_SRC) analyzer/bankscope.h \
		analyzer/lines.h analyzer/cli/cli.h | deps-fuzz
	@mkdir -p $(@D)
	$(CLANG) $(MSAN_FLAGS) -o $@ $(LIB_SRC) $(CLI_SRC) -lm

.PHONY: check-msan
check-msan: build/msan/bankscope $(B)/check_bankscope $(PROBE)
	BANKSCOPE=build/msan/bankscope PROBE=$(PROBE) CK_FORK=yes \
		$(B)/check_bankscope

# ---- benchmark -------------------------------------------------------------
$(B)/bench_predict: $(B)/obj/tests/bench_predict.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

bench: $(B)/bench_predict $(CLI)
	$(B)/bench_predict
	sh tests/bench_stream.sh $(CLI)
	sh tests/bench_replay.sh $(CLI)

# ---- fuzzing (clang's libFuzzer) --------------------------------------------
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Ianalyzer -O1 -g \
	      -fsanitize=fuzzer,address,undefined
build/fuzz/%: fuzz/%.c $(LIB_SRC) analyzer/bankscope.h | deps-fuzz
	@mkdir -p $(@D) build/fuzz/corpus-$*
	$(CLANG) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) -lm

.PHONY: deps-fuzz
deps-fuzz:
	@$(DEPS) clang libclang-rt-14-dev

fuzz: build/fuzz/fuzz_pattern build/fuzz/fuzz_expr build/fuzz/fuzz_profile
	build/fuzz/fuzz_pattern -max_total_time=$(FUZZ_SECONDS) \
		build/fuzz/corpus-fuzz_pattern fuzz/seeds/pattern
	build/fuzz/fuzz_expr -max_total_time=$(FUZZ_SECONDS) \
		build/fuzz/corpus-fuzz_expr fuzz/seeds/expr
	build/fuzz/fuzz_profile -max_total_time=$(FUZZ_SECONDS) \
		build/fuzz/corpus-fuzz_profile fuzz/seeds/profile

# ---- GPU probes (nvcc; run where a CUDA device is) -----------------------------
PROBE_SRC := $(wildcard probes/*.cu)
PROBE_OBJ := $(PROBE_SRC:%.cu=build/obj/%.o) build/obj/probes/counters.o \
	     build/obj/probes/cupti_reason.o
GIT_DESCRIBE ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
NVCC_GENCODE := $(foreach a,$(NVCC_ARCH),-gencode=arch=compute_$(subst sm_,,$(a)),code=$(a))
NVCC_FLAGS := -std=c++17 -O3 $(NVCC_GENCODE) -Ianalyzer -Iprobes \
	      -DBS_GIT_DESCRIBE=\"$(GIT_DESCRIBE)\" -Xcompiler -Wall,-Wextra
CUPTI_LIBS := -L$(CUDA_HOME)/lib64 \
	      -Xlinker --disable-new-dtags -Xlinker -rpath=$(CUDA_HOME)/lib64 \
	      -lcupti

build/obj/probes/%.o: probes/%.cu probes/probe.h analyzer/bankscope.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

# cupti_profiler_host.h includes <string>: probes/cinclude holds an empty one.
build/obj/probes/counters.o build/obj/probes/cupti_reason.o: \
		build/obj/probes/%.o: probes/%.c probes/counters.h \
		probes/cupti_reason.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(OPT) -g \
		-Iprobes/cinclude -I$(CUDA_HOME)/include -c $< -o $@

$(PROBE): $(PROBE_OBJ) build/libbankscope.a
	$(NVCC) $(NVCC_GENCODE) -o $@ $(PROBE_OBJ) build/libbankscope.a \
		$(CUPTI_LIBS) -lm

probes: $(PROBE) build/bankscope-tutorial

# The tutorial kernels: a program for bankscope profile (-lineinfo for the
# source lines of each shared-memory instruction).
build/bankscope-tutorial: probes/tutorial/tutorial.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -lineinfo -o $@ $<

PROBE_FAMILIES := stride broadcast padding wide random all
.PHONY: $(PROBE_FAMILIES:%=probe-%)
# Measure, write data/<gpu>/<probe>-<time>.csv, then check it.
$(PROBE_FAMILIES:%=probe-%): probe-%: $(PROBE) build/bankscope
	@f=$$($(PROBE) --probe $*) && build/bankscope check $$f

CUOBJDUMP ?= $(shell command -v cuobjdump || echo $(CUDA_HOME)/bin/cuobjdump)
sass: build/obj/probes/kernels.o
	@mkdir -p build/sass
	$(CUOBJDUMP) -sass $< > build/sass/kernels.sass
	@grep -oE '(LDS|STS)(\.[A-Z0-9]+)*' build/sass/kernels.sass | sort | uniq -c
	@echo "SASS in build/sass/kernels.sass"

# ---- profile: the injection library and a sample program -------------------
# build/libbankscope_inject.so is what `bankscope profile` sets as
# CUDA_INJECTION64_PATH (probes/inject/inject.c; gcc and the CUDA headers
# build it, no GPU needed).  DT_RPATH (--disable-new-dtags), not RUNPATH: it
# lets libcupti dlopen libnvperf_host.so from the CUDA lib folder.
# build/tests/transpose is the sample the profile was checked with.
PROFILE_SAMPLE := build/tests/transpose

$(INJECT): probes/inject/inject.c probes/cupti_reason.c \
		probes/cupti_reason.h analyzer/bankscope.h
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(OPT) -g -fPIC -shared -fvisibility=hidden \
		-Iprobes/cinclude -Iprobes -Ianalyzer -I$(CUDA_HOME)/include \
		-o $@ probes/inject/inject.c probes/cupti_reason.c \
		-L$(CUDA_HOME)/lib64 \
		-Wl,--disable-new-dtags,-rpath,$(CUDA_HOME)/lib64 \
		-lcupti -ldl -lpthread

# ---- explain: the Sanitizer API library and its patch module ----------------
# build/libbankscope_explain.so (probes/explain/explain.c, linked to
# libsanitizer-public.so) and build/bankscope_explain_patch.fatbin
# (probes/explain/patch.cu, nvcc --fatbin --compile-as-tools-patch) are what
# `bankscope profile --explain` loads.  They need the CUDA Sanitizer API:
# compute-sanitizer's folder where CUDA is installed whole, else the PyPI
# package nvidia-cuda-sanitizer-api that scripts/sanitizer-deps.sh puts
# under build/sanitizer-api (make deps-sanitizer).  Without it `make`
# builds everything else and `make explain` says what is missing.

.PHONY: explain deps-sanitizer
ifneq ($(HAVE_SANITIZER),)
explain: $(EXPLAIN)
all: $(if $(wildcard $(CUDA_HOME)/include/cupti.h),$(EXPLAIN))
else
explain:
	@echo "explain: the CUDA Sanitizer API (sanitizer.h, libsanitizer-public.so) is missing: run make deps-sanitizer, or set SANITIZER_HOME to compute-sanitizer's folder" >&2; exit 1
endif

deps-sanitizer:
	@sh scripts/sanitizer-deps.sh

build/libbankscope_explain.so: probes/explain/explain.c probes/explain/explain.h \
		analyzer/bankscope.h
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(OPT) -g -fPIC -shared -fvisibility=hidden \
		-Iprobes/explain -Ianalyzer -I$(SANITIZER_DIR)/include \
		-I$(CUDA_HOME)/include -o $@ probes/explain/explain.c \
		-L$(SANITIZER_LIBDIR) -Wl,-rpath,$(abspath $(SANITIZER_LIBDIR)) \
		-lsanitizer-public -ldl -lpthread

build/bankscope_explain_patch.fatbin: probes/explain/patch.cu \
		probes/explain/explain.h
	@mkdir -p $(@D)
	$(NVCC) --fatbin --compile-as-tools-patch $(NVCC_GENCODE) \
		$(foreach a,$(NVCC_ARCH),-gencode=arch=compute_$(subst sm_,,$(a)),code=compute_$(subst sm_,,$(a))) \
		-I$(SANITIZER_DIR)/include -Iprobes/explain -o $@ -c $<

$(PROFILE_SAMPLE): tests/cuda/transpose.cu
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 -O3 -lineinfo $(NVCC_GENCODE) -o $@ $<

# ---- charts and report (gnuplot) ---------------------------------------------
# BEGIN report block
# Charts of a dataset (gnuplot, plots/*.gp) into build/plots/, and the report
# (bankscope report, HTML and Markdown) into build/report/.  DATA defaults to
# the newest committed H100 dataset with counters; scripts/report.sh has the
# choice, and make report measures first where a CUDA device is.
REPORT_SH := scripts/report.sh
DATA ?= $(shell $(REPORT_SH) newest)
PLOTS_DIR := build/plots
GNUPLOT ?= gnuplot
CHARTS := stride latency throughput padding wide
# $(call gnuplot,SCRIPT,INPUT,OUT): OUT.png and OUT.svg, or neither.
gnuplot = $(GNUPLOT) -e "data='$(2)'; out='$(3)'; gpu='$$gpu'" plots/$(1).gp \
	|| { rm -f $(3).png $(3).svg; exit 1; }
# $(call bankmap,NAME,PREDICT OPTIONS): the bank map of one access.
bankmap = $(CLI) predict --format map $(2) > $(PLOTS_DIR)/bankmap-$(1).csv \
	|| exit 1; $(call gnuplot,bankmap,$(PLOTS_DIR)/bankmap-$(1).csv,$(PLOTS_DIR)/bankmap-$(1))

.PHONY: plots report check-report deps-plots
deps-plots:
	@command -v $(GNUPLOT) >/dev/null 2>&1 || $(DEPS) gnuplot-nox

plots: $(CLI) deps-plots
	@CLI=$(CLI) WHO=plots $(REPORT_SH) validate '$(DATA)'
	@rm -rf $(PLOTS_DIR) && mkdir -p $(PLOTS_DIR)
	@gpu=$$($(REPORT_SH) gpu '$(DATA)') && \
	for c in $(CHARTS); do \
		$(call gnuplot,$$c,$(DATA),$(PLOTS_DIR)/$$c); \
	done && \
	$(call bankmap,lane2,--expr 'lane*2' --name f32_ld_s2) && \
	$(call bankmap,tile,--tile 32x32 --access col)
	@echo "plots: $(PLOTS_DIR)/ from $(DATA)"

report: $(CLI)
	@DATA='$(DATA)' DATA_ORIGIN='$(origin DATA)' CLI=$(CLI) \
		MAKE='$(MAKE)' GNUPLOT='$(GNUPLOT)' $(REPORT_SH) report

check-report: $(CLI)
	sh tests/report_test.sh
# END report block

deps:
	@$(DEPS) check pkg-config gnuplot-nox clang libclang-rt-14-dev

clean:
	rm -rf build

-include $(wildcard $(B)/obj/*/*.d $(B)/obj/*/*/*.d)
