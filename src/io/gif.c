/* gif.c — an animated GIF written frame by frame through giflib, so that no
   frame but the one being written is held in memory. Each frame is a
   rectangle of the picture (the part that changed) drawn over the previous
   ones (disposal "leave in place"); the index after a frame's colours is
   transparent, so unchanged pixels inside the rectangle cost little. The
   file is written under a temporary name (atomic.c) and renamed by
   gif_anim_close: a reader never sees a partial GIF (unless the target is a
   device or FIFO, written directly).

   giflib writes the file's blocks. The pixels are compressed by gif_lzw.c,
   which gives the bytes giflib's EGifPutLine gives but goes through runs of
   one value (the transparent "unchanged" pixels) without a lookup per pixel:
   15 times faster on MazeGrowth 511² at --pixel-size 4. The data goes to
   giflib with EGifPutCode, its call for handing over compressed data.
   gif_anim_use_giflib_lzw switches back to EGifPutLine (the tests compare). */
#include "output.h"
#include <errno.h>
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "../core/mem.h"
#include "gif_lzw.h"

/* The first frame's colours become the global colour table; a frame with
   other colours carries its own. */
struct gif_anim {
    atomic_file af;
    GifFileType *gif;
    bool started;            /* screen descriptor written */
    int screen_w, screen_h;  /* as written; patched at close if frames went further */
    int max_w, max_h;
    uint32_t global[256];
    int global_count;
    long frames;
    bool failed;
    gif_lzw *lzw;            /* NULL: giflib compresses (EGifPutLine) */
    long pixels_left;        /* of the frame being written */
    bool first_block;
    int block_error;         /* a giflib error while handing over compressed data */
};

static int write_bytes(GifFileType *gif, const GifByteType *bytes, int len)
{
    return (int)fwrite(bytes, 1, (size_t)len, (FILE *)gif->UserData);
}

/* Compressed data for giflib to write, one sub-block at a time. */
static void put_block(void *anim, const unsigned char *block)
{
    gif_anim *g = anim;
    if (g->block_error) return;
    /* EGifPutCode ignores its code size: EGifPutImageDesc wrote it. */
    int rc = g->first_block ? EGifPutCode(g->gif, 0, block) : EGifPutCodeNext(g->gif, block);
    g->first_block = false;
    if (rc == GIF_ERROR) g->block_error = g->gif->Error;
}

static bool gif_failed(gif_anim *g, int code, smalti_error *err)
{
    g->failed = true;
    const char *why = GifErrorString(code);
    error_set(err, SMALTI_ERR_IO, g->af.path, 0, "GIF output failed: %s", why ? why : "unknown error");
    return false;
}

gif_anim *gif_anim_open(const char *path, const temp_hook *temps, smalti_error *err)
{
    gif_anim *g = mem_calloc(1, sizeof *g);
    if (!g) {
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
        return NULL;
    }
    if (!atomic_open(&g->af, path, temps, err)) {
        mem_free(g);
        return NULL;
    }
    int code = 0;
    g->gif = EGifOpen(g->af.f, write_bytes, &code);
    if (!g->gif) {
        atomic_abort(&g->af);
        mem_free(g);
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "cannot start the GIF: %s", GifErrorString(code));
        return NULL;
    }
    EGifSetGifVersion(g->gif, true); /* GIF89a: delays, transparency, looping */
    g->lzw = lzw_new();
    if (!g->lzw) {
        gif_anim_abort(g);
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
        return NULL;
    }
    return g;
}

/* Entries of the colour table of count colours and the transparent index:
   the power of two GIF asks for. */
static int map_size(int count)
{
    int size = 2;
    while (size < count + 1) size *= 2;
    return size;
}

/* A colour table holding colors and, after them, the transparent index. */
static ColorMapObject *make_map(const uint32_t *colors, int count)
{
    int size = map_size(count);
    GifColorType entries[256];
    memset(entries, 0, sizeof entries);
    for (int i = 0; i < count; i++) {
        entries[i].Red = (GifByteType)(colors[i] >> 16);
        entries[i].Green = (GifByteType)(colors[i] >> 8);
        entries[i].Blue = (GifByteType)colors[i];
    }
    return GifMakeMapObject(size, entries);
}

/* The logical screen, the global colours and the "loop forever" block, before the first frame. */
static bool start(gif_anim *g, const gif_frame *f, smalti_error *err)
{
    ColorMapObject *map = make_map(f->colors, f->color_count);
    if (!map) return gif_failed(g, E_GIF_ERR_NOT_ENOUGH_MEM, err);
    g->screen_w = f->left + f->width;
    g->screen_h = f->top + f->height;
    int rc = EGifPutScreenDesc(g->gif, g->screen_w, g->screen_h, 8, 0, map);
    GifFreeMapObject(map);
    if (rc == GIF_ERROR) return gif_failed(g, g->gif->Error, err);
    memcpy(g->global, f->colors, (size_t)f->color_count * sizeof *f->colors);
    g->global_count = f->color_count;
    static const GifByteType loop[3] = {1, 0, 0}; /* sub-block 1: repeat count 0, forever */
    if (EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(g->gif, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(g->gif, 3, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(g->gif) == GIF_ERROR)
        return gif_failed(g, g->gif->Error, err);
    g->started = true;
    return true;
}

bool gif_anim_begin_frame(gif_anim *g, const gif_frame *f, smalti_error *err)
{
    if (g->failed) return false;
    if (f->color_count < 1 || f->color_count > 255) {
        g->failed = true;
        error_set(err, SMALTI_ERR_RUNTIME, g->af.path, 0, "a GIF frame of %d colours (1 to 255 fit)", f->color_count);
        return false;
    }
    if (f->width < 1 || f->height < 1 || f->left < 0 || f->top < 0 || (int64_t)f->left + f->width > GIF_MAX_SIDE ||
        (int64_t)f->top + f->height > GIF_MAX_SIDE || (int64_t)f->width * f->height > GIF_MAX_PIXELS) {
        g->failed = true;
        error_set(err, SMALTI_ERR_MODEL, g->af.path, 0, "a GIF frame of %dx%d pixels is too large; lower --pixel-size",
                     f->left + f->width, f->top + f->height);
        return false;
    }
    if (!g->started && !start(g, f, err)) return false;
    GraphicsControlBlock gcb = {
        .DisposalMode = DISPOSE_DO_NOT,
        .UserInputFlag = false,
        .DelayTime = f->delay_cs,
        .TransparentColor = f->color_count,
    };
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR) return gif_failed(g, g->gif->Error, err);
    bool same = f->color_count == g->global_count &&
                memcmp(f->colors, g->global, (size_t)f->color_count * sizeof *f->colors) == 0;
    ColorMapObject *local = same ? NULL : make_map(f->colors, f->color_count);
    if (!same && !local) return gif_failed(g, E_GIF_ERR_NOT_ENOUGH_MEM, err);
    if (same && g->gif->Image.ColorMap) {
        /* giflib forgets, without freeing, the previous frame's own table when a frame has none. */
        GifFreeMapObject(g->gif->Image.ColorMap);
        g->gif->Image.ColorMap = NULL;
    }
    int rc = EGifPutImageDesc(g->gif, f->left, f->top, f->width, f->height, false, local);
    if (local) GifFreeMapObject(local);
    if (rc == GIF_ERROR) return gif_failed(g, g->gif->Error, err);
    if (f->left + f->width > g->max_w) g->max_w = f->left + f->width;
    if (f->top + f->height > g->max_h) g->max_h = f->top + f->height;
    g->frames++;
    g->pixels_left = (long)f->width * f->height;
    if (g->lzw) {
        /* The code size giflib wrote after the descriptor: the table's bits, at least 2. */
        int bits = 1;
        while ((1 << bits) < map_size(f->color_count)) bits++;
        g->first_block = true;
        g->block_error = 0;
        lzw_begin(g->lzw, bits < 2 ? 2 : bits, put_block, g);
    }
    return true;
}

bool gif_anim_row(gif_anim *g, unsigned char *row, int width, smalti_error *err)
{
    if (g->failed) return false;
    if (!g->lzw) {
        if (EGifPutLine(g->gif, row, width) == GIF_ERROR) return gif_failed(g, g->gif->Error, err);
        return true;
    }
    lzw_pixels(g->lzw, row, width);
    g->pixels_left -= width;
    if (g->pixels_left <= 0) {
        if (!lzw_end(g->lzw)) return gif_failed(g, E_GIF_ERR_NOT_ENOUGH_MEM, err);
        if (!g->block_error && EGifPutCodeNext(g->gif, NULL) == GIF_ERROR) g->block_error = g->gif->Error;
    }
    if (g->block_error) return gif_failed(g, g->block_error, err);
    return true;
}

void gif_anim_use_giflib_lzw(gif_anim *g)
{
    lzw_free(g->lzw);
    g->lzw = NULL;
}

long gif_anim_frames(const gif_anim *g) { return g->frames; }

static void put_le16(FILE *f, int v)
{
    fputc(v & 0xff, f);
    fputc((v >> 8) & 0xff, f);
}

bool gif_anim_close(gif_anim *g, smalti_error *err)
{
    int code = 0;
    bool ok = !g->failed && g->started;
    if (!g->failed && !g->started) error_set(err, SMALTI_ERR_RUNTIME, g->af.path, 0, "the animation has no frame");
    if (EGifCloseFile(g->gif, &code) == GIF_ERROR && ok) ok = gif_failed(g, code, err);
    /* A later frame (a map node's larger grid) may reach past the screen the
       first one set: widen the logical screen in the header, "GIF89a" then width and height. */
    if (ok && (g->max_w > g->screen_w || g->max_h > g->screen_h)) {
        ok = fflush(g->af.f) == 0 && fseek(g->af.f, 6, SEEK_SET) == 0;
        if (ok) {
            put_le16(g->af.f, g->max_w > g->screen_w ? g->max_w : g->screen_w);
            put_le16(g->af.f, g->max_h > g->screen_h ? g->max_h : g->screen_h);
        } else {
            /* A pipe cannot go back to the header. */
            error_set(err, SMALTI_ERR_IO, g->af.path, 0, "cannot widen the GIF's picture in its header: %s", strerror(errno));
        }
    }
    if (ok) ok = atomic_commit(&g->af, err);
    else atomic_abort(&g->af);
    lzw_free(g->lzw);
    mem_free(g);
    return ok;
}

void gif_anim_abort(gif_anim *g)
{
    if (!g) return;
    EGifCloseFile(g->gif, NULL);
    atomic_abort(&g->af);
    lzw_free(g->lzw);
    mem_free(g);
}
