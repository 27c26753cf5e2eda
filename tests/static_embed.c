/* static_embed.c — a program linked with the static libsmalti.a and with libpng calls both, and each
   call reaches its own library: libsmalti.a once defined its own png_write_rows, and a host's call
   to libpng's was bound to it. Usage: static_embed (prints one line; exit 0 when both libraries worked). */
#include "smalti.h"
#include <png.h>
#include <stdio.h>
#include <string.h>

enum { W = 5, H = 3 };

typedef struct { unsigned char data[4096]; size_t len; int overflow; } membuf;

static void mem_write(png_structp png, png_bytep bytes, png_size_t n)
{
    membuf *b = png_get_io_ptr(png);
    if (b->len + n > sizeof b->data) { b->overflow = 1; return; }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void mem_flush(png_structp png) { (void)png; }

/* A W x H grey picture written with libpng's png_write_rows, one row a call, into memory. */
static int write_png(membuf *out, unsigned char pixels[H][W])
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) return 0;
    if (setjmp(png_jmpbuf(png))) { png_destroy_write_struct(&png, &info); return 0; }
    png_set_write_fn(png, out, mem_write, mem_flush);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < H; y++) {
        png_bytep row = pixels[y];
        png_write_rows(png, &row, 1);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return !out->overflow;
}

/* libpng's reader gives back the pixels written: the rows went through libpng's writer. */
static int png_reads_back(const membuf *in, unsigned char pixels[H][W])
{
    if (in->len < 8 || png_sig_cmp(in->data, 0, 8) != 0) return 0;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, in->data, in->len)) return 0;
    image.format = PNG_FORMAT_GRAY;
    unsigned char back[H][W];
    int ok = image.width == W && image.height == H && png_image_finish_read(&image, NULL, back, W, NULL);
    png_image_free(&image);
    return ok && memcmp(back, pixels, sizeof back) == 0;
}

int main(void)
{
    unsigned char pixels[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) pixels[y][x] = (unsigned char)(40 * x + 70 * y);
    membuf png = {.len = 0};
    if (!write_png(&png, pixels) || !png_reads_back(&png, pixels)) {
        printf("libpng: png_write_rows did not write the picture (%zu bytes)\n", png.len);
        return 1;
    }

    /* smalti through its API: 25 cells turned white one a step, then one step that finds none. */
    smalti_error err;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 5;
    opt.mz = 1;
    smalti_model *model = smalti_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\"/>", "embed.xml", &opt, &err);
    if (!model) { printf("smalti: %s:%d: %s\n", err.file, err.line, err.message); return 1; }
    smalti_run *run = smalti_run_new(model, 7, &err);
    long steps = run ? smalti_run_to_end(run, 0) : -1;
    int mx = 0, my = 0, mz = 0, white = 0;
    const unsigned char *cells = run ? smalti_run_grid(run, &mx, &my, &mz) : NULL;
    for (int i = 0; cells && i < mx * my * mz; i++) white += cells[i] == 1;
    int ok = steps == 26 && white == 25 && strcmp(smalti_version(), SMALTI_VERSION) == 0;
    printf("libpng %s wrote and read back a %dx%d PNG of %zu bytes; smalti %s ran %ld steps, %d of %d cells white: %s\n",
           png_get_libpng_ver(NULL), W, H, png.len, smalti_version(), steps, white, mx * my * mz, ok ? "ok" : "FAILED");
    smalti_run_free(run);
    smalti_model_free(model);
    return ok ? 0 : 1;
}
