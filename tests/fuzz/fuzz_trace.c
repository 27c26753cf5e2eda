/* fuzz_trace.c — libFuzzer target: the trace reader on any bytes: open from memory, verify, then seek to
   steps chosen from the input (and outside the trace) and step on from each, reading grids and colours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A small generator seeded by the input, for the steps to visit. */
static uint64_t mix(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15u;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void touch_grid(const trace_reader *r)
{
    int mx, my, mz;
    const uint8_t *g = trace_grid(r, &mx, &my, &mz);
    const char *legend = trace_legend(r);
    const uint32_t *colors = trace_colors(r);
    if (!g || !legend || !colors) abort();
    /* Every cell is read (the legend may hold a NUL, so its length is not the value count). */
    volatile uint32_t sum = 0;
    for (size_t i = 0; i < (size_t)mx * my * mz; i++) sum += colors[g[i]];
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    smalti_error err;
    trace_reader *r = trace_read_memory(data, size, "fuzz.trace", &err);
    if (!r) return 0;
    const trace_info *info = trace_reader_info(r);
    for (int i = 0; i < info->node_count; i++) {
        const trace_node *n = &info->nodes[i];
        if (!n->kind || !n->attributes) abort();
    }
    size_t len;
    trace_reader_bytes(r, &len);
    trace_verify(r, &err);
    touch_grid(r);
    uint64_t seed = size;
    for (size_t i = 0; i < size && i < 64; i++) seed = seed * 131 + data[size - 1 - i];
    long steps = info->steps;
    long targets[8] = {0, steps, steps / 2, steps + 1, -1, 0, 0, 0};
    for (int k = 5; k < 8; k++) targets[k] = steps > 0 ? (long)(mix(&seed) % (uint64_t)(steps + 1)) : 0;
    for (int k = 0; k < 8; k++) {
        if (!trace_seek(r, targets[k], &err)) continue;
        if (trace_position(r) != targets[k]) abort();
        touch_grid(r);
        trace_step st;
        for (int j = 0; j < 64 && trace_next(r, &st, &err); j++)
            if (!st.new_grid && st.count && (!st.cells || !st.values)) abort();
        touch_grid(r);
    }
    trace_reader_free(r);
    return 0;
}
