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
const int wfc_opposite[6] = {2, 3, 0, 1, 5, 4};

const char *const wfc_attrs[] = {"values", "sample", "tileset", "tiles", "n", "periodic", "periodicInput", "shannon",
                                 "tries", "symmetry", "overlap", "overlapz", "transparent", "folder", "outputValues",
                                 "density", "densityPower", "backtrack", NULL};

typedef struct wfc_state {
    branch_state b;              /* b.n == -1: still observing */
    bool firstgo;
    wfc_solver solver;
    /* The good seed's solve already made the final wave; the steps that
       replayed its observations one by one are only counted down. */
    long observations_left;
    uint8_t *cells;              /* the new grid */
} wfc_state;

wfc_node *wfc_node_new(loader *ld, const xmlNode *el)
{
    wfc_node *w = calloc(1, sizeof *w);
    if (!w) { diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    w->b.base.kind = &node_kind_wfc;
    if (!loader_register(ld, &w->b.base, el)) { free(w); return NULL; }
    xml_check_attrs(ld->d, el, wfc_attrs);
    const grid_def *g = ld->grid;
    w->pb.mx = g->mx;
    w->pb.my = g->my;
    w->pb.mz = g->mz;
    w->pb.cells = g->mx * g->my * g->mz;
    w->pb.N = 1;
    /* Read here, before any sample or tileset, so that a bad value is reported first. */
    if (!xml_get_int(ld->d, el, "backtrack", 0, &w->pb.backtrack)) return NULL;
    if (w->pb.backtrack < 0 || w->pb.backtrack > WFC_MAX_BACKTRACK) {
        diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "backtrack=\"%d\" must be from 0 to %d", w->pb.backtrack, WFC_MAX_BACKTRACK);
        return NULL;
    }
    return w;
}

void wfc_free(node *n)
{
    wfc_node *w = (wfc_node *)n;
    wfc_problem_free(&w->pb);
    for (int v = 0; v < GRID_MAX_VALUES; v++) free(w->allowed[v]);
    free(w->patterns);
    free(w->tiles);
    free(w->density);
    grid_free(&w->newgrid);
    branch_free(n);
}

void wfc_problem_free(wfc_problem *pb)
{
    free(pb->neighbours);
    free(pb->prop_start);
    free(pb->prop_data);
    free(pb->initial_compatible);
    free(pb->weights);
    free(pb->weight_log_weights);
    wfc_density_free(pb);
}

bool wfc_set_propagator(wfc_problem *pb, bool *const *dense)
{
    int P = pb->P, D = pb->D;
    int64_t total = 0;
    for (int d = 0; d < D; d++)
        for (int64_t k = 0; k < (int64_t)P * P; k++) total += dense[d][k];
    pb->prop_start = malloc(((size_t)D * P + 1) * sizeof *pb->prop_start);
    pb->prop_data = malloc((size_t)(total > 0 ? total : 1) * sizeof *pb->prop_data);
    pb->initial_compatible = malloc((size_t)P * D * sizeof *pb->initial_compatible);
    if (!pb->prop_start || !pb->prop_data || !pb->initial_compatible) return false;
    int32_t at = 0;
    for (int d = 0; d < D; d++)
        for (int t = 0; t < P; t++) {
            pb->prop_start[d * P + t] = at;
            const bool *row = dense[d] + (size_t)t * P;
            for (int t2 = 0; t2 < P; t2++)
                if (row[t2]) pb->prop_data[at++] = t2;
        }
    pb->prop_start[D * P] = at;
    for (int t = 0; t < P; t++)
        for (int d = 0; d < D; d++) {
            int o = wfc_opposite[d] * P + t;
            pb->initial_compatible[d * P + t] = pb->prop_start[o + 1] - pb->prop_start[o];
        }
    /* An emptied cell empties every neighbour when each pattern's support
       count from each side is exactly the number of patterns that list it
       (a symmetric propagator) and never starts at zero. */
    int32_t *listed = calloc((size_t)P * D, sizeof *listed);
    if (!listed) return false;
    for (int d = 0; d < D; d++)
        for (int32_t k = pb->prop_start[d * P]; k < pb->prop_start[(d + 1) * P]; k++) listed[d * P + pb->prop_data[k]]++;
    pb->symmetric = true;
    pb->contradiction_spreads = true;
    for (int k = 0; k < P * D; k++) {
        if (listed[k] != pb->initial_compatible[k]) pb->symmetric = false;
        if (listed[k] != pb->initial_compatible[k] || listed[k] == 0) pb->contradiction_spreads = false;
    }
    free(listed);
    return true;
}

bool wfc_problem_prepare(wfc_problem *pb)
{
    int MX = pb->mx, MY = pb->my, MZ = pb->mz, N = pb->N, D = pb->D;
    pb->neighbours = malloc((size_t)pb->cells * D * sizeof *pb->neighbours);
    if (!pb->neighbours) return false;
    for (int i = 0; i < pb->cells; i++) {
        int x = i % MX, y = (i % (MX * MY)) / MX, z = i / (MX * MY);
        for (int d = 0; d < D; d++) {
            int x2 = x + wfc_dx[d], y2 = y + wfc_dy[d], z2 = z + wfc_dz[d];
            bool outside = x2 < 0 || y2 < 0 || z2 < 0 || x2 + N > MX || y2 + N > MY || z2 + 1 > MZ;
            pb->neighbours[(size_t)i * D + d] =
                outside && !pb->periodic ? -1 : (x2 + MX) % MX + (y2 + MY) % MY * MX + (z2 + MZ) % MZ * MX * MY;
        }
    }
    if (pb->heuristic != WFC_ENTROPY) return true;
    pb->weight_log_weights = malloc((size_t)pb->P * sizeof(double));
    if (!pb->weight_log_weights) return false;
    pb->sum_of_weights = pb->sum_of_weight_log_weights = 0;
    for (int t = 0; t < pb->P; t++) {
        pb->weight_log_weights[t] = pb->weights[t] * log(pb->weights[t]);
        pb->sum_of_weights += pb->weights[t];
        pb->sum_of_weight_log_weights += pb->weight_log_weights[t];
    }
    pb->starting_entropy = log(pb->sum_of_weights) - pb->sum_of_weight_log_weights / pb->sum_of_weights;
    return !pb->cell_class || wfc_density_prepare(pb);
}

bool wfc_load_rules(loader *ld, wfc_node *w, const xmlNode *el, const grid_def *grid, wfc_rule_fn parse, void *ctx)
{
    static const char *const rule_attrs[] = {"in", "out", NULL};
    diag *d = ld->d;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "rule")) continue;
        xml_check_attrs(d, x, rule_attrs);
        const char *in = xml_attr(x, "in"), *out = xml_attr(x, "out");
        if (!in || !out) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a <rule> of <wfc> needs in and out attributes");
        if (strlen(in) != 1) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "in=\"%s\" of a <wfc> rule should be one value", in);
        int v = grid->value_of[(unsigned char)in[0]];
        if (v < 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "in=\"%s\" is not a value of the grid", in);
        if (w->allowed[v]) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "a second <rule> for in=\"%s\"", in);
        w->allowed[v] = calloc((size_t)w->pb.P, sizeof(bool));
        if (!w->allowed[v]) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        if (!parse(ld, w, x, "out", out, w->allowed[v], ctx)) return false;
    }
    return true;
}

bool wfc_finish_load(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set parent_symmetry)
{
    diag *d = ld->d;
    bool shannon;
    if (!xml_get_bool(d, el, "shannon", false, &shannon) || !xml_get_int(d, el, "tries", 1000, &w->tries)) return false;
    w->pb.heuristic = shannon ? WFC_ENTROPY : WFC_MRV;
    if (!wfc_problem_prepare(&w->pb)) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    /* The children's symmetry is read against the start grid's dimension, as the reference does. */
    bool d2 = ld->nodes[0]->grid->mz == 1;
    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    if (sym && !symmetry_lookup(d2, sym, &symmetry))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown symmetry %s (use one of %s)", sym, symmetry_names(d2));
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
    diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "<wfc> needs a sample (overlap model) or a tileset (tile model) attribute");
    return NULL;
}

/* ---- the solver ---- */

static bool wave_alloc(wfc_wave *wv, const wfc_problem *pb)
{
    size_t cells = (size_t)pb->cells, P = (size_t)pb->P;
    wv->data = malloc(cells * P);
    wv->compatible = malloc(cells * P * (size_t)pb->D * sizeof *wv->compatible);
    wv->sums_of_ones = malloc(cells * sizeof *wv->sums_of_ones);
    if (!wv->data || !wv->compatible || !wv->sums_of_ones) return false;
    if (pb->heuristic == WFC_ENTROPY) {
        wv->sums_of_weights = malloc(cells * sizeof(double));
        wv->sums_of_weight_log_weights = malloc(cells * sizeof(double));
        wv->entropies = malloc(cells * sizeof(double));
        if (!wv->sums_of_weights || !wv->sums_of_weight_log_weights || !wv->entropies) return false;
    }
    return true;
}

static void wave_free(wfc_wave *wv)
{
    free(wv->data);
    free(wv->compatible);
    free(wv->sums_of_ones);
    free(wv->sums_of_weights);
    free(wv->sums_of_weight_log_weights);
    free(wv->entropies);
}

static void wave_copy(wfc_wave *to, const wfc_wave *from, const wfc_problem *pb)
{
    size_t cells = (size_t)pb->cells, P = (size_t)pb->P;
    memcpy(to->data, from->data, cells * P);
    memcpy(to->compatible, from->compatible, cells * P * (size_t)pb->D * sizeof *to->compatible);
    memcpy(to->sums_of_ones, from->sums_of_ones, cells * sizeof *to->sums_of_ones);
    if (pb->heuristic == WFC_ENTROPY) {
        memcpy(to->sums_of_weights, from->sums_of_weights, cells * sizeof(double));
        memcpy(to->sums_of_weight_log_weights, from->sums_of_weight_log_weights, cells * sizeof(double));
        memcpy(to->entropies, from->entropies, cells * sizeof(double));
    }
}

bool wfc_solver_init(wfc_solver *s, const wfc_problem *pb)
{
    memset(s, 0, sizeof *s);
    s->stack_cap = (int64_t)pb->cells * pb->P;
    s->stack = malloc((size_t)s->stack_cap * 2 * sizeof *s->stack);
    s->distribution = malloc((size_t)pb->P * sizeof *s->distribution);
    if (pb->symmetric && (pb->fast || pb->heuristic != WFC_ENTROPY)) {
        /* Not for the node's entropy: the reference's order of bans per cell sets its rounding. */
        s->singleton = calloc((size_t)pb->cells, sizeof *s->singleton);
        if (!s->singleton) return false;
    }
    if (pb->fast) {
        s->dirty = malloc((size_t)pb->cells * sizeof *s->dirty);
        s->is_dirty = calloc((size_t)pb->cells, 1);
        if (!wfc_queue_init(&s->queue, pb->cells) || !s->dirty || !s->is_dirty) return false;
    }
    if (pb->backtrack > 0) {
        s->trail_cap = s->stack_cap;
        s->trail = malloc((size_t)s->trail_cap * 2 * sizeof *s->trail);
        s->unpropagated = calloc((size_t)pb->cells * pb->P, 1);
        s->decisions = malloc(((size_t)pb->cells + 1) * sizeof *s->decisions);
        s->area = malloc((size_t)pb->cells * sizeof *s->area);
        if (!s->trail || !s->unpropagated || !s->decisions || !s->area) return false;
    }
    return s->stack && s->distribution && wave_alloc(&s->wave, pb) && wave_alloc(&s->start, pb);
}

void wfc_solver_free(wfc_solver *s)
{
    wave_free(&s->wave);
    wave_free(&s->start);
    free(s->stack);
    free(s->distribution);
    wfc_queue_free(&s->queue);
    free(s->dirty);
    free(s->is_dirty);
    free(s->trail);
    free(s->unpropagated);
    free(s->decisions);
    free(s->area);
    free(s->singleton);
}

void wfc_solver_clear(wfc_solver *s, const wfc_problem *pb)
{
    size_t P = (size_t)pb->P, D = (size_t)pb->D;
    wfc_wave *wv = &s->wave;
    memset(wv->data, 1, (size_t)pb->cells * P);
    for (int i = 0; i < pb->cells; i++) {
        for (size_t k = 0; k < P * D; k++) wv->compatible[(size_t)i * P * D + k] = (wfc_count)pb->initial_compatible[k];
        wv->sums_of_ones[i] = pb->P;
        if (pb->heuristic == WFC_ENTROPY && pb->cell_class) {
            int c = pb->cell_class[i];
            wv->sums_of_weights[i] = pb->class_sum_of_weights[c];
            wv->sums_of_weight_log_weights[i] = pb->class_sum_of_weight_log_weights[c];
            wv->entropies[i] = pb->class_starting_entropy[c];
        } else if (pb->heuristic == WFC_ENTROPY) {
            wv->sums_of_weights[i] = pb->sum_of_weights;
            wv->sums_of_weight_log_weights[i] = pb->sum_of_weight_log_weights;
            wv->entropies[i] = pb->starting_entropy;
        }
    }
    s->stack_size = 0;
    s->scan_from = 0;
    if (s->singleton) memset(s->singleton, 0, (size_t)pb->cells * sizeof *s->singleton);
}

void wfc_solver_save_start(wfc_solver *s, const wfc_problem *pb)
{
    wave_copy(&s->start, &s->wave, pb);
    s->trail_size = 0;
    if (s->unpropagated) memset(s->unpropagated, 0, (size_t)pb->cells * pb->P);
}

void wfc_solver_restart(wfc_solver *s, const wfc_problem *pb)
{
    s->stack_size = 0;
    s->scan_from = 0;
    if (s->trail) {
        /* Clear the marks of the last attempt's unpropagated bans. */
        for (int64_t k = 0; k < s->trail_size; k++) s->unpropagated[(size_t)s->trail[2 * k] * pb->P + s->trail[2 * k + 1]] = 0;
        s->trail_size = 0;
        s->decisions_size = s->decisions_floor = 0;
    }
    wave_copy(&s->wave, &s->start, pb);
    if (s->singleton) memset(s->singleton, 0, (size_t)pb->cells * sizeof *s->singleton);
    s->dirty_size = 0;
    s->contradiction = false;
    s->queue_built = false;
    if (s->is_dirty) memset(s->is_dirty, 0, (size_t)pb->cells);
}

/* Whether propagation reaches cell i: in a non-periodic grid, only cells
   where a whole pattern fits receive it. */
static bool cell_in_box(const wfc_problem *pb, int i)
{
    int x = i % pb->mx, y = (i / pb->mx) % pb->my;
    return pb->periodic || (x + pb->N <= pb->mx && y + pb->N <= pb->my);
}

void wfc_ban(const wfc_problem *pb, wfc_solver *s, int i, int t)
{
    wfc_wave *wv = &s->wave;
    size_t it = (size_t)i * pb->P + t;
    /* The reference zeroes the banned pattern's supports so that they never
       ban it again; wfc_propagate checks the wave instead, which keeps the
       counts exact for backtracking to restore. */
    wv->data[it] = 0;
    if (!s->restricting) {
        if (s->stack_size == s->stack_cap) {
            /* Only a pattern banned twice (a zero-weight draw) can get here. */
            int32_t *bigger = realloc(s->stack, (size_t)s->stack_cap * 4 * sizeof *bigger);
            if (!bigger) return;
            s->stack = bigger;
            s->stack_cap *= 2;
        }
        s->stack[2 * s->stack_size] = i;
        s->stack[2 * s->stack_size + 1] = t;
        s->stack_size++;
    }
    if (s->trail) {
        if (s->trail_size == s->trail_cap) {
            int32_t *bigger = realloc(s->trail, (size_t)s->trail_cap * 4 * sizeof *bigger);
            if (!bigger) return;
            s->trail = bigger;
            s->trail_cap *= 2;
        }
        s->trail[2 * s->trail_size] = i;
        s->trail[2 * s->trail_size + 1] = t;
        s->trail_size++;
    }

    wv->sums_of_ones[i] -= 1;
    if (wv->sums_of_ones[i] == 0 && (pb->fast || pb->backtrack > 0 || (pb->contradiction_spreads && cell_in_box(pb, i))))
    {
        if (!s->contradiction) s->conflict_cell = i;
        s->contradiction = true;
    }
    if (pb->fast) {
        if (!s->is_dirty[i]) {
            s->is_dirty[i] = 1;
            s->dirty[s->dirty_size++] = i;
        }
    }
    /* Fast mode keeps only the sums; the queue takes the entropy from them. */
    if (pb->heuristic == WFC_ENTROPY && !s->collapsing) {
        double sum = wv->sums_of_weights[i];
        if (!pb->fast) wv->entropies[i] += wv->sums_of_weight_log_weights[i] / sum - log(sum);
        wv->sums_of_weights[i] -= wfc_weights_at(pb, i)[t];
        wv->sums_of_weight_log_weights[i] -= wfc_weight_log_weights_at(pb, i)[t];
        sum = wv->sums_of_weights[i];
        if (!pb->fast) wv->entropies[i] -= wv->sums_of_weight_log_weights[i] / sum - log(sum);
    }
}

/* The exact mirror of wfc_ban, for a ban being taken back. */
void wfc_unban(const wfc_problem *pb, wfc_solver *s, int i, int t)
{
    wfc_wave *wv = &s->wave;
    wv->data[(size_t)i * pb->P + t] = 1;
    wv->sums_of_ones[i] += 1;
    if (s->singleton) s->singleton[i] = 0;
    if (pb->fast && !s->is_dirty[i]) {
        s->is_dirty[i] = 1;
        s->dirty[s->dirty_size++] = i;
    }
    if (pb->heuristic == WFC_ENTROPY) {
        double sum = wv->sums_of_weights[i];
        /* An emptied cell's entropy is NaN (0/0); one pattern has entropy 0. */
        if (wv->sums_of_ones[i] == 1) wv->entropies[i] = 0;
        else if (!pb->fast) wv->entropies[i] += wv->sums_of_weight_log_weights[i] / sum - log(sum);
        wv->sums_of_weights[i] += wfc_weights_at(pb, i)[t];
        wv->sums_of_weight_log_weights[i] += wfc_weight_log_weights_at(pb, i)[t];
        sum = wv->sums_of_weights[i];
        if (!pb->fast) wv->entropies[i] -= wv->sums_of_weight_log_weights[i] / sum - log(sum);
    }
}

/* Whether the ban of t at i waiting on the stack is already accounted for:
   i was restricted to another pattern since. */
static bool accounted(const wfc_solver *s, int i, int t)
{
    return s->singleton && s->singleton[i] && s->singleton[i] - 1 != t;
}

/* Cell i holds only pattern c now: each neighbour keeps the patterns c allows
   there, whose support from i is now exactly 1; the rest lose it and are
   banned. The counts are those that propagating every ban of i one by one
   gives, at P steps per direction instead of a list per ban; i's bans not
   propagated yet are marked as accounted for. */
static void restrict_neighbours(const wfc_problem *pb, wfc_solver *s, int i, int c)
{
    int P = pb->P, D = pb->D;
    for (int d = 0; d < D; d++) {
        int i2 = pb->neighbours[(size_t)i * D + d];
        if (i2 < 0) continue;
        const int32_t *p = pb->prop_data + pb->prop_start[d * P + c], *end = pb->prop_data + pb->prop_start[d * P + c + 1];
        wfc_count *compat = s->wave.compatible + ((size_t)i2 * D + d) * P;
        const uint8_t *w2 = s->wave.data + (size_t)i2 * P;
        /* A pattern that nothing supports from this side (a count that
           starts at 0) is never banned from it, as in the reference. */
        const int32_t *initial = pb->initial_compatible + d * P;
        for (int t2 = 0; t2 < P; t2++) {
            int supported = p < end && *p == t2;
            p += supported;
            compat[t2] = (wfc_count)supported;
            if (!supported && w2[t2] && initial[t2] > 0) wfc_ban(pb, s, i2, t2);
        }
    }
    s->singleton[i] = c + 1;
}

/* Remove the support of every banned pattern from its neighbours. Like the
   reference, only cell 0 tells whether a contradiction happened (an empty
   cell empties its neighbours, so one spreads over the whole grid). */
bool wfc_propagate(const wfc_problem *pb, wfc_solver *s)
{
    int P = pb->P, D = pb->D;
    wfc_wave *wv = &s->wave;
    while (s->stack_size > 0) {
        /* An emptied cell would empty the whole wave, cell 0 included, so
           the reference's answer is already known. */
        if (s->contradiction) {
            if (s->unpropagated)
                for (int64_t k = 0; k < s->stack_size; k++) {
                    int i = s->stack[2 * k], t = s->stack[2 * k + 1];
                    if (!accounted(s, i, t)) s->unpropagated[(size_t)i * P + t] = 1;
                }
            s->stack_size = 0;
            return false;
        }
        s->stack_size--;
        int i1 = s->stack[2 * s->stack_size], p1 = s->stack[2 * s->stack_size + 1];
        if (s->singleton) {
            /* A cell down to one pattern restricts its neighbours at once; its
               bans still waiting here are then accounted for. */
            if (accounted(s, i1, p1)) continue;
            if (wv->sums_of_ones[i1] == 1) {
                int c = 0;
                while (!wv->data[(size_t)i1 * P + c]) c++;
                restrict_neighbours(pb, s, i1, c);
                continue;
            }
        }
        const int32_t *next = pb->neighbours + (size_t)i1 * D;
        for (int d = 0; d < D; d++) {
            int i2 = next[d];
            if (i2 < 0) continue;
            const int32_t *p = pb->prop_data + pb->prop_start[d * P + p1], *end = pb->prop_data + pb->prop_start[d * P + p1 + 1];
            wfc_count *compat = wv->compatible + ((size_t)i2 * D + d) * P;
            const uint8_t *w2 = wv->data + (size_t)i2 * P;
            for (; p < end; p++) {
                int t2 = *p;
                if (--compat[t2] == 0 && w2[t2]) wfc_ban(pb, s, i2, t2);
            }
        }
    }
    if (pb->fast || pb->backtrack > 0 || s->contradiction) return !s->contradiction;
    return wv->sums_of_ones[0] > 0;
}


/* Whether a wave cell is the corner of a pattern that fits in a non-periodic grid. */
static bool cell_in_grid(const wfc_problem *pb, int x, int y, int z)
{
    return pb->periodic || (x + pb->N <= pb->mx && y + pb->N <= pb->my && z + 1 <= pb->mz);
}

/* Fast mode: a fresh attempt puts every undecided cell in the queue; later
   only the cells whose key changed move. */
static int next_cell_fast(const wfc_problem *pb, wfc_solver *s, rng *random)
{
    int MX = pb->mx, MY = pb->my;
    wfc_queue *q = &s->queue;
    if (!s->queue_built) {
        s->queue_built = true;
        for (int64_t k = 0; k < s->dirty_size; k++) s->is_dirty[s->dirty[k]] = 0;
        s->dirty_size = 0;
        wfc_queue_clear(q, pb->cells);
        for (int i = 0; i < pb->cells; i++)
            if (s->wave.sums_of_ones[i] > 1 && cell_in_grid(pb, i % MX, (i % (MX * MY)) / MX, i / (MX * MY)))
                wfc_queue_put(q, i, wfc_queue_key(pb, s, i));
    }
    for (int64_t k = 0; k < s->dirty_size; k++) {
        int i = s->dirty[k];
        s->is_dirty[i] = 0;
        if (s->wave.sums_of_ones[i] > 1 && cell_in_grid(pb, i % MX, (i % (MX * MY)) / MX, i / (MX * MY)))
            wfc_queue_put(q, i, wfc_queue_key(pb, s, i));
        else wfc_queue_remove(q, i);
    }
    s->dirty_size = 0;
    return wfc_queue_pick(q, random);
}

/* Scanline: the first undecided cell from where the last search stopped.
   Otherwise the undecided cell of least entropy (or fewest options), ties
   broken by a little noise drawn per candidate. */
int wfc_next_cell(const wfc_problem *pb, wfc_solver *s, rng *random)
{
    if (pb->fast && pb->heuristic != WFC_SCANLINE) return next_cell_fast(pb, s, random);
    int MX = pb->mx, MY = pb->my, MZ = pb->mz;
    const wfc_wave *wv = &s->wave;
    if (pb->heuristic == WFC_SCANLINE) {
        for (int i = s->scan_from; i < pb->cells; i++) {
            if (!cell_in_grid(pb, i % MX, (i % (MX * MY)) / MX, i / (MX * MY))) continue;
            if (wv->sums_of_ones[i] > 1) {
                s->scan_from = i + 1;
                return i;
            }
        }
        return -1;
    }
    bool shannon = pb->heuristic == WFC_ENTROPY;
    double min = 1e4;
    int argmin = -1;
    for (int z = 0; z < MZ; z++)
        for (int y = 0; y < MY; y++)
            for (int x = 0; x < MX; x++) {
                if (!cell_in_grid(pb, x, y, z)) continue;
                int i = x + y * MX + z * MX * MY;
                int remaining = wv->sums_of_ones[i];
                double entropy = shannon ? wv->entropies[i] : remaining;
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

int wfc_observe(const wfc_problem *pb, wfc_solver *s, int i, rng *random)
{
    int P = pb->P;
    const uint8_t *data = s->wave.data + (size_t)i * P;
    const double *weights = wfc_weights_at(pb, i);
    for (int t = 0; t < P; t++) s->distribution[t] = data[t] ? weights[t] : 0.0;
    double r = rng_next_double(random);
    double sum = 0;
    for (int t = 0; t < P; t++) sum += s->distribution[t];
    double threshold = r * sum, partial = 0;
    int chosen = 0;
    for (int t = 0; t < P; t++) {
        partial += s->distribution[t];
        if (partial >= threshold) { chosen = t; break; }
    }
    if ((pb->backtrack > 0 || pb->fast) && !data[chosen]) {
        /* A draw of 0 or zero weights can land on a banned pattern, which the
           reference then bans again; a backtracking solver takes a possible one. */
        chosen = 0;
        while (chosen < P - 1 && !data[chosen]) chosen++;
    }
    /* The entropy of a cell left with one pattern is never read: set it once
       instead of after each ban (two logarithms per ban). Unless the node
       must follow the reference's per-cell order of bans (entropy rounding),
       the neighbours are restricted at once instead of through P-1 bans. */
    bool direct = data[chosen] && s->singleton;
    s->collapsing = true;
    s->restricting = direct;
    for (int t = 0; t < P; t++)
        if ((data[t] != 0) != (t == chosen)) wfc_ban(pb, s, i, t);
    s->collapsing = s->restricting = false;
    if (pb->heuristic == WFC_ENTROPY && data[chosen]) {
        s->wave.sums_of_weights[i] = wfc_weights_at(pb, i)[chosen];
        s->wave.sums_of_weight_log_weights[i] = wfc_weight_log_weights_at(pb, i)[chosen];
        s->wave.entropies[i] = 0;
    }
    if (direct) restrict_neighbours(pb, s, i, chosen);
    return chosen;
}

/* ---- the node ---- */

static void wfc_state_free(void *state)
{
    wfc_state *st = state;
    if (!st) return;
    wfc_solver_free(&st->solver);
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
    st->cells = calloc((size_t)ng->mx * ng->my * ng->mz, 1);
    if (!wfc_solver_init(&st->solver, &w->pb) || !st->cells) {
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

/* Try seeds drawn from the run's generator until one collapses the whole
   wave without contradiction (the solver then holds that wave); false when none does. */
static bool good_seed(const wfc_node *w, wfc_state *st, run_state *r)
{
    for (int k = 0; k < w->tries; k++) {
        int32_t seed = rng_next(&r->random);
        if (wfc_solve(&w->pb, &st->solver, seed, -1) == WFC_DONE) return true;
    }
    return false;
}

static bool wfc_go(run_state *r, const node *n, void *state)
{
    const wfc_node *w = (const wfc_node *)n;
    const wfc_problem *pb = &w->pb;
    wfc_state *st = state;
    wfc_solver *s = &st->solver;
    if (st->b.n >= 0) return branch_go(r, n, state);
    if (st->firstgo) {
        wfc_solver_clear(s, pb);
        for (int i = 0; i < pb->cells; i++) {
            uint8_t v = r->state[i];
            const bool *allowed = v < GRID_MAX_VALUES ? w->allowed[v] : NULL;
            if (!allowed) continue;
            for (int t = 0; t < pb->P; t++)
                if (!allowed[t]) wfc_ban(pb, s, i, t);
        }
        /* The reference prints "initial conditions are contradictive" here. */
        if (!wfc_propagate(pb, s)) return false;
        wfc_solver_save_start(s, pb);
        if (!good_seed(w, st, r)) return false;
        /* The reference runs the good seed again, one observation per step.
           The solve is deterministic and its generator private, so the wave
           it left is the one those steps would make: only their count matters. */
        st->observations_left = s->observations;
        st->firstgo = false;

        const grid_def *g = &w->newgrid;
        memset(st->cells, 0, (size_t)g->mx * g->my * g->mz);
        if (!run_use_grid(r, g, st->cells)) return false;
        for (int32_t i = 0; i < r->cells; i++) run_change_unlogged(r, i);
        r->acting_node = n->id;
        return true;
    }
    if (st->observations_left > 0) {
        st->observations_left--;
    } else {
        st->b.n++;
        w->update_state(w, s->wave.data, st->cells);
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
