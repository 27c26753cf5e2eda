/* wfc_overlap.c — the overlap model of `wfc`: NxN patterns of a sample image, counted with their symmetric images. */
#include "wfc_node.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
    w->density = mem_malloc((size_t)w->pb.P * NN * sizeof *w->density);
    if (!w->density) return diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    for (size_t k = 0; k < (size_t)w->pb.P * NN; k++) w->density[k] = value_density[w->patterns[k]];
    w->density_per_pattern = NN;
    return wfc_load_density(ld, w, el);
}

static void overlap_update_state(const wfc_node *w, const uint8_t *data, uint8_t *cells)
{
    int MX = w->newgrid.mx, MY = w->newgrid.my, C = w->newgrid.c, N = w->pb.N, P = w->pb.P;
    int32_t *votes = mem_calloc((size_t)MX * MY * C, sizeof *votes);
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
    mem_free(votes);
}

static bool build_patterns(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set symmetry, bool periodic_input)
{
    diag *d = ld->d;
    int line = xml_line(el);
    const char *name = xml_attr(el, "sample");
    char *path = resource_find(ld->res, d, line, "sample", "samples", name, ".png");
    if (!path) return false;
    int smx, smy;
    uint32_t *argb = resource_load_image(ld->res, d, line, path, &smx, &smy);
    mem_free(path);
    if (!argb) return false;
    long count = (long)smx * smy;
    uint8_t *sample = mem_malloc((size_t)count);
    uint32_t colours[GRID_MAX_VALUES];
    int C = sample ? wfc_sample_ords(argb, count, sample, colours, w->newgrid.c) : 0;
    mem_free(argb);
    if (!sample) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (C < 0) {
        mem_free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, line, "sample \"%s\" has more than %d colours, the number of values of the wfc's grid",
                          name, w->newgrid.c);
    }
    /* The reference indexes patterns by C^(N*N) in a 32-bit int. */
    long long power = 1;
    for (int k = 0; k < w->pb.N * w->pb.N && power <= INT_MAX; k++) power *= C;
    if (power > INT_MAX) {
        mem_free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, line, "n=\"%d\" is too large for the %d colours of sample \"%s\"", w->pb.N, C, name);
    }
    int N = w->pb.N;
    int xmax = periodic_input ? w->pb.mx : w->pb.mx - N + 1, ymax = periodic_input ? w->pb.my : w->pb.my - N + 1;
    if (xmax < 1 || ymax < 1) {
        mem_free(sample);
        return diag_error(d, SMALTI_ERR_MODEL, line, "the %dx%d grid is too small for %dx%d patterns of a non-periodic input",
                          w->pb.mx, w->pb.my, N, N);
    }
    bool ok = wfc_sample_patterns(sample, smx, smy, N, xmax, ymax, symmetry, &w->patterns, &w->pb.weights, &w->pb.P);
    mem_free(sample);
    if (!ok) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (w->pb.P == 0) return diag_error(d, SMALTI_ERR_MODEL, line, "symmetry leaves no patterns of sample \"%s\"", name);
    if (w->pb.P > WFC_MAX_PATTERNS)
        return diag_error(d, SMALTI_ERR_MODEL, line, "sample \"%s\" has %d patterns; at most %d", name, w->pb.P, WFC_MAX_PATTERNS);
    return true;
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
    if (w->pb.N < 1 || w->pb.N > WFC_OVERLAP_MAX_N) {
        diag_error(d, SMALTI_ERR_MODEL, line, "n=\"%d\": the pattern size must be from 1 to %d", w->pb.N, WFC_OVERLAP_MAX_N);
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
    if (!grid_load(d, el, w->pb.mx, w->pb.my, w->pb.mz, ld->max_values, node_holds_unions, &w->newgrid)) return NULL;
    w->pb.periodic = true;
    if (!build_patterns(ld, w, el, symmetry, periodic_input) || !wfc_check_memory(d, line, &w->pb, "patterns")) return NULL;
    if (!wfc_overlap_propagator(&w->pb, w->patterns)) {
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    if (!wfc_load_rules(ld, w, el, ld->grid, parse_rule_out, NULL) || !load_density(ld, w, el)) return NULL;
    return wfc_finish_load(ld, w, el, parent_symmetry) ? &w->b.base : NULL;
}
