/* voronoi.c — the `voronoi` node: every cell matching `on` takes the value of
   its nearest site (placed at random or taken from existing values), exactly. */
#include "voronoi.h"
#include "gen.h"
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

/* ---- Exact nearest sites ----------------------------------------------

   The grid is split in halves, recursively, as a k-d tree of boxes. Each box
   keeps the candidate sites that can be nearest to at least one of its cells:
   a site s is dropped when even its closest approach to the box is farther
   than U, the smallest over candidates of their farthest reach into the box.
   (If s were nearest, or tied, at a cell c, then d(s,c) <= d(t,c) <= reach(t)
   for every t, so gap(s) <= d(s,c) <= U: no site that wins or ties anywhere
   in the box is dropped.) A box left with one candidate belongs to it whole;
   a small box compares its candidates cell by cell, in index order with a
   strict <, so ties go to the lowest index. All distances are integers. */

#define VORONOI_LEAF_CELLS 16

typedef struct vor_solver {
    const int32_t *sx, *sy, *sz;
    int64_t mx, plane;              /* strides of y and z */
    voronoi_metric metric;
    int32_t *owner;
    int32_t *stack;                 /* candidate lists of the boxes on the path, one after another */
    size_t len, cap;
    bool out_of_memory;
    run_stop *stop;                 /* the run's deadline and cancel, asked once per box */
} vor_solver;

/* The metric from per-axis signed differences. */
static inline __attribute__((always_inline)) int64_t combine(voronoi_metric m, int64_t a, int64_t b, int64_t c)
{
    if (m == VORONOI_EUCLIDEAN) return a * a + b * b + c * c;
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    c = c < 0 ? -c : c;
    if (m == VORONOI_MANHATTAN) return a + b + c;
    int64_t t = a > b ? a : b;
    return t > c ? t : c;
}

int64_t voronoi_distance(voronoi_metric metric, int32_t ax, int32_t ay, int32_t az, int32_t bx, int32_t by, int32_t bz)
{
    return combine(metric, (int64_t)ax - bx, (int64_t)ay - by, (int64_t)az - bz);
}

/* How far s lies outside [lo, hi] (0 inside), and how far it is from the farther end. */
static inline int64_t axis_gap(int32_t s, int32_t lo, int32_t hi) { return s < lo ? (int64_t)lo - s : s > hi ? (int64_t)s - hi : 0; }
static inline int64_t axis_reach(int32_t s, int32_t lo, int32_t hi)
{
    int64_t a = (int64_t)s - lo, b = (int64_t)hi - s;
    return a > b ? a : b;
}

static void fill_box(vor_solver *v, const int32_t lo[3], const int32_t hi[3], int32_t site)
{
    for (int32_t z = lo[2]; z <= hi[2]; z++)
        for (int32_t y = lo[1]; y <= hi[1]; y++) {
            int32_t *row = v->owner + z * v->plane + y * v->mx;
            for (int32_t x = lo[0]; x <= hi[0]; x++) row[x] = site;
        }
}

static inline __attribute__((always_inline)) void compare_box(vor_solver *v, const int32_t lo[3], const int32_t hi[3],
                                                              const int32_t *cand, size_t n, voronoi_metric m)
{
    for (int32_t z = lo[2]; z <= hi[2]; z++)
        for (int32_t y = lo[1]; y <= hi[1]; y++) {
            int32_t *row = v->owner + z * v->plane + y * v->mx;
            for (int32_t x = lo[0]; x <= hi[0]; x++) {
                int64_t best = INT64_MAX;
                int32_t who = cand[0];
                for (size_t i = 0; i < n; i++) {
                    int32_t s = cand[i];
                    int64_t d = combine(m, (int64_t)v->sx[s] - x, (int64_t)v->sy[s] - y, (int64_t)v->sz[s] - z);
                    if (d < best) {
                        best = d;
                        who = s;
                    }
                }
                row[x] = who;
            }
        }
}

static void compare_cells(vor_solver *v, const int32_t lo[3], const int32_t hi[3], const int32_t *cand, size_t n)
{
    switch (v->metric) { /* one specialised loop per metric */
    case VORONOI_EUCLIDEAN: compare_box(v, lo, hi, cand, n, VORONOI_EUCLIDEAN); break;
    case VORONOI_MANHATTAN: compare_box(v, lo, hi, cand, n, VORONOI_MANHATTAN); break;
    default: compare_box(v, lo, hi, cand, n, VORONOI_CHEBYSHEV); break;
    }
}

/* Keep the candidates of `cand` (n of them) that survive for the box, in
   order, in `out`; returns their number. */
static inline __attribute__((always_inline)) size_t keep_candidates(const vor_solver *v, const int32_t lo[3], const int32_t hi[3],
                                                                    const int32_t *cand, size_t n, int32_t *out, voronoi_metric m)
{
    int64_t bound = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int32_t s = cand[i];
        int64_t d = combine(m, axis_reach(v->sx[s], lo[0], hi[0]), axis_reach(v->sy[s], lo[1], hi[1]),
                            axis_reach(v->sz[s], lo[2], hi[2]));
        if (d < bound) bound = d;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t s = cand[i];
        int64_t d = combine(m, axis_gap(v->sx[s], lo[0], hi[0]), axis_gap(v->sy[s], lo[1], hi[1]), axis_gap(v->sz[s], lo[2], hi[2]));
        out[k] = s;
        k += d <= bound;
    }
    return k;
}

/* Append to the stack the candidates at [from, from+n) that survive for the
   box; *kept is their number. */
static bool filter(vor_solver *v, const int32_t lo[3], const int32_t hi[3], size_t from, size_t n, size_t *kept)
{
    if (v->len + n > v->cap) {
        size_t cap = v->cap * 2 > v->len + n ? v->cap * 2 : v->len + n;
        int32_t *bigger = mem_realloc(v->stack, cap * sizeof *bigger);
        if (!bigger) return false;
        v->stack = bigger;
        v->cap = cap;
    }
    const int32_t *cand = v->stack + from;
    int32_t *out = v->stack + v->len;
    switch (v->metric) { /* one specialised loop per metric */
    case VORONOI_EUCLIDEAN: *kept = keep_candidates(v, lo, hi, cand, n, out, VORONOI_EUCLIDEAN); break;
    case VORONOI_MANHATTAN: *kept = keep_candidates(v, lo, hi, cand, n, out, VORONOI_MANHATTAN); break;
    default: *kept = keep_candidates(v, lo, hi, cand, n, out, VORONOI_CHEBYSHEV); break;
    }
    return true;
}

static void solve(vor_solver *v, const int32_t lo[3], const int32_t hi[3], size_t from, size_t n)
{
    if (stop_requested(v->stop)) return;
    if (n == 1) {
        fill_box(v, lo, hi, v->stack[from]);
        return;
    }
    int64_t extent[3] = {(int64_t)hi[0] - lo[0] + 1, (int64_t)hi[1] - lo[1] + 1, (int64_t)hi[2] - lo[2] + 1};
    if (extent[0] * extent[1] * extent[2] <= VORONOI_LEAF_CELLS) {
        compare_cells(v, lo, hi, v->stack + from, n);
        return;
    }
    int axis = extent[1] > extent[0] ? 1 : 0;
    if (extent[2] > extent[axis]) axis = 2;
    int32_t mid = lo[axis] + (int32_t)(extent[axis] / 2) - 1; /* halves [lo, mid] and [mid+1, hi] */
    for (int half = 0; half < 2; half++) {
        int32_t clo[3] = {lo[0], lo[1], lo[2]}, chi[3] = {hi[0], hi[1], hi[2]};
        if (half == 0) chi[axis] = mid;
        else clo[axis] = mid + 1;
        size_t kept;
        if (!filter(v, clo, chi, from, n, &kept)) {
            v->out_of_memory = true;
            return;
        }
        size_t mine = v->len;
        v->len += kept;
        solve(v, clo, chi, mine, kept);
        v->len = mine;
        if (v->out_of_memory || stop_said(v->stop)) return;
    }
}

bool voronoi_nearest(const int32_t *sx, const int32_t *sy, const int32_t *sz, int32_t count, int mx, int my, int mz,
                     voronoi_metric metric, run_stop *stop, int32_t *owner)
{
    vor_solver v = {.sx = sx, .sy = sy, .sz = sz, .mx = mx, .plane = (int64_t)mx * my, .metric = metric, .owner = owner, .stop = stop};
    v.cap = (size_t)count * 4 + 64;
    v.stack = mem_malloc(v.cap * sizeof *v.stack);
    if (!v.stack) return false;
    for (int32_t i = 0; i < count; i++) v.stack[i] = i;
    v.len = (size_t)count;
    int32_t lo[3] = {0, 0, 0}, hi[3] = {mx - 1, my - 1, mz - 1};
    solve(&v, lo, hi, 0, (size_t)count);
    mem_free(v.stack);
    return !v.out_of_memory && !stop_said(stop);
}

/* ---- The node ---------------------------------------------------------- */

typedef struct voronoi {
    node base;
    int sites;                      /* random sites to place; 0 with `from` */
    uint8_t values[GRID_MAX_VALUES];
    int value_count;
    bool distinct;
    wave_bits from;                 /* values whose cells are sites; 0 with `sites` */
    voronoi_metric metric;
    wave_bits on;
    int border;                     /* value of region borders, -1 for none */
} voronoi;

typedef struct voronoi_state {
    bool done;
} voronoi_state;

static const char *const voronoi_attrs[] = {"sites", "values", "distinct", "from", "metric", "on", "border", "steps", NULL};
static const char *const metric_names[] = {"euclidean", "manhattan", "chebyshev", NULL};

static void voronoi_free(node *n) { mem_free(n); }

static node *voronoi_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    voronoi *v = node_new(ld, sizeof *v, &node_kind_voronoi, el);
    if (!v) return NULL;
    xml_check_attrs(d, el, voronoi_attrs);
    int line = xml_line(el);

    bool has_sites = xml_attr(el, "sites") != NULL, has_from = xml_attr(el, "from") != NULL;
    if (has_sites == has_from) {
        diag_error(d, SMALTI_ERR_MODEL, line, has_sites ? "<voronoi> takes sites or from, not both"
                                                    : "<voronoi> needs a sites or a from attribute");
        return NULL;
    }
    int metric, steps, cells = g->mx * g->my * g->mz;
    if (!gen_get_choice(d, el, "metric", metric_names, VORONOI_EUCLIDEAN, &metric) || !gen_wave(d, el, g, "on", &v->on) ||
        !gen_value(d, el, g, "border", false, &v->border) || !xml_get_int_range(d, el, "steps", 0, 0, 1 << 30, &steps))
        return NULL;
    v->metric = (voronoi_metric)metric;
    if (has_from) {
        if (xml_attr(el, "values") || xml_attr(el, "distinct")) {
            diag_error(d, SMALTI_ERR_MODEL, line, "<voronoi> with from takes the sites' own values: values and distinct go with sites");
            return NULL;
        }
        uint8_t from[GRID_MAX_VALUES];
        int count;
        if (!gen_values(d, el, g, "from", true, from, &count)) return NULL;
        for (int i = 0; i < count; i++) v->from |= wave_bit(from[i]);
        return &v->base;
    }
    if (!xml_get_int(d, el, "sites", 1, &v->sites) || !gen_values(d, el, g, "values", true, v->values, &v->value_count) ||
        !xml_get_bool(d, el, "distinct", false, &v->distinct))
        return NULL;
    if (v->sites < 1 || v->sites > cells) {
        diag_error(d, SMALTI_ERR_MODEL, line, "sites=\"%d\" of <voronoi> must lie between 1 and the grid's %d cells", v->sites, cells);
        return NULL;
    }
    if (v->distinct && v->sites > v->value_count) {
        diag_error(d, SMALTI_ERR_MODEL, line, "sites=\"%d\" of <voronoi> with distinct=\"True\" needs as many values, but values=\"%s\" has %d",
                   v->sites, xml_attr(el, "values"), v->value_count);
        return NULL;
    }
    return &v->base;
}

static void *voronoi_state_new(const node *n, const grid_def *g)
{
    (void)n;
    (void)g;
    return mem_calloc(1, sizeof(voronoi_state));
}

static void voronoi_state_free(void *state) { mem_free(state); }

static void voronoi_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    ((voronoi_state *)state)->done = false;
}

typedef struct site_list {
    int32_t *x, *y, *z;
    uint8_t *value;
    int32_t count;
} site_list;

static bool sites_alloc(site_list *s, int32_t count)
{
    size_t n = count > 0 ? (size_t)count : 1;
    s->x = mem_malloc(n * sizeof *s->x);
    s->y = mem_malloc(n * sizeof *s->y);
    s->z = mem_malloc(n * sizeof *s->z);
    s->value = mem_malloc(n);
    return s->x && s->y && s->z && s->value;
}

static void sites_free(site_list *s)
{
    mem_free(s->x);
    mem_free(s->y);
    mem_free(s->z);
    mem_free(s->value);
}

static void sites_put(site_list *s, const run_state *r, int32_t cell, uint8_t value)
{
    int32_t k = s->count++;
    s->x[k] = cell % r->mx;
    s->y[k] = cell / r->mx % r->my;
    s->z[k] = cell / (r->mx * r->my);
    s->value[k] = value;
}

/* `sites` random distinct cells among the `on` cells (listed in scanline
   order in `list`), by a partial Fisher-Yates shuffle; each site draws its
   cell, then its value. */
static bool place_random_sites(run_state *r, const voronoi *v, int32_t *list, int32_t on_count, site_list *s)
{
    int32_t count = v->sites < on_count ? v->sites : on_count;
    if (!sites_alloc(s, count)) return false;
    uint8_t values[GRID_MAX_VALUES];
    memcpy(values, v->values, sizeof values);
    for (int32_t i = 0; i < count; i++) {
        int32_t j = i + rng_next_max(&r->random, on_count - i);
        int32_t cell = list[j];
        list[j] = list[i];
        list[i] = cell;
        uint8_t value;
        if (v->distinct) {
            int k = (int)i + rng_next_max(&r->random, v->value_count - (int)i);
            value = values[k];
            values[k] = values[i];
            values[i] = value;
        } else {
            value = values[rng_next_max(&r->random, v->value_count)];
        }
        sites_put(s, r, cell, value);
    }
    return true;
}

static bool voronoi_go(run_state *r, const node *n, void *state)
{
    const voronoi *v = (const voronoi *)n;
    voronoi_state *st = state;
    if (st->done) return false;
    st->done = true;

    int32_t cells = r->cells;
    int32_t *owner = mem_malloc((size_t)cells * sizeof *owner); /* first the list of `on` cells, then the nearest sites */
    uint8_t *on = mem_malloc((size_t)cells);
    site_list s = {0};
    bool changed = false, ok = owner && on;
    if (!ok) goto done;
    int32_t on_count = 0, from_count = 0;
    for (int32_t i = 0; i < cells; i++) {
        on[i] = (uint8_t)gen_in_wave(v->on, r->state[i]);
        owner[on_count] = i;
        on_count += on[i];
    }
    if (on_count == 0) goto done;
    if (v->from) {
        for (int32_t i = 0; i < cells; i++) from_count += gen_in_wave(v->from, r->state[i]);
        if (from_count == 0) goto done;
        if (!(ok = sites_alloc(&s, from_count))) goto done;
        for (int32_t i = 0; i < cells; i++)
            if (gen_in_wave(v->from, r->state[i])) sites_put(&s, r, i, r->state[i]);
    } else if (!(ok = place_random_sites(r, v, owner, on_count, &s))) {
        goto done;
    }
    if (!voronoi_nearest(s.x, s.y, s.z, s.count, r->mx, r->my, r->mz, v->metric, &r->stop, owner)) {
        ok = stop_said(&r->stop); /* stopped, or out of memory */
        goto done;
    }

    int64_t plane = (int64_t)r->mx * r->my;
    for (int32_t i = 0; i < cells; i++) {
        if (stop_requested_at(&r->stop, i)) goto done; /* the run stops; its grid is not an output */
        if (!on[i]) continue;
        uint8_t value = s.value[owner[i]];
        if (v->border >= 0) {
            /* A border cell has a 4-neighbour (6 in 3-D) that matches `on` and
               is nearer another site. */
            int32_t x = i % r->mx, y = i / r->mx % r->my, z = (int32_t)(i / plane), me = owner[i];
            if ((x > 0 && on[i - 1] && owner[i - 1] != me) || (x < r->mx - 1 && on[i + 1] && owner[i + 1] != me) ||
                (y > 0 && on[i - r->mx] && owner[i - r->mx] != me) ||
                (y < r->my - 1 && on[i + r->mx] && owner[i + r->mx] != me) ||
                (z > 0 && on[i - plane] && owner[i - plane] != me) ||
                (z < r->mz - 1 && on[i + plane] && owner[i + plane] != me))
                value = (uint8_t)v->border;
        }
        if (r->state[i] != value) {
            r->state[i] = value;
            run_change(r, i);
            changed = true;
        }
    }
done:
    sites_free(&s);
    mem_free(owner);
    mem_free(on);
    if (!ok) r->out_of_memory = true;
    if (changed) r->acting_node = n->id;
    return changed;
}

const node_kind node_kind_voronoi = {
    .name = "voronoi",
    .beyond_reference = true,
    .is_branch = false,
    .writes_named_values = true,
    .reads_no_children = true,
    .load = voronoi_load,
    .free = voronoi_free,
    .state_new = voronoi_state_new,
    .state_free = voronoi_state_free,
    .reset = voronoi_reset,
    .go = voronoi_go,
};
