# bench.mk — `make bench`: speed and memory on a fixed list of corpus models (bench/models.tsv).
$(BUILD)/bench: bench/bench.c $(BUILD)/libtessera.a
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ $< $(BUILD)/libtessera.a $(LDLIBS)

bench: tessera $(BUILD)/bench
	@sh bench/run.sh

.PHONY: bench
