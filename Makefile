# OpenQuasar. `make` builds build/oq; `make install PREFIX=...` installs it; `make test` runs
# every test; `make demo` runs the histogram tutorial; `make examples` runs the gallery
# (examples/README.md) into build/examples. Plain C11; the only build dependencies are a C
# compiler and make (tools/deps.sh checks, and installs what is missing when run as root).
# `make NO_IMAGES=1` builds without libpng/libjpeg/libtiff: imread and imwrite report an
# error (src/runtime/noimage/rt_image.c). CUDA is loaded at run time (dlopen): no build dependency.
CC      ?= cc
CFLAGS  ?= -O2 -g
# -fno-tree-slp-vectorize: GCC 12 -O2 drops the (double)(float)x rounding of rt_round when
# it vectorizes straight-line code (complex results came out unrounded).
CFLAGS  += -std=c11 -Wall -Wextra -D_GNU_SOURCE -MMD -MP -Isrc -fno-tree-slp-vectorize
LDLIBS  += -lm -ldl -lpthread

# The source tree is in layers (src/LAYERS, docs/design.md); includes are written from src/.
SRC := $(sort $(filter-out src/runtime/noimage/%,$(shell find src -name '*.c')))
ifeq ($(NO_IMAGES),1)
SRC := $(filter-out src/runtime/rt_image.c,$(SRC)) src/runtime/noimage/rt_image.c
export OQ_NO_IMAGES := 1
else
LDLIBS += -lpng -ljpeg -ltiff
endif
OBJ := $(SRC:src/%.c=build/obj/%.o)
# A stamp per image setting, so that switching it relinks build/oq.
IMAGES := build/obj/images-$(if $(filter 1,$(NO_IMAGES)),off,on)
# TinyCC builds CPU kernels in milliseconds at their first launch (src/backend/cpu/cpu_tcc.c)
# where libtcc-dev is installed; without it, kernels wait for the C compiler. NO_TCC=1: never.
HAVE_TCC := $(if $(filter 1,$(NO_TCC)),,$(wildcard /usr/include/libtcc.h))
TCC := build/obj/tcc-$(if $(HAVE_TCC),on,off)
ifneq ($(HAVE_TCC),)
build/obj/backend/cpu/cpu_tcc.o: CFLAGS += -DOQ_HAVE_LIBTCC -ffp-contract=off
LDLIBS := -ltcc $(LDLIBS)
endif
build/obj/backend/cpu/cpu_tcc.o: $(TCC)

# (the rule above would otherwise be make's default goal)
.DEFAULT_GOAL := all
all: build/oq

build/oq: $(OBJ) $(IMAGES) $(TCC)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

$(IMAGES): | build/obj
	rm -f build/obj/images-*
	touch $@

$(TCC): | build/obj
	rm -f build/obj/tcc-*
	touch $@

build/obj/%.o: src/%.c Makefile | build/obj
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

build/obj:
	mkdir -p build/obj

deps:
	@sh tools/deps.sh

# bench_oqrun.o: the GPU benchmark's C half uses the interpreter's API; compiling it here
# (no nvcc needed) catches an API change on machines without a GPU.
test: deps build/oq build/obj/bench_oqrun.o
	@bash tools/check_layers.sh
	@bash tools/check_commits.sh
	@bash tests/run.sh

# test-full: make test with the heavy comparisons over every program (OQ_TEST_FULL=1)
test-full:
	@$(MAKE) --no-print-directory test OQ_TEST_FULL=1

# What CI runs (.ci/run): the full suite, the sanitized suite (interp and cpu), each fuzzer
# for CI_FUZZ_SECONDS (docs/reliability.md).
CI_FUZZ_SECONDS ?= 60
test-ci: test-full asan fuzz-deps fuzz-build
	@bash tools/fuzz/run.sh $(CI_FUZZ_SECONDS)

demo: deps build/oq
	@bash examples/demo.sh

examples: deps build/oq
	@bash examples/run_all.sh

bench: build/oq
	@bash bench/run.sh

# cold and warm start of every example (empty / warm kernel cache); OLD=path/to/oq compares
bench-cold: build/oq
	@bash bench/coldstart.sh $(OLD)

# The run-time as a library (everything but the command line, src/cli), for programs that embed oq: the GPU
# benchmarks link it with nvcc (bench/gpu: `make bench-gpu` builds and runs them).
build/liboq.a: $(filter-out build/obj/cli/%,$(OBJ))
	rm -f $@
	ar rcs $@ $^

NVCC ?= nvcc
NVCC_ARCH ?= native
build/obj/bench_oqrun.o: bench/gpu/oqrun.c build/liboq.a
	$(CC) $(CFLAGS) -c -o $@ $<

build/bench-gpu: bench/gpu/bench.cu build/obj/bench_oqrun.o build/liboq.a
	$(NVCC) -O3 -std=c++17 -arch=$(NVCC_ARCH) -o $@ $< build/obj/bench_oqrun.o build/liboq.a $(LDLIBS)

bench-gpu: build/bench-gpu
	build/bench-gpu bench/gpu/cases.q

# `make install PREFIX=P` (default /usr/local; DESTDIR for staging): P/bin/oq finds its
# library in P/share/openquasar/lib by its own location (src/front/libpath.h), so the
# installed tree can be moved; the man page is docs/oq.1.
PREFIX ?= /usr/local
BINDIR := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share/openquasar
DOCDIR := $(DESTDIR)$(PREFIX)/share/doc/openquasar
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1

install: build/oq
	install -d $(BINDIR) $(DATADIR)/lib $(DOCDIR) $(MANDIR)
	install -m 755 build/oq $(BINDIR)/oq
	install -m 644 lib/*.q $(DATADIR)/lib
	install -m 644 README.md docs/*.md $(DOCDIR)
	install -m 644 docs/oq.1 $(MANDIR)/oq.1

uninstall:
	rm -f $(BINDIR)/oq $(MANDIR)/oq.1
	rm -rf $(DATADIR) $(DOCDIR)

# `make asan`: build/oq-asan with AddressSanitizer and UBSan, and the suite (interp and cpu)
# run with it; the kernels it compiles get the same sanitizers (OQ_KERNEL_CFLAGS). Any report
# fails it; tools/lsan.supp lists the one-time allocations whose leaks are suppressed.
# docs/reliability.md. `make fuzz`: the libFuzzer harnesses (tools/fuzz/, clang) for
# FUZZ_SECONDS each; `make fuzz-build` only builds them.
# The sanitized build is compiled at -O1 (ASAN_OPT, after CFLAGS): it checks the same and
# builds about twice as fast as -O2 on a 2-core machine. It has no TinyCC tier (cpu_tcc.o
# without OQ_HAVE_LIBTCC): TinyCC's code cannot be instrumented, so every kernel is built by
# the C compiler with the sanitizers (tools/asan_suite.sh).
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_OPT ?= -O1
ASAN_OBJ := $(SRC:src/%.c=build/asan/obj/%.o)

# (in build/, beside build/oq: it finds the library modules in ../lib as build/oq does)
build/oq-asan: $(ASAN_OBJ) $(IMAGES)
	$(CC) $(CFLAGS) $(ASAN_OPT) $(SAN_FLAGS) -o $@ $(ASAN_OBJ) $(filter-out -ltcc,$(LDLIBS))

build/asan/obj/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN_OPT) $(SAN_FLAGS) -c -o $@ $<

asan-deps:
	@sh tools/deps.sh asan

asan: deps asan-deps build/oq-asan
	@bash tools/asan_suite.sh build/oq-asan

FUZZ_SECONDS ?= 600
FUZZ_CC ?= clang
# oq's sources are compiled one object each (make -j builds them in parallel, a change
# rebuilds one), instrumented for the fuzzer without its main (fuzzer-no-link)
FUZZ_SAN := address,undefined -fno-sanitize-recover=undefined
FUZZ_FLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -Isrc -fsanitize=fuzzer-no-link,$(FUZZ_SAN)
FUZZ_OBJ := $(patsubst src/%.c,build/fuzz/obj/%.o,$(filter-out src/cli/%,$(SRC)))
FUZZERS := build/fuzz/fuzz_front build/fuzz/fuzz_imread

build/fuzz/obj/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -MMD -MP -c -o $@ $<

build/fuzz/fuzz_front: tools/fuzz/fuzz_front.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

# imread needs only the image readers and what they stand on
FUZZ_IMG_OBJ := $(patsubst %,build/fuzz/obj/%.o,runtime/rt_image runtime/rt_pnm runtime/rt_value runtime/rt_object runtime/rt_print front/types front/ast base/diag base/arena base/config)
build/fuzz/fuzz_imread: tools/fuzz/fuzz_imread.c $(FUZZ_IMG_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_IMG_OBJ) $(LDLIBS)

fuzz-build: $(FUZZERS)

fuzz-deps:
	@sh tools/deps.sh fuzz

fuzz: fuzz-deps fuzz-build
	@bash tools/fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf build

.PHONY: all deps test demo examples bench bench-gpu install uninstall clean asan asan-deps fuzz fuzz-build fuzz-deps test-ci
-include $(OBJ:.o=.d) $(ASAN_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d)
