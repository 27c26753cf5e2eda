/* iso.c — the isometric picture of a 3-D grid, drawn as the reference's
   Graphics.IsometricRender draws it: one shaded cube sprite per visible
   non-empty cell, outlined where a neighbour is missing, on its background.

   Screen axes: +x runs down-right, +y down-left, +z up; the viewer sits on the
   +x+y+z side, so the cells on the diagonal layer x+y+z = k are drawn after
   (in front of) those with a smaller k. Value 0 is empty and never drawn. */
#include "output.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "../core/mem.h"

/* The reference's pictures are never larger than this many pixels in practice;
   the bound keeps a huge grid from asking for gigabytes. */
#define ISO_MAX_PIXELS (1LL << 27)

/* Sprite shades: a grey level the cell's colour is multiplied by (/256), or none. */
enum { SHADE_TOP = 215, SHADE_LEFT = 143, SHADE_RIGHT = 71, SHADE_LINE = 0, SHADE_NONE = -1 };

/* Outline pieces of a cube sprite; each is drawn when the neighbours say that
   edge is a silhouette or a crease. */
enum {
    EDGE_FRONT_RIGHT,  /* the right half of the front vertical seam, lit: no cell at y+1 */
    EDGE_FRONT_LEFT,   /* its left half, lit: no cell at x+1 */
    EDGE_LEFT_SIDE,    /* the leftmost vertical line */
    EDGE_TOP_LEFT,     /* the upper-left border of the top face */
    EDGE_RIGHT_SIDE,   /* the rightmost vertical line */
    EDGE_TOP_RIGHT,    /* the upper-right border of the top face */
    EDGE_BOTTOM_RIGHT, /* the lower-right border */
    EDGE_BOTTOM_LEFT,  /* the lower-left border */
    EDGE_COUNT
};
#define CELL_DRAWN (1u << EDGE_COUNT)

/* The shade of sprite point (x, y) of a cube of side s: x runs from 1-s to s
   left to right, y from s-1 down to 1-s. The hexagon's top face is lit, its
   left face half lit and its right face dark. */
static int cube_shade(int x, int y, int s)
{
    bool outside = 2 * y - x >= 2 * s || 2 * y + x > 2 * s || 2 * y - x < -2 * s || 2 * y + x <= -2 * s;
    if (outside) return SHADE_NONE;
    if (x > 0 && 2 * y < x) return SHADE_RIGHT;
    if (x <= 0 && 2 * y <= -x) return SHADE_LEFT;
    return SHADE_TOP;
}

static int edge_shade(int edge, int x, int y, int s)
{
    switch (edge) {
    case EDGE_FRONT_RIGHT: return x == 1 && y <= 0 ? SHADE_TOP : SHADE_NONE;
    case EDGE_FRONT_LEFT: return x == 0 && y <= 0 ? SHADE_TOP : SHADE_NONE;
    case EDGE_LEFT_SIDE: return x == 1 - s && 2 * y < s && 2 * y >= -s ? SHADE_LINE : SHADE_NONE;
    case EDGE_TOP_LEFT: return x <= 0 && y == x / 2 + s - 1 ? SHADE_LINE : SHADE_NONE;
    case EDGE_RIGHT_SIDE: return x == s && 2 * y < s && 2 * y >= -s ? SHADE_LINE : SHADE_NONE;
    case EDGE_TOP_RIGHT: return x > 0 && y == s - (x + 1) / 2 ? SHADE_LINE : SHADE_NONE;
    case EDGE_BOTTOM_RIGHT: return x > 0 && y == (x + 1) / 2 - s ? SHADE_LINE : SHADE_NONE;
    default: return x <= 0 && y == 1 - s - x / 2 ? SHADE_LINE : SHADE_NONE; /* EDGE_BOTTOM_LEFT */
    }
}

typedef struct sprite {
    int width, height; /* 2s by 2s-1 */
    short *layer[1 + EDGE_COUNT]; /* the cube, then each outline piece */
} sprite;

static bool sprite_make(sprite *sp, int s)
{
    sp->width = 2 * s;
    sp->height = 2 * s - 1;
    size_t n = (size_t)sp->width * sp->height;
    short *all = mem_malloc(sizeof(short) * n * (1 + EDGE_COUNT));
    if (!all) return false;
    for (int k = 0; k <= EDGE_COUNT; k++) {
        sp->layer[k] = all + n * k;
        for (int j = 0; j < sp->height; j++)
            for (int i = 0; i < sp->width; i++) {
                int x = i - s + 1, y = s - 1 - j;
                sp->layer[k][i + j * sp->width] = (short)(k == 0 ? cube_shade(x, y, s) : edge_shade(k - 1, x, y, s));
            }
    }
    return true;
}

typedef struct canvas {
    uint32_t *pixels;
    int width, height;
} canvas;

/* Paint the shaded pixels of one sprite layer with its top-left corner at (left, top). */
static void blit(canvas *cv, const sprite *sp, const short *layer, int left, int top, uint32_t rgb)
{
    unsigned r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
    for (int dy = 0; dy < sp->height; dy++) {
        int y = top + dy;
        if (y < 0 || y >= cv->height) continue;
        for (int dx = 0; dx < sp->width; dx++) {
            int shade = layer[dx + dy * sp->width], x = left + dx;
            if (shade < 0 || x < 0 || x >= cv->width) continue;
            /* The reference computes (float)c * shade / 256 and truncates; both
               products are exact in float, so this is the same integer. */
            cv->pixels[x + (size_t)y * cv->width] =
                ((r * (unsigned)shade) >> 8) << 16 | ((g * (unsigned)shade) >> 8) << 8 | (b * (unsigned)shade) >> 8;
        }
    }
}

void iso_image_size(int mx, int my, int mz, int block_size, int64_t *width, int64_t *height)
{
    *width = ((int64_t)mx + my + 2) * block_size;
    *height = ((int64_t)(mx + my) / 2 + mz + 2) * block_size;
}

/* Which outline pieces cell (x, y, z) shows, from its six neighbours and a
   few diagonal ones (a neighbour outside the grid counts as empty). */
static unsigned cell_edges(const grid_view *g, int x, int y, int z)
{
    int mx = g->mx, my = g->my, mz = g->mz;
    ptrdiff_t sx = 1, sy = mx, sz = (ptrdiff_t)mx * my;
    const unsigned char *c = g->cells + x + y * sy + z * sz;
    bool no_xm = x == 0 || !c[-sx], no_ym = y == 0 || !c[-sy], no_zm = z == 0 || !c[-sz];
    bool has_yp = y < my - 1 && c[sy], has_xp = x < mx - 1 && c[sx], has_zp = z < mz - 1;
    unsigned e = 0;
    if (!has_yp) e |= 1u << EDGE_FRONT_RIGHT;
    if (!has_xp) e |= 1u << EDGE_FRONT_LEFT;
    if (no_xm || (y < my - 1 && c[sy - sx])) e |= 1u << EDGE_LEFT_SIDE;
    if (no_xm || (has_zp && c[sz - sx])) e |= 1u << EDGE_TOP_LEFT;
    if (no_ym || (x < mx - 1 && c[sx - sy])) e |= 1u << EDGE_RIGHT_SIDE;
    if (no_ym || (has_zp && c[sz - sy])) e |= 1u << EDGE_TOP_RIGHT;
    if (no_zm || (x < mx - 1 && c[sx - sz])) e |= 1u << EDGE_BOTTOM_RIGHT;
    if (no_zm || (y < my - 1 && c[sy - sz])) e |= 1u << EDGE_BOTTOM_LEFT;
    return e;
}

/* Mark the cells that show on screen (no cell in front covers exactly the same
   hexagon: that one lies at (x+k, y+k, z+k)) with CELL_DRAWN and their edges. */
static void find_visible(const grid_view *g, uint16_t *marks, bool *covered)
{
    int mx = g->mx, my = g->my, mz = g->mz, layers = mx + my + mz - 2;
    int rows = mx + my + 2 * mz - 3;
    for (int k = layers - 1; k >= 0; k--)
        for (int z = 0; z < mz; z++)
            for (int y = 0; y < my; y++) {
                int x = k - y - z;
                if (x < 0 || x >= mx) continue;
                size_t i = (size_t)x + (size_t)y * mx + (size_t)z * mx * my;
                if (!g->cells[i]) continue;
                bool *spot = covered + (size_t)(x - y + my - 1) * rows + (x + y - 2 * z + 2 * mz - 2);
                if (*spot) continue;
                *spot = true;
                marks[i] = (uint16_t)(CELL_DRAWN | cell_edges(g, x, y, z));
            }
}

bool iso_size_ok(int mx, int my, int mz, int block_size)
{
    int64_t w, h;
    iso_image_size(mx, my, mz, block_size < 1 ? 1 : block_size, &w, &h);
    return w * h <= ISO_MAX_PIXELS;
}

uint32_t *iso_render(const grid_view *g, const uint32_t *colors, int block_size, int *width, int *height)
{
    int s = block_size < 1 ? 1 : block_size, mx = g->mx, my = g->my, mz = g->mz;
    int64_t w64, h64;
    iso_image_size(mx, my, mz, s, &w64, &h64);
    if (w64 * h64 > ISO_MAX_PIXELS) return NULL;
    size_t cells = (size_t)mx * my * mz;
    canvas cv = {mem_malloc(sizeof(uint32_t) * (size_t)(w64 * h64)), (int)w64, (int)h64};
    uint16_t *marks = mem_calloc(cells, sizeof *marks);
    bool *covered = mem_calloc((size_t)(mx + my - 1) * (mx + my + 2 * mz - 3), 1);
    sprite sp = {0};
    bool ok = cv.pixels && marks && covered && sprite_make(&sp, s);
    if (ok) {
        for (size_t p = 0; p < (size_t)(w64 * h64); p++) cv.pixels[p] = ISO_BACKGROUND;
        find_visible(g, marks, covered);
        /* Back to front by diagonal layer; in a layer by z, then y, as the reference. */
        for (int k = 0; k < mx + my + mz - 2; k++)
            for (int z = 0; z < mz; z++)
                for (int y = 0; y < my; y++) {
                    int x = k - y - z;
                    if (x < 0 || x >= mx) continue;
                    size_t i = (size_t)x + (size_t)y * mx + (size_t)z * mx * my;
                    if (!(marks[i] & CELL_DRAWN)) continue;
                    int left = cv.width / 2 + s * (x - y) - s;
                    int top = s + (mz - 1) * s + s * (x + y) / 2 - s * z;
                    uint32_t rgb = colors[g->cells[i]];
                    blit(&cv, &sp, sp.layer[0], left, top, rgb);
                    for (int e = 0; e < EDGE_COUNT; e++)
                        if (marks[i] & (1u << e)) blit(&cv, &sp, sp.layer[1 + e], left, top, rgb);
                }
    }
    mem_free(sp.layer[0]);
    mem_free(marks);
    mem_free(covered);
    if (!ok) {
        mem_free(cv.pixels);
        return NULL;
    }
    *width = cv.width;
    *height = cv.height;
    return cv.pixels;
}

static bool iso_png_size_ok(const char *path, int mx, int my, int mz, int block_size, smalti_error *err)
{
    int64_t w, h;
    iso_image_size(mx, my, mz, block_size, &w, &h);
    if (w * h <= ISO_MAX_PIXELS && png_size_ok(path, w, h, err)) return true;
    error_set(err, SMALTI_ERR_MODEL, path, 0, "isometric image of %lldx%lld pixels is too large; lower --pixel-size", (long long)w,
              (long long)h);
    return false;
}

bool grid_png_size_ok(const char *path, int mx, int my, int mz, int pixel_size, smalti_error *err)
{
    if (pixel_size < 1) pixel_size = 1;
    if (mz > 1) return iso_png_size_ok(path, mx, my, mz, pixel_size, err);
    return png_size_ok(path, (int64_t)mx * pixel_size, (int64_t)my * pixel_size, err);
}

bool save_iso_png(const char *path, const grid_view *g, const uint32_t *colors, int block_size, const temp_hook *temps,
                  smalti_error *err)
{
    if (block_size < 1) block_size = 1;
    if (!iso_png_size_ok(path, g->mx, g->my, g->mz, block_size, err)) return false;
    int width, height;
    uint32_t *pixels = iso_render(g, colors, block_size, &width, &height);
    if (!pixels) {
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory drawing the isometric image");
        return false;
    }
    bool ok = save_png_rgb(path, pixels, width, height, temps, err);
    mem_free(pixels);
    return ok;
}
