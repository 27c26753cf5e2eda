/* classic.c — samples.xml entries of the standalone WaveFunctionCollapse project: overlapping models of
   sample images and simple tiled models of PNG tilesets, solved by the WFC module's solver with the fast strategy. */
#include "classic.h"
#include "../core/resource.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLASSIC_MAX_N 8
#define CLASSIC_MAX_SIDE 4096
#define CLASSIC_MAX_TILES 4096
/* Tiles are small pictures (the classic tilesets' are 3 to 48 pixels wide). */
#define CLASSIC_MAX_TILE_SIDE 256
/* The most pixels the tiles' variants together, and an output picture, may have (256 MiB each). */
#define CLASSIC_MAX_PIXELS (1LL << 26)

static const char *const entry_attrs[] = {"name", "N", "periodic", "periodicInput", "symmetry", "ground", "size", "width",
                                          "height", "limit", "screenshots", "seed", "heuristic", "subset",
                                          "blackBackground", "textOutput", "density", "densityPower", "backtrack", "blocks", "propagation", NULL};

bool wfc_classic_read_entry(diag *d, const xmlNode *el, wfc_classic_entry *e)
{
    memset(e, 0, sizeof *e);
    e->line = xml_line(el);
    e->el = el;
    e->overlapping = xml_is(el, "overlapping");
    xml_check_attrs(d, el, entry_attrs);
    const char *name = xml_attr(el, "name");
    if (!name || !*name) return diag_error(d, SMALTI_ERR_MODEL, e->line, "<%s> needs a name", xml_name(el));
    const char *why;
    if (strlen(name) >= sizeof e->name || !resource_name_is_plain(name, &why) || strstr(name, ".."))
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "name=\"%s\" is not a plain sample name", name);
    snprintf(e->name, sizeof e->name, "%s", name);
    const char *subset = xml_attr(el, "subset");
    if (subset && strlen(subset) >= sizeof e->subset) return diag_error(d, SMALTI_ERR_MODEL, e->line, "subset name too long");
    /* A subset's name is part of the output's file name (NAME SUBSET 0.png). */
    if (subset && !resource_name_is_plain(subset, &why))
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "subset=\"%s\" %s: it is part of the output's file name", subset, why);
    if (subset) snprintf(e->subset, sizeof e->subset, "%s", subset);
    int size, limit;
    if (!xml_get_int(d, el, "size", e->overlapping ? 48 : 24, &size) || !xml_get_int(d, el, "width", size, &e->width) ||
        !xml_get_int(d, el, "height", size, &e->height) || !xml_get_bool(d, el, "periodic", false, &e->periodic) ||
        !xml_get_int(d, el, "N", 3, &e->N) || !xml_get_bool(d, el, "periodicInput", true, &e->periodic_input) ||
        !xml_get_int(d, el, "symmetry", 8, &e->symmetry) || !xml_get_bool(d, el, "ground", false, &e->ground) ||
        !xml_get_int(d, el, "screenshots", 2, &e->screenshots) || !xml_get_int(d, el, "seed", -1, &e->seed) ||
        !xml_get_int(d, el, "limit", -1, &limit) || !xml_get_bool(d, el, "blackBackground", false, &e->black_background) ||
        !xml_get_bool(d, el, "textOutput", false, &e->text_output) || !xml_get_int(d, el, "backtrack", 0, &e->backtrack) ||
        !xml_get_int(d, el, "blocks", 0, &e->blocks))
        return false;
    e->limit = limit;
    if (e->width < 1 || e->height < 1 || e->width > CLASSIC_MAX_SIDE || e->height > CLASSIC_MAX_SIDE)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "output size %dx%d: each side must be from 1 to %d", e->width, e->height,
                          CLASSIC_MAX_SIDE);
    if (e->overlapping && (e->N < 1 || e->N > CLASSIC_MAX_N))
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "N=\"%d\": the pattern size must be from 1 to %d", e->N, CLASSIC_MAX_N);
    if (e->overlapping && (e->N > e->width || e->N > e->height))
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "N=\"%d\" is larger than the %dx%d output", e->N, e->width, e->height);
    if (e->symmetry < 1 || e->symmetry > 8)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "symmetry=\"%d\" must be from 1 to 8", e->symmetry);
    if (e->backtrack < 0 || e->backtrack > WFC_MAX_BACKTRACK)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "backtrack=\"%d\" must be from 0 to %d", e->backtrack, WFC_MAX_BACKTRACK);
    if (e->blocks != 0 && (e->blocks < WFC_BLOCKS_MIN || e->blocks > WFC_BLOCKS_MAX))
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "blocks=\"%d\" must be 0 (none) or from %d to %d", e->blocks, WFC_BLOCKS_MIN,
                          WFC_BLOCKS_MAX);
    if (e->screenshots < 0 || e->screenshots > WFC_MAX_OUTPUTS)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "screenshots=\"%d\" must be from 0 to %d", e->screenshots, WFC_MAX_OUTPUTS);
    const char *density = xml_attr(el, "density");
    if (density && (strlen(density) >= sizeof e->density || !resource_name_is_plain(density, NULL) || strstr(density, "..")))
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "density=\"%s\" is not a plain picture name", density);
    if (density) snprintf(e->density, sizeof e->density, "%s", density);
    if (!xml_get_int(d, el, "densityPower", 2, &e->density_power)) return false;
    if (e->density_power < 0 || e->density_power > WFC_DENSITY_MAX_POWER)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "densityPower=\"%d\" must be from 0 to %d", e->density_power,
                          WFC_DENSITY_MAX_POWER);
    for (const xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "fixed") && !xml_is(x, "density"))
            diag_warn(d, xml_line(x), "unknown element <%s> inside <%s> skipped", xml_name(x), xml_name(el));
        if (e->overlapping && (xml_is(x, "fixed") || xml_is(x, "density")))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<%s> is for <simpletiled> entries", xml_name(x));
        if (xml_is(x, "density") && !density)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<density> needs a density picture: density=\"NAME\" on the entry");
    }
    if (e->overlapping && density)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "density pictures are for <simpletiled> entries");
    const char *propagation = xml_attr(el, "propagation");
    if (propagation && strcmp(propagation, "sets") != 0 && strcmp(propagation, "counts") != 0)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "propagation=\"%s\": use counts or sets", propagation);
    e->sets = propagation && strcmp(propagation, "sets") == 0;
    const char *h = xml_attr(el, "heuristic");
    if (!h || strcmp(h, "Entropy") == 0) e->heuristic = WFC_ENTROPY;
    else if (strcmp(h, "MRV") == 0) e->heuristic = WFC_MRV;
    else if (strcmp(h, "Scanline") == 0) e->heuristic = WFC_SCANLINE;
    else return diag_error(d, SMALTI_ERR_MODEL, e->line, "heuristic=\"%s\": use Entropy, MRV or Scanline", h);
    return true;
}

/* Every file of an entry lies under the samples folder: names with "/" or ".." are refused when the
   entry is read, and here a symbolic link that leads out of the folder is refused, as the model
   loader refuses one (resource_find). Files from a reader are not on disk; a missing file passes,
   and reading it says so. */
static bool stays_in_folder(diag *d, int line, const char *root, const resources *res, const char *path)
{
    if (res->reader || access(path, F_OK) != 0) return true;
    char real[512];
    if (resource_inside_root(root, path, real, sizeof real)) return true;
    return diag_error(d, SMALTI_ERR_MODEL, line, "%s leaves the samples folder %s through a symbolic link (it leads to %s)",
                      path, root, real);
}

/* The memory check before a load allocates: of the whole wave, or with blocks of the largest region and the
   table of chosen patterns (pb's cells, P, D, N, periodic and backtrack set). */
static bool check_memory(diag *d, const wfc_classic_entry *e, const wfc_problem *pb, const char *what)
{
    /* Pattern sets have no counts to take back a ban with, and a limit on the words a set takes. */
    if (e->sets && e->backtrack > 0)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "propagation=\"sets\" cannot backtrack (backtrack=\"%d\"): use propagation=\"counts\"",
                          e->backtrack);
    if (e->sets && e->blocks)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "propagation=\"sets\" cannot solve in blocks (blocks=\"%d\"): use propagation=\"counts\"",
                          e->blocks);
    if (e->sets && pb->P > WFC_SETS_MAX_PATTERNS)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "propagation=\"sets\" takes at most %d %s, this entry has %d: use propagation=\"counts\"",
                          WFC_SETS_MAX_PATTERNS, what, pb->P);
    if (!e->blocks) return wfc_check_memory(d, e->line, pb, what);
    int64_t bytes = wfc_blocks_memory_estimate(pb, e->blocks);
    if (bytes <= WFC_MAX_BYTES) return true;
    return diag_error(d, SMALTI_ERR_MODEL, e->line, "blocks of %d cells by %d %s would take about %.1f GiB; at most %lld GiB (smaller blocks, or fewer %s)",
                      e->blocks, pb->P, what, (double)bytes / (1 << 30), WFC_MAX_BYTES >> 30, what);
}

/* ---- overlapping ---- */

static bool load_overlapping(diag *d, const char *root, const resources *res, const wfc_classic_entry *e, wfc_classic *m)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/%s.png", root, e->name);
    if (!stays_in_folder(d, e->line, root, res, path)) return false;
    int smx, smy;
    uint32_t *argb = resource_load_image(res, d, e->line, path, &smx, &smy);
    if (!argb) return false;
    long count = (long)smx * smy;
    uint8_t *sample = mem_malloc((size_t)count);
    if (!sample) {
        mem_free(argb);
        return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    if (wfc_sample_ords(argb, count, sample, m->colours, 256) < 0) {
        mem_free(argb);
        mem_free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "%s has more than 256 colours", path);
    }
    mem_free(argb);
    int N = e->N;
    int xmax = e->periodic_input ? smx : smx - N + 1, ymax = e->periodic_input ? smy : smy - N + 1;
    if (xmax < 1 || ymax < 1) {
        mem_free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "the %dx%d sample is smaller than N=\"%d\"", smx, smy, N);
    }
    bool ok = wfc_sample_patterns(sample, smx, smy, N, xmax, ymax, ((symmetry_set)1 << e->symmetry) - 1, &m->patterns,
                                  &m->pb.weights, &m->pb.P);
    mem_free(sample);
    if (!ok) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (m->pb.P > WFC_MAX_PATTERNS)
        return diag_error(d, SMALTI_ERR_MODEL, e->line, "%s has %d patterns; at most %d", path, m->pb.P, WFC_MAX_PATTERNS);
    m->pb.N = N;
    m->pb.D = 4;
    if (!check_memory(d, e, &m->pb, "patterns")) return false;
    if (!wfc_overlap_propagator(&m->pb, m->patterns)) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    return true;
}

/* ---- simple tiled ---- */

/* A tile's symmetry: how many variants it has, and a (quarter turn) and b (mirror) on their numbers. */
static int tile_cardinality(char sym)
{
    switch (sym) {
    case 'L': case 'T': return 4;
    case 'I': case '\\': return 2;
    case 'F': return 8;
    default: return 1;
    }
}

static int turn(char sym, int i)
{
    switch (sym) {
    case 'L': case 'T': return (i + 1) % 4;
    case 'I': case '\\': return 1 - i;
    case 'F': return i < 4 ? (i + 1) % 4 : 4 + (i - 1) % 4;
    default: return i;
    }
}

static int mirror(char sym, int i)
{
    switch (sym) {
    case 'L': return i % 2 == 0 ? i + 1 : i - 1;
    case 'T': return i % 2 == 0 ? i : 4 - i;
    case '\\': return 1 - i;
    case 'F': return i < 4 ? i + 4 : i - 4;
    default: return i;
    }
}

static bool in_subset(const xmlNode *xsubset, const char *name)
{
    if (!xsubset) return true;
    for (const xmlNode *x = xml_first_child(xsubset); x; x = xml_next(x)) {
        const char *n = xml_attr(x, "name");
        if (xml_is(x, "tile") && n && strcmp(n, name) == 0) return true;
    }
    return false;
}

static const xmlNode *child_named(const xmlNode *el, const char *name)
{
    for (const xmlNode *x = xml_first_child(el); x; x = xml_next(x))
        if (xml_is(x, name)) return x;
    return NULL;
}

typedef struct tile_set {
    int P;                       /* variants so far */
    int (*action)[8];            /* action[t][k]: variant t under the k-th symmetry */
    char (*first_name)[128];     /* per variant: its tile's name */
    int *first;                  /* per variant: its tile's first variant */
    int *card;                   /* per variant: its tile's number of variants */
    int tiles_cap;               /* variants m->tiles has room for */
} tile_set;

static void turn_pixels(const uint32_t *src, uint32_t *dst, int s)
{
    for (int y = 0; y < s; y++)
        for (int x = 0; x < s; x++) dst[x + y * s] = src[s - 1 - y + x * s];
}

static void mirror_pixels(const uint32_t *src, uint32_t *dst, int s)
{
    for (int y = 0; y < s; y++)
        for (int x = 0; x < s; x++) dst[x + y * s] = src[s - 1 - x + y * s];
}

/* Room in m->tiles for `need` variants of the tile size, grown as tiles come rather than for the most there
   may be; false after an error when the tiles together would be too large. */
static bool reserve_tiles(diag *d, int line, const char *path, wfc_classic *m, tile_set *ts, int need)
{
    int64_t s2 = (int64_t)m->tilesize * m->tilesize;
    if (need * s2 > CLASSIC_MAX_PIXELS)
        return diag_error(d, SMALTI_ERR_MODEL, line, "%s: %d tile variants of %dx%d pixels are more than %lld pixels together", path,
                          need, m->tilesize, m->tilesize, CLASSIC_MAX_PIXELS);
    if (need <= ts->tiles_cap) return true;
    int cap = ts->tiles_cap ? ts->tiles_cap : 16;
    while (cap < need) cap *= 2;
    if (cap > CLASSIC_MAX_TILES) cap = CLASSIC_MAX_TILES;
    uint32_t *bigger = mem_realloc(m->tiles, (size_t)cap * (size_t)s2 * sizeof *bigger);
    if (!bigger) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    m->tiles = bigger;
    ts->tiles_cap = cap;
    return true;
}

/* Load one tile picture into variant t, with room for `need` variants (all tiles must be square and of one size). */
static bool load_tile_png(diag *d, const resources *res, int line, const char *path, wfc_classic *m, tile_set *ts, int t,
                          int need)
{
    int w, h;
    uint32_t *px = resource_load_image(res, d, line, path, &w, &h);
    if (!px) return false;
    if (w != h || (m->tilesize && w != m->tilesize)) {
        mem_free(px);
        return diag_error(d, SMALTI_ERR_MODEL, line, "%s is %dx%d; tiles must be square and all of one size", path, w, h);
    }
    if (w > CLASSIC_MAX_TILE_SIDE) {
        mem_free(px);
        return diag_error(d, SMALTI_ERR_MODEL, line, "%s is %dx%d; tiles may be at most %d pixels wide", path, w, h,
                          CLASSIC_MAX_TILE_SIDE);
    }
    m->tilesize = w;
    if (!reserve_tiles(d, line, path, m, ts, need)) {
        mem_free(px);
        return false;
    }
    memcpy(m->tiles + (size_t)t * w * w, px, (size_t)w * w * sizeof *px);
    mem_free(px);
    return true;
}

static bool load_tiles(diag *d, const char *root, const resources *res, const wfc_classic_entry *e,
                       const xmlNode *xtiles, const xmlNode *xsubset, bool unique, tile_set *ts, wfc_classic *m, double *weights)
{
    char path[4096];
    for (const xmlNode *x = xml_first_child(xtiles); x; x = xml_next(x)) {
        if (!xml_is(x, "tile")) continue;
        static const char *const tile_attrs[] = {"name", "symmetry", "weight", "density", NULL};
        xml_check_attrs(d, x, tile_attrs);
        const char *name = xml_attr(x, "name");
        if (!name || strlen(name) >= 128 || !resource_name_is_plain(name, NULL))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a <tile> needs a plain name");
        if (!in_subset(xsubset, name)) continue;
        for (int t = 0; t < ts->P; t++)
            if (strcmp(ts->first_name[t], name) == 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a second tile \"%s\"", name);
        char sym = 'X';
        bool present;
        if (!xml_get_char(d, x, "symmetry", &sym, &present)) return false;
        if (!present) sym = 'X';
        if (!strchr("XLTI\\F", sym))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "symmetry=\"%c\": use X, I, L, T, \\ or F", sym);
        double weight;
        if (!xml_get_double(d, x, "weight", 1.0, &weight)) return false;
        if (!(weight > 0)) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "weight=\"%g\" must be positive", weight);
        double density;
        if (!xml_get_double(d, x, "density", 0.5, &density)) return false;
        if (!(density >= 0 && density <= 1)) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "density=\"%g\" must be from 0 to 1", density);
        int card = tile_cardinality(sym), T = ts->P;
        if (T + card > CLASSIC_MAX_TILES) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "more than %d tile variants", CLASSIC_MAX_TILES);
        for (int t = 0; t < card; t++) {
            int *a = ts->action[T + t];
            a[0] = t;
            a[1] = turn(sym, t);
            a[2] = turn(sym, a[1]);
            a[3] = turn(sym, a[2]);
            a[4] = mirror(sym, t);
            a[5] = mirror(sym, a[1]);
            a[6] = mirror(sym, a[2]);
            a[7] = mirror(sym, a[3]);
            for (int k = 0; k < 8; k++) a[k] += T;
            snprintf(ts->first_name[T + t], sizeof ts->first_name[0], "%s", name);
            ts->first[T + t] = T;
            ts->card[T + t] = card;
            m->density[T + t] = density;
            snprintf(m->tile_names[T + t], sizeof m->tile_names[0], "%s %d", name, t);
            weights[T + t] = weight;
        }
        if (unique) {
            for (int t = 0; t < card; t++) {
                snprintf(path, sizeof path, "%s/tilesets/%s/%s %d.png", root, e->name, name, t);
                if (!stays_in_folder(d, xml_line(x), root, res, path)) return false;
                if (!load_tile_png(d, res, xml_line(x), path, m, ts, T + t, T + card)) return false;
            }
        } else {
            snprintf(path, sizeof path, "%s/tilesets/%s/%s.png", root, e->name, name);
            if (!stays_in_folder(d, xml_line(x), root, res, path)) return false;
            if (!load_tile_png(d, res, xml_line(x), path, m, ts, T, T + card)) return false;
            size_t s2 = (size_t)m->tilesize * m->tilesize;
            for (int t = 1; t < card; t++) {
                if (t <= 3) turn_pixels(m->tiles + (T + t - 1) * s2, m->tiles + (T + t) * s2, m->tilesize);
                else mirror_pixels(m->tiles + (T + t - 4) * s2, m->tiles + (T + t) * s2, m->tilesize);
            }
        }
        ts->P = T + card;
    }
    if (ts->P == 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(xtiles), "no tiles%s", xsubset ? " in the subset" : "");
    return true;
}

/* "name" or "name k": the variant, or -1 when the tile is outside the subset, -2 on an error (reported). */
static int neighbor_variant(diag *d, int line, const tile_set *ts, const char *text, const char *side)
{
    char name[128];
    int k = 0;
    const char *space = strrchr(text, ' ');
    size_t len = strlen(text);
    if (space && space[1]) {
        char *end;
        long v = strtol(space + 1, &end, 10);
        if (!*end) {
            if (v < 0 || v > 7) {
                diag_error(d, SMALTI_ERR_MODEL, line, "%s=\"%s\": the variant must be from 0 to 7", side, text);
                return -2;
            }
            k = (int)v;
            len = (size_t)(space - text);
        }
    }
    while (len > 0 && text[len - 1] == ' ') len--;
    if (len == 0 || len >= sizeof name) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s=\"%s\" is not a tile name", side, text);
        return -2;
    }
    memcpy(name, text, len);
    name[len] = 0;
    for (int t = 0; t < ts->P; t++)
        if (ts->first[t] == t && strcmp(ts->first_name[t], name) == 0) return ts->action[t][k];
    return -1;
}

/* "name" (every variant of the tile) or "name k" (its variant k, numbered as in the tileset's neighbors) in an
   entry's <fixed> or <density>; false after an error at `line` of the sample list. */
static bool tile_spec(diag *d, int line, const tile_set *ts, const char *text, const char *attr, int *first, int *count)
{
    const char *space = strrchr(text, ' ');
    bool numbered = space && space[1];
    for (const char *c = space ? space + 1 : ""; *c && numbered; c++) numbered = *c >= '0' && *c <= '9';
    if (numbered) {
        int v = neighbor_variant(d, line, ts, text, attr);
        if (v == -2) return false;
        if (v >= 0) {
            *first = v;
            *count = 1;
            return true;
        }
    } else {
        for (int t = 0; t < ts->P; t++)
            if (ts->first[t] == t && strcmp(ts->first_name[t], text) == 0) {
                *first = t;
                *count = ts->card[t];
                return true;
            }
    }
    return diag_error(d, SMALTI_ERR_MODEL, line, "%s=\"%s\" names no tile of this tileset (or of its subset)", attr, text);
}

/* The entry's <fixed x y tile> cells and <density tile d> overrides of the tiles' densities. */
static bool read_entry_children(diag *d, const wfc_classic_entry *e, const tile_set *ts, wfc_classic *m)
{
    static const char *const fixed_attrs[] = {"x", "y", "tile", NULL}, *const density_attrs[] = {"tile", "d", NULL};
    for (const xmlNode *x = xml_first_child(e->el); x; x = xml_next(x)) {
        bool fixed = xml_is(x, "fixed");
        if (!fixed && !xml_is(x, "density")) continue;
        xml_check_attrs(d, x, fixed ? fixed_attrs : density_attrs);
        const char *tile = xml_attr(x, "tile");
        const char *need = fixed ? "x, y and tile" : "tile and d";
        if (!tile || (fixed ? !xml_attr(x, "x") || !xml_attr(x, "y") : !xml_attr(x, "d")))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<%s> needs %s attributes", xml_name(x), need);
        int first = 0, count = 0;
        if (!tile_spec(d, xml_line(x), ts, tile, "tile", &first, &count)) return false;
        if (!fixed) {
            double v;
            if (!xml_get_double(d, x, "d", 0.5, &v)) return false;
            if (!(v >= 0 && v <= 1)) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "d=\"%g\" must be from 0 to 1", v);
            for (int t = first; t < first + count; t++) m->density[t] = v;
            continue;
        }
        int cx, cy;
        if (!xml_get_int(d, x, "x", 0, &cx) || !xml_get_int(d, x, "y", 0, &cy)) return false;
        if (cx < 0 || cy < 0 || cx >= e->width || cy >= e->height)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<fixed x=\"%d\" y=\"%d\"> is outside the %dx%d output", cx, cy,
                              e->width, e->height);
        struct wfc_classic_fixed *more = mem_realloc(m->fixed, (size_t)(m->fixed_count + 1) * sizeof *more);
        if (!more) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        m->fixed = more;
        m->fixed[m->fixed_count++] = (struct wfc_classic_fixed){cx + cy * e->width, first, count};
    }
    return true;
}

static bool load_neighbors(diag *d, const xmlNode *xneighbors, const xmlNode *xtiles, const tile_set *ts,
                           bool **dense)
{
    int P = ts->P;
    for (const xmlNode *x = xml_first_child(xneighbors); x; x = xml_next(x)) {
        if (!xml_is(x, "neighbor")) continue;
        static const char *const neighbor_attrs[] = {"left", "right", NULL};
        xml_check_attrs(d, x, neighbor_attrs);
        const char *left = xml_attr(x, "left"), *right = xml_attr(x, "right");
        if (!left || !right) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a <neighbor> needs left and right");
        int L = neighbor_variant(d, xml_line(x), ts, left, "left"), R = neighbor_variant(d, xml_line(x), ts, right, "right");
        if (L == -2 || R == -2) return false;
        if (L < 0 || R < 0) {
            /* Outside the subset is fine; a name that no tile has is not. */
            const char *missing = L < 0 ? left : right;
            char name[128];
            snprintf(name, sizeof name, "%s", missing);
            char *sp = strchr(name, ' ');
            if (sp) *sp = 0;
            bool known = false;
            for (const xmlNode *t = xml_first_child(xtiles); t && !known; t = xml_next(t)) {
                const char *n = xml_attr(t, "name");
                known = xml_is(t, "tile") && n && strcmp(n, name) == 0;
            }
            if (!known) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "neighbor names \"%s\", which is not a tile", name);
            continue; /* a tile left out by the subset */
        }
        const int(*a)[8] = (const int(*)[8])ts->action;
        int D = a[L][1], U = a[R][1];
        /* Engine directions: 0 +x, 1 +y, 2 -x, 3 -y; dense[d][t1*P+t2]: t2 may sit at t1's side d. */
        dense[2][(size_t)R * P + L] = true;
        dense[2][(size_t)a[R][6] * P + a[L][6]] = true;
        dense[2][(size_t)a[L][4] * P + a[R][4]] = true;
        dense[2][(size_t)a[L][2] * P + a[R][2]] = true;
        dense[1][(size_t)U * P + D] = true;
        dense[1][(size_t)a[D][6] * P + a[U][6]] = true;
        dense[1][(size_t)a[U][4] * P + a[D][4]] = true;
        dense[1][(size_t)a[D][2] * P + a[U][2]] = true;
    }
    for (int t1 = 0; t1 < P; t1++)
        for (int t2 = 0; t2 < P; t2++) {
            dense[0][(size_t)t2 * P + t1] = dense[2][(size_t)t1 * P + t2];
            dense[3][(size_t)t2 * P + t1] = dense[1][(size_t)t1 * P + t2];
        }
    return true;
}

static bool load_tiled(diag *outer, const char *root, const resources *res, const wfc_classic_entry *e, wfc_classic *m)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tilesets/%s.xml", root, e->name);
    if (!stays_in_folder(outer, e->line, root, res, path)) return false;
    int why = res->reader ? 0 : input_file_error(path);
    if (why == EISDIR) return diag_error(outer, SMALTI_ERR_MODEL, e->line, "%s is a directory, not a tileset", path);
    if (why) return diag_error(outer, SMALTI_ERR_MODEL, e->line, "%s: cannot open the tileset: %s", path, strerror(why));
    xml_first_error fe;
    xmlDoc *doc = resource_load_xml(res, outer, e->line, path, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING, &fe);
    diag dd = *outer;
    diag *d = &dd;
    d->file = path;
    d->failed = 0;
    if (!doc) {
        /* At the line of libxml2's first error in the tileset. */
        if (fe.set) diag_error(d, SMALTI_ERR_MODEL, fe.line, "%s", fe.message);
        else if (!outer->failed) diag_error(outer, SMALTI_ERR_MODEL, e->line, "%s: missing or not well-formed XML", path);
        if (dd.failed && outer->err && !outer->failed) outer->failed = 1;
        return false;
    }
    bool ok = false;
    tile_set ts = {0};
    double *weights = NULL;
    bool *dense[4] = {0};
    const xmlNode *xroot = xmlDocGetRootElement(doc);
    const xmlNode *xtiles = child_named(xroot, "tiles"), *xneighbors = child_named(xroot, "neighbors");
    const xmlNode *xsubset = NULL;
    bool unique;
    if (!xml_get_bool(d, xroot, "unique", false, &unique)) goto out;
    if (!xtiles || !xneighbors) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(xroot), "a tileset needs <tiles> and <neighbors>");
        goto out;
    }
    if (e->subset[0]) {
        const xmlNode *xsubsets = child_named(xroot, "subsets");
        for (const xmlNode *x = xsubsets ? xml_first_child(xsubsets) : NULL; x && !xsubset; x = xml_next(x)) {
            const char *n = xml_attr(x, "name");
            if (xml_is(x, "subset") && n && strcmp(n, e->subset) == 0) xsubset = x;
        }
        if (!xsubset) {
            diag_error(outer, SMALTI_ERR_MODEL, e->line, "subset \"%s\" is not in %s", e->subset, path);
            goto out;
        }
    }
    ts.action = mem_malloc(CLASSIC_MAX_TILES * sizeof *ts.action);
    ts.first_name = mem_malloc(CLASSIC_MAX_TILES * sizeof *ts.first_name);
    ts.first = mem_malloc(CLASSIC_MAX_TILES * sizeof *ts.first);
    ts.card = mem_malloc(CLASSIC_MAX_TILES * sizeof *ts.card);
    m->tile_names = mem_malloc(CLASSIC_MAX_TILES * sizeof *m->tile_names);
    m->density = mem_malloc(CLASSIC_MAX_TILES * sizeof *m->density);
    weights = mem_malloc(CLASSIC_MAX_TILES * sizeof *weights);
    if (!ts.action || !ts.first_name || !ts.first || !ts.card || !m->tile_names || !m->density || !weights) {
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        goto out;
    }
    if (!load_tiles(d, root, res, e, xtiles, xsubset, unique, &ts, m, weights)) goto out;
    int P = ts.P;
    /* Refuse what would not fit before the P*P tables and the wave are allocated. */
    int64_t picture = (int64_t)e->width * m->tilesize * e->height * m->tilesize;
    if (picture > CLASSIC_MAX_PIXELS) {
        diag_error(outer, SMALTI_ERR_MODEL, e->line, "the output picture would be %lldx%lld pixels; at most %lld pixels",
                   (long long)e->width * m->tilesize, (long long)e->height * m->tilesize, CLASSIC_MAX_PIXELS);
        goto out;
    }
    m->pb.P = P;
    m->pb.N = 1;
    m->pb.D = 4;
    if (!check_memory(outer, e, &m->pb, "tile variants")) goto out;
    for (int k = 0; k < 4; k++)
        if (!(dense[k] = mem_calloc((size_t)P * P, 1))) {
            diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
            goto out;
        }
    if (!load_neighbors(d, xneighbors, xtiles, &ts, dense) || !read_entry_children(outer, e, &ts, m)) goto out;
    m->pb.P = P;
    m->pb.N = 1;
    m->pb.D = 4;
    m->pb.weights = weights;
    weights = NULL;
    if (!wfc_set_propagator(&m->pb, dense)) {
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        goto out;
    }
    ok = true;
out:
    if (!ok && dd.failed && outer->err && !outer->failed) outer->failed = 1;
    for (int k = 0; k < 4; k++) mem_free(dense[k]);
    mem_free(ts.action);
    mem_free(ts.first_name);
    mem_free(ts.first);
    mem_free(ts.card);
    mem_free(weights);
    xmlFreeDoc(doc);
    return ok;
}

/* ---- running ---- */

/* The bans every run starts from: patterns that no neighbour can follow
   where a neighbour exists, and with ground the last pattern on the bottom row only. Ends early
   when s->stop says stop (stop_said). */
static void initial_bans(wfc_classic *m, bool ground)
{
    const wfc_problem *pb = &m->pb;
    wfc_solver *s = &m->solver;
    int MX = pb->mx, MY = pb->my, N = pb->N, P = pb->P;
    /* Usually no pattern lacks neighbours: then there is nothing to look at. */
    bool any_lonely = false;
    for (int k = 0; k < 4 * P; k++) any_lonely |= pb->prop_start[k + 1] == pb->prop_start[k];
    /* A row's look is some MX * P * 4 steps: a big wave's take long, so each row checks s->stop. */
    for (int y = 0; y < MY && any_lonely && !stop_tick(s->stop, (int64_t)MX * P); y++)
        for (int x = 0; x < MX; x++) {
            if (!pb->periodic && (x + N > MX || y + N > MY)) continue;
            int i = x + y * MX;
            for (int t = 0; t < P; t++) {
                bool lonely = false;
                for (int d = 0; d < 4 && !lonely; d++) {
                    int x2 = x + wfc_dx[d], y2 = y + wfc_dy[d];
                    bool exists = pb->periodic || (x2 >= 0 && y2 >= 0 && x2 + N <= MX && y2 + N <= MY);
                    lonely = exists && pb->prop_start[d * P + t + 1] == pb->prop_start[d * P + t];
                }
                if (lonely && s->wave.data[(size_t)i * P + t]) wfc_ban(pb, s, i, t);
            }
        }
    if (ground)
        for (int x = 0; x < MX; x++) {
            int bottom = x + (MY - 1) * MX;
            for (int t = 0; t < P - 1; t++)
                if (s->wave.data[(size_t)bottom * P + t]) wfc_ban(pb, s, bottom, t);
            for (int y = 0; y < MY - 1; y++) {
                int i = x + y * MX;
                if (s->wave.data[(size_t)i * P + P - 1]) wfc_ban(pb, s, i, P - 1);
            }
        }
}

/* The blocks' view of initial_bans' ground and of the <fixed> cells: what whole-wave cell i may start with
   (the lonely patterns are the blocks' own to ban). */
static void classic_cell_rule(const void *ctx, int i, uint8_t *possible)
{
    const wfc_classic *m = ctx;
    int P = m->pb.P;
    if (m->ground) {
        if (i / m->pb.mx == m->pb.my - 1) memset(possible, 0, (size_t)P - 1);
        else possible[P - 1] = 0;
    }
    for (int k = 0; k < m->fixed_count; k++) {
        const struct wfc_classic_fixed *f = &m->fixed[k];
        if (f->cell != i) continue;
        for (int t = 0; t < P; t++)
            if (t < f->first || t >= f->first + f->count) possible[t] = 0;
    }
}

/* A model's (or worker's) blocks; NULL when out of memory. */
static wfc_blocks *new_blocks(const wfc_classic *m)
{
    wfc_blocks *b = mem_malloc(sizeof *b);
    if (b && wfc_blocks_init(b, &m->pb, m->blocks->side, classic_cell_rule, m)) return b;
    if (b) wfc_blocks_free(b);
    mem_free(b);
    return NULL;
}

/* Whether the load must stop (the clock is read at each of these checks, which are few), said as a
   SMALTI_ERR_TIMEOUT at the entry's line. */
static bool load_stopped(diag *d, const wfc_classic_entry *e)
{
    if (!stop_tick(e->stop, (int64_t)STOP_ITEMS * STOP_CLOCK_EVERY)) return false;
    return !diag_error(d, SMALTI_ERR_TIMEOUT, e->line, "stopped loading %s: past the deadline", e->name);
}

/* The wave every run starts from: cleared, with the initial and <fixed> bans propagated, saved. False
   after an error in d: out of memory, or stopped (a big wave's reset and propagation check e->stop). */
static bool start_wave(diag *d, const wfc_classic_entry *e, wfc_classic *m)
{
    const wfc_problem *pb = &m->pb;
    wfc_solver *s = &m->solver;
    s->stop = e->stop;
    bool ok = wfc_solver_clear(s, pb);
    if (ok) initial_bans(m, e->overlapping && e->ground);
    ok = ok && !stop_said(s->stop);
    if (ok) {
        for (int k = 0; k < m->fixed_count; k++) {
            const struct wfc_classic_fixed *f = &m->fixed[k];
            for (int t = 0; t < pb->P; t++)
                if ((t < f->first || t >= f->first + f->count) && s->wave.data[(size_t)f->cell * pb->P + t]) wfc_ban(pb, s, f->cell, t);
        }
        m->start_contradicts = !wfc_propagate(pb, s);
        if (s->out_of_memory) ok = diag_error(d, SMALTI_ERR_RUNTIME, e->line, "out of memory");
        else if (m->start_contradicts && !s->stopped && m->fixed_count > 0)
            diag_warn(d, e->line, "the <fixed> cells contradict the tileset: every run ends in a contradiction");
        ok = ok && !s->stopped && wfc_solver_save_start(s, pb);
    }
    if (!ok && !s->out_of_memory) load_stopped(d, e); /* every other failure here is a stop */
    s->stop = NULL;
    return ok;
}

wfc_classic *wfc_classic_load(diag *d, const char *root, const wfc_classic_entry *e)
{
    return wfc_classic_load_from(d, root, NULL, e);
}

wfc_classic *wfc_classic_load_from(diag *d, const char *root, const resource_reader *rd, const wfc_classic_entry *e)
{
    wfc_classic *m = mem_calloc(1, sizeof *m);
    if (!m) {
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    wfc_problem *pb = &m->pb;
    pb->mx = e->width;
    pb->my = e->height;
    pb->mz = 1;
    pb->cells = e->width * e->height;
    pb->periodic = e->periodic;
    pb->heuristic = e->heuristic;
    pb->fast = true;
    pb->backtrack = e->backtrack;
    pb->sets = e->sets;
    m->black_background = e->black_background;
    m->ground = e->overlapping && e->ground;
    /* Every file of the entry is read beneath root, in one open (resource_read_file). */
    const resources res = {.roots = &root, .root_count = 1, .reader = rd};
    bool ok = !load_stopped(d, e) && (e->overlapping ? load_overlapping(d, root, &res, e, m) : load_tiled(d, root, &res, e, m));
    if (ok && e->density[0]) {
        char path[4096];
        snprintf(path, sizeof path, "%s/samples/%s.png", root, e->density);
        uint8_t *level = stays_in_folder(d, e->line, root, &res, path)
                             ? wfc_density_levels(&res, d, e->line, path, e->width, e->height, 1) : NULL;
        ok = level && wfc_set_density(pb, level, m->density, 1, e->density_power);
        if (level && !ok) diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        mem_free(level);
    }
    ok = ok && !load_stopped(d, e);
    if (ok && e->blocks) {
        /* No whole wave: each run solves regions of its own (blocks.c). */
        m->blocks = mem_malloc(sizeof *m->blocks);
        if (m->blocks) memset(m->blocks, 0, sizeof *m->blocks);
        if (!m->blocks || !wfc_problem_prepare(pb) || !wfc_blocks_init(m->blocks, pb, e->blocks, classic_cell_rule, m))
            ok = diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        if (!ok) {
            wfc_classic_free(m);
            return NULL;
        }
        return m;
    }
    if (ok && (!wfc_problem_prepare(pb) || !wfc_solver_init(&m->solver, pb))) ok = diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (!ok || !start_wave(d, e, m)) {
        wfc_classic_free(m);
        return NULL;
    }
    return m;
}

/* One attempt on solver s of m (m's own, or a worker's), or on blocks b (NULL: none). */
static wfc_result run_on(const wfc_classic *m, wfc_solver *s, wfc_blocks *b, bool *done, int32_t seed, long limit)
{
    if (b) {
        b->stop = s->stop;
        wfc_result r = wfc_blocks_solve(b, seed, limit);
        s->observations = b->observations;
        s->backtracks = b->backtracks;
        s->repairs = b->repairs;
        *done = r == WFC_DONE;
        return r;
    }
    if (m->start_contradicts) {
        *done = false;
        return wfc_solver_restart(s, &m->pb) ? WFC_CONTRADICTION : WFC_STOPPED;
    }
    wfc_result r = wfc_solve(&m->pb, s, seed, limit);
    *done = r == WFC_DONE;
    return r;
}

wfc_result wfc_classic_run(wfc_classic *m, int32_t seed, long limit) { return run_on(m, &m->solver, m->blocks, &m->done, seed, limit); }

int wfc_classic_threads(const wfc_classic *m, int wanted, int64_t memory)
{
    const int64_t each = m->blocks ? wfc_blocks_memory_estimate(&m->pb, m->blocks->side) : wfc_memory_estimate(&m->pb);
    if (memory <= 0 || each <= 0 || wanted <= 1) return wanted > 1 ? wanted : 1;
    const int64_t fit = memory / 2 / each;
    return fit >= wanted ? wanted : fit > 1 ? (int)fit : 1;
}

wfc_classic_worker *wfc_classic_worker_new(const wfc_classic *m)
{
    wfc_classic_worker *w = mem_calloc(1, sizeof *w);
    if (!w) return NULL;
    if (m->blocks ? !(w->blocks = new_blocks(m)) : !wfc_solver_init_sharing(&w->solver, &m->pb, &m->solver)) {
        wfc_classic_worker_free(w);
        return NULL;
    }
    return w;
}

wfc_result wfc_classic_worker_run(const wfc_classic *m, wfc_classic_worker *w, int32_t seed, long limit)
{
    return run_on(m, &w->solver, w->blocks, &w->done, seed, limit);
}

void wfc_classic_worker_free(wfc_classic_worker *w)
{
    if (!w) return;
    wfc_solver_free(&w->solver);
    if (w->blocks) wfc_blocks_free(w->blocks);
    mem_free(w->blocks);
    mem_free(w);
}

/* The pattern of cell i after a run: from blocks b when the model has them (-1: undecided), else the wave's. */
static int observed(const wfc_classic *m, const wfc_solver *s, const wfc_blocks *b, int i)
{
    if (b) return b->chosen[i];
    const uint8_t *w = s->wave.data + (size_t)i * m->pb.P;
    for (int t = 0; t < m->pb.P; t++)
        if (w[t]) return t;
    return 0;
}

/* Row y of an overlapping output (MX pixels). */
static void row_overlapping(const wfc_classic *m, const wfc_solver *s, const wfc_blocks *blocks, bool done, int y, uint32_t *row)
{
    const wfc_problem *pb = &m->pb;
    int MX = pb->mx, MY = pb->my, N = pb->N, P = pb->P;
    const uint8_t *wave = s->wave.data;
    for (int x = 0; x < MX; x++) {
        if (done || blocks) {
            /* A cell shows its pixel of the pattern at the nearest origin at or before it whose
               pattern lies inside the output (origins from MX-N+1 on do not, without periodic).
               Once every origin is observed, all the patterns that cover a cell agree on it, so
               this is the colour the reference's Save gives; but its origin x-(N-1) for the last
               N-1 columns lies before the output when MX < 2N-2, so it cannot be used here. */
            int ox = x < MX - N ? x : MX - N, oy = y < MY - N ? y : MY - N;
            int t = observed(m, s, blocks, ox + oy * MX);
            const uint8_t *p = m->patterns + (size_t)(t >= 0 ? t : 0) * N * N;
            /* Blocks stopped before the end leave undecided cells black. */
            row[x] = t >= 0 ? m->colours[p[(x - ox) + (y - oy) * N]] & 0xffffff : 0;
            continue;
        }
        long contributors = 0, r = 0, g = 0, b = 0;
        for (int dy = 0; dy < N; dy++)
            for (int dx = 0; dx < N; dx++) {
                int sx = x - dx, sy = y - dy;
                if (sx < 0) sx += MX;
                if (sy < 0) sy += MY;
                if (!pb->periodic && (sx + N > MX || sy + N > MY)) continue;
                const uint8_t *w = wave + (size_t)(sx + sy * MX) * P;
                for (int t = 0; t < P; t++)
                    if (w[t]) {
                        uint32_t c = m->colours[m->patterns[(size_t)t * N * N + dx + dy * N]];
                        contributors++;
                        r += (c >> 16) & 0xff;
                        g += (c >> 8) & 0xff;
                        b += c & 0xff;
                    }
            }
        row[x] = contributors ? (uint32_t)(r / contributors) << 16 | (uint32_t)(g / contributors) << 8 | (uint32_t)(b / contributors)
                              : 0;
    }
}

/* Pixel row Y of a tiled output (MX * tilesize pixels): row Y % tilesize of each cell's tile, or
   of the weighted average of the tiles it may still become. */
static void row_tiled(const wfc_classic *m, const wfc_solver *s, const wfc_blocks *blocks, bool done, int Y, uint32_t *row)
{
    const wfc_problem *pb = &m->pb;
    int MX = pb->mx, P = pb->P, S = m->tilesize, y = Y / S, yt = Y % S;
    for (int x = 0; x < MX; x++) {
        int i = x + y * MX;
        uint32_t *out = row + (size_t)x * S;
        if (done || blocks) {
            int t = observed(m, s, blocks, i);
            const uint32_t *tile = m->tiles + (size_t)(t >= 0 ? t : 0) * S * S + (size_t)yt * S;
            for (int xt = 0; xt < S; xt++) out[xt] = t >= 0 ? tile[xt] & 0xffffff : 0;
            continue;
        }
        const uint8_t *w = s->wave.data + (size_t)i * P;
        int remaining = s->wave.sums_of_ones[i];
        const double *weights = wfc_weights_at(pb, i);
        double sum = 0;
        for (int t = 0; t < P; t++)
            if (w[t]) sum += weights[t];
        for (int xt = 0; xt < S; xt++) {
            if ((m->black_background && remaining == P) || sum <= 0) {
                out[xt] = 0;
                continue;
            }
            double r = 0, g = 0, b = 0;
            for (int t = 0; t < P; t++)
                if (w[t]) {
                    uint32_t c = m->tiles[(size_t)t * S * S + xt + (size_t)yt * S];
                    double k = weights[t] / sum;
                    r += ((c >> 16) & 0xff) * k;
                    g += ((c >> 8) & 0xff) * k;
                    b += (c & 0xff) * k;
                }
            out[xt] = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
        }
    }
}

static void picture_size(const wfc_classic *m, int *width, int *height)
{
    int S = m->patterns ? 1 : m->tilesize;
    *width = m->pb.mx * S;
    *height = m->pb.my * S;
}

static void row_of(const wfc_classic *m, const wfc_solver *s, const wfc_blocks *b, bool done, int y, uint32_t *row)
{
    if (m->patterns) row_overlapping(m, s, b, done, y, row);
    else row_tiled(m, s, b, done, y, row);
}

static uint32_t *render_of(const wfc_classic *m, const wfc_solver *s, const wfc_blocks *b, bool done, int *width, int *height)
{
    picture_size(m, width, height);
    uint32_t *px = mem_malloc((size_t)*width * *height * sizeof *px);
    if (!px) return NULL;
    for (int y = 0; y < *height; y++) row_of(m, s, b, done, y, px + (size_t)y * *width);
    return px;
}

uint32_t *wfc_classic_render(const wfc_classic *m, int *width, int *height)
{
    return render_of(m, &m->solver, m->blocks, m->done, width, height);
}

void wfc_classic_picture_size(const wfc_classic *m, int *width, int *height) { picture_size(m, width, height); }

void wfc_classic_render_row(const wfc_classic *m, const wfc_classic_worker *w, int y, uint32_t *row)
{
    if (w) row_of(m, &w->solver, w->blocks, w->done, y, row);
    else row_of(m, &m->solver, m->blocks, m->done, y, row);
}

static char *text_of(const wfc_classic *m, const wfc_solver *s, const wfc_blocks *b, bool done)
{
    if (!m->tile_names || !done) return NULL;
    int MX = m->pb.mx, MY = m->pb.my;
    size_t cap = (size_t)MX * MY * (sizeof m->tile_names[0] + 2) + (size_t)MY + 1, len = 0;
    char *text = mem_malloc(cap);
    if (!text) return NULL;
    for (int y = 0; y < MY; y++) {
        for (int x = 0; x < MX; x++) len += (size_t)snprintf(text + len, cap - len, "%s, ", m->tile_names[observed(m, s, b, x + y * MX)]);
        len += (size_t)snprintf(text + len, cap - len, "\n");
    }
    return text;
}

char *wfc_classic_text(const wfc_classic *m) { return text_of(m, &m->solver, m->blocks, m->done); }

char *wfc_classic_worker_text(const wfc_classic *m, const wfc_classic_worker *w) { return text_of(m, &w->solver, w->blocks, w->done); }

void wfc_classic_free(wfc_classic *m)
{
    if (!m) return;
    wfc_solver_free(&m->solver);
    if (m->blocks) wfc_blocks_free(m->blocks);
    mem_free(m->blocks);
    wfc_problem_free(&m->pb);
    mem_free(m->patterns);
    mem_free(m->tiles);
    mem_free(m->tile_names);
    mem_free(m->fixed);
    mem_free(m->density);
    mem_free(m);
}
