/* twisted3d_png.c — the isometric picture of a 3-D grid bent onto its lattice: the boxes' showing
   faces projected as the straight isometric picture projects cubes, drawn nearest-first by a depth
   buffer (the bent boxes need not stack in the diagonal order the straight picture relies on). */
#include "twisted3d.h"
#include <math.h>
#include <stdlib.h>
#include "../core/diag.h"

#define SAMPLES 3                /* samples a pixel, across and down */
#define MAX_SAMPLES (1LL << 27) /* bounds the buffers, as the straight picture bounds its pixels */

typedef struct canvas {
    int w, h;        /* in samples */
    double left, top; /* the projected point at sample (0, 0) */
    double scale;     /* samples per cube size */
    uint32_t *color;
    float *depth;
} canvas;

/* Screen position (in samples) and depth (larger is nearer the viewer on the +x+y+z side) of a corner. */
static void project(const canvas *cv, double x, double y, double z, double *sx, double *sy, double *depth)
{
    *sx = (x - y) * cv->scale - cv->left;
    *sy = ((x + y) / 2 - z) * cv->scale - cv->top;
    *depth = x + y + z;
}

static void fill_triangle(canvas *cv, const double *px, const double *py, const double *pd, uint32_t rgb)
{
    double area = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0]);
    if (fabs(area) < 1e-12) return;
    int x0 = (int)fmax(0, floor(fmin(px[0], fmin(px[1], px[2])))), x1 = (int)fmin(cv->w - 1, ceil(fmax(px[0], fmax(px[1], px[2]))));
    int y0 = (int)fmax(0, floor(fmin(py[0], fmin(py[1], py[2])))), y1 = (int)fmin(cv->h - 1, ceil(fmax(py[0], fmax(py[1], py[2]))));
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            double cx = x + 0.5, cy = y + 0.5;
            double w0 = ((px[1] - cx) * (py[2] - cy) - (px[2] - cx) * (py[1] - cy)) / area;
            double w1 = ((px[2] - cx) * (py[0] - cy) - (px[0] - cx) * (py[2] - cy)) / area;
            double w2 = 1 - w0 - w1;
            if (w0 < -1e-9 || w1 < -1e-9 || w2 < -1e-9) continue;
            float d = (float)(w0 * pd[0] + w1 * pd[1] + w2 * pd[2]);
            size_t k = (size_t)x + (size_t)y * (size_t)cv->w;
            if (d <= cv->depth[k]) continue;
            cv->depth[k] = d;
            cv->color[k] = rgb;
        }
}

typedef struct face_drawing {
    canvas *cv;
    const bent_grid *b;
    const uint32_t *colors;
} face_drawing;

/* A showing face, shaded, as two triangles. */
static void draw_face(void *ctx, int x, int y, int z, const box_face *bf, uint8_t value)
{
    const face_drawing *d = ctx;
    const bent_grid *b = d->b;
    uint32_t c = d->colors[value];
    unsigned s = (unsigned)bf->shade;
    uint32_t rgb = (((c >> 16) & 255) * s >> 8) << 16 | (((c >> 8) & 255) * s >> 8) << 8 | ((c & 255) * s >> 8);
    double sx[4], sy[4], sd[4];
    for (int k = 0; k < 4; k++) {
        size_t p = (size_t)(x + bf->corner[k][0]) + (size_t)(y + bf->corner[k][1]) * (size_t)(b->g->mx + 1);
        project(d->cv, b->x[p], b->y[p], z + bf->corner[k][2], &sx[k], &sy[k], &sd[k]);
    }
    double tx[3] = {sx[0], sx[2], sx[3]}, ty[3] = {sy[0], sy[2], sy[3]}, td[3] = {sd[0], sd[2], sd[3]};
    fill_triangle(d->cv, sx, sy, sd, rgb);
    fill_triangle(d->cv, tx, ty, td, rgb);
}

static void draw_faces(canvas *cv, const bent_grid *b, const uint32_t *colors)
{
    box_faces_each(b->g, draw_face, &(face_drawing){cv, b, colors});
}

/* The canvas spans every corner's projection with a margin of one cube. */
static bool canvas_frame(canvas *cv, const bent_grid *b, int pixel_size, const char *path, smalti_error *err)
{
    const grid_view *g = b->g;
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    size_t corners = (size_t)(g->mx + 1) * (size_t)(g->my + 1);
    for (size_t p = 0; p < corners; p++) {
        double sx = b->x[p] - b->y[p], sy = (b->x[p] + b->y[p]) / 2;
        x0 = fmin(x0, sx); x1 = fmax(x1, sx);
        y0 = fmin(y0, sy - g->mz); y1 = fmax(y1, sy);
    }
    cv->scale = (double)pixel_size * SAMPLES;
    cv->left = (x0 - 1) * cv->scale;
    cv->top = (y0 - 1) * cv->scale;
    int64_t w = (int64_t)ceil((x1 - x0 + 2) * pixel_size), h = (int64_t)ceil((y1 - y0 + 2) * pixel_size);
    if (!png_size_ok(path, w, h, err)) return false;
    if (w * h * SAMPLES * SAMPLES > MAX_SAMPLES) {
        error_set(err, SMALTI_ERR_USAGE, path, 0, "the bent isometric picture would be %lldx%lld pixels: take a smaller pixel size",
                  (long long)w, (long long)h);
        return false;
    }
    cv->w = (int)w * SAMPLES;
    cv->h = (int)h * SAMPLES;
    return true;
}

bool save_bent_iso_png(const char *path, const bent_grid *b, const uint32_t *colors, int pixel_size, const temp_hook *temps,
                       smalti_error *err)
{
    canvas cv;
    if (!canvas_frame(&cv, b, pixel_size, path, err)) return false;
    size_t n = (size_t)cv.w * (size_t)cv.h, W = (size_t)cv.w / SAMPLES, H = (size_t)cv.h / SAMPLES;
    cv.color = malloc(n * sizeof *cv.color);
    cv.depth = malloc(n * sizeof *cv.depth);
    uint32_t *out = malloc(W * H * sizeof *out);
    bool ok = cv.color && cv.depth && out;
    if (!ok) error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory drawing the bent grid");
    if (ok) {
        for (size_t k = 0; k < n; k++) {
            cv.color[k] = ISO_BACKGROUND;
            cv.depth[k] = -INFINITY;
        }
        draw_faces(&cv, b, colors);
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++) {
                unsigned r = 0, gg = 0, bb = 0;
                for (int sy = 0; sy < SAMPLES; sy++)
                    for (int sx = 0; sx < SAMPLES; sx++) {
                        uint32_t c = cv.color[x * SAMPLES + sx + (y * SAMPLES + sy) * (size_t)cv.w];
                        r += (c >> 16) & 255;
                        gg += (c >> 8) & 255;
                        bb += c & 255;
                    }
                const unsigned q = SAMPLES * SAMPLES;
                out[x + y * W] = (r + q / 2) / q << 16 | (gg + q / 2) / q << 8 | (bb + q / 2) / q;
            }
        ok = save_png_rgb(path, out, (int)W, (int)H, temps, err);
    }
    free(cv.color);
    free(cv.depth);
    free(out);
    return ok;
}
