# fuzz.mk — libFuzzer targets (tests/fuzz/README.md): `make fuzz` (FUZZ_TIME seconds each), `make fuzz-ci`
# (FUZZ_CI_TIME each), and `make fuzz-replay` (in `make test`): every committed seed and regression input,
# once, through the targets built with AddressSanitizer and UBSan by the ordinary compiler (replay.sh).
FUZZ_TARGETS := model image trace wfc palette pack
FUZZ_TIME ?= 60
FUZZ_CI_TIME ?= 30
# 1: libFuzzer's fork mode, which records every finding and goes on.
FUZZ_KEEP_GOING ?= 0
FUZZ_CC ?= clang
FUZZ_CFLAGS := -O2 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_COMMON := tests/fuzz/fuzz_common.c
FUZZ_HEADERS := tests/fuzz/fuzz_common.h $(HEADERS)
# clang and its libFuzzer runtime (Debian 12: clang 14).
FUZZ_DEPS := clang:/usr/bin/clang \
        libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
$(BUILD)/.fuzz-deps: PACKAGES = $(FUZZ_DEPS)
$(BUILD)/.fuzz-deps: tests/fuzz/fuzz.mk

.PHONY: fuzz fuzz-ci fuzz-build fuzz-corpus fuzz-replay

# Built by the recursive make below, with BUILD=build/fuzz, CC=clang and FUZZ_CFLAGS.
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_mutate.c $(FUZZ_COMMON) $(FUZZ_HEADERS) $(LIB_INTERNAL)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -fsanitize=fuzzer -o $@ $(filter %.c,$^) $(LIB_INTERNAL) $(LDLIBS)

# The same targets with a plain main that runs files once (built with BUILD=build/asan by fuzz-replay).
$(BUILD)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(FUZZ_COMMON) $(FUZZ_HEADERS) $(LIB_INTERNAL)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $(filter %.c,$^) $(LIB_INTERNAL) $(LDLIBS)

# The seed packer (tests/fuzz/pack.c), an ordinary build.
$(BUILD)/fuzz-pack: tests/fuzz/pack.c $(FUZZ_COMMON) $(FUZZ_HEADERS) $(LIB_INTERNAL)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(FUZZ_COMMON) $(LIB_INTERNAL) $(LDLIBS)

fuzz-build: $(BUILD)/.fuzz-deps $(BUILD)/gen/palette_table.inc
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_CFLAGS)" WERROR=1 \
	  $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

# Seed corpora in build/fuzz/corpus/<target>/ (tests/fuzz/seeds.sh), made once; `rm -r build/fuzz/corpus` remakes them.
fuzz-corpus: build/fuzz/corpus/.seeded
build/fuzz/corpus/.seeded: tests/fuzz/seeds.sh | smalti $(BUILD)/fuzz-pack
	sh tests/fuzz/seeds.sh $(BUILD)/fuzz-pack ./smalti build/fuzz/corpus
	@touch $@

fuzz: fuzz-build fuzz-corpus
	FUZZ_KEEP_GOING=$(FUZZ_KEEP_GOING) sh tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_TIME=$(FUZZ_CI_TIME)

fuzz-replay: asan-build
	@rm -f build/asan/replay-*.log
	@sh tests/fuzz/replay.sh build/asan $(FUZZ_TARGETS)
