/* path_cost.c — `path` with `costs`: per-value costs read at load, and a Dijkstra search from
   every target that gives each cell the cost of the cheapest path from it. */
#include "path.h"
#include "../core/xmlutil.h"
#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static bool cost_error(diag *d, const xmlNode *el, const char *text, const char *why, char symbol)
{
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "costs=\"%s\" of <path>: %c %s", text, symbol, why);
}

/* The digits after a symbol, up to the next space: a cost in 1..PATH_MAX_COST, or 0 when malformed
   or out of range (the value stops growing past the range, so no string of digits overflows it). */
static int32_t read_cost(const char **s)
{
    const char *begin = *s;
    int32_t cost = 0;
    for (; **s && !is_space(**s); (*s)++) {
        if (**s < '0' || **s > '9') return 0;
        if (cost <= PATH_MAX_COST) cost = cost * 10 + (**s - '0');
    }
    return *s > begin && cost >= 1 && cost <= PATH_MAX_COST ? cost : 0;
}

/* One entry `Xn` of the list: X an `on` value named once, n its cost. */
static bool read_entry(diag *d, const xmlNode *el, const grid_def *g, const char *text, const char **s,
                       const path_node *p, int32_t *cost)
{
    char symbol = **s;
    int v = g->value_of[(unsigned char)symbol];
    (*s)++;
    if (v < 0) return cost_error(d, el, text, g->has_wave[(unsigned char)symbol] ? "is a union; costs name values" : "is not a value of the grid", symbol);
    if (!(p->substrate >> v & 1))
        return cost_error(d, el, text, "is not an \"on\" value: the path never crosses it, so it has no cost", symbol);
    if (cost[v]) return cost_error(d, el, text, "is given twice", symbol);
    cost[v] = read_cost(s);
    if (!cost[v])
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "costs=\"%s\" of <path>: %c needs a whole cost from 1 to %d right after it",
                          text, symbol, PATH_MAX_COST);
    return true;
}

bool path_load_costs(diag *d, const xmlNode *el, const grid_def *g, path_node *p)
{
    const char *text = xml_attr(el, "costs");
    p->weighted = text != NULL;
    for (int v = 0; v < GRID_MAX_VALUES; v++) p->weight[v] = 1;
    if (!text) return true;
    int32_t cost[GRID_MAX_VALUES] = {0};
    int entries = 0;
    for (const char *s = text; *s;) {
        if (is_space(*s)) { s++; continue; }
        if (!read_entry(d, el, g, text, &s, p, cost)) return false;
        entries++;
    }
    if (!entries) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "costs=\"%s\" of <path> names no value", text);
    for (int v = 0; v < GRID_MAX_VALUES; v++) {
        wave_bits bit = wave_bit(v);
        p->weight[v] = (p->finish & bit) ? 1 : !(p->substrate & bit) ? 0 : cost[v] ? cost[v] : 1;
    }
    return true;
}

/* A binary min-heap of cells keyed by distance[], with each cell's slot kept for decrease-key. The
   order among equal keys does not matter: the distances Dijkstra settles are the same in any order. */
typedef struct heap {
    int32_t *cells, *slot;
    const int64_t *key;
    int32_t size;
} heap;

static void heap_place(heap *h, int32_t at, int32_t cell)
{
    h->cells[at] = cell;
    h->slot[cell] = at;
}

static void heap_up(heap *h, int32_t at)
{
    int32_t cell = h->cells[at];
    while (at > 0) {
        int32_t parent = (at - 1) / 2;
        if (h->key[h->cells[parent]] <= h->key[cell]) break;
        heap_place(h, at, h->cells[parent]);
        at = parent;
    }
    heap_place(h, at, cell);
}

static void heap_down(heap *h, int32_t at)
{
    int32_t cell = h->cells[at];
    for (;;) {
        int32_t child = 2 * at + 1;
        if (child >= h->size) break;
        if (child + 1 < h->size && h->key[h->cells[child + 1]] < h->key[h->cells[child]]) child++;
        if (h->key[cell] <= h->key[h->cells[child]]) break;
        heap_place(h, at, h->cells[child]);
        at = child;
    }
    heap_place(h, at, cell);
}

static int32_t heap_pop(heap *h)
{
    int32_t top = h->cells[0];
    h->slot[top] = -1;
    if (--h->size > 0) {
        heap_place(h, 0, h->cells[h->size]);
        heap_down(h, 0);
    }
    return top;
}

/* Every cell unreached, the `from` cells listed, the targets at 0 and in the heap (equal keys: a
   heap as they come). Returns the number of `from` cells, -1 when the run must stop. */
static int32_t seed_targets(run_state *r, const path_node *p, path_state *st, heap *h)
{
    int32_t start_count = 0;
    for (int32_t i = 0; i < r->cells; i++) {
        if (stop_requested_at(&r->stop, i)) return -1;
        wave_bits bit = wave_bit(r->state[i]);
        st->distance[i] = -1;
        st->heap_slot[i] = -1;
        if (p->start & bit) st->starts[start_count++] = i;
        if (p->finish & bit) {
            st->distance[i] = 0;
            heap_place(h, h->size++, i);
        }
    }
    return start_count;
}

/* Offer each neighbour of the settled cell i the cost through i. `from` cells take it but, unless
   they are `on` cells too, do not pass it on: they never enter the heap. */
static void relax_neighbours(const run_state *r, const path_node *p, path_state *st, heap *h, int32_t i)
{
    int64_t through = st->distance[i] + p->weight[r->state[i]];
    path_cell c = path_cell_of(r, i);
    for (int k = 0; k < p->step_count; k++) {
        int x = c.x + p->steps[k][0], y = c.y + p->steps[k][1], z = c.z + p->steps[k][2];
        if (!path_inside(r, x, y, z)) continue;
        int32_t j = path_index(r, x, y, z);
        wave_bits bit = wave_bit(r->state[j]);
        if (!((p->substrate | p->start) & bit)) continue;
        if (st->distance[j] != -1 && st->distance[j] <= through) continue;
        st->distance[j] = through;
        if (!(p->substrate & bit)) continue;
        if (st->heap_slot[j] < 0) heap_place(h, h->size++, j);
        heap_up(h, st->heap_slot[j]);
    }
}

int32_t path_search_costs(run_state *r, const path_node *p, path_state *st, int32_t *targets)
{
    heap h = {st->queue, st->heap_slot, st->distance, 0};
    int32_t start_count = seed_targets(r, p, st, &h);
    *targets = h.size;
    if (start_count <= 0 || h.size == 0) return start_count;
    /* A settled cell's distance is final, and every later offer is at least as large (costs are
       positive), so the test in relax_neighbours never lowers it: no cell is settled twice. */
    for (int64_t settled = 1; h.size > 0; settled++) {
        if (stop_requested_at(&r->stop, settled)) return -1;
        relax_neighbours(r, p, st, &h, heap_pop(&h));
    }
    return start_count;
}
