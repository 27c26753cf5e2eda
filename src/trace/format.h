/* format.h — the byte-level pieces of the trace format shared by its writer and reader:
   magic, chunk tags, LEB128 varints and zigzag signs (docs/trace-format.md). */
#ifndef SMALTI_TRACE_FORMAT_H
#define SMALTI_TRACE_FORMAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TRACE_MAGIC "SMTRACE\x1a"
/* The magic of traces recorded before the rename (tessera); refused with a message saying so. */
#define TRACE_OLD_MAGIC "TSTRACE\x1a"
#define TRACE_MAGIC_LEN 8
#define TRACE_HEADER_LEN 12  /* magic + u32 version */
#define TRACE_FOOTER_LEN 12  /* u64 offset of the INDX chunk + "TEND" */
#define TRACE_CHUNK_HEAD 8   /* tag + u32 payload length */
#define TRACE_VARINT_MAX 10

/* Index entry kinds (INDX). */
enum { TRACE_IDX_GRID = 0, TRACE_IDX_KEYF = 1, TRACE_IDX_STEP = 2 };
/* Cell content encodings (GRID and KEYF). */
enum { TRACE_RAW = 0, TRACE_ZLIB = 1 };

static inline size_t trace_put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

static inline uint64_t trace_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t trace_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* Read a varint from [*p, end); false when it runs past end or past 10 bytes. */
static inline bool trace_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    const uint8_t *q = *p;
    for (int shift = 0; shift < 70; shift += 7) {
        if (q == end) return false;
        uint8_t b = *q++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return true;
        }
    }
    return false;
}

/* The LATT chunk's size bounds: a growgrid lattice has at most 257 points a side. */
#define TRACE_LATTICE_MAX 257

static inline void trace_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t trace_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
/* A double as 8 bytes, little-endian IEEE 754 (the LATT chunk), so a lattice reads back exactly. */
static inline void trace_put_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8 * i));
}
static inline double trace_get_f64(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u |= (uint64_t)p[i] << (8 * i);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}
#endif
