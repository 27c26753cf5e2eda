/* png.c — render a 2-D grid to PNG at a pixel size, through stb_image_write. */
#include "output.h"
#include <stdlib.h>
#include "../core/diag.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static void write_to_file(void *context, void *data, int size) { fwrite(data, 1, (size_t)size, context); }

bool save_png(const char *path, const grid_view *g, const uint32_t *colors, int pixel_size, ts_error *err)
{
    if (pixel_size < 1) pixel_size = 1;
    int64_t w = (int64_t)g->mx * pixel_size, h = (int64_t)g->my * pixel_size;
    if (w * h > (1LL << 28) || w > 65535 || h > 65535) {
        ts_error_set(err, TS_ERR_USAGE, path, 0, "image of %lldx%lld pixels is too large; lower --pixel-size", (long long)w, (long long)h);
        return false;
    }
    unsigned char *pixels = malloc((size_t)(w * h * 3));
    if (!pixels) {
        ts_error_set(err, TS_ERR_RUNTIME, path, 0, "out of memory");
        return false;
    }
    /* A 3-D grid without an isometric renderer shows its bottom layer. */
    for (int64_t py = 0; py < h; py++)
        for (int64_t px = 0; px < w; px++) {
            uint32_t c = colors[g->cells[px / pixel_size + (py / pixel_size) * g->mx]];
            unsigned char *p = pixels + 3 * (px + py * w);
            p[0] = (unsigned char)(c >> 16);
            p[1] = (unsigned char)(c >> 8);
            p[2] = (unsigned char)c;
        }
    atomic_file af;
    bool ok = atomic_open(&af, path, err);
    if (ok) {
        ok = stbi_write_png_to_func(write_to_file, af.f, (int)w, (int)h, 3, pixels, (int)w * 3) != 0;
        if (ok) ok = atomic_commit(&af, err);
        else {
            atomic_abort(&af);
            ts_error_set(err, TS_ERR_IO, path, 0, "PNG encoding failed");
        }
    }
    free(pixels);
    return ok;
}
