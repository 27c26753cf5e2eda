# tests.mk — `make test`: unit tests (cmocka), CLI checks, corpus conformance, sanitizer build.
UNIT_SRC := $(wildcard tests/unit/*.c)
TEST_LIBS = $(LDLIBS) -lcmocka -lpthread
# cmocka is a test-only package: `make test` installs it (TEST_DEPS), plain `make` does not need it.
$(BUILD)/unit_tests $(BUILD)/conformance $(BUILD)/trace_roundtrip: | $(BUILD)/.test-deps
SMALTI_MJ_CORPUS ?= ../shared/mj
export SMALTI_MJ_CORPUS
# The suite's builds stop at a warning: `make test` and `make check` build with WERROR=1 (-Werror), and
# hand it to every make they start (the plain, ASan, TSan and fuzz-replay builds).
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
test check: WERROR = 1

# The pure parts of the CLI that unit tests reach (seed lists, shards, templates of many runs).
UNIT_CLI_SRC := src/cli/many/seeds.c src/cli/many/template.c
# One object per test file, compiled in parallel, each rebuilt only when a header it includes changes.
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o) $(UNIT_CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
$(BUILD)/tests/unit/%.o: tests/unit/%.c $(BUILD)/tests/unit/%.d | $(BUILD)/gen/palette_table.inc $(BUILD)/.test-deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/tests/unit/%.d: ;
.PRECIOUS: $(BUILD)/tests/unit/%.d
-include $(UNIT_SRC:%.c=$(BUILD)/%.d)
$(BUILD)/unit_tests: $(UNIT_OBJ) $(LIB_INTERNAL)
	$(CC) $(CFLAGS) -o $@ $(UNIT_OBJ) $(LIB_INTERNAL) $(TEST_LIBS)

$(BUILD)/conformance: tests/conformance.c $(LIB_INTERNAL)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(LIB_INTERNAL) $(TEST_LIBS)

$(BUILD)/trace_roundtrip: tests/trace_roundtrip.c $(LIB_INTERNAL) $(HEADERS)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(LIB_INTERNAL) $(TEST_LIBS)

# Traces of corpus runs replay to the runs' grids and acting nodes: every core
# row, and the adv and wfc rows (maps, wfc grids) up to a size that keeps it quick.
trace-roundtrip: $(BUILD)/trace_roundtrip
	$(BUILD)/trace_roundtrip --jobs 2 --tier core
	$(BUILD)/trace_roundtrip --jobs 2 --tier adv --tier wfc --max-cells 40000

$(BUILD)/trace_expect: tests/trace_expect.c $(LIB_INTERNAL) $(HEADERS)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(LIB_INTERNAL) $(LDLIBS)

# playwright-core from the npm registry, installed as the lock file says (once per lock file).
BROWSER_MODULES := tests/browser/node_modules/.installed
$(BROWSER_MODULES): tests/browser/package.json tests/browser/package-lock.json | $(BUILD)/.test-deps
	cd tests/browser && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The viewer page and the pack gallery page in headless Chromium (Debian's, from make deps).
browser-test: smalti $(BUILD)/trace_expect $(BROWSER_MODULES)
	node tests/browser/viewer_test.js ./smalti $(BUILD)/trace_expect
	node tests/browser/gallery_test.js ./smalti
	node tests/browser/twisted_svg_test.js ./smalti
	node tests/browser/studio_test.js ./smalti

unit: $(BUILD)/unit_tests
	$(BUILD)/unit_tests

# Both libraries define only the API (and that is enough for a program that sees only smalti.h). The
# check must fail on the internal archive, whose helpers are global: it can see a stray symbol.
$(BUILD)/api_shared: tests/api_shared.c include/smalti.h $(BUILD)/libsmalti.so
	$(CC) -std=c11 -Iinclude $(WARN) $(CFLAGS) -o $@ $< -L$(BUILD) -lsmalti -Wl,-rpath,'$$ORIGIN'
# A program linked with libsmalti.a and libpng calls both (tests/static_embed.c): once with libpng's
# shared library, where a png_write_rows of smalti's was silently bound in libpng's place (a crash),
# once with its static archive (libpng16.a), where it was a duplicate definition. The internal archive,
# whose helpers are global, must still fail to link beside libpng16.a: the program can see the clash.
PNG_STATIC = -Wl,-Bstatic -lpng16 -Wl,-Bdynamic
$(BUILD)/static_embed: PNG_LINK = -lpng
$(BUILD)/static_embed_png16: PNG_LINK = $(PNG_STATIC)
$(BUILD)/static_embed $(BUILD)/static_embed_png16: tests/static_embed.c include/smalti.h $(BUILD)/libsmalti.a | $(BUILD)/.test-deps
	$(CC) -std=c11 -Iinclude $(WARN) $(CFLAGS) -o $@ $< $(BUILD)/libsmalti.a $(PNG_LINK) $(LDLIBS)
symbols: $(BUILD)/libsmalti.so $(BUILD)/libsmalti.a $(LIB_INTERNAL) $(BUILD)/api_shared $(BUILD)/static_embed $(BUILD)/static_embed_png16
	sh tests/symbols.sh $(BUILD)/libsmalti.so include/smalti.h $(BUILD)/libsmalti.a
	$(BUILD)/static_embed
	$(BUILD)/static_embed_png16
	@out=$$($(CC) -std=c11 -Iinclude $(CFLAGS) -o $(BUILD)/static_embed_internal tests/static_embed.c $(LIB_INTERNAL) \
	    $(PNG_STATIC) $(LDLIBS) 2>&1); rc=$$?; rm -f $(BUILD)/static_embed_internal; \
	  if [ $$rc = 0 ]; then echo "static_embed linked $(LIB_INTERNAL) beside libpng16.a: no clash seen"; exit 1; fi; \
	  printf '%s\n' "$$out" | grep -q "multiple definition of .png_write_rows" \
	  && echo "static_embed: $(LIB_INTERNAL), whose helpers are global, clashes with libpng16.a (png_write_rows)" \
	  || { echo "static_embed on $(LIB_INTERNAL) failed otherwise: $$out"; exit 1; }
	@out=$$(sh tests/symbols.sh $(BUILD)/libsmalti.so include/smalti.h $(LIB_INTERNAL) 2>&1) \
	  && { echo "symbols passed $(LIB_INTERNAL), whose internal functions are global: $$out"; exit 1; } \
	  || printf '%s\n' "$$out" | grep -q "$(LIB_INTERNAL) defines [0-9]* global symbols outside the API" \
	  && echo "symbols: the check finds $(LIB_INTERNAL)'s internal globals" \
	  || { echo "symbols on $(LIB_INTERNAL): no stray symbol reported: $$out"; exit 1; }
	@out=$$($(BUILD)/api_shared models/maze.xml 21) && echo "$$out" | grep -q 'finished=1 ' \
	  && ldd $(BUILD)/api_shared | grep -q 'libsmalti.so.0 => .*$(BUILD)/libsmalti.so.0' \
	  && echo "api_shared: $$out (through libsmalti.so.0)" || { echo "api_shared failed: $$out"; exit 1; }

# No file includes a header, and no object calls a function, of a layer above its own.
layers: all
	sh tests/layers.sh $(BUILD)/obj

cli-test: smalti
	STATIC_CLI=$(if $(findstring Bstatic,$(CLI_LDLIBS)),1,0) sh tests/cli/run_all.sh ./smalti

# Docs that cannot rot: the models, the api.md program and the links of README.md and docs/
# (tests/docs_test.sh); then the script must fail on a rotted page, naming each fault's line.
# tutorial-check (docs/pictures.mk) first: each model docs/tutorial.md shows is its docs/examples file.
DOCS_BROKEN := tests/docs/broken
docs-test: smalti $(BUILD)/libsmalti.a tutorial-check
	sh tests/docs_test.sh ./smalti $(BUILD)/libsmalti.a
	@out=$$(sh tests/docs_test.sh ./smalti $(BUILD)/libsmalti.a $(DOCS_BROKEN) 2>&1) && { echo "docs-test passed a rotted page: $$out"; exit 1; }; \
	for want in '$(DOCS_BROKEN)/README.md:12: the model no longer loads' '$(DOCS_BROKEN)/README.md:14: error: output symbol '\''R'\'' is not in values' \
	    '$(DOCS_BROKEN)/README.md:18: the link docs/moved.md points to no file' '$(DOCS_BROKEN)/docs/page.md:4: an empty fragment' \
	    '$(DOCS_BROKEN)/docs/page.md:7: the link gone.png points to no file' \
	    '$(DOCS_BROKEN)/docs/page.md:8: the link ../README.md#the-old-section names no heading' \
	    '$(DOCS_BROKEN)/docs/images/texts/stale.png: not what $(DOCS_BROKEN)/models/stale.xml draws now' \
	    '1 models ran, 0 fragments, 0 api.md programs ok, 2 links ok; 6 FAILED'; do \
	  printf '%s\n' "$$out" | grep -qF "$$want" || { echo "docs-test on a rotted page: no '$$want' in: $$out"; exit 1; }; done; \
	echo "docs-test: a rotted page fails with its 6 faults"

conformance: $(BUILD)/conformance
	$(BUILD)/conformance --jobs 2 --step-hashes
# The core tier only (65 models x 2 seeds, grids and step counts): `make check`'s share.
conformance-core: $(BUILD)/conformance
	$(BUILD)/conformance --jobs 2 --tier core
.PHONY: conformance-core

# The same sources built with AddressSanitizer and UBSan in their own folder.
# (asan-build makes its programs, fuzz-replay's too; asan-unit, asan-cli and asan-conformance run them,
# and `make test` runs those three side by side once the build is made.)
sanitize: asan-unit asan-cli asan-conformance
# A leak of libxml2's own, on an allocation refused by a memory budget (tests/lsan.supp says which).
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp
asan-build:
	@$(MAKE) --no-print-directory BUILD=build/asan CFLAGS="$(ASAN_FLAGS)" build/asan/unit_tests build/asan/conformance \
	  build/asan/smalti-asan $(FUZZ_TARGETS:%=build/asan/replay_%)
asan-unit: asan-build
	ASAN_OPTIONS=detect_leaks=1 build/asan/unit_tests
asan-cli: asan-build
	SMALTI=build/asan/smalti-asan sh tests/cli/run_all.sh build/asan/smalti-asan
asan-conformance: asan-build
	build/asan/conformance --jobs 2 --tier core --max-cells 20000
	build/asan/conformance --jobs 2 --tier adv --max-cells 20000
	build/asan/conformance --jobs 2 --tier wfc --max-cells 20000
.PHONY: asan-build asan-unit asan-cli asan-conformance

# The command built with a sanitizer's CFLAGS (ASan above, TSan below), in that build's folder.
$(BUILD)/smalti-asan $(BUILD)/smalti-tsan: $(CLI_OBJ) $(LIB_INTERNAL)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIB_INTERNAL) $(LDLIBS) $(CLI_LIBS)

# What runs on threads, built with ThreadSanitizer in their own folder: the unit groups that start
# threads (runs of one model at once, a cancel from another thread), then the commands, which must
# also make the files of the plain build's -j 1 (tests/tsan_test.sh). A race exits 66.
TSAN_FLAGS := -O1 -g -fsanitize=thread
tsan: smalti
	$(MAKE) --no-print-directory BUILD=build/tsan CFLAGS="$(TSAN_FLAGS)" build/tsan/smalti-tsan build/tsan/unit_tests
	sh tests/tsan_test.sh build/tsan/smalti-tsan ./smalti build/tsan/unit_tests

# `make test`: every step below, two at a time (one per core), the longest first. A step's output is
# printed whole when it ends (-Otarget), and every step runs even when one fails (-k); a table of the
# steps, each ok or FAILED with its wall time, ends the run (the times are for reading: no verdict
# depends on them). The sanitizer build's steps share its objects, so they wait for asan-build.
TEST_STEPS := asan-build asan-cli tsan asan-conformance asan-unit conformance cli-test browser-test warnings unit \
	docs-test trace-roundtrip python-test install-test tiled-roundtrip fuzz-replay floor-check symbols layers promises-short
# `make check`: the quick loop while editing.
CHECK_STEPS := unit cli-test docs-test layers conformance-core
STEP_DIR = $(BUILD)/steps
test check: all | $(BUILD)/.test-deps
	@rm -rf $(STEP_DIR) && mkdir -p $(STEP_DIR)
	@steps="$(if $(filter test,$@),$(TEST_STEPS),$(CHECK_STEPS))"; start=$$(date +%s); \
	$(MAKE) --no-print-directory -k -Otarget WERROR=1 $$(for t in $$steps; do printf 'step-%s ' $$t; done); rc=$$?; \
	echo "== make $@: $$(( $$(date +%s) - start )) s, steps side by side (one per core)"; \
	for t in $$steps; do cat $(STEP_DIR)/$$t.txt 2>/dev/null || printf '%-8s %s\n' "not run" $$t; done; \
	if [ $$rc != 0 ]; then echo "== make $@: FAILED (the failed steps' output is above)"; exit 1; fi; echo "== make $@: all passed"
step-%:
	@start=$$(date +%s); if $(MAKE) --no-print-directory $*; then r=ok; else r=FAILED; fi; mkdir -p $(STEP_DIR); \
	printf '%-8s %-16s %4d s\n' "$$r" "$*" $$(( $$(date +%s) - start )) > $(STEP_DIR)/$*.txt; [ $$r = ok ]
step-asan-unit step-asan-cli step-asan-conformance step-fuzz-replay: step-asan-build
.PHONY: test check

# What the bundled models' requirements promise (roads joining every village), checked from their
# outputs: 60 seeds in `make test`, 1000 in `make promises` (about a minute on 2 cores).
promises-short: smalti
	sh tests/promises.sh ./smalti 1..60
promises: smalti
	sh tests/promises.sh ./smalti 1..1000
.PHONY: promises promises-short

# Tiled (the map editor) opens our .tmx and .tmj maps and exports them; the ids it read must be ours.
tiled-roundtrip: smalti | $(BUILD)/.test-deps
	sh tests/tiled_roundtrip.sh ./smalti

.PHONY: symbols layers unit cli-test docs-test conformance sanitize tsan trace-roundtrip browser-test tiled-roundtrip

# -Wall -Wextra must stay clean under both gcc and clang. gcc compiles each file of the library and the
# command as the plain build does (some warnings, such as -Wformat-truncation, need the optimizer); clang
# checks the syntax of those and of the tests', fuzz targets' and benchmarks' files. Every build of the
# suite (plain, ASan, TSan, fuzz replay) stops at a warning itself (WERROR=1), and so do the fuzz targets.
warnings: $(BUILD)/gen/palette_table.inc $(VIEW_INC)
	@printf '%s\n' $(LIB_SRC) $(CLI_SRC) | xargs -P $$(nproc) -I{} gcc $(CPPFLAGS_ALL) $(OPT) -Werror -c {} -o /dev/null \
	  && echo "gcc $(OPT): no warnings"
	@if command -v clang >/dev/null; then printf '%s\n' $(LIB_SRC) $(CLI_SRC) $(wildcard tests/*.c tests/unit/*.c tests/fuzz/*.c bench/*.c) | \
	  xargs -P $$(nproc) -I{} clang $(CPPFLAGS_ALL) -Werror -fsyntax-only {} && echo "clang: no warnings"; fi
.PHONY: warnings

# A real single-node Slurm cluster (slurm-wlm and munge from apt-get, daemons on localhost, all
# in a temporary folder): a 4-task array of examples/slurm/smalti-array.sbatch over 400 runs.
test-slurm: smalti
	sh tests/slurm_test.sh ./smalti
.PHONY: test-slurm
