/* require.c — the `require` node ([smalti]): a property the grid must have when the node is reached
   (its cells connected, every A reaching a B, a count in bounds). When it holds the node is done in
   one step; when not, the whole run starts again with the next attempt's seed (run_requirement_failed). */
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <stdio.h>
#include <string.h>

typedef struct require_node {
    node base;
    bool has_connected, has_reach, has_count;
    wave_bits connected;           /* cells of these values form one region */
    wave_bits from, to, on;        /* every `from` cell reaches a `to` cell through on, from and to */
    wave_bits counted;             /* the number of cells of these values is in [min, max] */
    long min, max;
    int tries;
    /* As written, for messages: at most a symbol per value. */
    char connected_text[GRID_MAX_VALUES + 1], from_text[GRID_MAX_VALUES + 1], to_text[GRID_MAX_VALUES + 1],
        on_text[GRID_MAX_VALUES + 1], count_text[GRID_MAX_VALUES + 1];
} require_node;

typedef struct require_state {
    bool done;                     /* the check held in this attempt */
    int32_t *queue;                /* the flood's frontier, each cell once */
    uint8_t *seen;
    int32_t capacity;
} require_state;

static const char *const require_attrs[] = {"connected", "from", "to", "on", "count", "min", "max", "tries", NULL};

#define REQUIRE_MAX_TRIES 1000000

/* Values named by attribute `name` (values of the grid, or unions of them), into *wave and text. */
static bool load_values(diag *d, const xmlNode *el, const grid_def *g, const char *name, wave_bits *wave, char *text)
{
    const char *v = xml_attr(el, name);
    if (!v || !v[0]) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require> %s=\"\" names no value", name);
    if (strlen(v) > GRID_MAX_VALUES || !grid_wave(g, v, wave))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require> %s=\"%s\": not values of the grid (\"%s\")", name, v,
                          g->chars);
    snprintf(text, GRID_MAX_VALUES + 1, "%s", v);
    return true;
}

static bool load_reach(diag *d, const xmlNode *el, const grid_def *g, require_node *q)
{
    const bool any = xml_attr(el, "from") || xml_attr(el, "to") || xml_attr(el, "on");
    if (!any) return true;
    if (!xml_attr(el, "from") || !xml_attr(el, "to") || !xml_attr(el, "on"))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require> checks reaching with from, to and on together");
    q->has_reach = true;
    return load_values(d, el, g, "from", &q->from, q->from_text) && load_values(d, el, g, "to", &q->to, q->to_text) &&
           load_values(d, el, g, "on", &q->on, q->on_text);
}

static bool load_count(diag *d, const xmlNode *el, const grid_def *g, require_node *q)
{
    const bool bounds = xml_attr(el, "min") || xml_attr(el, "max");
    if (!xml_attr(el, "count")) {
        return !bounds || diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require> min and max bound a count=\"VALUES\"");
    }
    if (!bounds) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require count> needs min, max or both");
    q->has_count = true;
    int min, max;
    if (!load_values(d, el, g, "count", &q->counted, q->count_text) ||
        !xml_get_int_range(d, el, "min", 0, 0, INT32_MAX, &min) || !xml_get_int_range(d, el, "max", INT32_MAX, 0, INT32_MAX, &max))
        return false;
    if (min > max) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require> min=\"%d\" is above max=\"%d\"", min, max);
    q->min = min, q->max = max;
    return true;
}

static node *require_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    require_node *q = node_new(ld, sizeof *q, &node_kind_require, el);
    if (!q) return NULL;
    xml_check_attrs(d, el, require_attrs);
    if (xml_attr(el, "connected")) {
        q->has_connected = true;
        if (!load_values(d, el, ld->grid, "connected", &q->connected, q->connected_text)) return NULL;
    }
    if (!load_reach(d, el, ld->grid, q) || !load_count(d, el, ld->grid, q) ||
        !xml_get_int_range(d, el, "tries", 20, 1, REQUIRE_MAX_TRIES, &q->tries))
        return NULL;
    if (!q->has_connected && !q->has_reach && !q->has_count) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<require> checks nothing: give connected=\"VALUES\", from/to/on, or "
                                                      "count=\"VALUES\" with min or max");
        return NULL;
    }
    return &q->base;
}

static void require_free(node *n) { mem_free(n); }

static void *require_state_new(const node *n, const grid_def *g)
{
    (void)n, (void)g;
    return mem_calloc(1, sizeof(require_state));
}

static void require_state_free(void *state)
{
    require_state *st = state;
    if (st) mem_free(st->queue), mem_free(st->seen);
    mem_free(st);
}

static void require_reset(run_state *r, const node *n, void *state)
{
    (void)r, (void)n;
    ((require_state *)state)->done = false;
}

static bool ensure_capacity(run_state *r, require_state *st)
{
    if (st->capacity >= r->cells) return true;
    mem_free(st->queue), mem_free(st->seen);
    st->queue = mem_malloc((size_t)r->cells * sizeof *st->queue);
    st->seen = mem_malloc((size_t)r->cells);
    st->capacity = st->queue && st->seen ? r->cells : 0;
    if (!st->capacity) r->out_of_memory = true;
    return st->capacity > 0;
}

static inline bool holds(const run_state *r, int32_t i, wave_bits wave) { return wave >> r->state[i] & 1u; }

/* Flood from the queued cells (marked seen) through cells of `through`, 4 neighbours in 2-D, 6 in 3-D;
   the cells reached, the queued ones included, or -1 when stopped. Each cell is queued once. */
static int64_t flood(run_state *r, require_state *st, int32_t queued, wave_bits through)
{
    const int32_t mx = r->mx, layer = mx * r->my, cells = r->cells;
    int32_t *queue = st->queue;
    uint8_t *seen = st->seen;
    const uint8_t *state = r->state;
#define REQUIRE_VISIT(nb)                                                 \
    do {                                                                  \
        const int32_t n_ = (nb);                                          \
        if (!seen[n_] && (through >> state[n_] & 1u)) {                   \
            seen[n_] = 1;                                                 \
            queue[queued++] = n_;                                         \
        }                                                                 \
    } while (0)
    for (int32_t head = 0; head < queued; head++) {
        if ((head & 1023) == 0 && stop_check(&r->stop, 1024)) return -1;
        const int32_t c = queue[head], in_layer = c % layer, x = in_layer % mx;
        if (x > 0) REQUIRE_VISIT(c - 1);
        if (x < mx - 1) REQUIRE_VISIT(c + 1);
        if (in_layer >= mx) REQUIRE_VISIT(c - mx);
        if (in_layer < layer - mx) REQUIRE_VISIT(c + mx);
        if (c >= layer) REQUIRE_VISIT(c - layer);
        if (c < cells - layer) REQUIRE_VISIT(c + layer);
    }
#undef REQUIRE_VISIT
    return queued;
}

/* connected: the cells of the values form one region (none at all holds). */
static bool check_connected(run_state *r, const require_node *q, require_state *st, char *why, size_t size)
{
    int32_t total = 0, first = -1;
    for (int32_t i = 0; i < r->cells; i++)
        if (holds(r, i, q->connected)) total++, first = first < 0 ? i : first;
    if (total == 0) return true;
    memset(st->seen, 0, (size_t)r->cells);
    st->seen[first] = 1;
    st->queue[0] = first;
    const int64_t reached = flood(r, st, 1, q->connected);
    if (reached < 0 || reached == total) return reached >= 0;
    snprintf(why, size, "the %d cells of \"%s\" are not one region: %lld of them cannot reach the first", (int)total,
             q->connected_text, (long long)(total - reached));
    return false;
}

/* from, to, on: every `from` cell reaches a `to` cell through on, from and to cells. */
static bool check_reach(run_state *r, const require_node *q, require_state *st, char *why, size_t size)
{
    memset(st->seen, 0, (size_t)r->cells);
    int32_t queued = 0, starts = 0;
    for (int32_t i = 0; i < r->cells; i++) {
        starts += holds(r, i, q->from);
        if (holds(r, i, q->to)) st->seen[i] = 1, st->queue[queued++] = i;
    }
    if (starts == 0) return true;
    if (flood(r, st, queued, q->on | q->from | q->to) < 0) return true; /* stopped: the run says so */
    int32_t cut_off = 0;
    for (int32_t i = 0; i < r->cells; i++) cut_off += holds(r, i, q->from) && !st->seen[i];
    if (cut_off == 0) return true;
    snprintf(why, size, "%d of the %d cells of \"%s\" cannot reach \"%s\" through \"%s\"", (int)cut_off, (int)starts, q->from_text,
             q->to_text, q->on_text);
    return false;
}

static bool check_count(run_state *r, const require_node *q, char *why, size_t size)
{
    long count = 0;
    for (int32_t i = 0; i < r->cells; i++) count += holds(r, i, q->counted);
    if (count >= q->min && count <= q->max) return true;
    snprintf(why, size, "%ld cells of \"%s\", not %s %ld", count, q->count_text, count < q->min ? "at least" : "at most",
             count < q->min ? q->min : q->max);
    return false;
}

static bool require_go(run_state *r, const node *n, void *state)
{
    const require_node *q = (const require_node *)n;
    require_state *st = state;
    if (st->done || !ensure_capacity(r, st)) return false;
    char why[120 + 3 * GRID_MAX_VALUES] = ""; /* the longest message names three values texts */
    bool ok = (!q->has_connected || check_connected(r, q, st, why, sizeof why)) &&
              (!q->has_reach || check_reach(r, q, st, why, sizeof why)) && (!q->has_count || check_count(r, q, why, sizeof why));
    if (stop_said(&r->stop)) return false;
    r->acting_node = n->id;
    st->done = true;
    if (!ok) run_requirement_failed(r, n, q->tries, why);
    return true;
}

const node_kind node_kind_require = {
    .name = "require",
    .beyond_reference = true,
    .reads_no_children = true,
    .writes_named_values = true, /* none: a restart puts back the start grid */
    .changes_no_cells = true,
    .load = require_load,
    .free = require_free,
    .state_new = require_state_new,
    .state_free = require_state_free,
    .reset = require_reset,
    .go = require_go,
};
