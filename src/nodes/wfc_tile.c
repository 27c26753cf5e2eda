/* wfc_tile.c — the tile model of `wfc`: VOX tiles of a tileset, their symmetric variants and allowed neighbours. */
#include "wfc_node.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <libxml/parser.h>
#include <stdlib.h>
#include <string.h>

/* A tile variant for symmetry_expand, which compares things without a context. */
typedef struct tilebuf {
    int size;
    uint8_t v[];
} tilebuf;

/* The most voxels a tile may have (64^3; the reference's tiles have a few hundred): the vote of each cell's
   possible tiles takes voxels * values counters. */
#define TILE_MAX_VOXELS (1 << 18)
/* The most voxels the variants of all tiles may have together (256 MiB). */
#define TILE_MAX_VARIANT_VOXELS (1LL << 28)

typedef enum tile_op { X_ROTATE, Y_ROTATE, Z_ROTATE, X_REFLECT, Y_REFLECT, Z_REFLECT } tile_op;

typedef struct tileset {
    loader *ld;
    int line;                 /* the <wfc> element's line */
    const char *path;         /* the tileset file, for messages */
    int S, SZ, T;             /* tile side, height, voxels */
    int P, cap;               /* variants so far */
    uint8_t *variants;        /* P * T */
    double *weights;
    double *density;          /* the tiles' density="d" (smalti's own attribute), 0.5 when absent */
    int named;                /* named tiles, with their variants first .. first+count-1 */
    const char **names;
    int *first, *count;
    int32_t *slots;           /* variant lookup by content; -1 empty */
    size_t slot_mask;
} tileset;

static tilebuf *tile_new(int size)
{
    tilebuf *t = mem_malloc(sizeof *t + (size_t)size);
    if (t) t->size = size;
    return t;
}

/* The reference's tile maps: (x, y, z) of the result reads the given cell of the source. */
static tilebuf *tile_apply(const tileset *ts, tile_op op, const tilebuf *p)
{
    int S = ts->S, SZ = ts->SZ, SS = S * S;
    tilebuf *r = tile_new(ts->T);
    if (!r) return NULL;
    const uint8_t *s = p->v;
    for (int z = 0, k = 0; z < SZ; z++)
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++, k++) {
                int from;
                switch (op) {
                case Z_ROTATE: from = y + (S - 1 - x) * S + z * SS; break;
                case Y_ROTATE: from = z + y * S + (S - 1 - x) * SS; break;
                case X_ROTATE: from = x + z * S + (S - 1 - y) * SS; break;
                case X_REFLECT: from = (S - 1 - x) + y * S + z * SS; break;
                case Y_REFLECT: from = x + (S - 1 - y) * S + z * SS; break;
                default: from = x + y * S + (SZ - 1 - z) * SS; break;
                }
                r->v[k] = s[from];
            }
    return r;
}

static void *op_zrot(void *ctx, const void *t) { return tile_apply(ctx, Z_ROTATE, t); }
static void *op_yrot(void *ctx, const void *t) { return tile_apply(ctx, Y_ROTATE, t); }
static void *op_xrot(void *ctx, const void *t) { return tile_apply(ctx, X_ROTATE, t); }
static void *op_xref(void *ctx, const void *t) { return tile_apply(ctx, X_REFLECT, t); }
static void *op_yref(void *ctx, const void *t) { return tile_apply(ctx, Y_REFLECT, t); }
static void *op_zref(void *ctx, const void *t) { return tile_apply(ctx, Z_REFLECT, t); }
static bool tiles_same(const void *a, const void *b)
{
    const tilebuf *x = a, *y = b;
    return x->size == y->size && memcmp(x->v, y->v, (size_t)x->size) == 0;
}
static bool never_same(const void *a, const void *b) { (void)a; (void)b; return false; }

static uint64_t tile_hash(const uint8_t *p, int size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < size; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The first variant equal to p, or -1 (the reference's linear search). */
static int variant_index(const tileset *ts, const tilebuf *p)
{
    size_t s = (size_t)tile_hash(p->v, ts->T) & ts->slot_mask;
    for (; ts->slots[s] >= 0; s = (s + 1) & ts->slot_mask)
        if (memcmp(ts->variants + (size_t)ts->slots[s] * ts->T, p->v, (size_t)ts->T) == 0) return ts->slots[s];
    return -1;
}

static bool build_index(tileset *ts)
{
    size_t slots = 16;
    while (slots < (size_t)ts->P * 2) slots *= 2;
    ts->slots = mem_malloc(slots * sizeof *ts->slots);
    if (!ts->slots) return false;
    memset(ts->slots, 0xff, slots * sizeof *ts->slots);
    ts->slot_mask = slots - 1;
    for (int k = 0; k < ts->P; k++) {
        const uint8_t *v = ts->variants + (size_t)k * ts->T;
        size_t s = (size_t)tile_hash(v, ts->T) & ts->slot_mask;
        bool dup = false;
        for (; ts->slots[s] >= 0 && !dup; s = (s + 1) & ts->slot_mask)
            dup = memcmp(ts->variants + (size_t)ts->slots[s] * ts->T, v, (size_t)ts->T) == 0;
        if (!dup) ts->slots[s] = k;
    }
    return true;
}

static bool add_variant(tileset *ts, const tilebuf *t, double weight, double density)
{
    if ((int64_t)(ts->P + 1) * ts->T > TILE_MAX_VARIANT_VOXELS)
        return diag_error(ts->ld->d, SMALTI_ERR_MODEL, ts->line, "tileset %s: %d tile variants of %d voxels are more than %lld voxels together",
                          ts->path, ts->P + 1, ts->T, TILE_MAX_VARIANT_VOXELS);
    if (ts->P == ts->cap) {
        int cap = ts->cap ? 2 * ts->cap : 64;
        uint8_t *v = mem_realloc(ts->variants, (size_t)cap * ts->T);
        if (!v) return false;
        ts->variants = v;
        double *w = mem_realloc(ts->weights, (size_t)cap * sizeof *w);
        if (!w) return false;
        ts->weights = w;
        double *dd = mem_realloc(ts->density, (size_t)cap * sizeof *dd);
        if (!dd) return false;
        ts->density = dd;
        ts->cap = cap;
    }
    memcpy(ts->variants + (size_t)ts->P * ts->T, t->v, (size_t)ts->T);
    ts->density[ts->P] = density;
    ts->weights[ts->P++] = weight;
    return true;
}

static int named_index(const tileset *ts, const char *name, size_t len)
{
    for (int k = 0; k < ts->named; k++)
        if (strlen(ts->names[k]) == len && strncmp(ts->names[k], name, len) == 0) return k;
    return -1;
}

static xmlNode *child_element(const xmlNode *el, const char *name)
{
    for (xmlNode *c = xml_first_child(el); c; c = xml_next(c))
        if (xml_is(c, name)) return c;
    return NULL;
}

/* Load one tile's voxels as colour numbers shared across the tileset (first appearance order). */
static tilebuf *load_vox_tile(tileset *ts, const char *folder, const char *name, int32_t *uniques, int *unique_count,
                              int max_colours, int *sx, int *sy, int *sz)
{
    diag *d = ts->ld->d;
    size_t len = strlen("tilesets/") + strlen(folder) + 1;
    char *subdir = mem_malloc(len);
    if (!subdir) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    snprintf(subdir, len, "tilesets/%s", folder);
    char *path = resource_find(ts->ld->res, d, ts->line, "tile", subdir, name, ".vox");
    mem_free(subdir);
    if (!path) return NULL;
    int32_t *vox = resource_load_vox(ts->ld->res, d, ts->line, path, sx, sy, sz);
    mem_free(path);
    if (!vox) return NULL;
    if (ts->T && (*sx != ts->S || *sy != ts->S || *sz != ts->SZ)) {
        diag_error(d, SMALTI_ERR_MODEL, ts->line, "tile %s is %dx%dx%d but the first tile is %dx%dx%d", name, *sx, *sy, *sz,
                   ts->S, ts->S, ts->SZ);
        mem_free(vox);
        return NULL;
    }
    int size = *sx * *sy * *sz;
    tilebuf *t = tile_new(size);
    if (!t) { mem_free(vox); diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    for (int i = 0; i < size; i++) {
        int k = 0;
        while (k < *unique_count && uniques[k] != vox[i]) k++;
        if (k == *unique_count) {
            if (k == max_colours) {
                diag_error(d, SMALTI_ERR_MODEL, ts->line, "there are more than %d colours in the tiles of %s", max_colours, folder);
                mem_free(vox);
                mem_free(t);
                return NULL;
            }
            uniques[(*unique_count)++] = vox[i];
        }
        t->v[i] = (uint8_t)k;
    }
    mem_free(vox);
    return t;
}

static bool load_tiles(tileset *ts, wfc_node *w, const xmlNode *xtiles, const char *folder, bool full_symmetry)
{
    diag *d = ts->ld->d;
    int32_t uniques[GRID_MAX_VALUES];
    int unique_count = 0;
    int count = 0;
    for (xmlNode *x = xml_first_child(xtiles); x; x = xml_next(x)) count += xml_is(x, "tile");
    ts->names = mem_calloc((size_t)count, sizeof *ts->names);
    ts->first = mem_calloc((size_t)count, sizeof *ts->first);
    ts->count = mem_calloc((size_t)count, sizeof *ts->count);
    if (!ts->names || !ts->first || !ts->count) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    for (xmlNode *x = xml_first_child(xtiles); x; x = xml_next(x)) {
        if (!xml_is(x, "tile")) continue;
        const char *name = xml_attr(x, "name");
        if (!name) return diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: a <tile> without a name", ts->path, xml_line(x));
        if (named_index(ts, name, strlen(name)) >= 0)
            return diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: a second tile named %s", ts->path, xml_line(x), name);
        double weight;
        if (!xml_get_double(d, x, "weight", 1.0, &weight)) return false;
        /* density="d": smalti's own attribute, read only with a density picture. */
        double density = 0.5;
        const char *dtext = xml_attr(x, "density");
        if (dtext) {
            char *end;
            density = strtod(dtext, &end);
            if (end == dtext || *end || !(density >= 0 && density <= 1))
                return diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: density=\"%s\" of tile %s must be a number from 0 to 1",
                                  ts->path, xml_line(x), dtext, name);
        }
        int sx, sy, sz;
        tilebuf *t = load_vox_tile(ts, folder, name, uniques, &unique_count, w->newgrid.c, &sx, &sy, &sz);
        if (!t) return false;
        void *images[48];
        int n = symmetry_expand(!full_symmetry, t, full_symmetry ? symmetry_all(false) : 0xff, ts, op_zrot, op_yrot,
                                op_xref, tiles_same, free, images);
        if (n < 0) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        ts->names[ts->named] = name;
        ts->first[ts->named] = ts->P;
        ts->count[ts->named++] = n;
        bool ok = true;
        for (int k = 0; k < n; k++) {
            ok = ok && add_variant(ts, images[k], weight, density);
            mem_free(images[k]);
        }
        if (!ok) return d->failed ? false : diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    return true;
}

/* "zz Turn": the named tile's first variant with the rotations applied right to left. */
static tilebuf *neighbor_tile(tileset *ts, const xmlNode *xn, const char *attr, const char *value)
{
    diag *d = ts->ld->d;
    if (!value) {
        diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: <neighbor> is missing %s", ts->path, xml_line(xn), attr);
        return NULL;
    }
    /* As the reference: split on single spaces; an action only when there are exactly two parts. */
    int parts = 1;
    for (const char *p = value; *p; p++) parts += *p == ' ';
    const char *last = strrchr(value, ' ');
    last = last ? last + 1 : value;
    int k = named_index(ts, last, strlen(last));
    if (k < 0) {
        diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: unknown tile %s in %s=\"%s\"", ts->path, xml_line(xn), last,
                   attr, value);
        return NULL;
    }
    size_t action_len = parts == 2 ? (size_t)(strchr(value, ' ') - value) : 0;
    tilebuf *t = tile_new(ts->T);
    if (!t) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    memcpy(t->v, ts->variants + (size_t)ts->first[k] * ts->T, (size_t)ts->T);
    for (size_t i = action_len; i-- > 0;) {
        char sym = value[i];
        tile_op op = sym == 'x' ? X_ROTATE : sym == 'y' ? Y_ROTATE : Z_ROTATE;
        if (sym != 'x' && sym != 'y' && sym != 'z') {
            diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: unknown symmetry %c in %s=\"%s\"", ts->path,
                       xml_line(xn), sym, attr, value);
            mem_free(t);
            return NULL;
        }
        if (op != Z_ROTATE && ts->S != ts->SZ) {
            diag_error(d, SMALTI_ERR_MODEL, ts->line, "tileset %s line %d: %c rotates about a horizontal axis, which needs cubic tiles",
                       ts->path, xml_line(xn), sym);
            mem_free(t);
            return NULL;
        }
        tilebuf *next = tile_apply(ts, op, t);
        mem_free(t);
        if (!(t = next)) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    }
    return t;
}

/* The eight images of t under a rotation and a reflection, duplicates kept (NULLs when out of memory). */
static bool eight(tileset *ts, tilebuf *t, symmetry_map_fn rot, symmetry_map_fn refl, void **out)
{
    tilebuf *copy = tile_new(ts->T);
    if (!copy) return false;
    memcpy(copy->v, t->v, (size_t)ts->T);
    return symmetry_expand(true, copy, 0xff, ts, rot, NULL, refl, never_same, free, out) == 8;
}

static void free_all(void **things, int n)
{
    for (int i = 0; i < n; i++) mem_free(things[i]);
}

typedef struct pair_setter {
    tileset *ts;
    bool **dense;
    const xmlNode *xn;
    bool ok;
} pair_setter;

/* dense[d][index(a)][index(b)] = true, failing on a variant the tileset lacks (the reference crashes there). */
static void set_pair(pair_setter *ps, int d, const tilebuf *a, const tilebuf *b)
{
    if (!ps->ok) return;
    int ia = variant_index(ps->ts, a), ib = variant_index(ps->ts, b);
    if (ia < 0 || ib < 0) {
        diag_error(ps->ts->ld->d, SMALTI_ERR_MODEL, ps->ts->line,
                   "tileset %s line %d: this neighbor needs a tile variant that is none of the tileset's symmetric variants",
                   ps->ts->path, xml_line(ps->xn));
        ps->ok = false;
        return;
    }
    ps->dense[d][(size_t)ia * ps->ts->P + ib] = true;
}

/* A transformed copy that the caller frees (NULL when out of memory). */
#define T(op, a) tile_apply(ts, op, a)

static bool full_symmetry_neighbor(pair_setter *ps, tilebuf *l, tilebuf *r)
{
    tileset *ts = ps->ts;
    void *ls[8], *rs[8];
    if (!eight(ts, l, op_xrot, op_yref, ls)) return false;
    if (!eight(ts, r, op_xrot, op_yref, rs)) { free_all(ls, 8); return false; }
    for (int i = 0; i < 8; i++) {
        tilebuf *a = T(X_REFLECT, rs[i]), *b = T(X_REFLECT, ls[i]);
        if (!a || !b) { mem_free(a); mem_free(b); ps->ok = false; break; }
        set_pair(ps, 0, ls[i], rs[i]);
        set_pair(ps, 0, a, b);
        mem_free(a);
        mem_free(b);
    }
    free_all(ls, 8);
    free_all(rs, 8);

    tilebuf *dt = T(Z_ROTATE, l), *ut = T(Z_ROTATE, r);
    bool ok = dt && ut && eight(ts, dt, op_yrot, op_zref, ls);
    if (ok && !eight(ts, ut, op_yrot, op_zref, rs)) { free_all(ls, 8); ok = false; }
    mem_free(dt);
    mem_free(ut);
    if (!ok) return false;
    for (int i = 0; i < 8; i++) {
        tilebuf *a = T(Y_REFLECT, rs[i]), *b = T(Y_REFLECT, ls[i]);
        if (!a || !b) { mem_free(a); mem_free(b); ps->ok = false; break; }
        set_pair(ps, 1, ls[i], rs[i]);
        set_pair(ps, 1, a, b);
        mem_free(a);
        mem_free(b);
    }
    free_all(ls, 8);
    free_all(rs, 8);

    tilebuf *bt = T(Y_ROTATE, l), *tt = T(Y_ROTATE, r);
    ok = bt && tt && eight(ts, bt, op_zrot, op_xref, ls);
    if (ok && !eight(ts, tt, op_zrot, op_xref, rs)) { free_all(ls, 8); ok = false; }
    mem_free(bt);
    mem_free(tt);
    if (!ok) return false;
    for (int i = 0; i < 8; i++) {
        tilebuf *a = T(Z_REFLECT, rs[i]), *b = T(Z_REFLECT, ls[i]);
        if (!a || !b) { mem_free(a); mem_free(b); ps->ok = false; break; }
        set_pair(ps, 4, ls[i], rs[i]);
        set_pair(ps, 4, a, b);
        mem_free(a);
        mem_free(b);
    }
    free_all(ls, 8);
    free_all(rs, 8);
    return true;
}

static bool horizontal_neighbor(pair_setter *ps, tilebuf *l, tilebuf *r)
{
    tileset *ts = ps->ts;
    tilebuf *t[16] = {0};
    int n = 0;
    t[n++] = T(Y_REFLECT, l);                 /* 0 */
    t[n++] = T(Y_REFLECT, r);                 /* 1 */
    t[n++] = T(X_REFLECT, r);                 /* 2 */
    t[n++] = T(X_REFLECT, l);                 /* 3 */
    t[n++] = t[2] ? T(Y_REFLECT, t[2]) : NULL; /* 4: yReflect(xReflect(r)) */
    t[n++] = t[3] ? T(Y_REFLECT, t[3]) : NULL; /* 5 */
    t[n++] = T(Z_ROTATE, l);                  /* 6: d */
    t[n++] = T(Z_ROTATE, r);                  /* 7: u */
    t[n++] = t[6] ? T(X_REFLECT, t[6]) : NULL; /* 8 */
    t[n++] = t[7] ? T(X_REFLECT, t[7]) : NULL; /* 9 */
    t[n++] = t[7] ? T(Y_REFLECT, t[7]) : NULL; /* 10 */
    t[n++] = t[6] ? T(Y_REFLECT, t[6]) : NULL; /* 11 */
    t[n++] = t[10] ? T(X_REFLECT, t[10]) : NULL; /* 12: xReflect(yReflect(u)) */
    t[n++] = t[11] ? T(X_REFLECT, t[11]) : NULL; /* 13 */
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && t[i];
    if (ok) {
        set_pair(ps, 0, l, r);
        set_pair(ps, 0, t[0], t[1]);
        set_pair(ps, 0, t[2], t[3]);
        set_pair(ps, 0, t[4], t[5]);
        set_pair(ps, 1, t[6], t[7]);
        set_pair(ps, 1, t[8], t[9]);
        set_pair(ps, 1, t[10], t[11]);
        set_pair(ps, 1, t[12], t[13]);
    }
    for (int i = 0; i < n; i++) mem_free(t[i]);
    return ok;
}

static bool vertical_neighbor(pair_setter *ps, tilebuf *top, tilebuf *bottom)
{
    tileset *ts = ps->ts;
    void *tsym[8], *bsym[8];
    if (!eight(ts, top, op_zrot, op_xref, tsym)) return false;
    if (!eight(ts, bottom, op_zrot, op_xref, bsym)) { free_all(tsym, 8); return false; }
    for (int i = 0; i < 8; i++) set_pair(ps, 4, bsym[i], tsym[i]);
    free_all(tsym, 8);
    free_all(bsym, 8);
    return true;
}

static bool load_neighbors(tileset *ts, wfc_node *w, const xmlNode *xneighbors, bool full_symmetry)
{
    diag *d = ts->ld->d;
    int P = ts->P;
    bool *dense[6] = {0};
    bool ok = true;
    for (int k = 0; k < 6 && ok; k++) ok = (dense[k] = mem_calloc((size_t)P * P, 1)) != NULL;
    if (!ok) {
        for (int k = 0; k < 6; k++) mem_free(dense[k]);
        return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    pair_setter ps = {.ts = ts, .dense = dense, .ok = true};
    for (xmlNode *xn = xml_first_child(xneighbors); xn && ps.ok; xn = xml_next(xn)) {
        if (!xml_is(xn, "neighbor")) continue;
        ps.xn = xn;
        bool horizontal = full_symmetry || xml_attr(xn, "left");
        const char *a1 = horizontal ? "left" : "top", *a2 = horizontal ? "right" : "bottom";
        tilebuf *t1 = neighbor_tile(ts, xn, a1, xml_attr(xn, a1));
        tilebuf *t2 = t1 ? neighbor_tile(ts, xn, a2, xml_attr(xn, a2)) : NULL;
        if (!t2) { mem_free(t1); ps.ok = false; break; }
        bool fine = full_symmetry ? full_symmetry_neighbor(&ps, t1, t2)
                  : horizontal ? horizontal_neighbor(&ps, t1, t2) : vertical_neighbor(&ps, t1, t2);
        mem_free(t1);
        mem_free(t2);
        if (!fine) {
            if (ps.ok) diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
            ps.ok = false;
        }
    }
    if (ps.ok) {
        /* The opposite directions are the transposes. */
        for (int p2 = 0; p2 < P; p2++)
            for (int p1 = 0; p1 < P; p1++) {
                dense[2][(size_t)p2 * P + p1] = dense[0][(size_t)p1 * P + p2];
                dense[3][(size_t)p2 * P + p1] = dense[1][(size_t)p1 * P + p2];
                dense[5][(size_t)p2 * P + p1] = dense[4][(size_t)p1 * P + p2];
            }
        w->pb.P = P;
        if (!wfc_set_propagator(&w->pb, dense)) ps.ok = diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    for (int k = 0; k < 6; k++) mem_free(dense[k]);
    if (!ps.ok && !d->failed) diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    return ps.ok;
}

/* One tile in a rule's out (or a <density tile>), as variants first..first+count-1. The reference knows whole
   tiles ("Name": all its variants). Smalti adds single variants, which no reference model can name:
   "Name k", the tile's variant k (0-based, in the order the tileset makes them), and "zz Name", the tile as
   drawn turned as in the tileset's <neighbor> syntax (the rightmost letter first). False after an error. */
static bool tile_spec(loader *ld, const tileset *ts, const xmlNode *el, const char *attr, const char *text, const char *part,
                      size_t len, int *first, int *count)
{
    diag *d = ld->d;
    int k = named_index(ts, part, len);
    if (k >= 0) {
        *first = ts->first[k];
        *count = ts->count[k];
        return true;
    }
    const char *space = memchr(part, ' ', len), *last = NULL;
    for (const char *c = part; c < part + len; c++)
        if (*c == ' ') last = c;
    if (last && last + 1 < part + len) {
        /* "Name k" */
        size_t digits = 0;
        while (last + 1 + digits < part + len && last[1 + digits] >= '0' && last[1 + digits] <= '9') digits++;
        k = named_index(ts, part, (size_t)(last - part));
        if (k >= 0 && digits == len - (size_t)(last + 1 - part)) {
            long v = digits <= 3 ? strtol(last + 1, NULL, 10) : 1000;
            if (v >= ts->count[k])
                return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\": tile %s has %d variant%s, 0 to %d", attr, text,
                                  ts->names[k], ts->count[k], ts->count[k] == 1 ? "" : "s", ts->count[k] - 1);
            *first = ts->first[k] + (int)v;
            *count = 1;
            return true;
        }
    }
    if (space && space == last && space > part) {
        /* "zz Name" */
        k = named_index(ts, space + 1, len - (size_t)(space + 1 - part));
        size_t ops = (size_t)(space - part);
        bool letters = true;
        for (size_t i = 0; i < ops; i++) letters = letters && (part[i] == 'x' || part[i] == 'y' || part[i] == 'z');
        if (k >= 0 && letters) {
            tilebuf *t = tile_new(ts->T);
            if (!t) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
            memcpy(t->v, ts->variants + (size_t)ts->first[k] * ts->T, (size_t)ts->T);
            for (size_t i = ops; i-- > 0 && t;) {
                if (part[i] != 'z' && ts->S != ts->SZ) {
                    mem_free(t);
                    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\": %c turns about a horizontal axis, which needs cubic tiles",
                                      attr, text, part[i]);
                }
                tilebuf *next = tile_apply(ts, part[i] == 'x' ? X_ROTATE : part[i] == 'y' ? Y_ROTATE : Z_ROTATE, t);
                mem_free(t);
                t = next;
            }
            if (!t) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
            int v = variant_index(ts, t);
            mem_free(t);
            if (v < ts->first[k] || v >= ts->first[k] + ts->count[k])
                return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\": %.*s is none of the variants of tile %s", attr, text,
                                  (int)len, part, ts->names[k]);
            *first = v;
            *count = 1;
            return true;
        }
    }
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown tilename %.*s in %s=\"%s\"", (int)len, part, attr, text);
}

static bool parse_rule_out(loader *ld, wfc_node *w, const xmlNode *rule_el, const char *attr, const char *out, bool *allowed,
                           void *ctx)
{
    (void)w;
    const tileset *ts = ctx;
    const char *p = out;
    for (;;) {
        size_t len = strcspn(p, "|");
        int first = 0, count = 0;
        if (!tile_spec(ld, ts, rule_el, attr, out, p, len, &first, &count)) return false;
        for (int i = 0; i < count; i++) allowed[first + i] = true;
        if (!p[len]) break;
        p += len + 1;
    }
    return true;
}

static void tile_update_state(const wfc_node *w, const uint8_t *data, uint8_t *cells)
{
    int S = w->S, SZ = w->SZ, T = S * S * SZ, C = w->newgrid.c, P = w->pb.P;
    int NMX = w->newgrid.mx, NMY = w->newgrid.my;
    int32_t *votes = mem_malloc((size_t)T * C * sizeof *votes);
    if (!votes) return;
    for (int z = 0; z < w->pb.mz; z++)
        for (int y = 0; y < w->pb.my; y++)
            for (int x = 0; x < w->pb.mx; x++) {
                const uint8_t *wv = data + (size_t)(x + y * w->pb.mx + z * w->pb.mx * w->pb.my) * P;
                memset(votes, 0, (size_t)T * C * sizeof *votes);
                for (int t = 0; t < P; t++) {
                    if (!wv[t]) continue;
                    const uint8_t *tile = w->tiles + (size_t)t * T;
                    for (int di = 0; di < T; di++) votes[di * C + tile[di]]++;
                }
                for (int dz = 0; dz < SZ; dz++)
                    for (int dy = 0; dy < S; dy++)
                        for (int dx = 0; dx < S; dx++) {
                            int sx = x * (S - w->overlap) + dx, sy = y * (S - w->overlap) + dy,
                                sz = z * (SZ - w->overlapz) + dz;
                            cells[sx + sy * NMX + sz * NMX * NMY] = wfc_vote_winner(votes + (dx + dy * S + dz * S * S) * C, C);
                        }
            }
    mem_free(votes);
}

static bool tile_build(loader *ld, wfc_node *w, const xmlNode *el, tileset *ts, xmlDoc **doc)
{
    diag *d = ld->d;
    int line = ts->line;
    const char *name = xml_attr(el, "tileset");
    const char *folder = xml_attr(el, "tiles");
    if (!folder) folder = name;
    /* A negative overlap is a gap; one wider than the cell cap could only wrap S - overlap. The upper
       bound, the tile size, is checked once the tileset is read. */
    const int gap = (int)GRID_MAX_CELLS;
    if (!xml_get_bool(d, el, "periodic", false, &w->pb.periodic) || !xml_get_int_range(d, el, "overlap", 0, -gap, gap, &w->overlap) ||
        !xml_get_int_range(d, el, "overlapz", 0, -gap, gap, &w->overlapz))
        return false;
    char *path = resource_find(ld->res, d, line, "tileset", "tilesets", name, ".xml");
    if (!path) return false;
    xml_first_error fe;
    *doc = resource_load_xml(ld->res, d, line, path, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING, &fe);
    ts->path = path;
    if (!*doc && d->failed) return false; /* not read: said so */
    if (!*doc && fe.set) return diag_error(d, SMALTI_ERR_MODEL, line, "tileset %s line %d: %s", path, fe.line, fe.message);
    if (!*doc) return diag_error(d, SMALTI_ERR_MODEL, line, "couldn't read tileset %s (malformed XML?)", path);
    xmlNode *root = xmlDocGetRootElement(*doc);
    bool full_symmetry;
    if (!root) return diag_error(d, SMALTI_ERR_MODEL, line, "tileset %s is empty", path);
    if (!xml_get_bool(d, root, "fullSymmetry", false, &full_symmetry)) return false;
    xmlNode *xtiles = child_element(root, "tiles"), *xneighbors = child_element(root, "neighbors");
    xmlNode *xfirst = xtiles ? child_element(xtiles, "tile") : NULL;
    if (!xfirst || !xneighbors)
        return diag_error(d, SMALTI_ERR_MODEL, line, "tileset %s needs <tiles> with at least one <tile>, and <neighbors>", path);
    const char *first_name = xml_attr(xfirst, "name");
    if (!first_name) return diag_error(d, SMALTI_ERR_MODEL, line, "tileset %s line %d: a <tile> without a name", path, xml_line(xfirst));

    /* The first tile gives the size. */
    size_t len = strlen("tilesets/") + strlen(folder) + 1;
    char *subdir = mem_malloc(len);
    if (!subdir) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    snprintf(subdir, len, "tilesets/%s", folder);
    char *vox_path = resource_find(ld->res, d, line, "tile", subdir, first_name, ".vox");
    mem_free(subdir);
    if (!vox_path) return false;
    int S, SY, SZ;
    int32_t *vox = resource_load_vox(ld->res, d, line, vox_path, &S, &SY, &SZ);
    mem_free(vox_path);
    if (!vox) return false;
    mem_free(vox);
    if (S != SY) return diag_error(d, SMALTI_ERR_MODEL, line, "tiles should be square shaped: %d != %d", S, SY);
    if ((int64_t)S * S * SZ > TILE_MAX_VOXELS)
        return diag_error(d, SMALTI_ERR_MODEL, line, "tiles of %dx%dx%d voxels are too large: at most %d voxels", S, S, SZ, TILE_MAX_VOXELS);
    if (full_symmetry && S != SZ)
        return diag_error(d, SMALTI_ERR_MODEL, line, "tiles should be cubes for the full symmetry option: %d != %d", S, SZ);
    if (w->overlap >= S || w->overlapz >= SZ)
        return diag_error(d, SMALTI_ERR_MODEL, line, "overlap=\"%d\" overlapz=\"%d\" should be less than the tile size %dx%dx%d",
                          w->overlap, w->overlapz, S, S, SZ);
    /* A negative overlap leaves gaps between the tiles, as in the reference. The sides are worked out in
       64 bits from 32-bit operands (no overflow: |S - overlap| < 2^32, times a side < 2^31). */
    int64_t size[3] = {((int64_t)S - w->overlap) * w->pb.mx + w->overlap, ((int64_t)S - w->overlap) * w->pb.my + w->overlap,
                       ((int64_t)SZ - w->overlapz) * w->pb.mz + w->overlapz};
    const bool empty = size[0] < 1 || size[1] < 1 || size[2] < 1;
    int64_t cells;
    if (!grid_cells_within_cap(size[0], size[1], size[2], &cells))
        return diag_error(d, SMALTI_ERR_MODEL, line, "overlap=\"%d\" overlapz=\"%d\": the tiles make a %lldx%lldx%lld grid, %s",
                          w->overlap, w->overlapz, (long long)size[0], (long long)size[1], (long long)size[2],
                          empty ? "which is empty" : "which is absurdly large");
    if (!grid_load(d, el, (int)size[0], (int)size[1], (int)size[2], ld->max_values, node_holds_unions, &w->newgrid)) return false;
    ts->S = S;
    ts->SZ = SZ;
    ts->T = S * S * SZ;
    w->S = S;
    w->SZ = SZ;
    if (!load_tiles(ts, w, xtiles, folder, full_symmetry)) return false;
    w->pb.P = ts->P;
    if (ts->P > WFC_MAX_PATTERNS)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "tileset \"%s\" has %d tile variants; at most %d", name, ts->P, WFC_MAX_PATTERNS);
    if (!wfc_check_memory(d, xml_line(el), &w->pb, "tile variants")) return false;
    if (!build_index(ts)) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (!wfc_load_rules(ld, w, el, ld->grid, parse_rule_out, ts)) return false;
    if (!load_neighbors(ts, w, xneighbors, full_symmetry)) return false;
    w->pb.weights = ts->weights; /* the node owns them either way (wfc_tile_load) */
    w->density = ts->density;
    w->density_per_pattern = 1;
    ts->density = NULL;
    return wfc_read_density_children(ld, w, el, "tile", w->pb.P, parse_rule_out, ts, w->density) && wfc_load_density(ld, w, el);
}

node *wfc_tile_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    wfc_node *w = wfc_node_new(ld, el);
    if (!w) return NULL;
    w->pb.D = 6;
    w->update_state = tile_update_state;
    tileset ts = {.ld = ld, .line = xml_line(el)};
    xmlDoc *doc = NULL;
    bool ok = tile_build(ld, w, el, &ts, &doc);
    /* The node keeps the variants and weights; the names live in the tileset document. */
    w->tiles = ts.variants;
    w->pb.weights = ts.weights;
    mem_free(ts.names);
    mem_free(ts.first);
    mem_free(ts.count);
    mem_free(ts.slots);
    mem_free(ts.density);
    mem_free((char *)ts.path);
    if (doc) xmlFreeDoc(doc);
    if (!ok) return NULL;
    return wfc_finish_load(ld, w, el, parent_symmetry) ? &w->b.base : NULL;
}
