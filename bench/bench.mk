# bench.mk — `make bench`: speed and memory on a fixed list of corpus models (bench/models.tsv),
# then the classic WFC cases (bench/wfc.sh), the generator nodes (bench/gen.sh) and traces
# (bench/trace.sh: recording cost, size, viewer load and seek times) and `pack check` on the corpus
# (bench/pack.sh), the throughput of many runs (bench/many.sh), a <require> that holds (bench/require.sh) and studio's save-to-picture time
# (bench/studio_latency.js), and the rule nodes against MJr when MJR_RUN names it (bench/mjr.sh;
# `make bench-mjr` alone). `make bench BASELINE=OLD`: the heavy rows side by side with an older
# binary (bench/side.sh).
$(BUILD)/bench: bench/bench.c $(LIB_INTERNAL)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(LIB_INTERNAL) $(LDLIBS)

$(BUILD)/wfc_bench: bench/wfc_bench.c $(LIB_INTERNAL) $(HEADERS)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(LIB_INTERNAL) $(LDLIBS)

$(BUILD)/trace_bench: bench/trace_bench.c $(LIB_INTERNAL) $(HEADERS)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(LIB_INTERNAL) $(LDLIBS)

# One whole process timed from fork to exit, with its peak memory (bench/side.sh's clock).
$(BUILD)/runtime: bench/runtime.c
	$(CC) $(CFLAGS) -o $@ $<

# The hand-written Growth, MazeGrowth and MazeBacktracker (bench/floor.c): `make bench-floor [BASELINE=OLD]` times
# them beside smalti (bench/floor.sh); `make floor-check` (part of `make test`) checks their grids.
$(BUILD)/floor: bench/floor.c src/core/rng.c src/core/rng.h
	$(CC) $(CFLAGS) -o $@ bench/floor.c src/core/rng.c

bench-floor: smalti $(BUILD)/floor $(BUILD)/runtime $(BUILD)/bench
	@RUNTIME=$(BUILD)/runtime BENCH=$(BUILD)/bench sh bench/floor.sh time ./smalti $(BUILD)/floor $(BASELINE)

floor-check: smalti $(BUILD)/floor
	@sh bench/floor.sh check ./smalti $(BUILD)/floor

# With BASELINE=OLD_BINARY, only the side-by-side comparison of the heavy rows (bench/side.sh);
# INSTR=1 adds each row's instructions under callgrind.
ifdef BASELINE
bench: smalti $(BUILD)/runtime
	@RUNTIME=$(BUILD)/runtime INSTR=$(INSTR) sh bench/side.sh "$(BASELINE)" ./smalti
else
bench: smalti $(BUILD)/bench $(BUILD)/wfc_bench $(BUILD)/trace_bench $(BUILD)/runtime $(BROWSER_MODULES)
	@sh bench/run.sh
	@sh bench/mjr.sh
	@sh bench/wfc.sh
	@sh bench/gen.sh
	@sh bench/trace.sh
	@sh bench/pack.sh
	@sh bench/many.sh ./smalti
	@sh bench/require.sh ./smalti
	@node bench/studio_latency.js ./smalti
endif

# The rule-node rows against MJr alone (bench/mjr.sh: MJR_RUN and MJR_MODELS, see docs/performance.md).
bench-mjr: smalti $(BUILD)/bench $(BUILD)/runtime
	@sh bench/mjr.sh

# Throughput of many runs alone: -j 1, -j 2 and separate processes (bench/many.sh).
bench-many: smalti
	@sh bench/many.sh ./smalti

.PHONY: bench bench-many bench-mjr bench-floor floor-check
