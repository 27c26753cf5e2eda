/* wfc.c — the wave function collapse engine shared by the overlap and tile models: wave, bans, propagation,
   observation, the search for a good seed, and then the children as a branch on the new grid. */
#include "wfc.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const int wfc_dx[6] = {1, 0, -1, 0, 0, 0};
const int wfc_dy[6] = {0, 1, 0, -1, 0, 0};
const int wfc_dz[6] = {0, 0, 0, 0, 1, -1};
static const int opposite[6] = {2, 3, 0, 1, 5, 4};

const char *const wfc_attrs[] = {"values", "sample", "tileset", "tiles", "n", "periodic", "periodicInput", "shannon",
                                 "tries", "symmetry", "overlap", "overlapz", "transparent", "folder", "outputValues",
                                 NULL};

typedef struct wave {
    uint8_t *data;               /* [i*P + t]: pattern t still possible at cell i */
    int32_t *compatible;         /* [(i*P + t)*D + d]: supports of t at i from direction d */
    int32_t *sums_of_ones;
    double *sums_of_weights, *sums_of_weight_log_weights, *entropies;
} wave;

typedef struct wfc_state {
    branch_state b;              /* b.n == -1: still observing */
    bool firstgo;
    wave wave, start;
    int32_t *stack;              /* (cell, pattern) pairs */
    int64_t stack_size, stack_cap;
    double *distribution;
    rng random;                  /* seeded with the good seed */
    uint8_t *cells;              /* the new grid */
} wfc_state;

wfc_node *wfc_node_new(loader *ld, const xmlNode *el)
{
    wfc_node *w = calloc(1, sizeof *w);
    if (!w) { diag_error(ld->d, TS_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    w->b.base.kind = &node_kind_wfc;
    if (!loader_register(ld, &w->b.base, el)) { free(w); return NULL; }
    xml_check_attrs(ld->d, el, wfc_attrs);
    const grid_def *g = ld->grid;
    w->mx = g->mx;
    w->my = g->my;
    w->mz = g->mz;
    w->cells = g->mx * g->my * g->mz;
    w->N = 1;
    return w;
}

void wfc_free(node *n)
{
    wfc_node *w = (wfc_node *)n;
    free(w->prop_start);
    free(w->prop_data);
    free(w->initial_compatible);
    free(w->weights);
    free(w->weight_log_weights);
    for (int v = 0; v < GRID_MAX_VALUES; v++) free(w->allowed[v]);
    free(w->patterns);
    free(w->tiles);
    grid_free(&w->newgrid);
    branch_free(n);
}

bool wfc_set_propagator(wfc_node *w, bool *const *dense)
{
    int P = w->P, D = w->D;
    int64_t total = 0;
    for (int d = 0; d < D; d++)
        for (int64_t k = 0; k < (int64_t)P * P; k++) total += dense[d][k];
    w->prop_start = malloc(((size_t)D * P + 1) * sizeof *w->prop_start);
    w->prop_data = malloc((size_t)(total > 0 ? total : 1) * sizeof *w->prop_data);
    w->initial_compatible = malloc((size_t)P * D * sizeof *w->initial_compatible);
    if (!w->prop_start || !w->prop_data || !w->initial_compatible) return false;
    int32_t at = 0;
    for (int d = 0; d < D; d++)
        for (int t = 0; t < P; t++) {
            w->prop_start[d * P + t] = at;
            const bool *row = dense[d] + (size_t)t * P;
            for (int t2 = 0; t2 < P; t2++)
                if (row[t2]) w->prop_data[at++] = t2;
        }
    w->prop_start[D * P] = at;
    for (int t = 0; t < P; t++)
        for (int d = 0; d < D; d++) {
            int o = opposite[d] * P + t;
            w->initial_compatible[t * D + d] = w->prop_start[o + 1] - w->prop_start[o];
        }
    return true;
}

bool wfc_load_rules(loader *ld, wfc_node *w, const xmlNode *el, const grid_def *grid, wfc_rule_fn parse, void *ctx)
{
    static const char *const rule_attrs[] = {"in", "out", NULL};
    diag *d = ld->d;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "rule")) continue;
        xml_check_attrs(d, x, rule_attrs);
        const char *in = xml_attr(x, "in"), *out = xml_attr(x, "out");
        if (!in || !out) return diag_error(d, TS_ERR_MODEL, xml_line(x), "a <rule> of <wfc> needs in and out attributes");
        if (strlen(in) != 1) return diag_error(d, TS_ERR_MODEL, xml_line(x), "in=\"%s\" of a <wfc> rule should be one value", in);
        int v = grid->value_of[(unsigned char)in[0]];
        if (v < 0) return diag_error(d, TS_ERR_MODEL, xml_line(x), "in=\"%s\" is not a value of the grid", in);
        if (w->allowed[v]) return diag_error(d, TS_ERR_MODEL, xml_line(x), "a second <rule> for in=\"%s\"", in);
        w->allowed[v] = calloc((size_t)w->P, sizeof(bool));
        if (!w->allowed[v]) return diag_error(d, TS_ERR_RUNTIME, 0, "out of memory");
        if (!parse(ld, w, x, out, w->allowed[v], ctx)) return false;
    }
    return true;
}

bool wfc_finish_load(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set parent_symmetry)
{
    diag *d = ld->d;
    if (!xml_get_bool(d, el, "shannon", false, &w->shannon) || !xml_get_int(d, el, "tries", 1000, &w->tries)) return false;
    if (w->shannon) {
        w->weight_log_weights = malloc((size_t)w->P * sizeof(double));
        if (!w->weight_log_weights) return diag_error(d, TS_ERR_RUNTIME, 0, "out of memory");
        for (int t = 0; t < w->P; t++) {
            w->weight_log_weights[t] = w->weights[t] * log(w->weights[t]);
            w->sum_of_weights += w->weights[t];
            w->sum_of_weight_log_weights += w->weight_log_weights[t];
        }
        w->starting_entropy = log(w->sum_of_weights) - w->sum_of_weight_log_weights / w->sum_of_weights;
    }
    /* The children's symmetry is read against the start grid's dimension, as the reference does. */
    bool d2 = ld->nodes[0]->grid->mz == 1;
    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    if (sym && !symmetry_lookup(d2, sym, &symmetry))
        return diag_error(d, TS_ERR_MODEL, xml_line(el), "unknown symmetry %s (use one of %s)", sym, symmetry_names(d2));
    grid_def *old = ld->grid;
    ld->grid = &w->newgrid;
    bool ok = branch_load_children(ld, &w->b, el, symmetry);
    ld->grid = old;
    return ok;
}

static node *wfc_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    if (xml_attr(el, "sample")) return wfc_overlap_load(ld, el, parent_symmetry);
    if (xml_attr(el, "tileset")) return wfc_tile_load(ld, el, parent_symmetry);
    diag_error(ld->d, TS_ERR_MODEL, xml_line(el), "<wfc> needs a sample (overlap model) or a tileset (tile model) attribute");
    return NULL;
}

/* ---- run state ---- */

static bool wave_alloc(wave *wv, const wfc_node *w)
{
    size_t cells = (size_t)w->cells, P = (size_t)w->P;
    wv->data = malloc(cells * P);
    wv->compatible = malloc(cells * P * (size_t)w->D * sizeof *wv->compatible);
    wv->sums_of_ones = malloc(cells * sizeof *wv->sums_of_ones);
    if (!wv->data || !wv->compatible || !wv->sums_of_ones) return false;
    if (w->shannon) {
        wv->sums_of_weights = malloc(cells * sizeof(double));
        wv->sums_of_weight_log_weights = malloc(cells * sizeof(double));
        wv->entropies = malloc(cells * sizeof(double));
        if (!wv->sums_of_weights || !wv->sums_of_weight_log_weights || !wv->entropies) return false;
    }
    return true;
}

static void wave_free(wave *wv)
{
    free(wv->data);
    free(wv->compatible);
    free(wv->sums_of_ones);
    free(wv->sums_of_weights);
    free(wv->sums_of_weight_log_weights);
    free(wv->entropies);
}

static void wave_copy(wave *to, const wave *from, const wfc_node *w)
{
    size_t cells = (size_t)w->cells, P = (size_t)w->P;
    memcpy(to->data, from->data, cells * P);
    memcpy(to->compatible, from->compatible, cells * P * (size_t)w->D * sizeof *to->compatible);
    memcpy(to->sums_of_ones, from->sums_of_ones, cells * sizeof *to->sums_of_ones);
    if (w->shannon) {
        memcpy(to->sums_of_weights, from->sums_of_weights, cells * sizeof(double));
        memcpy(to->sums_of_weight_log_weights, from->sums_of_weight_log_weights, cells * sizeof(double));
        memcpy(to->entropies, from->entropies, cells * sizeof(double));
    }
}

static void wave_init(wave *wv, const wfc_node *w)
{
    size_t P = (size_t)w->P, D = (size_t)w->D;
    memset(wv->data, 1, (size_t)w->cells * P);
    for (int i = 0; i < w->cells; i++) {
        memcpy(wv->compatible + (size_t)i * P * D, w->initial_compatible, P * D * sizeof *wv->compatible);
        wv->sums_of_ones[i] = w->P;
        if (w->shannon) {
            wv->sums_of_weights[i] = w->sum_of_weights;
            wv->sums_of_weight_log_weights[i] = w->sum_of_weight_log_weights;
            wv->entropies[i] = w->starting_entropy;
        }
    }
}

static void wfc_state_free(void *state)
{
    wfc_state *st = state;
    if (!st) return;
    wave_free(&st->wave);
    wave_free(&st->start);
    free(st->stack);
    free(st->distribution);
    free(st->cells);
    free(st);
}

static void *wfc_state_new(const node *n, const grid_def *g)
{
    (void)g;
    const wfc_node *w = (const wfc_node *)n;
    wfc_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    const grid_def *ng = &w->newgrid;
    st->stack_cap = (int64_t)w->cells * w->P;
    st->stack = malloc((size_t)st->stack_cap * 2 * sizeof *st->stack);
    st->distribution = malloc((size_t)w->P * sizeof *st->distribution);
    st->cells = calloc((size_t)ng->mx * ng->my * ng->mz, 1);
    if (!st->stack || !st->distribution || !st->cells || !wave_alloc(&st->wave, w) || !wave_alloc(&st->start, w)) {
        wfc_state_free(st);
        return NULL;
    }
    st->b.n = -1;
    st->firstgo = true;
    return st;
}

static void wfc_reset(run_state *r, const node *n, void *state)
{
    branch_reset(r, n, state);
    wfc_state *st = state;
    st->b.n = -1;
    st->firstgo = true;
}

/* ---- the algorithm ---- */

static void ban(const wfc_node *w, wfc_state *st, int i, int t)
{
    wave *wv = &st->wave;
    size_t it = (size_t)i * w->P + t;
    wv->data[it] = 0;
    int32_t *comp = wv->compatible + it * w->D;
    for (int d = 0; d < w->D; d++) comp[d] = 0;
    if (st->stack_size == st->stack_cap) {
        /* Only a pattern banned twice (a zero-weight draw) can get here. */
        int32_t *bigger = realloc(st->stack, (size_t)st->stack_cap * 4 * sizeof *bigger);
        if (!bigger) return;
        st->stack = bigger;
        st->stack_cap *= 2;
    }
    st->stack[2 * st->stack_size] = i;
    st->stack[2 * st->stack_size + 1] = t;
    st->stack_size++;

    wv->sums_of_ones[i] -= 1;
    if (w->shannon) {
        double sum = wv->sums_of_weights[i];
        wv->entropies[i] += wv->sums_of_weight_log_weights[i] / sum - log(sum);
        wv->sums_of_weights[i] -= w->weights[t];
        wv->sums_of_weight_log_weights[i] -= w->weight_log_weights[t];
        sum = wv->sums_of_weights[i];
        wv->entropies[i] -= wv->sums_of_weight_log_weights[i] / sum - log(sum);
    }
}

/* Remove the support of every banned pattern from its neighbours. Like the
   reference, only cell 0 tells whether a contradiction happened (an empty
   cell empties its neighbours, so one spreads over the whole grid). */
static bool propagate(const wfc_node *w, wfc_state *st)
{
    int MX = w->mx, MY = w->my, MZ = w->mz, N = w->N, P = w->P, D = w->D;
    wave *wv = &st->wave;
    while (st->stack_size > 0) {
        st->stack_size--;
        int i1 = st->stack[2 * st->stack_size], p1 = st->stack[2 * st->stack_size + 1];
        int x1 = i1 % MX, y1 = (i1 % (MX * MY)) / MX, z1 = i1 / (MX * MY);
        for (int d = 0; d < D; d++) {
            int x2 = x1 + wfc_dx[d], y2 = y1 + wfc_dy[d], z2 = z1 + wfc_dz[d];
            if (!w->periodic && (x2 < 0 || y2 < 0 || z2 < 0 || x2 + N > MX || y2 + N > MY || z2 + 1 > MZ)) continue;
            if (x2 < 0) x2 += MX;
            else if (x2 >= MX) x2 -= MX;
            if (y2 < 0) y2 += MY;
            else if (y2 >= MY) y2 -= MY;
            if (z2 < 0) z2 += MZ;
            else if (z2 >= MZ) z2 -= MZ;
            int i2 = x2 + y2 * MX + z2 * MX * MY;
            const int32_t *p = w->prop_data + w->prop_start[d * P + p1], *end = w->prop_data + w->prop_start[d * P + p1 + 1];
            int32_t *compat = wv->compatible + (size_t)i2 * P * D + d;
            for (; p < end; p++) {
                int t2 = *p;
                if (--compat[(size_t)t2 * D] == 0) ban(w, st, i2, t2);
            }
        }
    }
    return wv->sums_of_ones[0] > 0;
}

/* The undecided cell of least entropy (or fewest options), ties broken by a little noise drawn per candidate. */
static int next_unobserved(const wfc_node *w, wfc_state *st, rng *random)
{
    int MX = w->mx, MY = w->my, MZ = w->mz, N = w->N;
    const wave *wv = &st->wave;
    double min = 1e4;
    int argmin = -1;
    for (int z = 0; z < MZ; z++)
        for (int y = 0; y < MY; y++)
            for (int x = 0; x < MX; x++) {
                if (!w->periodic && (x + N > MX || y + N > MY || z + 1 > MZ)) continue;
                int i = x + y * MX + z * MX * MY;
                int remaining = wv->sums_of_ones[i];
                double entropy = w->shannon ? wv->entropies[i] : remaining;
                if (remaining > 1 && entropy <= min) {
                    double noise = 1e-6 * rng_next_double(random);
                    if (entropy + noise < min) {
                        min = entropy + noise;
                        argmin = i;
                    }
                }
            }
    return argmin;
}

static void observe(const wfc_node *w, wfc_state *st, int i, rng *random)
{
    int P = w->P;
    const uint8_t *data = st->wave.data + (size_t)i * P;
    for (int t = 0; t < P; t++) st->distribution[t] = data[t] ? w->weights[t] : 0.0;
    double r = rng_next_double(random);
    double sum = 0;
    for (int t = 0; t < P; t++) sum += st->distribution[t];
    double threshold = r * sum, partial = 0;
    int chosen = 0;
    for (int t = 0; t < P; t++) {
        partial += st->distribution[t];
        if (partial >= threshold) { chosen = t; break; }
    }
    for (int t = 0; t < P; t++)
        if ((data[t] != 0) != (t == chosen)) ban(w, st, i, t);
}

/* Try seeds drawn from the run's generator until one collapses the whole
   wave without contradiction; -1 (with *found false) when none does. */
static int32_t good_seed(const wfc_node *w, wfc_state *st, run_state *r, bool *found)
{
    for (int k = 0; k < w->tries; k++) {
        int32_t seed = rng_next(&r->random);
        rng_seed(&st->random, seed);
        st->stack_size = 0;
        wave_copy(&st->wave, &st->start, w);
        for (;;) {
            int i = next_unobserved(w, st, &st->random);
            if (i < 0) { *found = true; return seed; }
            observe(w, st, i, &st->random);
            if (!propagate(w, st)) break;
        }
    }
    *found = false;
    return -1;
}

static bool wfc_go(run_state *r, const node *n, void *state)
{
    const wfc_node *w = (const wfc_node *)n;
    wfc_state *st = state;
    if (st->b.n >= 0) return branch_go(r, n, state);
    if (st->firstgo) {
        wave_init(&st->wave, w);
        st->stack_size = 0;
        for (int i = 0; i < w->cells; i++) {
            uint8_t v = r->state[i];
            const bool *allowed = v < GRID_MAX_VALUES ? w->allowed[v] : NULL;
            if (!allowed) continue;
            for (int t = 0; t < w->P; t++)
                if (!allowed[t]) ban(w, st, i, t);
        }
        /* The reference prints "initial conditions are contradictive" here. */
        if (!propagate(w, st)) return false;
        wave_copy(&st->start, &st->wave, w);
        bool found;
        int32_t seed = good_seed(w, st, r, &found);
        if (!found) return false;
        rng_seed(&st->random, seed);
        st->stack_size = 0;
        wave_copy(&st->wave, &st->start, w);
        st->firstgo = false;

        const grid_def *g = &w->newgrid;
        memset(st->cells, 0, (size_t)g->mx * g->my * g->mz);
        if (!run_use_grid(r, g, st->cells)) return false;
        for (int32_t i = 0; i < r->cells; i++) run_change_unlogged(r, i);
        r->acting_node = n->id;
        return true;
    }
    int i = next_unobserved(w, st, &st->random);
    if (i >= 0) {
        observe(w, st, i, &st->random);
        propagate(w, st);
    } else {
        st->b.n++;
        w->update_state(w, st->wave.data, st->cells);
        for (int32_t c = 0; c < r->cells; c++) run_change_unlogged(r, c);
    }
    r->acting_node = n->id;
    return true;
}

uint8_t wfc_vote_winner(const int32_t *votes, int c)
{
    int best = -1;
    uint8_t argmax = 0xff;
    for (int v = 0; v < c; v++)
        if (votes[v] > best) {
            best = votes[v];
            argmax = (uint8_t)v;
        }
    return argmax;
}

const node_kind node_kind_wfc = {
    .name = "wfc",
    .is_branch = true,
    .ends_run = true,
    .load = wfc_load,
    .free = wfc_free,
    .state_new = wfc_state_new,
    .state_free = wfc_state_free,
    .reset = wfc_reset,
    .go = wfc_go,
};
