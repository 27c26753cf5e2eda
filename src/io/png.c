/* png.c — PNG writers on zlib: an indexed-colour render of a 2-D grid at a pixel
   size, and a truecolour (RGB) writer for ready-made images such as the
   isometric render. The grid has few colours, so a palette PNG holds one byte
   per pixel. (stb_image_write took 0.84 s on a 4092x4092 render where this
   takes a small fraction of that: it writes RGB and tries five row filters per
   row.) Rows are deflated in one pass and written as IDAT chunks as the
   compressed data comes, so no whole compressed image is held in memory. */
#include "output.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../core/diag.h"
#include "../core/mem.h"

/* Our own bound on a picture (PNG allows more): it keeps memory in check. */
#define PNG_MAX_SIDE 65535
#define PNG_MAX_PIXELS (1LL << 30)
#define IDAT_BUFFER (1u << 16)

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

static void write_header(FILE *f, uint32_t w, uint32_t h, unsigned char color_type)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    fwrite(signature, 1, 8, f);
    unsigned char ihdr[13];
    put_be32(ihdr, w);
    put_be32(ihdr + 4, h);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = color_type;
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filtering, no interlace */
    write_chunk(f, "IHDR", ihdr, 13);
}

/* Fills row (filter byte excluded) with image row y. Rows are asked for in
   order, and row keeps what the previous call left in it. */
typedef void (*row_source)(const void *ctx, uint32_t y, unsigned char *row);

/* zlib allocates through the library's allocator, so that its state counts against the budgets. */
static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return mem_calloc(items, size);
}

static void zlib_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    mem_free(p);
}

/* Deflate h rows of row_bytes each (filter byte 0 per row) into IDAT chunks. */
static bool write_pixels(FILE *f, uint32_t h, size_t row_bytes, row_source source, const void *ctx)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = zlib_alloc;
    z.zfree = zlib_free;
    if (deflateInit(&z, 6) != Z_OK) return false;
    unsigned char *row = mem_calloc(row_bytes + 1, 1);
    unsigned char *out = mem_malloc(IDAT_BUFFER);
    bool ok = row && out;
    for (uint32_t y = 0; ok && y < h; y++) {
        source(ctx, y, row + 1);
        z.next_in = row;
        z.avail_in = (uInt)(row_bytes + 1);
        int flush = y + 1 == h ? Z_FINISH : Z_NO_FLUSH, zrc;
        do {
            z.next_out = out;
            z.avail_out = IDAT_BUFFER;
            zrc = deflate(&z, flush);
            if (zrc == Z_STREAM_ERROR) { ok = false; break; }
            uint32_t produced = IDAT_BUFFER - z.avail_out;
            if (produced) write_chunk(f, "IDAT", out, produced);
        } while (z.avail_out == 0 || (flush == Z_FINISH && zrc != Z_STREAM_END));
    }
    deflateEnd(&z);
    mem_free(row);
    mem_free(out);
    return ok;
}

static bool check_size(const char *path, int64_t w, int64_t h, smalti_error *err)
{
    if (w >= 1 && h >= 1 && w <= PNG_MAX_SIDE && h <= PNG_MAX_SIDE && w * h <= PNG_MAX_PIXELS) return true;
    error_set(err, SMALTI_ERR_MODEL, path, 0, "image of %lldx%lld pixels is too large; lower --pixel-size", (long long)w,
                 (long long)h);
    return false;
}

/* The rows' buffers and zlib's state are counted: when a memory budget refused one, say so (exit 7), not a
   vague failure. */
static void compression_failed(const char *path, smalti_error *err)
{
    if (mem_any_spent())
        error_set(err, SMALTI_ERR_MEMORY, path, 0, "compressing the PNG needed more than the memory budget (--max-memory)");
    else error_set(err, SMALTI_ERR_RUNTIME, path, 0, "PNG compression failed (out of memory?)");
}

static bool finish(atomic_file *af, bool pixels_ok, const char *path, smalti_error *err)
{
    if (!pixels_ok) {
        atomic_abort(af);
        compression_failed(path, err);
        return false;
    }
    write_chunk(af->f, "IEND", NULL, 0);
    return atomic_commit(af, err);
}

typedef struct grid_rows {
    const grid_view *g;
    int pixel_size;
} grid_rows;

/* A row of cells, each repeated pixel_size times; the same for pixel_size rows. */
static void grid_row(const void *ctx, uint32_t y, unsigned char *row)
{
    const grid_rows *gr = ctx;
    int ps = gr->pixel_size;
    if (y % (uint32_t)ps) return;
    const unsigned char *cells = gr->g->cells + (size_t)(y / (uint32_t)ps) * gr->g->mx;
    for (int x = 0; x < gr->g->mx; x++) memset(row + (size_t)x * ps, cells[x], (size_t)ps);
}

/* The palette PNG's header and palette, then its pixels; false when compression failed. */
static bool grid_png_body(FILE *f, const grid_view *g, const uint32_t *colors, int pixel_size)
{
    uint32_t w = (uint32_t)g->mx * (uint32_t)pixel_size, h = (uint32_t)g->my * (uint32_t)pixel_size;
    write_header(f, w, h, 3 /* indexed colour */);
    unsigned char plte[3 * 256];
    int n = 0;
    while (g->legend[n]) {
        plte[3 * n] = (unsigned char)(colors[n] >> 16);
        plte[3 * n + 1] = (unsigned char)(colors[n] >> 8);
        plte[3 * n + 2] = (unsigned char)colors[n];
        n++;
    }
    write_chunk(f, "PLTE", plte, (uint32_t)(3 * (n ? n : 1)));
    /* A 3-D grid shows its bottom layer here; callers draw it with save_iso_png. */
    grid_rows gr = {g, pixel_size};
    return write_pixels(f, h, (size_t)w, grid_row, &gr);
}

bool save_png(const char *path, const grid_view *g, const uint32_t *colors, int pixel_size, const temp_hook *temps,
              smalti_error *err)
{
    if (pixel_size < 1) pixel_size = 1;
    int64_t w = (int64_t)g->mx * pixel_size, h = (int64_t)g->my * pixel_size;
    if (!check_size(path, w, h, err)) return false;
    atomic_file af;
    if (!atomic_open(&af, path, temps, err)) return false;
    return finish(&af, grid_png_body(af.f, g, colors, pixel_size), path, err);
}

bool png_write_grid(FILE *f, const grid_view *g, const uint32_t *colors, int pixel_size, smalti_error *err)
{
    if (pixel_size < 1) pixel_size = 1;
    if (!check_size("<png>", (int64_t)g->mx * pixel_size, (int64_t)g->my * pixel_size, err)) return false;
    if (!grid_png_body(f, g, colors, pixel_size)) {
        compression_failed("<png>", err);
        return false;
    }
    write_chunk(f, "IEND", NULL, 0);
    return !ferror(f);
}

/* A truecolour picture made a row at a time by the caller's png_row_fn, into one reused row. */
typedef struct rgb_rows {
    png_row_fn fn;
    const void *ctx;
    uint32_t *pixels;          /* one row */
    int width;
} rgb_rows;

static void rgb_row(const void *ctx, uint32_t y, unsigned char *row)
{
    const rgb_rows *rr = ctx;
    rr->fn(rr->ctx, (int)y, rr->pixels);
    const uint32_t *p = rr->pixels;
    for (int x = 0; x < rr->width; x++) {
        row[3 * x] = (unsigned char)(p[x] >> 16);
        row[3 * x + 1] = (unsigned char)(p[x] >> 8);
        row[3 * x + 2] = (unsigned char)p[x];
    }
}

/* The header and pixels of a truecolour PNG made by fn; false when out of memory. */
static bool rgb_png_body(FILE *f, int width, int height, png_row_fn fn, const void *ctx)
{
    rgb_rows rr = {fn, ctx, mem_malloc((size_t)width * sizeof(uint32_t)), width};
    if (!rr.pixels) return false;
    write_header(f, (uint32_t)width, (uint32_t)height, 2 /* truecolour RGB */);
    bool ok = write_pixels(f, (uint32_t)height, (size_t)width * 3, rgb_row, &rr);
    mem_free(rr.pixels);
    return ok;
}

/* Row y of a whole picture in memory (save_png_rgb). */
typedef struct whole_picture {
    const uint32_t *pixels;
    int width;
} whole_picture;

static void whole_row(const void *ctx, int y, uint32_t *row)
{
    const whole_picture *wp = ctx;
    memcpy(row, wp->pixels + (size_t)y * wp->width, (size_t)wp->width * sizeof *row);
}

bool png_size_ok(const char *path, int64_t width, int64_t height, smalti_error *err)
{
    return check_size(path, width, height, err);
}

bool save_png_rows(const char *path, int width, int height, png_row_fn fn, const void *ctx, const temp_hook *temps, smalti_error *err)
{
    if (!check_size(path, width, height, err)) return false;
    atomic_file af;
    if (!atomic_open(&af, path, temps, err)) return false;
    return finish(&af, rgb_png_body(af.f, width, height, fn, ctx), path, err);
}

bool png_write_rows(FILE *f, int width, int height, png_row_fn fn, const void *ctx, smalti_error *err)
{
    if (!check_size("<png>", width, height, err)) return false;
    if (!rgb_png_body(f, width, height, fn, ctx)) {
        compression_failed("<png>", err);
        return false;
    }
    write_chunk(f, "IEND", NULL, 0);
    return !ferror(f);
}

bool save_png_rgb(const char *path, const uint32_t *pixels, int width, int height, const temp_hook *temps, smalti_error *err)
{
    whole_picture wp = {pixels, width};
    return save_png_rows(path, width, height, whole_row, &wp, temps, err);
}

bool png_write_rgb(FILE *f, const uint32_t *pixels, int width, int height, smalti_error *err)
{
    whole_picture wp = {pixels, width};
    return png_write_rows(f, width, height, whole_row, &wp, err);
}
