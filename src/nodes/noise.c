/* noise.c — the `noise` node: one step paints the cells matching `on` by bands of coherent
   noise (noise_fn.c), the first band whose `to` is above a cell's value taking it. */
#include "nodes.h"
#include "gen.h"
#include "noise_fn.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct noise_band {
    float to;        /* +inf for a band without `to` */
    double p;        /* below 1: applies with this probability, one draw each time it is reached */
    uint8_t value;
} noise_band;

typedef struct noise_node {
    node base;
    noise_spec spec;
    wave_bits on;
    noise_band *bands;
    int band_count;
} noise_node;

typedef struct noise_state {
    bool done;
    int padded_mx;   /* the row length rounded up to whole vectors */
    float *xcoords;  /* per octave, the x coordinate of each column */
    float *row;      /* the values of one row */
} noise_state;

#define NOISE_ATTRS "type", "fractal", "frequency", "octaves", "lacunarity", "gain", "cellularDistance", "cellularReturn", \
                    "cellularJitter", "pingPongStrength", "on", "steps"
static const char *const noise_attrs[] = {NOISE_ATTRS, NULL};
static const char *const noise_root_attrs[] = {NOISE_ATTRS, "values", "origin", "folder", NULL};
static const char *const band_attrs[] = {"to", "value", "p", NULL};
static const char *const type_names[] = {"simplex", "perlin", "value", "cellular", "white", "valuecubic", "simplexsmooth", NULL};
static const char *const fractal_names[] = {"none", "fbm", "ridged", "billow", "pingpong", NULL};
static const char *const cellular_distance_names[] = {"euclidean", "euclideansq", "manhattan", "hybrid", NULL};
static const char *const cellular_return_names[] = {"cellvalue",    "distance",     "distance2",    "distance2add",
                                                    "distance2sub", "distance2mul", "distance2div", NULL};
static const char *const cellular_attrs[] = {"cellularDistance", "cellularReturn", "cellularJitter", NULL};

static void noise_free(node *n)
{
    noise_node *nn = (noise_node *)n;
    mem_free(nn->bands);
    mem_free(nn);
}

static bool load_spec(diag *d, const xmlNode *el, const grid_def *g, noise_spec *s)
{
    if (!gen_get_choice(d, el, "type", type_names, NOISE_SIMPLEX, &s->type) ||
        !gen_get_choice(d, el, "fractal", fractal_names, FRACTAL_FBM, &s->fractal) ||
        !gen_get_double(d, el, "frequency", s->type == NOISE_WHITE ? 1.0 : 0.0625, 0, 16, &s->frequency) ||
        !xml_get_int_range(d, el, "octaves", 4, 1, NOISE_MAX_OCTAVES, &s->octaves) ||
        !gen_get_double(d, el, "lacunarity", 2.0, 1, 8, &s->lacunarity) || !gen_get_double(d, el, "gain", 0.5, 0, 2, &s->gain) ||
        !gen_get_choice(d, el, "cellularDistance", cellular_distance_names, CELLULAR_EUCLIDEAN, &s->cellular_distance) ||
        !gen_get_choice(d, el, "cellularReturn", cellular_return_names, CELLULAR_DISTANCE, &s->cellular_return) ||
        !gen_get_double(d, el, "cellularJitter", 1.0, 0, 1, &s->cellular_jitter) ||
        !gen_get_double(d, el, "pingPongStrength", 2.0, 0, 16, &s->ping_pong_strength))
        return false;
    if (s->ping_pong_strength <= 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "pingPongStrength=\"%s\" of <noise> must be above 0",
                          xml_attr(el, "pingPongStrength"));
    if (s->fractal != FRACTAL_PINGPONG && xml_attr(el, "pingPongStrength"))
        diag_warn(d, xml_line(el), "pingPongStrength on <noise fractal=\"%s\"> has no effect: only fractal=\"pingpong\" reads it",
                  fractal_names[s->fractal]);
    /* Only cellular reads them: elsewhere they are a likely mistake, not an error. */
    for (int k = 0; s->type != NOISE_CELLULAR && cellular_attrs[k]; k++)
        if (xml_attr(el, cellular_attrs[k]))
            diag_warn(d, xml_line(el), "%s on <noise type=\"%s\"> has no effect: only type=\"cellular\" reads it", cellular_attrs[k],
                      type_names[s->type]);
    if (s->frequency <= 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "frequency=\"%s\" of <noise> must be above 0", xml_attr(el, "frequency"));
    int side = g->mx > g->my ? g->mx : g->my;
    if (g->mz > side) side = g->mz;
    double reach = noise_max_coord(s, side);
    if (reach >= NOISE_MAX_COORD)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                          "<noise> frequency %g with %d octaves of lacunarity %g reaches %.0f lattice cells across this grid; "
                          "keep it below %.0f",
                          s->frequency, s->fractal == FRACTAL_NONE ? 1 : s->octaves, s->lacunarity, reach, NOISE_MAX_COORD);
    return true;
}

/* Bands go from low to high: `to` never decreases, bands without `to` come last, and nothing
   follows a band that takes every cell left (no `to`, no `p`). */
static bool load_band(diag *d, const xmlNode *x, const grid_def *g, noise_band *prev, noise_band *b)
{
    xml_check_attrs(d, x, band_attrs);
    int value;
    double to;
    if (!gen_value(d, x, g, "value", true, &value) || !gen_get_double(d, x, "to", 1.0, -1, 1, &to) ||
        !gen_get_double(d, x, "p", 1.0, 0, 1, &b->p))
        return false;
    b->value = (uint8_t)value;
    b->to = xml_attr(x, "to") ? (float)to : INFINITY;
    if (prev && prev->to == INFINITY && prev->p >= 1)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(x),
                          "this <band> is never reached: the band before it has neither to nor p, so it takes every cell left");
    if (prev && b->to < prev->to) {
        if (prev->to == INFINITY)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<band to=\"%s\"> comes after a band without to; bands go from low to high",
                              xml_attr(x, "to"));
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<band to=\"%s\"> is below the previous band's to=\"%g\"; bands go from low to high",
                          xml_attr(x, "to"), (double)prev->to);
    }
    return true;
}

static node *noise_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    noise_node *nn = node_new(ld, sizeof *nn, &node_kind_noise, el);
    if (!nn) return NULL;
    xml_check_attrs(d, el, nn->base.id == 0 ? noise_root_attrs : noise_attrs);
    int steps;
    if (!load_spec(d, el, g, &nn->spec) || !gen_wave(d, el, g, "on", &nn->on) ||
        !xml_get_int_range(d, el, "steps", 0, 0, INT_MAX, &steps))
        return NULL;

    int count = 0;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "band")) {
            diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "unknown element <%s> inside <noise>; it takes <band> elements", xml_name(x));
            return NULL;
        }
        count++;
    }
    if (count == 0) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<noise> needs at least one <band value=\"...\"/>");
        return NULL;
    }
    nn->bands = mem_calloc((size_t)count, sizeof *nn->bands);
    if (!nn->bands) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        noise_band *prev = nn->band_count ? &nn->bands[nn->band_count - 1] : NULL;
        if (!load_band(d, x, g, prev, &nn->bands[nn->band_count])) return NULL;
        nn->band_count++;
    }
    return &nn->base;
}

static void noise_state_free(void *state)
{
    noise_state *st = state;
    if (st) {
        mem_free(st->xcoords);
        mem_free(st->row);
    }
    mem_free(st);
}

static void *noise_state_new(const node *n, const grid_def *g)
{
    const noise_node *nn = (const noise_node *)n;
    noise_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    st->padded_mx = (g->mx + NOISE_LANES - 1) / NOISE_LANES * NOISE_LANES;
    int octaves = nn->spec.fractal == FRACTAL_NONE ? 1 : nn->spec.octaves;
    st->xcoords = mem_malloc((size_t)octaves * st->padded_mx * sizeof *st->xcoords);
    st->row = mem_malloc((size_t)st->padded_mx * sizeof *st->row);
    if (!st->xcoords || !st->row) {
        noise_state_free(st);
        return NULL;
    }
    return st;
}

static void noise_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    ((noise_state *)state)->done = false;
}

/* The band that takes a cell of this noise value, or -1. */
static int pick_band(const noise_node *nn, float v, rng *random)
{
    for (int k = 0; k < nn->band_count; k++) {
        const noise_band *b = &nn->bands[k];
        if (!(v < b->to)) continue;
        if (b->p < 1 && !(rng_next_double(random) < b->p)) continue;
        return b->value;
    }
    return -1;
}

static bool noise_go(run_state *r, const node *n, void *state)
{
    const noise_node *nn = (const noise_node *)n;
    noise_state *st = state;
    if (st->done) return false;
    st->done = true;
    noise_field field;
    noise_field_init(&field, &nn->spec, r->mz > 1, (uint32_t)rng_next(&r->random));
    noise_xcoords(&field, st->padded_mx, st->xcoords);
    int32_t i = 0;
    for (int z = 0; z < r->mz; z++)
        for (int y = 0; y < r->my; y++) {
            if (stop_check(&r->stop, r->mx)) return false; /* a row's work: its cells. The run stops; its grid is not an output */
            noise_row(&field, st->xcoords, st->padded_mx, y, z, st->row);
            for (int x = 0; x < r->mx; x++, i++) {
                if (!gen_in_wave(nn->on, r->state[i])) continue;
                int v = pick_band(nn, st->row[x], &r->random);
                if (v < 0 || r->state[i] == v) continue;
                r->state[i] = (uint8_t)v;
                run_change(r, i);
            }
        }
    r->acting_node = n->id;
    return true;
}

/* For tests: the field a node paints with for a given seed draw. */
void noise_node_field(const node *n, bool three_d, uint32_t seed, noise_field *out)
{
    noise_field_init(out, &((const noise_node *)n)->spec, three_d, seed);
}

const node_kind node_kind_noise = {
    .name = "noise",
    .beyond_reference = true,
    .is_branch = false,
    .writes_named_values = true,
    .load = noise_load,
    .free = noise_free,
    .state_new = noise_state_new,
    .state_free = noise_state_free,
    .reset = noise_reset,
    .go = noise_go,
};
