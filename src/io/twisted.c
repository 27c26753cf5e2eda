/* twisted.c — twisted maps: each block of cells drawn as one picture deformed into its lattice quad.
   The PNG maps every sample point back into its quad (inverse bilinear), so a block's cells bend
   together; the SVG gives each cell the quad whose corners bilinear interpolation puts in its block's
   quad; the OBJ is the lattice as a quad mesh whose texture coordinates are the straight grid. */
#include "twisted.h"
#include "escape.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../core/diag.h"

#define SUPERSAMPLE 4

bool twisted_kind(const char *ext)
{
    return strcasecmp(ext, ".png") == 0 || strcasecmp(ext, ".svg") == 0 || strcasecmp(ext, ".obj") == 0 ||
           strcasecmp(ext, ".json") == 0;
}

typedef struct blocks {
    int bx, by; /* cells per quad, across and down */
} blocks;

bool twisted_blocks(const char *path, const grid_view *g, const twisted_lattice *t, int *bx, int *by, smalti_error *err)
{
    if (g->mx % (t->nx - 1) || g->my % (t->ny - 1)) {
        error_set(err, SMALTI_ERR_RUNTIME, path, 0,
                  "the grid, %dx%d, is not a whole number of blocks of the growgrid lattice's %dx%d quads, so it has no twisted map",
                  g->mx, g->my, t->nx - 1, t->ny - 1);
        return false;
    }
    *bx = g->mx / (t->nx - 1);
    *by = g->my / (t->ny - 1);
    return true;
}

static bool blocks_of(const char *path, const grid_view *g, const twisted_lattice *t, blocks *b, smalti_error *err)
{
    if (g->mz > 1) {
        error_set(err, SMALTI_ERR_USAGE, path, 0, "a twisted map needs a 2-D grid, and this one is %dx%dx%d", g->mx, g->my, g->mz);
        return false;
    }
    return twisted_blocks(path, g, t, &b->bx, &b->by, err);
}

static inline double cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

/* (s,t) in [0,1]^2 with bilinear(a,b,c,d; s,t) = p, where a,b,c,d are the quad's corners (i,j), (i+1,j),
   (i+1,j+1), (i,j+1); false when p is outside the quad. */
static bool inverse_bilinear(const double *qx, const double *qy, double px, double py, double *s, double *t)
{
    double ex = qx[1] - qx[0], ey = qy[1] - qy[0], fx = qx[3] - qx[0], fy = qy[3] - qy[0];
    double gx = qx[0] - qx[1] + qx[2] - qx[3], gy = qy[0] - qy[1] + qy[2] - qy[3];
    double hx = px - qx[0], hy = py - qy[0];
    double k2 = cross(gx, gy, fx, fy), k1 = cross(ex, ey, fx, fy) + cross(hx, hy, gx, gy), k0 = cross(hx, hy, ex, ey);
    double roots[2];
    int count = 0;
    if (fabs(k2) < 1e-12 * (fabs(k1) + 1e-300)) {
        if (k1 == 0) return false;
        roots[count++] = -k0 / k1;
    } else {
        double disc = k1 * k1 - 4 * k0 * k2;
        if (disc < 0) return false;
        double w = sqrt(disc);
        /* the numerically stable pair of roots */
        double q = -0.5 * (k1 + (k1 >= 0 ? w : -w));
        roots[count++] = q / k2;
        if (q != 0) roots[count++] = k0 / q;
    }
    for (int r = 0; r < count; r++) {
        double v = roots[r];
        if (!(v >= -1e-9 && v <= 1 + 1e-9)) continue;
        double dx = ex + gx * v, dy = ey + gy * v;
        double u = fabs(dx) >= fabs(dy) ? (hx - fx * v) / dx : (hy - fy * v) / dy;
        if (!(u >= -1e-9 && u <= 1 + 1e-9)) continue;
        *s = u < 0 ? 0 : u > 1 ? 1 : u;
        *t = v < 0 ? 0 : v > 1 ? 1 : v;
        return true;
    }
    return false;
}

static void quad_corners(const twisted_lattice *t, int i, int j, double sx, double sy, double *qx, double *qy)
{
    int a = i + j * t->nx;
    const int idx[4] = {a, a + 1, a + 1 + t->nx, a + t->nx};
    for (int k = 0; k < 4; k++) {
        qx[k] = t->x[idx[k]] * sx;
        qy[k] = t->y[idx[k]] * sy;
    }
}

uint32_t *twisted_render(const grid_view *g, const uint32_t *colors, const twisted_lattice *t, int pixel_size, int *w, int *h,
                         smalti_error *err)
{
    blocks b;
    if (!blocks_of("<png>", g, t, &b, err)) return NULL;
    int64_t W = (int64_t)g->mx * pixel_size, H = (int64_t)g->my * pixel_size;
    if (!png_size_ok("<png>", W, H, err)) return NULL;
    /* per pixel: sums of the samples' red, green, blue, and how many samples a quad covered */
    uint32_t *sum = calloc((size_t)(W * H), 4 * sizeof *sum);
    uint32_t *out = malloc((size_t)(W * H) * sizeof *out);
    if (!sum || !out) {
        free(sum);
        free(out);
        error_set(err, SMALTI_ERR_RUNTIME, "<png>", 0, "out of memory drawing the twisted map");
        return NULL;
    }
    double unit_x = (double)b.bx * pixel_size, unit_y = (double)b.by * pixel_size; /* pixels per lattice unit */
    const double step = 1.0 / SUPERSAMPLE;
    for (int j = 0; j < t->ny - 1; j++)
        for (int i = 0; i < t->nx - 1; i++) {
            double qx[4], qy[4];
            quad_corners(t, i, j, unit_x, unit_y, qx, qy);
            double x0 = qx[0], x1 = qx[0], y0 = qy[0], y1 = qy[0];
            for (int k = 1; k < 4; k++) {
                x0 = fmin(x0, qx[k]); x1 = fmax(x1, qx[k]);
                y0 = fmin(y0, qy[k]); y1 = fmax(y1, qy[k]);
            }
            int px0 = (int)fmax(0, floor(x0)), px1 = (int)fmin((double)W - 1, floor(x1));
            int py0 = (int)fmax(0, floor(y0)), py1 = (int)fmin((double)H - 1, floor(y1));
            for (int py = py0; py <= py1; py++)
                for (int px = px0; px <= px1; px++) {
                    uint32_t *acc = sum + 4 * ((int64_t)py * W + px);
                    for (int sy = 0; sy < SUPERSAMPLE; sy++)
                        for (int sx = 0; sx < SUPERSAMPLE; sx++) {
                            double s, u;
                            if (!inverse_bilinear(qx, qy, px + (sx + 0.5) * step, py + (sy + 0.5) * step, &s, &u)) continue;
                            if (acc[3] >= SUPERSAMPLE * SUPERSAMPLE) continue; /* a neighbour's edge took it already */
                            int cx = i * b.bx + (int)fmin(b.bx - 1, floor(s * b.bx));
                            int cy = j * b.by + (int)fmin(b.by - 1, floor(u * b.by));
                            uint32_t c = colors[g->cells[cx + (int64_t)cy * g->mx]];
                            acc[0] += (c >> 16) & 255;
                            acc[1] += (c >> 8) & 255;
                            acc[2] += c & 255;
                            acc[3]++;
                        }
                }
        }
    const uint32_t n = SUPERSAMPLE * SUPERSAMPLE;
    for (int64_t p = 0; p < W * H; p++) {
        const uint32_t *acc = sum + 4 * p;
        uint32_t rest = n - acc[3];
        uint32_t r = acc[0] + rest * ((TWISTED_BACKGROUND >> 16) & 255), gg = acc[1] + rest * ((TWISTED_BACKGROUND >> 8) & 255),
                 bb = acc[2] + rest * (TWISTED_BACKGROUND & 255);
        out[p] = ((r + n / 2) / n) << 16 | ((gg + n / 2) / n) << 8 | ((bb + n / 2) / n);
    }
    free(sum);
    *w = (int)W;
    *h = (int)H;
    return out;
}

void twisted_bilinear(const twisted_lattice *t, int i, int j, double s, double u, double *x, double *y)
{
    double qx[4], qy[4];
    quad_corners(t, i, j, 1, 1, qx, qy);
    *x = (1 - s) * (1 - u) * qx[0] + s * (1 - u) * qx[1] + s * u * qx[2] + (1 - s) * u * qx[3];
    *y = (1 - s) * (1 - u) * qy[0] + s * (1 - u) * qy[1] + s * u * qy[2] + (1 - s) * u * qy[3];
}

static bool save_svg(const char *path, const grid_view *g, const uint32_t *colors, const twisted_lattice *t, const blocks *b,
                     int pixel_size, const temp_hook *temps, smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, path, temps, err)) return false;
    FILE *f = af.f;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", g->mx * pixel_size,
            g->my * pixel_size, g->mx, g->my);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n", g->mx, g->my, TWISTED_BACKGROUND);
    /* each cell a polygon; a thin stroke of its own colour hides the seams anti-aliasing leaves between neighbours */
    fprintf(f, "<g stroke-width=\"0.03\" stroke-linejoin=\"round\">\n");
    for (int cy = 0; cy < g->my; cy++)
        for (int cx = 0; cx < g->mx; cx++) {
            int i = cx / b->bx, j = cy / b->by, a = cx % b->bx, c = cy % b->by;
            double corner_s[4] = {a, a + 1, a + 1, a}, corner_t[4] = {c, c, c + 1, c + 1};
            uint32_t colour = colors[g->cells[cx + (int64_t)cy * g->mx]] & 0xFFFFFF;
            fprintf(f, "<polygon fill=\"#%06x\" stroke=\"#%06x\" points=\"", colour, colour);
            for (int k = 0; k < 4; k++) {
                double x, y;
                twisted_bilinear(t, i, j, corner_s[k] / b->bx, corner_t[k] / b->by, &x, &y);
                fprintf(f, "%s%.4f,%.4f", k ? " " : "", x * b->bx, y * b->by);
            }
            fprintf(f, "\"/>\n");
        }
    fprintf(f, "</g>\n</svg>\n");
    return atomic_commit(&af, err);
}

char *twisted_sibling(const char *path, const char *ext, const char *suffix)
{
    size_t stem = strlen(path) - strlen(ext);
    char *s = malloc(stem + strlen(suffix) + 1);
    if (!s) return NULL;
    memcpy(s, path, stem);
    strcpy(s + stem, suffix);
    return s;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool save_obj(const char *path, const char *ext, const grid_view *g, const uint32_t *colors, const twisted_lattice *t,
                     const blocks *b, int pixel_size, const temp_hook *temps, smalti_error *err)
{
    char *mtl = twisted_sibling(path, ext, ".mtl"), *tex = twisted_sibling(path, ext, "_texture.png");
    bool ok = mtl && tex;
    if (!ok) error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
    /* the texture: the straight grid, one picture the mesh's texture coordinates index */
    ok = ok && save_png(tex, g, colors, pixel_size, temps, err);
    atomic_file af;
    if (ok && (ok = atomic_open(&af, mtl, temps, err))) {
        fprintf(af.f, "# smalti twisted map material\nnewmtl map\nKa 1 1 1\nKd 1 1 1\nKs 0 0 0\nillum 1\nmap_Kd %s\n", base_name(tex));
        ok = atomic_commit(&af, err);
    }
    if (ok && (ok = atomic_open(&af, path, temps, err))) {
        FILE *f = af.f;
        /* one vertex and one texture coordinate per lattice point, in cells, y up; faces turn counter-clockwise */
        fprintf(f, "# smalti twisted map: %dx%d points, %dx%d quads of %dx%d cells\nmtllib %s\nusemtl map\n", t->nx, t->ny, t->nx - 1,
                t->ny - 1, b->bx, b->by, base_name(mtl));
        for (int k = 0; k < t->nx * t->ny; k++) fprintf(f, "v %.6f %.6f 0\n", t->x[k] * b->bx, -t->y[k] * b->by);
        for (int j = 0; j < t->ny; j++)
            for (int i = 0; i < t->nx; i++)
                fprintf(f, "vt %.6f %.6f\n", (double)i / (t->nx - 1), 1 - (double)j / (t->ny - 1));
        for (int j = 0; j < t->ny - 1; j++)
            for (int i = 0; i < t->nx - 1; i++) {
                int a = i + j * t->nx + 1; /* OBJ counts from 1 */
                fprintf(f, "f %d/%d %d/%d %d/%d %d/%d\n", a, a, a + 1, a + 1, a + 1 + t->nx, a + 1 + t->nx, a + t->nx, a + t->nx);
            }
        ok = atomic_commit(&af, err);
    }
    free(mtl);
    free(tex);
    return ok;
}

/* Layer z's rows of values, each row on a line of its own that starts with newline_indent. */
static void write_layer(FILE *f, const grid_view *g, int z, const char *newline_indent)
{
    const unsigned char *layer = g->cells + (int64_t)z * g->mx * g->my;
    for (int y = 0; y < g->my; y++) {
        fprintf(f, "%s%s", y ? "," : "", newline_indent);
        for (int x = 0; x < g->mx; x++) fprintf(f, "%s%d", x ? "," : "[", layer[x + (int64_t)y * g->mx]);
        fprintf(f, "]");
    }
}

/* The points and the cells' values: cells[y][x], or in 3-D (with "depth") cells[z][y][x]. */
static bool save_json(const char *path, const grid_view *g, const twisted_lattice *t, const blocks *b, const temp_hook *temps,
                      smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, path, temps, err)) return false;
    FILE *f = af.f;
    fprintf(f, "{\n  \"width\": %d,\n  \"height\": %d,\n", g->mx, g->my);
    if (g->mz > 1) fprintf(f, "  \"depth\": %d,\n", g->mz);
    fprintf(f, "  \"legend\": ");
    json_write_string(f, g->legend, strlen(g->legend));
    fprintf(f, ",\n  \"points_x\": %d,\n  \"points_y\": %d,\n  \"block\": [%d, %d],\n  \"points\": [", t->nx, t->ny, b->bx, b->by);
    for (int k = 0; k < t->nx * t->ny; k++)
        fprintf(f, "%s[%.6f, %.6f]", k ? (k % t->nx ? ", " : ",\n    ") : "\n    ", t->x[k] * b->bx, t->y[k] * b->by);
    fprintf(f, "\n  ],\n  \"cells\": [");
    if (g->mz == 1) write_layer(f, g, 0, "\n    ");
    for (int z = 0; g->mz > 1 && z < g->mz; z++) {
        fprintf(f, "%s[", z ? ",\n    " : "\n    ");
        write_layer(f, g, z, "\n      ");
        fprintf(f, "\n    ]");
    }
    fprintf(f, "\n  ]\n}\n");
    return atomic_commit(&af, err);
}

bool save_twisted(const char *path, const char *ext, const grid_view *g, const uint32_t *colors, const twisted_lattice *t,
                  int pixel_size, const temp_hook *temps, smalti_error *err)
{
    const bool json = strcasecmp(ext, ".json") == 0;
    if (g->mz > 1 && !json) return save_twisted_3d(path, ext, g, colors, t, pixel_size, temps, err);
    blocks b;
    if (g->mz > 1 ? !twisted_blocks(path, g, t, &b.bx, &b.by, err) : !blocks_of(path, g, t, &b, err)) return false;
    if (strcasecmp(ext, ".svg") == 0) return save_svg(path, g, colors, t, &b, pixel_size, temps, err);
    if (strcasecmp(ext, ".obj") == 0) return save_obj(path, ext, g, colors, t, &b, pixel_size, temps, err);
    if (json) return save_json(path, g, t, &b, temps, err);
    int w, h;
    uint32_t *pixels = twisted_render(g, colors, t, pixel_size, &w, &h, err);
    if (!pixels) {
        if (err) snprintf(err->file, sizeof err->file, "%s", path);
        return false;
    }
    bool ok = save_png_rgb(path, pixels, w, h, temps, err);
    free(pixels);
    return ok;
}
