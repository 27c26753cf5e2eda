/* wfc_overlap.c — the overlap model of `wfc`: NxN patterns of a sample image, counted with their symmetric images. */
#include "wfc.h"
#include "../core/xmlutil.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define OVERLAP_MAX_N 8

/* The sample's colours in order of first appearance: ords[i] is pixel i's colour number. */
static int sample_ords(const uint32_t *argb, long count, uint8_t *ords, uint32_t *colours, int max_colours)
{
    int c = 0;
    for (long i = 0; i < count; i++) {
        int k = 0;
        while (k < c && colours[k] != argb[i]) k++;
        if (k == c) {
            if (c == max_colours) return -1;
            colours[c++] = argb[i];
        }
        ords[i] = (uint8_t)k;
    }
    return c;
}

/* Distinct patterns in order of first appearance, with their counts: an open-addressing table over pattern bytes. */
typedef struct pattern_table {
    int cells;                 /* bytes per pattern */
    uint8_t *patterns;         /* count * cells */
    double *weights;
    int count, cap;
    int32_t *slots;            /* pattern index, -1 empty */
    size_t slot_mask;
} pattern_table;

static uint64_t pattern_hash(const uint8_t *p, int cells)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < cells; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static bool table_add(pattern_table *tb, const uint8_t *p)
{
    size_t s = (size_t)pattern_hash(p, tb->cells) & tb->slot_mask;
    while (tb->slots[s] >= 0) {
        int k = tb->slots[s];
        if (memcmp(tb->patterns + (size_t)k * tb->cells, p, (size_t)tb->cells) == 0) {
            tb->weights[k] += 1;
            return true;
        }
        s = (s + 1) & tb->slot_mask;
    }
    if (tb->count == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 256;
        uint8_t *pp = realloc(tb->patterns, (size_t)cap * tb->cells);
        if (!pp) return false;
        tb->patterns = pp;
        double *ww = realloc(tb->weights, (size_t)cap * sizeof *ww);
        if (!ww) return false;
        tb->weights = ww;
        tb->cap = cap;
    }
    memcpy(tb->patterns + (size_t)tb->count * tb->cells, p, (size_t)tb->cells);
    tb->weights[tb->count] = 1;
    tb->slots[s] = tb->count++;
    return true;
}

/* Pattern p1 and p2 shifted by (dx, dy) agree where they overlap. */
static bool agrees(const uint8_t *p1, const uint8_t *p2, int dx, int dy, int N)
{
    int xmin = dx < 0 ? 0 : dx, xmax = dx < 0 ? dx + N : N, ymin = dy < 0 ? 0 : dy, ymax = dy < 0 ? dy + N : N;
    for (int y = ymin; y < ymax; y++)
        for (int x = xmin; x < xmax; x++)
            if (p1[x + N * y] != p2[x - dx + N * (y - dy)]) return false;
    return true;
}

/* Count the patterns at each position of a grid-sized window over the wrapping
   sample (the reference iterates over the grid's size, not the sample's). */
static bool count_patterns(int N, pattern_table *tb, const uint8_t *sample, int smx, int smy, int xmax, int ymax,
                           symmetry_set symmetry)
{
    uint8_t images[8][OVERLAP_MAX_N * OVERLAP_MAX_N];
    for (int y = 0; y < ymax; y++)
        for (int x = 0; x < xmax; x++) {
            for (int dy = 0; dy < N; dy++)
                for (int dx = 0; dx < N; dx++) images[0][dx + dy * N] = sample[(x + dx) % smx + (y + dy) % smy * smx];
            /* e, b, a, ba, a2, ba2, a3, ba3 with a the rotation and b the reflection. */
            for (int k = 1; k < 8; k++) {
                const uint8_t *src = images[k % 2 ? k - 1 : k - 2];
                for (int py = 0; py < N; py++)
                    for (int px = 0; px < N; px++)
                        images[k][px + py * N] = k % 2 ? src[N - 1 - px + py * N] : src[N - 1 - py + px * N];
            }
            for (int k = 0; k < 8; k++)
                if (((symmetry >> k) & 1) && !table_add(tb, images[k])) return false;
        }
    return true;
}

/* "B|W": wanted[v] for these values of the new grid (each part names the value of its first character, as the
   reference reads rules). A <density value> reads this way too. */
static bool parse_values(loader *ld, wfc_node *w, const xmlNode *el, const char *attr, const char *text, bool *wanted,
                         void *ctx)
{
    (void)ctx;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, "|");
        int v = len > 0 ? w->newgrid.value_of[(unsigned char)p[0]] : -1;
        if (v < 0)
            return diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\": \"%.*s\" does not start with a value of the wfc's grid",
                              attr, text, (int)len, p);
        wanted[v] = true;
        if (!p[len]) break;
        p += len + 1;
    }
    return true;
}

/* A rule's out: the patterns whose corner (the cell they stand on) is one of its values. */
static bool parse_rule_out(loader *ld, wfc_node *w, const xmlNode *rule_el, const char *attr, const char *out, bool *allowed,
                           void *ctx)
{
    bool wanted[GRID_MAX_VALUES] = {0};
    if (!parse_values(ld, w, rule_el, attr, out, wanted, ctx)) return false;
    int cells = w->pb.N * w->pb.N;
    for (int t = 0; t < w->pb.P; t++) allowed[t] = wanted[w->patterns[(size_t)t * cells]];
    return true;
}

/* A density picture weighs each pattern by the densities of the values of all its N*N pixels. */
static bool load_density(loader *ld, wfc_node *w, const xmlNode *el)
{
    double value_density[GRID_MAX_VALUES];
    int C = w->newgrid.c, NN = w->pb.N * w->pb.N;
    for (int v = 0; v < C; v++) value_density[v] = 0.5;
    if (!wfc_read_density_children(ld, w, el, "value", C, parse_values, NULL, value_density)) return false;
    if (!xml_attr(el, "density")) return wfc_load_density(ld, w, el);
    w->density = malloc((size_t)w->pb.P * NN * sizeof *w->density);
    if (!w->density) return diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    for (size_t k = 0; k < (size_t)w->pb.P * NN; k++) w->density[k] = value_density[w->patterns[k]];
    w->density_per_pattern = NN;
    return wfc_load_density(ld, w, el);
}

static void overlap_update_state(const wfc_node *w, const uint8_t *data, uint8_t *cells)
{
    int MX = w->newgrid.mx, MY = w->newgrid.my, C = w->newgrid.c, N = w->pb.N, P = w->pb.P;
    int32_t *votes = calloc((size_t)MX * MY * C, sizeof *votes);
    if (!votes) return;
    for (int i = 0; i < w->pb.cells; i++) {
        int x = i % MX, y = i / MX;
        for (int t = 0; t < P; t++) {
            if (!data[(size_t)i * P + t]) continue;
            const uint8_t *pattern = w->patterns + (size_t)t * N * N;
            for (int dy = 0; dy < N; dy++) {
                /* One wrap as the reference does; a grid narrower than half a
                   pattern (where the reference fails) wraps fully. */
                int ydy = y + dy;
                if (ydy >= MY) ydy -= MY;
                if (ydy >= MY) ydy %= MY;
                for (int dx = 0; dx < N; dx++) {
                    int xdx = x + dx;
                    if (xdx >= MX) xdx -= MX;
                    if (xdx >= MX) xdx %= MX;
                    votes[(size_t)(xdx + ydy * MX) * C + pattern[dx + dy * N]]++;
                }
            }
        }
    }
    for (int i = 0; i < MX * MY; i++) cells[i] = wfc_vote_winner(votes + (size_t)i * C, C);
    free(votes);
}

bool wfc_sample_patterns(const uint8_t *sample, int smx, int smy, int N, int xmax, int ymax, symmetry_set symmetry,
                         uint8_t **patterns, double **weights, int *count)
{
    pattern_table tb = {.cells = N * N};
    size_t slots = 16;
    while (slots < (size_t)xmax * ymax * 16) slots *= 2;
    tb.slots = malloc(slots * sizeof *tb.slots);
    tb.slot_mask = slots - 1;
    bool ok = tb.slots != NULL;
    if (ok) {
        memset(tb.slots, 0xff, slots * sizeof *tb.slots);
        ok = count_patterns(N, &tb, sample, smx, smy, xmax, ymax, symmetry);
    }
    free(tb.slots);
    *patterns = tb.patterns;
    *weights = tb.weights;
    *count = tb.count;
    return ok;
}

static bool build_patterns(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set symmetry, bool periodic_input)
{
    diag *d = ld->d;
    int line = xml_line(el);
    const char *name = xml_attr(el, "sample");
    char *path = resource_find(ld->res, d, line, "sample", "samples", name, ".png");
    if (!path) return false;
    int smx, smy;
    uint32_t *argb = image_load_argb(d, line, path, &smx, &smy);
    free(path);
    if (!argb) return false;
    long count = (long)smx * smy;
    uint8_t *sample = malloc((size_t)count);
    uint32_t colours[GRID_MAX_VALUES];
    int C = sample ? sample_ords(argb, count, sample, colours, w->newgrid.c) : 0;
    free(argb);
    if (!sample) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (C < 0) {
        free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, line, "sample \"%s\" has more than %d colours, the number of values of the wfc's grid",
                          name, w->newgrid.c);
    }
    /* The reference indexes patterns by C^(N*N) in a 32-bit int. */
    long long power = 1;
    for (int k = 0; k < w->pb.N * w->pb.N && power <= INT_MAX; k++) power *= C;
    if (power > INT_MAX) {
        free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, line, "n=\"%d\" is too large for the %d colours of sample \"%s\"", w->pb.N, C, name);
    }
    int N = w->pb.N;
    int xmax = periodic_input ? w->pb.mx : w->pb.mx - N + 1, ymax = periodic_input ? w->pb.my : w->pb.my - N + 1;
    if (xmax < 1 || ymax < 1) {
        free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, line, "the %dx%d grid is too small for %dx%d patterns of a non-periodic input",
                          w->pb.mx, w->pb.my, N, N);
    }
    bool ok = wfc_sample_patterns(sample, smx, smy, N, xmax, ymax, symmetry, &w->patterns, &w->pb.weights, &w->pb.P);
    free(sample);
    if (!ok) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (w->pb.P == 0) return diag_error(d, SMALTI_ERR_MODEL, line, "symmetry leaves no patterns of sample \"%s\"", name);
    if (w->pb.P > WFC_MAX_PATTERNS)
        return diag_error(d, SMALTI_ERR_MODEL, line, "sample \"%s\" has %d patterns; at most %d", name, w->pb.P, WFC_MAX_PATTERNS);
    return true;
}

bool wfc_overlap_propagator(wfc_problem *pb, const uint8_t *patterns)
{
    int P = pb->P, N = pb->N;
    bool *dense[4] = {0};
    bool ok = true;
    for (int dd = 0; dd < 4 && ok; dd++) ok = (dense[dd] = malloc((size_t)P * P)) != NULL;
    for (int dd = 0; dd < 4 && ok; dd++)
        for (int t = 0; t < P; t++)
            for (int t2 = 0; t2 < P; t2++)
                dense[dd][(size_t)t * P + t2] =
                    agrees(patterns + (size_t)t * N * N, patterns + (size_t)t2 * N * N, wfc_dx[dd], wfc_dy[dd], N);
    ok = ok && wfc_set_propagator(pb, dense);
    for (int dd = 0; dd < 4; dd++) free(dense[dd]);
    return ok;
}

node *wfc_overlap_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    diag *d = ld->d;
    wfc_node *w = wfc_node_new(ld, el);
    if (!w) return NULL;
    w->pb.D = 4;
    w->update_state = overlap_update_state;
    int line = xml_line(el);
    if (w->pb.mz != 1) {
        diag_error(d, SMALTI_ERR_MODEL, line, "the overlap model of <wfc> works only on 2-D grids (this one is %dx%dx%d)", w->pb.mx,
                   w->pb.my, w->pb.mz);
        return NULL;
    }
    if (!xml_get_int(d, el, "n", 3, &w->pb.N)) return NULL;
    if (w->pb.N < 1 || w->pb.N > OVERLAP_MAX_N) {
        diag_error(d, SMALTI_ERR_MODEL, line, "n=\"%d\": the pattern size must be from 1 to %d", w->pb.N, OVERLAP_MAX_N);
        return NULL;
    }
    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    if (sym && !symmetry_lookup(true, sym, &symmetry)) {
        diag_error(d, SMALTI_ERR_MODEL, line, "unknown symmetry %s (use one of %s)", sym, symmetry_names(true));
        return NULL;
    }
    bool periodic_input;
    if (!xml_get_bool(d, el, "periodicInput", true, &periodic_input)) return NULL;
    if (!grid_load(d, el, w->pb.mx, w->pb.my, w->pb.mz, &w->newgrid)) return NULL;
    w->pb.periodic = true;
    if (!build_patterns(ld, w, el, symmetry, periodic_input)) return NULL;
    if (!wfc_overlap_propagator(&w->pb, w->patterns)) {
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    if (!wfc_load_rules(ld, w, el, ld->grid, parse_rule_out, NULL) || !load_density(ld, w, el)) return NULL;
    return wfc_finish_load(ld, w, el, parent_symmetry) ? &w->b.base : NULL;
}
