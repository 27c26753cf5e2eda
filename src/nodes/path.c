/* path.c — the `path` node: draw a shortest path over `on` cells from a `from`
   cell to the nearest `to` cell, found by a breadth-first search from `to` (with `costs`, a
   cheapest path: path_cost.c). */
#include "path.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const path_attrs[] = {"from", "to", "on", "color", "inertia", "longest", "edges", "vertices", "costs", NULL};

/* Neighbour offsets in the order the reference lists them. A 2-D grid gets
   the same list from them: offsets that leave the single layer drop out. */
static const int8_t axis_steps[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
static const int8_t edge_steps[12][3] = {
    {-1, -1, 0}, {-1, 1, 0}, {1, -1, 0}, {1, 1, 0},   /* xy */
    {-1, 0, -1}, {-1, 0, 1}, {1, 0, -1}, {1, 0, 1},   /* xz */
    {0, -1, -1}, {0, -1, 1}, {0, 1, -1}, {0, 1, 1},   /* yz */
};
static const int8_t vertex_steps[8][3] = {{-1, -1, -1}, {-1, -1, 1}, {-1, 1, -1}, {-1, 1, 1},
                                          {1, -1, -1},  {1, -1, 1},  {1, 1, -1},  {1, 1, 1}};

static void path_free(node *n)
{
    path_node *p = (path_node *)n;
    mem_free(p->steps);
    mem_free(p);
}

/* A wave attribute that must be there and name only values of the grid. */
static bool load_wave(diag *d, const xmlNode *el, const grid_def *g, const char *name, wave_bits *out)
{
    const char *text = xml_attr(el, name);
    if (!text) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<path> is missing the \"%s\" attribute", name);
    for (const char *s = text; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (g->value_of[ch] >= 0) continue;
        /* The reference looks these symbols up among values only, so unions fail too. */
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <path>: %c is %s", name, text, *s,
                          g->has_wave[ch] ? "a union; <path> takes values only" : "not a value of the grid");
    }
    return grid_wave(g, text, out);
}

static void add_steps(path_node *p, const int8_t (*steps)[3], int count)
{
    memcpy(p->steps + p->step_count, steps, (size_t)count * sizeof *steps);
    p->step_count += count;
}

static node *path_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    path_node *p = node_new(ld, sizeof *p, &node_kind_path, el);
    if (!p) return NULL;
    xml_check_attrs(d, el, path_attrs);

    if (!load_wave(d, el, g, "from", &p->start)) return NULL;
    char color;
    bool has_color;
    if (!xml_get_char(d, el, "color", &color, &has_color)) return NULL;
    if (!has_color) {
        const char *from = xml_attr(el, "from");
        if (!from[0]) {
            diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<path> with an empty \"from\" needs a \"color\" attribute");
            return NULL;
        }
        color = from[0]; /* the reference draws with the first `from` value by default */
    }
    if (g->value_of[(unsigned char)color] < 0) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "color=\"%c\" of <path> is not a value of the grid", color);
        return NULL;
    }
    p->value = (uint8_t)g->value_of[(unsigned char)color];
    if (!load_wave(d, el, g, "to", &p->finish) || !load_wave(d, el, g, "on", &p->substrate)) return NULL;

    bool edges, vertices;
    if (!xml_get_bool(d, el, "inertia", false, &p->inertia) || !xml_get_bool(d, el, "longest", false, &p->longest) ||
        !xml_get_bool(d, el, "edges", false, &edges) || !xml_get_bool(d, el, "vertices", false, &vertices))
        return NULL;
    p->diagonal = edges || vertices;
    p->steps = mem_malloc(26 * sizeof *p->steps);
    if (!p->steps) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    add_steps(p, axis_steps, 6);
    if (edges) add_steps(p, edge_steps, 12);
    /* In 2-D the reference ignores `vertices`; the bounds test below drops
       them anyway, so listing them changes nothing there. */
    if (vertices) add_steps(p, vertex_steps, 8);
    if (!path_load_costs(d, el, g, p)) return NULL;
    return &p->base;
}

static void *path_state_new(const node *n, const grid_def *g)
{
    (void)n;
    (void)g;
    /* Buffers grow on first use, to the size of the grid the run has then. */
    return mem_calloc(1, sizeof(path_state));
}

static void path_state_free(void *state)
{
    path_state *st = state;
    if (st) {
        mem_free(st->distance);
        mem_free(st->queue);
        mem_free(st->starts);
        mem_free(st->heap_slot);
    }
    mem_free(st);
}

static void path_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    (void)state;
}

/* The heap's slots are needed with costs only. */
static bool ensure_capacity(run_state *r, const path_node *p, path_state *st)
{
    if (st->capacity >= r->cells) return true;
    mem_free(st->distance);
    mem_free(st->queue);
    mem_free(st->starts);
    mem_free(st->heap_slot);
    st->distance = mem_malloc((size_t)r->cells * sizeof *st->distance);
    st->queue = mem_malloc((size_t)r->cells * sizeof *st->queue);
    st->starts = mem_malloc((size_t)r->cells * sizeof *st->starts);
    st->heap_slot = p->weighted ? mem_malloc((size_t)r->cells * sizeof *st->heap_slot) : NULL;
    if (!st->distance || !st->queue || !st->starts || (p->weighted && !st->heap_slot)) {
        st->capacity = 0;
        r->out_of_memory = true;
        return false;
    }
    st->capacity = r->cells;
    return true;
}

/* Fill distance[] by breadth-first search from every `to` cell through `on`
   cells. `from` cells get a distance but do not pass the search on. Returns
   the number of `from` cells, which are listed in starts[]; -1 when the run must stop (a check
   per STOP_ITEMS cells visited, so that a deadline is noticed inside a step on a large grid). */
static int32_t search(run_state *r, const path_node *p, path_state *st, int32_t *targets)
{
    int32_t start_count = 0, head = 0, tail = 0;
    /* In chunks of STOP_ITEMS cells, a check before each: no test in the loops themselves. */
    for (int32_t chunk = 0; chunk < r->cells; chunk += STOP_ITEMS) {
        if (stop_requested(&r->stop)) return -1;
        const int32_t end = r->cells - chunk > STOP_ITEMS ? chunk + STOP_ITEMS : r->cells;
        for (int32_t i = chunk; i < end; i++) {
            wave_bits bit = wave_bit(r->state[i]);
            st->distance[i] = -1;
            if (p->start & bit) st->starts[start_count++] = i;
            if (p->finish & bit) {
                st->distance[i] = 0;
                st->queue[tail++] = i;
            }
        }
    }
    *targets = tail;
    if (start_count == 0 || tail == 0) return start_count;
    while (head < tail) {
        /* The cells queued now, up to STOP_ITEMS of them; those they queue wait for the next round. */
        if (stop_requested(&r->stop)) return -1;
        const int32_t end = tail - head > STOP_ITEMS ? head + STOP_ITEMS : tail;
        while (head < end) {
            int32_t i = st->queue[head++];
            int64_t next = st->distance[i] + 1;
            path_cell c = path_cell_of(r, i);
            for (int k = 0; k < p->step_count; k++) {
                int x = c.x + p->steps[k][0], y = c.y + p->steps[k][1], z = c.z + p->steps[k][2];
                if (!path_inside(r, x, y, z)) continue;
                int32_t j = path_index(r, x, y, z);
                wave_bits bit = wave_bit(r->state[j]);
                if (st->distance[j] != -1 || !((p->substrate | p->start) & bit)) continue;
                if (p->substrate & bit) st->queue[tail++] = j;
                st->distance[j] = next;
            }
        }
    }
    return start_count;
}

/* Whether stepping from a cell at distance `here` into (x, y, z) stays on a cheapest path: the
   cell's distance plus what entering it adds is `here`. Without costs every weight is 1, and this
   is the reference's test "one step closer". */
static bool leads_on(const run_state *r, const path_node *p, const path_state *st, int x, int y, int z, int64_t here)
{
    if (!path_inside(r, x, y, z)) return false;
    int32_t j = path_index(r, x, y, z);
    int32_t weight = p->weight[r->state[j]];
    return weight > 0 && st->distance[j] != -1 && st->distance[j] + weight == here;
}

/* The next step from `at`, one closer to a target. `dir` is the previous
   step (0,0,0 at the start). Returns false when no neighbour is closer. */
static bool next_step(const run_state *r, const path_node *p, const path_state *st, rng *random, path_cell at, path_cell *dir)
{
    int64_t here = st->distance[path_index(r, at.x, at.y, at.z)];
    bool moving = dir->x != 0 || dir->y != 0 || dir->z != 0;
    /* Without diagonals, inertia keeps the direction whenever it still leads closer. */
    if (!p->diagonal && p->inertia && moving) {
        int x = at.x + dir->x, y = at.y + dir->y, z = at.z + dir->z;
        if (leads_on(r, p, st, x, y, z, here)) return true;
    }
    path_cell candidates[26];
    int count = 0;
    for (int k = 0; k < p->step_count; k++) {
        int x = at.x + p->steps[k][0], y = at.y + p->steps[k][1], z = at.z + p->steps[k][2];
        if (leads_on(r, p, st, x, y, z, here))
            candidates[count++] = (path_cell){p->steps[k][0], p->steps[k][1], p->steps[k][2]};
    }
    if (count == 0) return false;
    if (p->diagonal && p->inertia && moving) {
        /* The candidate best aligned with the last step, by cosine plus a
           little noise; every candidate draws its noise in order. */
        double best = -4;
        int chosen = 0;
        for (int k = 0; k < count; k++) {
            const path_cell *c = &candidates[k];
            double noise = 0.1 * rng_next_double(random);
            int dot = c->x * dir->x + c->y * dir->y + c->z * dir->z;
            int norms = (c->x * c->x + c->y * c->y + c->z * c->z) * (dir->x * dir->x + dir->y * dir->y + dir->z * dir->z);
            double cosine = dot / sqrt((double)norms);
            if (cosine + noise > best) {
                best = cosine + noise;
                chosen = k;
            }
        }
        *dir = candidates[chosen];
        return true;
    }
    *dir = candidates[rng_next_max(random, count)];
    return true;
}

static bool path_go(run_state *r, const node *n, void *state)
{
    const path_node *p = (const path_node *)n;
    path_state *st = state;
    if (!ensure_capacity(r, p, st)) return false;
    int32_t targets;
    int32_t start_count = p->weighted ? path_search_costs(r, p, st, &targets) : search(r, p, st, &targets);
    if (start_count <= 0 || targets == 0) return false; /* none, or stopped: the grid is untouched */
    bool reached = false;
    for (int32_t k = 0; k < start_count && !reached; k++) reached = st->distance[st->starts[k]] > 0;
    if (!reached) return false;

    /* Choose the nearest (or farthest) reached start; a noise below 1 breaks
       ties. Starts that are targets themselves draw noise too. The reference starts
       min at the cell count, above every distance without costs; costs may go beyond. */
    rng random;
    rng_seed(&random, rng_next(&r->random));
    double min = HUGE_VAL, max = -2;
    int32_t nearest = -1, farthest = -1;
    for (int32_t k = 0; k < start_count; k++) {
        int64_t g = st->distance[st->starts[k]];
        if (g == -1) continue;
        double noise = 0.1 * rng_next_double(&random);
        double score = (double)g + noise;
        if (score < min) { min = score; nearest = st->starts[k]; }
        if (score > max) { max = score; farthest = st->starts[k]; }
    }
    int32_t first = p->longest ? farthest : nearest;
    /* A chosen start that is already a target has nowhere to go: the
       reference fails with an exception there; smalti draws nothing. */
    if (st->distance[first] == 0) return false;

    path_cell at = path_cell_of(r, first), dir = {0, 0, 0};
    /* The walk is as long as the distance, up to every cell: checked as the search is. A stopped
       run's grid is not an output, so a half-drawn path is never written. */
    for (int32_t walked = 1; next_step(r, p, st, &random, at, &dir); walked++) {
        if (stop_requested_at(&r->stop, walked)) return false;
        at.x += dir.x;
        at.y += dir.y;
        at.z += dir.z;
        int32_t i = path_index(r, at.x, at.y, at.z);
        if (st->distance[i] == 0) break;
        /* Logged even when the cell already holds the value, as the reference does. */
        r->state[i] = p->value;
        run_change(r, i);
    }
    r->acting_node = n->id;
    return true;
}

const node_kind node_kind_path = {
    .name = "path",
    .is_branch = false,
    .writes_named_values = true,
    .reads_no_children = true,
    .load = path_load,
    .free = path_free,
    .state_new = path_state_new,
    .state_free = path_state_free,
    .reset = path_reset,
    .go = path_go,
};
