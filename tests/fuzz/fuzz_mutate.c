/* fuzz_mutate.c — the fuzz targets' custom mutator: one mutation in four puts a boundary value in place of
   an attribute's value (text formats) or of four bytes (binary ones); the others are libFuzzer's own.
   libFuzzer's dictionary only inserts or overwrites tokens at random places, so a value such as
   overlap="-2147483600" needs two lucky mutations in a row; here it takes one. Linked into the fuzz
   targets only: the replay build has no libFuzzer to call back. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* The extremes of an int and a size, one past them, and the small values a range check must refuse. */
static const char *const boundary_text[] = {"-2147483648", "2147483647", "-2147483600", "2147483648", "4294967296",
                                            "-1",          "0",          "-65536",      "65536",      "1e308",
                                            "-1e308",      "NaN"};
static const uint32_t boundary_word[] = {0x80000000u, 0x7fffffffu, 0xffffffffu, 0x00000000u, 0x80000038u, 0x00010000u};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Replace the text between a randomly chosen `="` and the next `"` by a boundary value; 0 when the input
   has no attribute or the result would be too long. */
static size_t replace_value(uint8_t *data, size_t size, size_t max_size, uint32_t *rng)
{
    size_t count = 0;
    for (size_t i = 0; i + 1 < size; i++) count += data[i] == '=' && data[i + 1] == '"';
    if (count == 0) return 0;
    size_t pick = next(rng) % count, i = 0;
    for (;; i++)
        if (data[i] == '=' && data[i + 1] == '"' && pick-- == 0) break;
    size_t start = i + 2;
    const uint8_t *end = memchr(data + start, '"', size - start);
    if (!end) return 0;
    size_t old = (size_t)(end - data) - start;
    const char *value = boundary_text[next(rng) % COUNT(boundary_text)];
    size_t len = strlen(value);
    if (size - old > max_size - len) return 0;
    memmove(data + start + len, data + start + old, size - start - old);
    memcpy(data + start, value, len);
    return size - old + len;
}

/* Overwrite four bytes at a random place with a boundary word, little- or big-endian. */
static size_t replace_word(uint8_t *data, size_t size, uint32_t *rng)
{
    if (size < 4) return 0;
    size_t at = next(rng) % (size - 3);
    uint32_t w = boundary_word[next(rng) % COUNT(boundary_word)];
    bool big = next(rng) & 1;
    for (int k = 0; k < 4; k++) data[at + k] = (uint8_t)(w >> (big ? 24 - 8 * k : 8 * k));
    return size;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t rng = seed | 1;
    if (next(&rng) % 4 == 0) {
        size_t n = replace_value(data, size, max_size, &rng);
        if (!n) n = replace_word(data, size, &rng);
        if (n) return n;
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
