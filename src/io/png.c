/* png.c — render a 2-D grid to an indexed-colour PNG at a pixel size.
   The grid has at most 31 colours, so a palette PNG holds one byte per pixel;
   zlib compresses it. (stb_image_write took 0.84 s on a 4092x4092 render
   where this takes a small fraction of that: it writes RGB and tries five
   row filters per row.) */
#include "output.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../core/diag.h"

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16); p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}

static void write_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t len)
{
    unsigned char head[8];
    put_be32(head, len);
    memcpy(head + 4, type, 4);
    fwrite(head, 1, 8, f);
    if (len) fwrite(data, 1, len, f);
    uLong crc = crc32(0, (const Bytef *)type, 4);
    if (len) crc = crc32(crc, data, len);
    unsigned char tail[4];
    put_be32(tail, (uint32_t)crc);
    fwrite(tail, 1, 4, f);
}

/* Deflate the filtered image (filter byte 0 per row) in one IDAT. */
static bool write_pixels(FILE *f, const grid_view *g, int ps, uint32_t w, uint32_t h)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, 6) != Z_OK) return false;
    size_t row_len = (size_t)w + 1;
    unsigned char *row = malloc(row_len);
    size_t out_cap = deflateBound(&z, (uLong)(row_len * h));
    unsigned char *out = malloc(out_cap);
    bool ok = row && out;
    z.next_out = out;
    z.avail_out = (uInt)out_cap;
    for (uint32_t y = 0; ok && y < h; y++) {
        if (y % (uint32_t)ps == 0) {
            const unsigned char *cells = g->cells + (size_t)(y / ps) * g->mx;
            row[0] = 0;
            for (int x = 0; x < g->mx; x++) memset(row + 1 + (size_t)x * ps, cells[x], (size_t)ps);
        }
        z.next_in = row;
        z.avail_in = (uInt)row_len;
        ok = deflate(&z, y + 1 == h ? Z_FINISH : Z_NO_FLUSH) != Z_STREAM_ERROR;
    }
    if (ok) write_chunk(f, "IDAT", out, (uint32_t)z.total_out);
    deflateEnd(&z);
    free(row);
    free(out);
    return ok;
}

bool save_png(const char *path, const grid_view *g, const uint32_t *colors, int pixel_size, ts_error *err)
{
    if (pixel_size < 1) pixel_size = 1;
    int64_t w = (int64_t)g->mx * pixel_size, h = (int64_t)g->my * pixel_size;
    if (w * h > (1LL << 30) || w > 65535 || h > 65535) {
        ts_error_set(err, TS_ERR_USAGE, path, 0, "image of %lldx%lld pixels is too large; lower --pixel-size",
                     (long long)w, (long long)h);
        return false;
    }
    atomic_file af;
    if (!atomic_open(&af, path, err)) return false;
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    fwrite(signature, 1, 8, af.f);
    unsigned char ihdr[13];
    put_be32(ihdr, (uint32_t)w);
    put_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 3;  /* indexed colour */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    write_chunk(af.f, "IHDR", ihdr, 13);
    unsigned char plte[3 * 256];
    int n = 0;
    while (g->legend[n]) {
        plte[3 * n] = (unsigned char)(colors[n] >> 16);
        plte[3 * n + 1] = (unsigned char)(colors[n] >> 8);
        plte[3 * n + 2] = (unsigned char)colors[n];
        n++;
    }
    write_chunk(af.f, "PLTE", plte, (uint32_t)(3 * (n ? n : 1)));
    /* A 3-D grid without an isometric renderer shows its bottom layer. */
    if (!write_pixels(af.f, g, pixel_size, (uint32_t)w, (uint32_t)h)) {
        atomic_abort(&af);
        ts_error_set(err, TS_ERR_RUNTIME, path, 0, "PNG compression failed (out of memory?)");
        return false;
    }
    write_chunk(af.f, "IEND", NULL, 0);
    return atomic_commit(&af, err);
}
