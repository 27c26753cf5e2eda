# tessera — build, test, run and benchmark. `make help` lists the targets.
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes
CPPFLAGS_ALL := -std=c11 -D_DEFAULT_SOURCE -Iinclude -Ibuild/gen -I/usr/include/libxml2 $(WARN)
LDLIBS  := -lxml2 -lgif -lz -lm
BUILD   ?= build

LIB_SRC := $(wildcard src/core/*.c src/nodes/*.c src/engine/*.c src/io/*.c)
CLI_SRC := $(wildcard src/cli/*.c)
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
HEADERS := $(wildcard include/*.h src/*/*.h)

# Debian packages the build and tests need, with a file that shows each is there.
DEPS := libxml2-dev:/usr/include/libxml2/libxml/parser.h \
        libstb-dev:/usr/include/stb/stb_image.h \
        libcmocka-dev:/usr/include/cmocka.h \
        zlib1g-dev:/usr/include/zlib.h \
        libgif-dev:/usr/include/gif_lib.h
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps run test unit conformance badinput sanitize bench clean help
all: tessera $(BUILD)/libtessera.a $(BUILD)/libtessera.so

help:
	@echo "make          build ./tessera and build/libtessera.{a,so}"
	@echo "make run      render every bundled model in models/ to out/"
	@echo "make test     unit tests, bad-input tests, conformance, sanitizer build"
	@echo "make bench    speed and memory figures"

# Install what is missing, once; a marker file keeps later builds quiet (it is
# remade when the Makefile, and so perhaps DEPS, changes).
deps: $(BUILD)/.deps
$(BUILD)/.deps: Makefile
	@missing=""; for d in $(DEPS); do pkg=$${d%%:*}; file=$${d#*:}; \
	  [ -e "$$file" ] || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing || exit 1; \
	fi
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/gen/palette.inc: rules/palette.xml | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@

$(BUILD)/obj/%.o: src/%.c $(HEADERS) $(BUILD)/gen/palette.inc | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -fPIC -fno-semantic-interposition -c $< -o $@

$(BUILD)/libtessera.a: $(LIB_OBJ)
	ar rcs $@ $^

$(BUILD)/libtessera.so: $(LIB_OBJ)
	$(CC) -shared $(CFLAGS) -o $@ $^ $(LDLIBS)

tessera: $(CLI_OBJ) $(BUILD)/libtessera.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libtessera.a $(LDLIBS)

run: tessera
	@mkdir -p out
	./tessera batch models/models.xml --models models --resources rules -o out

include tests/tests.mk
include bench/bench.mk

clean:
	rm -rf build tessera out
