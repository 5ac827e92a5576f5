# bankscope - shared-memory bank-conflict microbenchmarks and analyzer.
#
# One non-recursive Makefile; everything it builds goes under build/.
#
#   make              build/bankscope (the CLI) and build/libbankscope.a
#   make check        build and run the Check test suite (exits non-zero on
#                     any failure); SANITIZE=1 builds it with ASan + UBSan
#                     under build/san/
#   make bench        prediction speed: 10 million random accesses per width
#   make fuzz         libFuzzer on the pattern reader and the expression
#                     parser, FUZZ_SECONDS (60) each
#   make probes       build/bankscope-probe, the GPU probe runner (nvcc)
#   make probe-stride probe-broadcast probe-padding probe-wide probe-random
#   make probe-all    measure on the GPU into data/<gpu>/, then check
#   make sass         the probes' SASS into build/sass/
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
NVCC ?= nvcc
CUDA_HOME ?= /usr/local/cuda
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
TEST_SRC := $(wildcard tests/check_*.c) tests/runner.c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/obj/%.o)
LIB := $(B)/libbankscope.a
CLI := $(B)/bankscope

# Check is found through pkg-config, after the deps step has run.
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS = $(shell pkg-config --libs check)

.PHONY: all check bench fuzz deps deps-check clean
all: $(CLI) $(LIB)

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

check: $(B)/check_bankscope $(CLI)
	BANKSCOPE=$(CLI) CK_FORK=yes $(B)/check_bankscope

# ---- benchmark -------------------------------------------------------------
$(B)/bench_predict: $(B)/obj/tests/bench_predict.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

bench: $(B)/bench_predict $(CLI)
	$(B)/bench_predict
	sh tests/bench_stream.sh $(CLI)

# ---- fuzzing (clang's libFuzzer) --------------------------------------------
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Ianalyzer -O1 -g \
	      -fsanitize=fuzzer,address,undefined
build/fuzz/%: fuzz/%.c $(LIB_SRC) analyzer/bankscope.h | deps-fuzz
	@mkdir -p $(@D) build/fuzz/corpus-$*
	$(CLANG) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) -lm

.PHONY: deps-fuzz
deps-fuzz:
	@$(DEPS) clang libclang-rt-14-dev

fuzz: build/fuzz/fuzz_pattern build/fuzz/fuzz_expr
	build/fuzz/fuzz_pattern -max_total_time=$(FUZZ_SECONDS) \
		build/fuzz/corpus-fuzz_pattern fuzz/seeds/pattern
	build/fuzz/fuzz_expr -max_total_time=$(FUZZ_SECONDS) \
		build/fuzz/corpus-fuzz_expr fuzz/seeds/expr

deps:
	@$(DEPS) check pkg-config gnuplot-nox clang libclang-rt-14-dev

clean:
	rm -rf build

-include $(wildcard $(B)/obj/*/*.d $(B)/obj/*/*/*.d)
