# OpenQuasar. `make` builds build/oq; `make test` runs every test; `make demo` runs the
# histogram tutorial. Plain C11; the only build dependencies are a C compiler and make
# (tools/deps.sh checks, and installs what is missing when run as root).
CC      ?= cc
CFLAGS  ?= -O2 -g
# -fno-tree-slp-vectorize: GCC 12 -O2 drops the (double)(float)x rounding of rt_round when
# it vectorizes straight-line code (complex results came out unrounded).
CFLAGS  += -std=c11 -Wall -Wextra -D_GNU_SOURCE -MMD -MP -DOQ_LIBDIR=\"$(CURDIR)/lib\" -fno-tree-slp-vectorize
LDLIBS  += -lm -ldl -lpthread -lpng -ljpeg -ltiff

SRC := $(wildcard src/*.c)
OBJ := $(SRC:src/%.c=build/obj/%.o)

all: build/oq

build/oq: $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

build/obj/%.o: src/%.c | build/obj
	$(CC) $(CFLAGS) -c -o $@ $<

build/obj:
	mkdir -p build/obj

deps:
	@sh tools/deps.sh

test: deps build/oq
	@bash tests/run.sh

demo: deps build/oq
	@bash examples/demo.sh

bench: build/oq
	@bash bench/run.sh

clean:
	rm -rf build

.PHONY: all deps test demo bench clean
-include $(OBJ:.o=.d)
