/* contact_sheet.c — compose PNG pictures into one labelled grid of thumbnails (docs/gallery.png).
 *
 * usage: contact_sheet OUT.png CELL COLUMNS PICTURE LABEL [PICTURE LABEL ...]
 *
 * Each picture is shrunk (or enlarged) to fit a CELL x CELL box, keeping its aspect, by
 * nearest-neighbour sampling: the models' pictures are flat colours, and sampling keeps
 * them flat, so the sheet stays sharp and compresses well. Its label is written under it in
 * stb_easy_font's bitmap font. A build tool only (docs/pictures.mk), not part of smalti. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#include <stb/stb_easy_font.h>

enum { MARGIN = 8, LABEL_HEIGHT = 18 };
static const unsigned char BACKGROUND[3] = {0x20, 0x20, 0x24};
static const unsigned char INK[3] = {0xE8, 0xE8, 0xE8};

typedef struct {
    unsigned char *rgb;
    int width, height;
} canvas;

static void fill_rect(canvas *c, int x0, int y0, int x1, int y1, const unsigned char color[3]) {
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->width) x1 = c->width;
    if (y1 > c->height) y1 = c->height;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) memcpy(c->rgb + 3 * ((size_t)y * c->width + x), color, 3);
}

/* stb_easy_font gives axis-aligned quads (4 vertices of 16 bytes: x, y, z floats and a colour). */
/* Labels are drawn at twice the font's size (letters set closer, or at the font's own size, when a
   label would not fit its cell). */
static void draw_text(canvas *c, int x, int y, int scale, const char *text) {
    static char vertices[64 * 1024];
    char buffer[256];
    snprintf(buffer, sizeof buffer, "%s", text);
    int quads = stb_easy_font_print(0, 0, buffer, NULL, vertices, sizeof vertices);
    for (int q = 0; q < quads; q++) {
        const float *v0 = (const float *)(vertices + q * 64);
        const float *v2 = (const float *)(vertices + q * 64 + 32);
        fill_rect(c, x + (int)(v0[0] * scale), y + (int)(v0[1] * scale), x + (int)(v2[0] * scale),
                  y + (int)(v2[1] * scale), INK);
    }
}

static int text_width(int scale, const char *text) {
    char buffer[256];
    snprintf(buffer, sizeof buffer, "%s", text);
    return stb_easy_font_width(buffer) * scale;
}

/* The picture scaled to fit cell x cell, centred in the box whose top left corner is (x, y). */
static void draw_thumbnail(canvas *c, int x, int y, int cell, const unsigned char *rgb, int w, int h) {
    double scale = (double)cell / (w > h ? w : h);
    int tw = (int)(w * scale + 0.5), th = (int)(h * scale + 0.5);
    if (tw < 1) tw = 1;
    if (th < 1) th = 1;
    int ox = x + (cell - tw) / 2, oy = y + (cell - th);
    for (int ty = 0; ty < th; ty++)
        for (int tx = 0; tx < tw; tx++) {
            int sx = (int)((tx + 0.5) / scale), sy = (int)((ty + 0.5) / scale);
            if (sx >= w) sx = w - 1;
            if (sy >= h) sy = h - 1;
            memcpy(c->rgb + 3 * ((size_t)(oy + ty) * c->width + ox + tx), rgb + 3 * ((size_t)sy * w + sx), 3);
        }
}

int main(int argc, char **argv) {
    if (argc < 6 || (argc - 4) % 2 != 0) {
        fprintf(stderr, "usage: contact_sheet OUT.png CELL COLUMNS PICTURE LABEL [PICTURE LABEL ...]\n");
        return 2;
    }
    int cell = atoi(argv[2]), columns = atoi(argv[3]), count = (argc - 4) / 2;
    if (cell < 16 || cell > 2048 || columns < 1 || columns > 64) {
        fprintf(stderr, "contact_sheet: CELL must be 16..2048 and COLUMNS 1..64\n");
        return 2;
    }
    int rows = (count + columns - 1) / columns;
    canvas sheet = {NULL, MARGIN + columns * (cell + MARGIN), MARGIN + rows * (cell + LABEL_HEIGHT + MARGIN)};
    sheet.rgb = malloc((size_t)sheet.width * sheet.height * 3);
    if (!sheet.rgb) {
        fprintf(stderr, "contact_sheet: out of memory\n");
        return 7;
    }
    fill_rect(&sheet, 0, 0, sheet.width, sheet.height, BACKGROUND);
    for (int i = 0; i < count; i++) {
        const char *path = argv[4 + 2 * i], *label = argv[5 + 2 * i];
        int w, h, channels;
        unsigned char *rgb = stbi_load(path, &w, &h, &channels, 3);
        if (!rgb) {
            fprintf(stderr, "%s: cannot read the picture (%s)\n", path, stbi_failure_reason());
            free(sheet.rgb);
            return 5;
        }
        int x = MARGIN + (i % columns) * (cell + MARGIN), y = MARGIN + (i / columns) * (cell + LABEL_HEIGHT + MARGIN);
        draw_thumbnail(&sheet, x, y, cell, rgb, w, h);
        stb_easy_font_spacing(0);
        if (text_width(2, label) > cell - 4) stb_easy_font_spacing(-1); /* a long label: tighter letters */
        int scale = text_width(2, label) <= cell - 4 ? 2 : 1;
        draw_text(&sheet, x + (cell - text_width(scale, label)) / 2, y + cell + 4 + (2 - scale) * 3, scale, label);
        stbi_image_free(rgb);
    }
    stbi_write_png_compression_level = 9;
    int ok = stbi_write_png(argv[1], sheet.width, sheet.height, 3, sheet.rgb, sheet.width * 3);
    free(sheet.rgb);
    if (!ok) {
        fprintf(stderr, "%s: cannot write the picture\n", argv[1]);
        return 5;
    }
    return 0;
}
