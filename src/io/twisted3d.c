/* twisted3d.c — a 3-D grid on the lattice of its xy plane: each non-empty cell's box bent into its
   quad (the bilinear map of the quad's corners; z stays the height), written as an OBJ mesh of the
   faces between full and empty cells, with a material per value, or drawn isometrically (twisted3d_png.c). */
#include "twisted3d.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>
#include <limits.h>
#include "../core/diag.h"

/* The shades are those of the straight isometric picture: lit top, half-lit +y side, dark +x side. */
const box_face box_faces[BOX_FACES] = {
    {0, 0, 1, {{0, 1, 1}, {1, 1, 1}, {1, 0, 1}, {0, 0, 1}}, 215},
    {0, 0, -1, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 71},
    {1, 0, 0, {{1, 1, 0}, {1, 0, 0}, {1, 0, 1}, {1, 1, 1}}, 71},
    {-1, 0, 0, {{0, 1, 1}, {0, 0, 1}, {0, 0, 0}, {0, 1, 0}}, 143},
    {0, 1, 0, {{0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}}, 143},
    {0, -1, 0, {{0, 0, 1}, {1, 0, 1}, {1, 0, 0}, {0, 0, 0}}, 71},
};

static bool box_face_shows(const grid_view *g, int x, int y, int z, const box_face *f)
{
    const int64_t layer = (int64_t)g->mx * g->my;
    if (!g->cells[x + (int64_t)y * g->mx + z * layer]) return false;
    int nx = x + f->dx, ny = y + f->dy, nz = z + f->dz;
    if (nx < 0 || ny < 0 || nz < 0 || nx >= g->mx || ny >= g->my || nz >= g->mz) return true;
    return !g->cells[nx + (int64_t)ny * g->mx + nz * layer];
}

void box_faces_each(const grid_view *g, box_face_fn fn, void *ctx)
{
    for (int z = 0; z < g->mz; z++)
        for (int y = 0; y < g->my; y++)
            for (int x = 0; x < g->mx; x++)
                for (int f = 0; f < BOX_FACES; f++)
                    if (box_face_shows(g, x, y, z, &box_faces[f]))
                        fn(ctx, x, y, z, &box_faces[f], g->cells[x + (int64_t)y * g->mx + (int64_t)z * g->mx * g->my]);
}

bool bent_grid_make(bent_grid *b, const char *path, const grid_view *g, const twisted_lattice *t, smalti_error *err)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    if (!twisted_blocks(path, g, t, &b->bx, &b->by, err)) return false;
    size_t corners = (size_t)(g->mx + 1) * (size_t)(g->my + 1);
    b->x = malloc(corners * sizeof *b->x);
    b->y = malloc(corners * sizeof *b->y);
    if (!b->x || !b->y) {
        bent_grid_free(b);
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory bending the grid onto its lattice");
        return false;
    }
    for (int cy = 0; cy <= g->my; cy++)
        for (int cx = 0; cx <= g->mx; cx++) {
            /* the last row and column of corners lie on the far edges of the last quads */
            int i = cx / b->bx < t->nx - 1 ? cx / b->bx : t->nx - 2, j = cy / b->by < t->ny - 1 ? cy / b->by : t->ny - 2;
            double x, y;
            twisted_bilinear(t, i, j, (double)(cx - i * b->bx) / b->bx, (double)(cy - j * b->by) / b->by, &x, &y);
            size_t k = (size_t)cx + (size_t)cy * (size_t)(g->mx + 1);
            b->x[k] = x * b->bx;
            b->y[k] = y * b->by;
        }
    return true;
}

void bent_grid_free(bent_grid *b)
{
    free(b->x);
    free(b->y);
    b->x = b->y = NULL;
}

/* The index of corner (cx, cy, cz) among the (mx+1)*(my+1)*(mz+1) corners of the boxes. */
static size_t corner_index(const grid_view *g, int cx, int cy, int cz)
{
    return (size_t)cx + (size_t)(g->mx + 1) * ((size_t)cy + (size_t)(g->my + 1) * (size_t)cz);
}

/* A material name for value v: its symbol when a letter or digit, else its number. */
static void material_name(const grid_view *g, int v, char *buf, size_t size)
{
    unsigned char c = (unsigned char)g->legend[v];
    if (isalnum(c)) snprintf(buf, size, "value_%c", c);
    else snprintf(buf, size, "value_%d", v);
}

static bool save_mtl(const char *mtl, const grid_view *g, const uint32_t *colors, const bool *present, const temp_hook *temps,
                     smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, mtl, temps, err)) return false;
    fprintf(af.f, "# smalti twisted 3-D grid: a material per value, in palette colours\n");
    for (int v = 1; g->legend[v]; v++) {
        if (!present[v]) continue;
        char name[32];
        material_name(g, v, name, sizeof name);
        uint32_t c = colors[v];
        fprintf(af.f, "newmtl %s\nKd %.4f %.4f %.4f\nKa 0 0 0\nKs 0 0 0\nillum 1\n", name, ((c >> 16) & 255) / 255.0,
                ((c >> 8) & 255) / 255.0, (c & 255) / 255.0);
    }
    return atomic_commit(&af, err);
}

/* What the mesh's passes over the showing faces share: the grid, the corners' numbers (used), the
   values with a face (present), and for writing, the file and the one value written now. */
typedef struct mesh_pass {
    const grid_view *g;
    int *used;
    bool *present;
    FILE *f;
    uint8_t value;
} mesh_pass;

/* Mark each corner that a showing face uses (used[k] = 1), and each value that has one. */
static void mark_face(void *ctx, int x, int y, int z, const box_face *bf, uint8_t value)
{
    mesh_pass *m = ctx;
    m->present[value] = true;
    for (int k = 0; k < 4; k++) m->used[corner_index(m->g, x + bf->corner[k][0], y + bf->corner[k][1], z + bf->corner[k][2])] = 1;
}

/* An `f` line for a showing face of the value being written. */
static void write_face(void *ctx, int x, int y, int z, const box_face *bf, uint8_t value)
{
    const mesh_pass *m = ctx;
    if (value != m->value) return;
    fputc('f', m->f);
    for (int k = 0; k < 4; k++) fprintf(m->f, " %d", m->used[corner_index(m->g, x + bf->corner[k][0], y + bf->corner[k][1], z + bf->corner[k][2])]);
    fputc('\n', m->f);
}

static void write_mesh(FILE *f, const bent_grid *b, int *used, const bool *present, const char *mtl_name)
{
    const grid_view *g = b->g;
    int count = 0;
    fprintf(f, "# smalti twisted 3-D grid: %dx%dx%d cells on a lattice of %dx%d-cell quads; x, -y across, z up\nmtllib %s\n", g->mx,
            g->my, g->mz, b->bx, b->by, mtl_name);
    /* the vertices in corner order, numbered from 1 as OBJ counts */
    for (int cz = 0; cz <= g->mz; cz++)
        for (int cy = 0; cy <= g->my; cy++)
            for (int cx = 0; cx <= g->mx; cx++) {
                size_t k = corner_index(g, cx, cy, cz);
                if (!used[k]) continue;
                used[k] = ++count;
                size_t p = (size_t)cx + (size_t)cy * (size_t)(g->mx + 1);
                fprintf(f, "v %.6f %.6f %d\n", b->x[p], -b->y[p], cz);
            }
    /* the faces, one material at a time */
    for (int v = 1; g->legend[v]; v++) {
        if (!present[v]) continue;
        char name[32];
        material_name(g, v, name, sizeof name);
        fprintf(f, "usemtl %s\n", name);
        mesh_pass m = {.g = g, .used = used, .f = f, .value = (uint8_t)v};
        box_faces_each(g, write_face, &m);
    }
}

static bool save_obj_3d(const char *path, const char *ext, const bent_grid *b, const uint32_t *colors, const temp_hook *temps,
                        smalti_error *err)
{
    const grid_view *g = b->g;
    size_t corners = (size_t)(g->mx + 1) * (size_t)(g->my + 1) * (size_t)(g->mz + 1);
    if (corners > INT_MAX) { /* OBJ numbers the vertices with ints */
        error_set(err, SMALTI_ERR_USAGE, path, 0, "a %dx%dx%d grid has too many corners for a bent mesh", g->mx, g->my, g->mz);
        return false;
    }
    int *used = calloc(corners, sizeof *used);
    bool present[256] = {false};
    char *mtl = twisted_sibling(path, ext, ".mtl");
    if (!used || !mtl) {
        free(used);
        free(mtl);
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory writing the bent mesh");
        return false;
    }
    box_faces_each(g, mark_face, &(mesh_pass){.g = g, .used = used, .present = present});
    bool ok = save_mtl(mtl, g, colors, present, temps, err);
    atomic_file af;
    if (ok && (ok = atomic_open(&af, path, temps, err))) {
        const char *slash = strrchr(mtl, '/');
        write_mesh(af.f, b, used, present, slash ? slash + 1 : mtl);
        ok = atomic_commit(&af, err);
    }
    free(used);
    free(mtl);
    return ok;
}

bool save_twisted_3d(const char *path, const char *ext, const grid_view *g, const uint32_t *colors, const twisted_lattice *t,
                     int pixel_size, const temp_hook *temps, smalti_error *err)
{
    bool obj = strcasecmp(ext, ".obj") == 0, png = strcasecmp(ext, ".png") == 0;
    if (!obj && !png) {
        error_set(err, SMALTI_ERR_USAGE, path, 0,
                  "a %s twisted map is flat, and this grid is %dx%dx%d: a 3-D grid on a lattice is written as .obj, .png or .json (.vox: straight)",
                  ext, g->mx, g->my, g->mz);
        return false;
    }
    bent_grid b;
    if (!bent_grid_make(&b, path, g, t, err)) return false;
    bool ok = obj ? save_obj_3d(path, ext, &b, colors, temps, err) : save_bent_iso_png(path, &b, colors, pixel_size, temps, err);
    bent_grid_free(&b);
    return ok;
}
