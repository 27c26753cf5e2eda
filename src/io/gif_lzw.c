/* gif_lzw.c — GIF's LZW compression, giving the very bytes giflib's
   EGifPutLine gives (same dictionary, same code widths, same clear at 4095
   codes), but fast on long runs of one value, which is what a frame of
   transparent "unchanged" pixels is made of.

   Greedy LZW extends the current string one pixel at a time by a dictionary
   lookup. When the current string is a run (v repeated k times) and more v's
   follow, the strings v^1..v^L(v) are known to be in the dictionary (they can
   only be added in that order), so the run is extended by min(L - k, run)
   pixels at once from a per-value table of their codes, with no lookup per
   pixel. Other strings go through a hash table. */
#include "gif_lzw.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

#define LZW_MAX_CODE 4095 /* as giflib: at this code number the dictionary is cleared */
#define HASH_BITS 13
#define HASH_SIZE (1 << HASH_BITS)

struct gif_lzw {
    int code_size, clear, eoi, next, width;
    int cur;                      /* code of the current string, -1 before the first pixel */
    int run_value, run_len;       /* the current string is run_value x run_len; run_len 0: not a run */
    uint32_t keys[HASH_SIZE];     /* (prefix << 8 | pixel) + 1, 0 for an empty slot */
    uint16_t codes[HASH_SIZE];
    uint16_t *runs[256];          /* runs[v][k]: code of v repeated k times, k <= longest[v] */
    int longest[256];
    uint32_t bits;
    int bit_count;
    unsigned char block[256];     /* block[0]: bytes in it */
    lzw_block_fn out;
    void *ctx;
    bool failed;
};

gif_lzw *lzw_new(void) { return mem_calloc(1, sizeof(gif_lzw)); }

void lzw_free(gif_lzw *z)
{
    if (!z) return;
    for (int v = 0; v < 256; v++) mem_free(z->runs[v]);
    mem_free(z);
}

static void put_byte(gif_lzw *z, unsigned char byte)
{
    z->block[++z->block[0]] = byte;
    if (z->block[0] == 255) {
        z->out(z->ctx, z->block);
        z->block[0] = 0;
    }
}

/* Write a code at the current width; widen after it when the next code to be
   made no longer fits (giflib's rule, which decoders follow). */
static void emit(gif_lzw *z, int code)
{
    z->bits |= (uint32_t)code << z->bit_count;
    z->bit_count += z->width;
    while (z->bit_count >= 8) {
        put_byte(z, (unsigned char)z->bits);
        z->bits >>= 8;
        z->bit_count -= 8;
    }
    if (z->next >= (1 << z->width) && code <= LZW_MAX_CODE) z->width++;
}

static void reset_dictionary(gif_lzw *z)
{
    z->next = z->eoi + 1;
    z->width = z->code_size + 1;
    memset(z->keys, 0, sizeof z->keys);
    for (int v = 0; v < 256; v++) z->longest[v] = 1;
}

void lzw_begin(gif_lzw *z, int code_size, lzw_block_fn out, void *ctx)
{
    z->code_size = code_size;
    z->clear = 1 << code_size;
    z->eoi = z->clear + 1;
    z->out = out;
    z->ctx = ctx;
    z->cur = -1;
    z->run_len = 0;
    z->bits = 0;
    z->bit_count = 0;
    z->block[0] = 0;
    reset_dictionary(z);
    emit(z, z->clear);
}

static uint32_t slot_of(uint32_t key) { return (key * 2654435761u) >> (32 - HASH_BITS); }

static int lookup(const gif_lzw *z, uint32_t key)
{
    for (uint32_t h = slot_of(key);; h = (h + 1) & (HASH_SIZE - 1)) {
        if (z->keys[h] == key + 1) return z->codes[h];
        if (!z->keys[h]) return -1;
    }
}

/* After emitting the current string: give the string plus pixel a code, or
   clear the dictionary when it is full. Returns false when it was cleared. */
static bool make_code(gif_lzw *z)
{
    if (z->next < LZW_MAX_CODE) return true;
    emit(z, z->clear);
    reset_dictionary(z);
    return false;
}

static void add_string(gif_lzw *z, uint32_t key)
{
    if (!make_code(z)) return;
    uint32_t h = slot_of(key);
    while (z->keys[h]) h = (h + 1) & (HASH_SIZE - 1);
    z->keys[h] = key + 1;
    z->codes[h] = (uint16_t)z->next++;
}

static void start_string(gif_lzw *z, unsigned char px)
{
    z->cur = px;
    z->run_value = px;
    z->run_len = 1;
}

/* The first index in [i, stop) whose pixel is not v (stop if none), eight pixels at a time. */
static int run_end(const unsigned char *pixels, int i, int stop, unsigned char v)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t all_v = 0x0101010101010101ull * v;
    for (; i + 8 <= stop; i += 8) {
        uint64_t word;
        memcpy(&word, pixels + i, 8);
        if (word != all_v) return i + (__builtin_ctzll(word ^ all_v) >> 3); /* the lowest differing byte */
    }
#endif
    while (i < stop && pixels[i] == v) i++;
    return i;
}

/* The current string is v^k and pixels[i] == v: take the run as far as the dictionary goes. */
static int extend_run(gif_lzw *z, const unsigned char *pixels, int i, int n)
{
    int v = z->run_value;
    if (!z->runs[v]) {
        z->runs[v] = mem_malloc((LZW_MAX_CODE + 2) * sizeof *z->runs[v]);
        if (!z->runs[v]) {
            z->failed = true;
            return n;
        }
        z->runs[v][1] = (uint16_t)v;
    }
    int room = z->longest[v] - z->run_len; /* more v's the dictionary can take */
    int j = run_end(pixels, i, n - i > room ? i + room + 1 : n, (unsigned char)v);
    if (j - i <= room) {
        /* The run ends (another pixel or the end of the row) inside the dictionary. */
        z->run_len += j - i;
        z->cur = z->runs[v][z->run_len];
        return j;
    }
    /* v^longest is followed by one more v: emit it, v^(longest+1) becomes a string. */
    z->run_len = z->longest[v];
    emit(z, z->runs[v][z->run_len]);
    if (make_code(z)) {
        z->runs[v][z->run_len + 1] = (uint16_t)z->next++;
        z->longest[v] = z->run_len + 1;
    }
    start_string(z, (unsigned char)v);
    return j;
}

void lzw_pixels(gif_lzw *z, const unsigned char *pixels, int n)
{
    int i = 0;
    if (z->cur < 0 && n > 0) start_string(z, pixels[i++]);
    while (i < n) {
        unsigned char px = pixels[i];
        if (z->run_len && px == z->run_value) {
            i = extend_run(z, pixels, i, n);
            continue;
        }
        uint32_t key = (uint32_t)z->cur << 8 | px;
        int code = lookup(z, key);
        if (code >= 0) {
            z->cur = code;
            z->run_len = 0;
        } else {
            emit(z, z->cur);
            add_string(z, key);
            start_string(z, px);
        }
        i++;
    }
}

bool lzw_end(gif_lzw *z)
{
    emit(z, z->cur);
    emit(z, z->eoi);
    while (z->bit_count > 0) {
        put_byte(z, (unsigned char)z->bits);
        z->bits >>= 8;
        z->bit_count -= 8;
    }
    z->bit_count = 0;
    if (z->block[0]) z->out(z->ctx, z->block);
    z->block[0] = 0;
    return !z->failed;
}
