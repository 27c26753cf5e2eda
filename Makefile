# smalti — build, test, run and benchmark. `make help` lists the targets.
# One job per core unless the command line says otherwise (`make -j1` builds one file at a time). Set
# at the top level only: the recursive makes of `make test` (the sanitizer builds) share its jobs.
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
# WERROR=1 (as `make test` and `make check` build): a warning stops the build.
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes $(if $(WERROR),-Werror)
# -ffp-contract=off: no fused multiply-add, so floating point rounds the same on every
# machine (the generator nodes promise the same grid everywhere for a seed).
# libxml2's flags from pkg-config (else xml2-config), asked once and only when a recipe needs them,
# so that a fresh system's `make deps` can install libxml2 first.
XML2_FLAGS = $(shell pkg-config --$(1) libxml-2.0 2>/dev/null || xml2-config --$(1) 2>/dev/null)
XML2_CFLAGS = $(eval XML2_CFLAGS := $(call XML2_FLAGS,cflags))$(XML2_CFLAGS)
XML2_LIBS = $(eval XML2_LIBS := $(or $(call XML2_FLAGS,libs),-lxml2))$(XML2_LIBS)
CPPFLAGS_ALL = -std=c11 -D_DEFAULT_SOURCE -ffp-contract=off -Iinclude -Ibuild/gen $(XML2_CFLAGS) $(WARN)
# libzip and libcrypto (packs) and libmicrohttpd (`smalti studio`) are not linked: they are loaded
# when a command first needs them (src/pack/ziplib.c, src/cli/studio/httplib.c), so that starting any
# other command maps none of them. Their -dev packages give the headers; dlopen is in glibc's libc.
LDLIBS  = $(XML2_LIBS) -lgif -lz -lm
# The smalti command links libxml2, what it brings (ICU, which is C++ and so libstdc++, liblzma, zlib)
# and giflib from their static archives when every one is installed (Debian's -dev packages ship them):
# as shared libraries they took about 0.9 ms and 1.6 MiB of every run's start, most of it ICU and
# libstdc++ being loaded and relocated (docs/performance.md, "Start-up"). ICU's data then sits in the
# binary (about 30 MB of it), read only where a rare encoding is asked for. STATIC_LIBS=0, or a
# missing archive: the shared libraries, as libsmalti.so and the test programs always use.
STATIC_LIBS ?= 1
XML2_STATIC = $(filter-out -lm,$(shell pkg-config --static --libs libxml-2.0 2>/dev/null)) -lgif -lstdc++
STATIC_MISSING = $(strip $(foreach l,$(patsubst -l%,lib%.a,$(filter -l%,$(XML2_STATIC))),$(if $(filter /%,$(shell $(CC) -print-file-name=$(l))),,$(l))))
comma := ,
CLI_LDLIBS = $(eval CLI_LDLIBS := $(if $(and $(filter 1,$(STATIC_LIBS)),$(filter -lxml2,$(XML2_STATIC)),$(if $(STATIC_MISSING),,ok)),\
	-Wl$(comma)-Bstatic $(XML2_STATIC) -Wl$(comma)-Bdynamic -lm,$(LDLIBS)))$(CLI_LDLIBS)
BUILD   ?= build
CLI_LIBS = -lpthread

LIB_SRC := $(wildcard src/core/*.c src/wfc/*.c src/nodes/*.c src/engine/*.c src/io/*.c src/trace/*.c src/pack/*.c)
CLI_SRC := $(wildcard src/cli/*/*.c)
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
HEADERS := $(wildcard include/*.h src/*/*.h src/cli/*/*.h)

# Debian packages the build needs, with a file that shows each is there. libzip, libssl and
# libmicrohttpd give only headers to the build; their -dev packages depend on the libraries
# (libzip4, libssl3, libmicrohttpd12) that packs and studio load at run time.
DEPS := libxml2-dev:/usr/include/libxml2/libxml/parser.h \
        libstb-dev:/usr/include/stb/stb_image.h \
        zlib1g-dev:/usr/include/zlib.h \
        libgif-dev:/usr/include/gif_lib.h \
        libzip-dev:/usr/include/zip.h \
        libssl-dev:/usr/include/openssl/evp.h \
        libmicrohttpd-dev:/usr/include/microhttpd.h
# ... and those only `make test` needs (unit tests, the viewer's browser test, the man page check; Tiled, which reads our maps back;
# libpng, which a program links beside libsmalti.a to show that their symbols do not clash).
TEST_DEPS := libcmocka-dev:/usr/include/cmocka.h \
        man-db:/usr/bin/man \
        chromium:/usr/bin/chromium \
        nodejs:/usr/bin/node \
        npm:/usr/bin/npm \
        tiled:/usr/bin/tiled \
        python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py \
        libpng-dev:/usr/include/png.h
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps run test check unit conformance sanitize bench clean help screenshot
all: smalti $(BUILD)/libsmalti.a $(BUILD)/libsmalti.so

help:
	@echo "Build and run"
	@echo "  make               ./smalti and build/libsmalti.{a,so} (one job per core; make -j1: one at a time)"
	@echo "  make deps          install the Debian packages the build needs (every build does it once)"
	@echo "  make run           render every bundled model in models/ to out/"
	@echo "  make install       install the command, library, headers, man page, completion and Python module"
	@echo "                     (PREFIX=/usr/local, DESTDIR=); make uninstall removes them; make man: the man page"
	@echo "  make clean         remove build/, ./smalti and out/"
	@echo "Tests (docs/testing.md has what each runs and how long it takes)"
	@echo "  make test          everything the README promises, steps side by side; ends with a table of them"
	@echo "  make check         the quick loop while editing: unit, cli-test, docs-test, layers, conformance-core"
	@echo "  make unit          the cmocka unit tests (build/unit_tests GROUP... runs some groups)"
	@echo "  make cli-test      the CLI scripts, several at a time (tests/cli/run_all.sh)"
	@echo "  make docs-test     every model, program and link of README.md and docs/; tutorial-check first"
	@echo "  make tutorial-check  each model docs/tutorial.md shows is its docs/examples file"
	@echo "  make conformance   the corpus conformance runner, with per-step hashes; conformance-core: core tier"
	@echo "  make trace-roundtrip  corpus runs recorded as traces replay to the same grids"
	@echo "  make sanitize      the ASan + UBSan build: unit tests, CLI scripts, corpus rows up to 20000 cells"
	@echo "  make tsan          the threaded commands and unit groups under ThreadSanitizer"
	@echo "  make warnings      -Wall -Wextra clean under gcc (as the plain build compiles) and clang"
	@echo "  make layers        no file reaches up a layer;  make symbols: both libraries define only the API"
	@echo "  make browser-test  the viewer, gallery and studio pages in headless Chromium"
	@echo "  make python-test   the Python binding;  make install-test: install into a DESTDIR and back"
	@echo "  make tiled-roundtrip  Tiled opens our maps and exports the same ids"
	@echo "  make floor-check   the hand-written programs of bench/floor.c end on smalti's grids"
	@echo "  make fuzz-replay   every fuzz seed and regression, once, under ASan + UBSan"
	@echo "  make fuzz          each libFuzzer target for FUZZ_TIME seconds (default 60); make fuzz-ci: 30 s each"
	@echo "                     (fuzz-build, fuzz-corpus: their parts)"
	@echo "  make test-slurm    a real one-node Slurm cluster runs the example sbatch array"
	@echo "  make promises      the bundled models' requirements checked on 1000 seeds (make test: 60)"
	@echo "Figures and pictures"
	@echo "  make bench         speed and memory figures; BASELINE=OLD: the heavy rows side by side with OLD (INSTR=1: and their instructions)"
	@echo "  make bench-floor   Growth, MazeGrowth, MazeBacktracker beside a hand-written program of each"
	@echo "  make bench-many    throughput of many runs: -j 1, -j 2 and separate processes"
	@echo "  make bench-mjr     the rule-node rows beside MJr (set MJR_RUN and MJR_MODELS: docs/performance.md)"
	@echo "  make pictures      the docs' pictures and contact sheets; twisted-pictures, text-pictures: those alone"
	@echo "  make screenshot    docs/viewer.png and docs/studio.png: the trace viewer and studio on models/dungeon.xml"

# Install what is missing, once (again when the Makefile, and so perhaps DEPS, changes);
# a marker file keeps later builds quiet.
deps: $(BUILD)/.deps
$(BUILD)/.deps: PACKAGES = $(DEPS)
$(BUILD)/.test-deps: PACKAGES = $(TEST_DEPS)
# One install at a time (apt-get waits for another's lock, too): the test and fuzz packages after the build's.
$(BUILD)/.test-deps $(BUILD)/.fuzz-deps: | $(BUILD)/.deps
$(BUILD)/.deps $(BUILD)/.test-deps $(BUILD)/.fuzz-deps: Makefile
	@missing=""; for d in $(PACKAGES); do pkg=$${d%%:*}; file=$${d#*:}; \
	  [ -e "$$file" ] || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq $$missing || exit 1; \
	fi
	@mkdir -p $(BUILD) && touch $@

# The default palette, compiled in as a table ({'B', 0x000000}, ...) rather than as XML text that
# every start would parse (0.45 M instructions, an eighth of a small run). A <color> line of any
# other form stops the build; a unit test checks the table against the file read as a palette.
$(BUILD)/gen/palette_table.inc: rules/palette.xml | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	@if grep '<color ' $< | grep -qv '^ *<color symbol="[A-Za-z0-9]" value="[0-9A-Fa-f]\{6\}"/>$$'; then \
	  echo "$<: every <color> must be one line <color symbol=\"X\" value=\"RRGGBB\"/> (X a letter or digit)"; exit 1; fi
	sed -n "s|^ *<color symbol=\"\([A-Za-z0-9]\)\" value=\"\([0-9A-Fa-f]\{6\}\)\"/>$$|{'\1', 0x\2},|p" $< > $@

# The trace viewer's page, styles and scripts, compiled into `smalti view` as C strings
# (? is escaped so that no trigraph can form).
VIEW_SRC := $(wildcard src/view/*.html src/view/*.css src/view/*.js)
VIEW_INC := $(VIEW_SRC:src/view/%=$(BUILD)/gen/view/%.inc)
$(BUILD)/gen/view/%.inc: src/view/% | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/obj/cli/common/viewer_assets.o $(BUILD)/obj/cli/studio/studio_http.o: $(VIEW_INC)

# The library is built with hidden visibility: only what smalti.h marks SMALTI_API is exported.
# Each object depends on the headers it includes (-MMD writes them to its .d file; -MP adds a rule for
# each, so a deleted header is no error), so touching one header rebuilds only the files that use it.
# An object whose .d is missing (built before, or by hand) is rebuilt, and so gets one.
$(BUILD)/obj/%.o: src/%.c $(BUILD)/obj/%.d | $(BUILD)/gen/palette_table.inc $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -DSMALTI_BUILD -fvisibility=hidden -fPIC -fno-semantic-interposition -MMD -MP -c $< -o $@
$(BUILD)/obj/%.d: ;
.PRECIOUS: $(BUILD)/obj/%.d
-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# Two static archives, each made afresh so that no object of a moved or deleted source lingers in it.
# libsmalti.a, the one installed, defines only the API's smalti_* symbols: its objects are linked into
# one (ld -r, which binds their calls to each other), whose hidden symbols (all but SMALTI_API) are then
# made local. Archived as they are, the ~350 internal functions were global, and a program's own or
# another library's function of the same name (libpng's png_write_rows) was bound to smalti's.
OBJCOPY ?= objcopy
$(BUILD)/libsmalti.a: $(LIB_OBJ)
	rm -f $@ $(BUILD)/libsmalti.o
	$(CC) -r -nostdlib -o $(BUILD)/libsmalti.o $^
	$(OBJCOPY) --localize-hidden $(BUILD)/libsmalti.o
	ar rcs $@ $(BUILD)/libsmalti.o
	rm -f $(BUILD)/libsmalti.o
# The same objects with their internal functions global, for what calls them: the smalti command,
# the unit tests, conformance and trace runners, fuzz targets and benchmarks. Never installed.
LIB_INTERNAL := $(BUILD)/libsmalti_internal.a
$(LIB_INTERNAL): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# The shared library: the real file libsmalti.so.MAJOR.MINOR.PATCH with SONAME libsmalti.so.MAJOR,
# and the two symlinks a loader and a linker look for.
VERSION_OF = $(shell sed -n 's/^\#define SMALTI_VERSION_$(1) \([0-9]*\)$$/\1/p' include/smalti.h)
SO_MAJOR := $(call VERSION_OF,MAJOR)
SO_VERSION := $(SO_MAJOR).$(call VERSION_OF,MINOR).$(call VERSION_OF,PATCH)
$(BUILD)/libsmalti.so.$(SO_VERSION): $(LIB_OBJ)
	$(CC) -shared $(CFLAGS) -Wl,-soname,libsmalti.so.$(SO_MAJOR) -o $@ $^ $(LDLIBS)
$(BUILD)/libsmalti.so: $(BUILD)/libsmalti.so.$(SO_VERSION)
	ln -sf libsmalti.so.$(SO_VERSION) $(BUILD)/libsmalti.so.$(SO_MAJOR)
	ln -sf libsmalti.so.$(SO_MAJOR) $@

# The objects that `smalti run` of a plain MarkovJunior model executes are linked first, so that
# their code and constants sit together at the start of the binary. The kernel maps a file's pages
# 64 KB around each one touched: run-path code scattered among the wfc, pack, studio and view code
# kept ~0.4 MiB more of the binary resident than it runs (issue 16: peak memory). Only the order
# changes; the rest of the CLI follows, then whatever else the archive supplies.
RUN_PATH_OBJ := $(patsubst %,$(BUILD)/obj/%.o,cli/commands/main cli/common/common cli/common/tempfiles cli/job/job cli/job/job_run cli/job/outputs cli/common/output_kinds cli/job/progress \
	cli/job/fanout cli/job/lint_report cli/common/datadir cli/many/options cli/common/usage cli/commands/run engine/run engine/planes core/mem core/xmlutil \
	core/diag core/rule core/grid core/rng core/sort core/symmetry core/geometry core/resource nodes/model nodes/registry \
	nodes/settings nodes/lint nodes/branch nodes/rulenode nodes/rulenode_anchor nodes/rulenode_probe nodes/rulenode_infer nodes/one nodes/one_plain nodes/all \
	nodes/prl nodes/observe nodes/search nodes/field nodes/path nodes/map io/atomic io/palette io/text io/tiles \
	trace/writer pack/pack)
smalti: $(CLI_OBJ) $(LIB_INTERNAL)
	$(CC) $(CFLAGS) -o $@ $(RUN_PATH_OBJ) $(filter-out $(RUN_PATH_OBJ),$(CLI_OBJ)) $(LIB_INTERNAL) $(CLI_LDLIBS) $(CLI_LIBS)

# docs/viewer.png, the picture of the trace viewer in the README and docs/viewer.md: models/dungeon.xml, 63², seed 1,
# at 60 % of its steps, in headless Chromium.
screenshot: smalti $(BROWSER_MODULES)
	./smalti run models/dungeon.xml --size 63 --seed 1 -q --trace $(BUILD)/dungeon.trace -o $(BUILD)/dungeon.png
	./smalti view $(BUILD)/dungeon.trace -o $(BUILD)/dungeon.html
	node tests/browser/screenshot.js $(BUILD)/dungeon.html docs/viewer.png 0.6 1600x1000
	node tests/browser/studio_screenshot.js ./smalti docs/studio.png

run: smalti
	@mkdir -p out
	./smalti batch models/ -o out

include tests/tests.mk
include tests/fuzz/fuzz.mk
include bench/bench.mk
include docs/pictures.mk
include install.mk

clean:
	rm -rf build smalti out
