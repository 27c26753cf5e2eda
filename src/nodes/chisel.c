/* chisel.c — the `chisel` node: closes open cells in random order as long as the key cells stay
   connected, leaving a random minimal network of paths between them (chiseling). */
#include "gen.h"
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include "../engine/run.h"
#include <math.h>
#include <string.h>

/* ---- The method ---------------------------------------------------------

   Cells are open (the `on` cells and the keys) or closed; two open cells are
   joined when they are 4-neighbours (6 in 3-D). Every open non-key cell is
   visited once in a random order and closed unless closing it would separate
   two keys that are connected. A cell kept once stays necessary (closing
   more cells only makes paths scarcer), so one pass leaves a minimal network.

   Whether closing c separates keys is decided, cheapest first, by:
   1. the ring: c's open neighbours are joined through open cells of its
      8-neighbourhood, so closing c disconnects nothing;
   2. on a plane, the closed cells (see "The 2-D pass"): they say exactly
      whether c cuts anything and which neighbours it cuts apart; a search
      from the sides then finds which hold keys;
   3. in 3-D, rounds: each computes, by Hopcroft-Tarjan over the open cells,
      which cells separate keys (kept for good) and the biconnected block of
      every other cell. Closing a non-separating cell of block B changes what
      separates keys only inside B, so the first such closure in each block
      per round needs no search; later ones go to a search from c's open
      neighbours that stops when they meet (close), when one side is used up
      (its keys decide), or at a budget; a cell over budget waits for the
      next round.
   Closing a cell with one open neighbour, or a side holding no key, changes
   what separates keys for no one, so such cells go at once, unmarked. */

#define CHISEL_OPEN 1u
#define CHISEL_KEY 2u
#define CHISEL_KEPT 4u
#define CHISEL_PROBE_BUDGET 384
#define CHISEL_PROBE_LATER 24

typedef struct chisel {
    node base;
    wave_bits on, keys; /* waves: the open cells, the key cells */
    int close;          /* what closed cells become */
    int value;          /* what the open cells left become; -1: unchanged */
    double keep;        /* fraction of the open cells joined to keys that stays open */
} chisel;

typedef struct chisel_state {
    bool done;
} chisel_state;

typedef struct chisel_work {
    run_stop *stop;
    int32_t px, py, pz, cells;          /* the grid with a closed border one cell wide */
    int32_t off[6];
    int ndir;
    bool d2;
    uint8_t *cell;                      /* CHISEL_* flags per padded cell */
    int32_t *disc, *low, *parent, *sub, *blk, *comp, *seen;
    uint8_t *it, *lab, *dirty;
    int32_t *stack, *vstack, *queue, *cascade, *keylist, *compkeys;
    int32_t nkeys, stamp;
    int64_t open, target;               /* open non-key cells; stop at target */
    uint8_t groups[256];
    int64_t keep_work;                  /* 2-D: cost of searches for kept cells since the last articulation points */
    int32_t *uf;                        /* 2-D: 8-connected sets of closed cells (union-find) */
                /* ring mask -> groups of open 4-neighbours */
} chisel_work;

static const char *const chisel_attrs[] = {"on", "keys", "close", "value", "keep", NULL};

static void chisel_free(node *n) { mem_free(n); }

static node *chisel_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    chisel *c = node_new(ld, sizeof *c, &node_kind_chisel, el);
    if (!c) return NULL;
    xml_check_attrs(d, el, chisel_attrs);
    int line = xml_line(el);
    if (!xml_attr(el, "on")) return diag_error(d, SMALTI_ERR_MODEL, line, "<chisel> needs an on attribute (the open cells)"), NULL;
    if (!xml_attr(el, "keys"))
        return diag_error(d, SMALTI_ERR_MODEL, line, "<chisel> needs a keys attribute (the values of the cells to keep joined)"), NULL;
    if (!gen_wave(d, el, g, "on", &c->on) || !gen_wave(d, el, g, "keys", &c->keys) || !gen_value(d, el, g, "close", true, &c->close) ||
        !gen_value(d, el, g, "value", false, &c->value) || !gen_get_double(d, el, "keep", 0, 0, 1, &c->keep))
        return NULL;
    if (gen_in_wave(c->on, (uint8_t)c->close)) {
        diag_error(d, SMALTI_ERR_MODEL, line, "close=\"%s\" of <chisel> is one of the open cells on=\"%s\": closed cells would be open again",
                   xml_attr(el, "close"), xml_attr(el, "on"));
        return NULL;
    }
    if (gen_in_wave(c->keys, (uint8_t)c->close)) {
        diag_error(d, SMALTI_ERR_MODEL, line, "close=\"%s\" of <chisel> is also a key value (keys=\"%s\")", xml_attr(el, "close"),
                   xml_attr(el, "keys"));
        return NULL;
    }
    return &c->base;
}

static void *chisel_state_new(const node *n, const grid_def *g)
{
    (void)n;
    (void)g;
    return mem_calloc(1, sizeof(chisel_state));
}

static void chisel_state_free(void *state) { mem_free(state); }

static void chisel_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    ((chisel_state *)state)->done = false;
}

/* ---- Helpers ------------------------------------------------------------ */

static inline bool is_open(const chisel_work *w, int32_t i) { return w->cell[i] & CHISEL_OPEN; }

/* groups[m]: how many runs of open cells around the ring hold a 4-neighbour,
   for the ring N, NE, E, SE, S, SW, W, NW as bits 0..7 of m. */
static void ring_table(uint8_t groups[256])
{
    for (int m = 0; m < 256; m++) {
        if (m == 255) {
            groups[m] = 1;
            continue;
        }
        int start = 0;
        while ((m >> start) & 1) start++; /* a closed position: runs do not wrap past it */
        int count = 0;
        bool in_run = false, orth = false;
        for (int k = 1; k <= 8; k++) {
            int p = (start + k) & 7;
            if ((m >> p) & 1) {
                in_run = true;
                orth |= (p & 1) == 0;
            } else {
                if (in_run && orth) count++;
                in_run = orth = false;
            }
        }
        groups[m] = (uint8_t)count;
    }
}


static inline bool ring_ok(const chisel_work *w, int32_t c)
{
    const uint8_t *o = w->cell;
    int32_t W = w->px;
    unsigned m = (o[c - W] & 1u) | (o[c - W + 1] & 1u) << 1 | (o[c + 1] & 1u) << 2 | (o[c + W + 1] & 1u) << 3 | (o[c + W] & 1u) << 4 |
                 (o[c + W - 1] & 1u) << 5 | (o[c - 1] & 1u) << 6 | (o[c - W - 1] & 1u) << 7;
    return w->groups[m] <= 1;
}

static inline int open_degree(const chisel_work *w, int32_t c)
{
    int n = 0;
    for (int d = 0; d < w->ndir; d++) n += is_open(w, c + w->off[d]);
    return n;
}

static int32_t uf_find(int32_t *uf, int32_t a)
{
    while (uf[a] != a) {
        uf[a] = uf[uf[a]];
        a = uf[a];
    }
    return a;
}

static void uf_union(int32_t *uf, int32_t a, int32_t b)
{
    a = uf_find(uf, a);
    b = uf_find(uf, b);
    if (a != b) uf[a < b ? b : a] = a < b ? a : b;
}

/* The ring N, NE, E, SE, S, SW, W, NW around a 2-D cell, as offsets. */
static inline void ring_offsets(const chisel_work *w, int32_t ring[8])
{
    int32_t W = w->px;
    ring[0] = -W, ring[1] = -W + 1, ring[2] = 1, ring[3] = W + 1, ring[4] = W, ring[5] = W - 1, ring[6] = -1, ring[7] = -W - 1;
}

/* Close one cell; in 2-D it joins the closed sets of its 8-neighbours. */
static void shut(chisel_work *w, int32_t c)
{
    w->cell[c] &= (uint8_t)~CHISEL_OPEN;
    w->open--;
    if (!w->uf) return;
    int32_t ring[8];
    ring_offsets(w, ring);
    for (int k = 0; k < 8; k++)
        if (!is_open(w, c + ring[k])) uf_union(w->uf, c, c + ring[k]);
}

/* Close c; `mark`: it may change what separates keys in its block. Then
   close the neighbours left with one open neighbour or none, and theirs. */
static void close_cell(chisel_work *w, int32_t c, bool mark)
{
    shut(w, c);
    if (mark) {
        w->dirty[w->blk[c]] = 1;
    }
    int32_t sp = 0;
    w->cascade[sp++] = c;
    while (sp > 0 && w->open > w->target) {
        int32_t u = w->cascade[--sp];
        for (int d = 0; d < w->ndir; d++) {
            int32_t v = u + w->off[d];
            if (w->cell[v] != CHISEL_OPEN || open_degree(w, v) > 1) continue; /* open, no key, not kept */
            shut(w, v);
            w->cascade[sp++] = v;
            if (w->open <= w->target) break;
        }
    }
}

/* ---- Articulation points -------------------------------------------------- */

static inline void tarjan_visit(chisel_work *w, int32_t v, int32_t parent, int32_t comp, int32_t *time, int32_t *sp, int32_t *vsp)
{
    w->disc[v] = w->low[v] = ++*time;
    w->parent[v] = parent;
    w->sub[v] = (w->cell[v] & CHISEL_KEY) != 0;
    w->it[v] = 0;
    w->comp[v] = comp;
    w->stack[(*sp)++] = v;
    w->vstack[(*vsp)++] = v;
}

/* Depth-first from each key not yet reached: marks CHISEL_KEPT on cells that
   separate keys and numbers the blocks (blk) and key components (comp).
   False when the run must stop. */
static bool tarjan(chisel_work *w)
{
    memset(w->disc, 0, (size_t)w->cells * sizeof *w->disc);
    int32_t time = 0, blocks = 0, comps = 0;
    for (int32_t k = 0; k < w->nkeys; k++) {
        int32_t root = w->keylist[k];
        if (w->disc[root]) continue;
        int32_t comp = comps++, sp = 0, vsp = 0;
        tarjan_visit(w, root, -1, comp, &time, &sp, &vsp);
        while (sp > 0) {
            int32_t u = w->stack[sp - 1];
            if (w->it[u] < w->ndir) {
                int32_t v = u + w->off[w->it[u]++];
                if (!is_open(w, v)) continue;
                if (!w->disc[v]) {
                    if (stop_requested_at(w->stop, time)) return false;
                    tarjan_visit(w, v, u, comp, &time, &sp, &vsp);
                } else if (v != w->parent[u] && w->disc[v] < w->low[u]) {
                    w->low[u] = w->disc[v];
                }
                continue;
            }
            sp--;
            int32_t p = w->parent[u];
            if (p < 0) {
                w->blk[u] = blocks;
                w->dirty[blocks++] = 0;
                w->compkeys[comp] = w->sub[u];
                break;
            }
            if (w->low[u] < w->low[p]) w->low[p] = w->low[u];
            w->sub[p] += w->sub[u];
            if (w->low[u] >= w->disc[p]) { /* p cuts u's subtree off: a block closes */
                /* The root is a key, so keys in the subtree make p separate keys. */
                if (w->sub[u] > 0 && !(w->cell[p] & CHISEL_KEY)) w->cell[p] |= CHISEL_KEPT;
                int32_t x;
                do {
                    x = w->vstack[--vsp];
                    w->blk[x] = blocks;
                } while (x != u);
                w->dirty[blocks++] = 0;
            }
        }
    }
    return true;
}

/* ---- The search ------------------------------------------------------------ */

typedef enum probe_result { PROBE_CLOSE, PROBE_KEEP, PROBE_DEFER } probe_result;

static inline int set_find(int *parent, int s)
{
    while (parent[s] != s) s = parent[s];
    return s;
}

/* Breadth-first from each open neighbour of c at once, c left out; `label`
   (NULL: each its own) groups neighbours known to be joined. `apart`: the
   groups are known to be cut apart by c, so two of them holding keys decide. */
static probe_result probe(chisel_work *w, int32_t c, int32_t budget, const int8_t *label, bool apart, int64_t *spent)
{
    if (w->stamp == INT32_MAX) {
        memset(w->seen, 0, (size_t)w->cells * sizeof *w->seen);
        w->stamp = 0;
    }
    int32_t stamp = ++w->stamp, head = 0, tail = 0;

    int set_parent[6], frontier[6], keys[6], sets = 0;
    for (int i = 0; i < 6; i++) set_parent[i] = i, frontier[i] = keys[i] = 0;
    w->seen[c] = stamp;
    for (int d = 0; d < w->ndir; d++) {
        int32_t v = c + w->off[d];
        if (!is_open(w, v)) continue;
        int s = label ? label[d] : sets;
        if (s >= sets) sets = s + 1;
        w->seen[v] = stamp;
        w->lab[v] = (uint8_t)s;
        frontier[s]++;
        keys[s] += (w->cell[v] & CHISEL_KEY) != 0;
        w->queue[tail++] = v;
    }
    int live = sets;
    int keyed = 0;
    for (int i = 0; i < sets; i++) keyed += keys[i] > 0;
    if (apart && keyed >= 2) return PROBE_KEEP;
    if (live <= 1) return PROBE_CLOSE;
    int32_t comp_keys = w->compkeys[w->comp[c]];
    while (head < tail) {
        int32_t u = w->queue[head++];
        if (spent) ++*spent;
        int su = set_find(set_parent, w->lab[u]);
        frontier[su]--;
        for (int d = 0; d < w->ndir; d++) {
            int32_t v = u + w->off[d];
            if (!is_open(w, v) || v == c) continue;
            if (w->seen[v] == stamp) {
                int sv = set_find(set_parent, w->lab[v]);
                if (sv != su) { /* two sides meet: one fewer to join */
                    set_parent[sv] = su;
                    frontier[su] += frontier[sv];
                    keys[su] += keys[sv];
                    if (--live == 1) return PROBE_CLOSE;
                }
                continue;
            }
            if (tail >= budget) return PROBE_DEFER;
            w->seen[v] = stamp;
            w->lab[v] = w->lab[u];
            frontier[su]++;
            keys[su] += (w->cell[v] & CHISEL_KEY) != 0;
            w->queue[tail++] = v;
            if (apart && (w->cell[v] & CHISEL_KEY) && keys[su] == 1 && ++keyed >= 2) return PROBE_KEEP;
        }
        if (frontier[su] > 0) continue;
        /* su is used up: without c it is cut off from the other sides. */
        if (keys[su] > 0) return keys[su] < comp_keys ? PROBE_KEEP : PROBE_CLOSE; /* all keys here: the rest hold none */
        for (int32_t i = 0; i < tail && w->open > w->target; i++) { /* a side with no key hangs on c alone: it goes */
            int32_t x = w->queue[i];
            if (w->cell[x] == CHISEL_OPEN && set_find(set_parent, w->lab[x]) == su) shut(w, x);
        }
        if (w->open <= w->target) return PROBE_DEFER; /* enough closed: c stays, the pass ends */
        if (--live == 1) return PROBE_CLOSE;
    }
    return PROBE_CLOSE;
}

/* ---- The 2-D pass ------------------------------------------------------------

   On a plane, open cells joined as 4-neighbours and closed cells joined as
   8-neighbours (the border counts as one closed cell) cut each other exactly:
   closing c separates its open neighbours if and only if two of the closed
   stretches between them around c's ring already belong to one closed set,
   so that c closes a loop of closed cells. With the closed sets kept in a
   union-find, whether c cuts anything costs next to nothing; only a cell
   that does cut needs to know on which side the keys lie. */

/* Whether closing c (2-D, with two open groups or more around its ring)
   separates open cells (*cuts), and if so, which of its open 4-neighbours stay
   joined: label[d] for c + off[d], as many labels as the result. */
static int plane_groups(chisel_work *w, int32_t c, int8_t label[4], bool *cuts)
{
    int32_t ring[8], gaps[4];
    int8_t at[8];
    ring_offsets(w, ring);
    int start = 0;
    while (!is_open(w, c + ring[start])) start += 2; /* an open 4-neighbour: there are two at least */
    int ngaps = 0, group = 0;
    int32_t rep = -1;
    *cuts = false;
    for (int k = 0; k < 8; k++) {
        int p = (start + k) & 7;
        int32_t v = c + ring[p];
        at[p] = -1;
        if (!is_open(w, v)) {
            if (rep < 0) rep = v;
            continue;
        }
        if (p & 1) continue; /* an open corner does not end a closed stretch */
        if (rep >= 0) {      /* a closed stretch ends: a new group */
            gaps[ngaps++] = uf_find(w->uf, rep);
            group++;
            rep = -1;
        }
        at[p] = (int8_t)group;
    }
    if (rep >= 0) { /* the stretch before the start: the last group is not the first */
        gaps[ngaps++] = uf_find(w->uf, rep);
        group++;
    } else {
        for (int p = 0; p < 8; p += 2)
            if (at[p] == group) at[p] = 0;
    }
    /* gaps[i] lies between groups i and i+1 (cyclically). Two gaps in one closed
       set close a loop through c: the groups between them are cut off from the
       rest. Groups that no such loop tells apart stay joined. */
    unsigned side[4] = {0, 0, 0, 0};
    int loops = 0;
    for (int i = 0; i < ngaps; i++)
        for (int j = i + 1; j < ngaps; j++, loops++)
            if (gaps[i] == gaps[j]) {
                *cuts = true;
                for (int g = i + 1; g <= j; g++) side[g] |= 1u << loops;
            }
    int8_t cls[4];
    int classes = 0;
    for (int g = 0; g < group; g++) {
        cls[g] = -1;
        for (int h = 0; h < g && cls[g] < 0; h++)
            if (side[h] == side[g]) cls[g] = cls[h];
        if (cls[g] < 0) cls[g] = (int8_t)classes++;
    }
    static const int ring_of_dir[4] = {2, 6, 4, 0}; /* off[] is E, W, S, N */
    for (int d = 0; d < 4; d++) label[d] = at[ring_of_dir[d]] < 0 ? -1 : cls[at[ring_of_dir[d]]];
    return classes;
}

static bool chisel_plane(chisel_work *w, int32_t *order, int64_t count, double keep)
{
    for (int32_t y = 0; y < w->py; y++) /* the closed sets at the start */
        for (int32_t x = 0; x < w->px; x++) {
            int32_t i = x + y * w->px;
            w->uf[i] = i;
        }
    for (int32_t y = 0; y < w->py; y++)
        for (int32_t x = 0; x < w->px; x++) {
            int32_t i = x + y * w->px;
            if (is_open(w, i)) continue;
            if (x + 1 < w->px && !is_open(w, i + 1)) uf_union(w->uf, i, i + 1);
            if (y + 1 < w->py) {
                if (!is_open(w, i + w->px)) uf_union(w->uf, i, i + w->px);
                if (x + 1 < w->px && !is_open(w, i + w->px + 1)) uf_union(w->uf, i, i + w->px + 1);
                if (x > 0 && !is_open(w, i + w->px - 1)) uf_union(w->uf, i, i + w->px - 1);
            }
        }
    if (!tarjan(w)) return false;
    for (int64_t i = 0; i < count; i++) /* cells no key reaches go at once */
        if (w->cell[order[i]] == CHISEL_OPEN && !w->disc[order[i]]) shut(w, order[i]);
    w->target = (int64_t)ceil(keep * (double)w->open);
    for (int64_t i = 0; i < count; i++) {
        if (stop_requested_at(w->stop, i)) return false;
        if (w->open <= w->target) break;
        int32_t c = order[i];
        if (w->cell[c] != CHISEL_OPEN) continue;
        int8_t label[4];
        bool cuts;
        if (ring_ok(w, c) || (plane_groups(w, c, label, &cuts), !cuts)) {
            close_cell(w, c, true);
            continue;
        }
        /* The sides cut apart are searched together until one runs out or two
           hold keys; what it costs is paid by a side that runs out, and closes. */
        int64_t spent = 0;
        probe_result pr = probe(w, c, w->cells, label, true, &spent);
        /* A kept cell's search runs until both sides find a key, and closes
           nothing. Once such searches have cost about a pass over the grid,
           fresh articulation points mark every cell that now separates keys. */
        if (pr == PROBE_KEEP && (w->keep_work += spent) > w->open + w->cells / 16) {
            w->keep_work = 0;
            if (!tarjan(w)) return false;
        }
        switch (pr) {
        case PROBE_CLOSE: close_cell(w, c, true); break;
        case PROBE_KEEP: w->cell[c] |= CHISEL_KEPT; break;
        case PROBE_DEFER: break; /* not reached: no budget */
        }
    }
    return true;
}

/* ---- The pass --------------------------------------------------------------- */

/* Chisel the open cells in `order` (count of them, shuffled). False when the run must stop. */
static bool chisel_cells(chisel_work *w, int32_t *order, int64_t count, double keep)
{
    bool first = true;
    int rounds = 0;
    int64_t item = 0;
    while (count > 0) {
        if (!tarjan(w)) return false;
        int64_t n = 0;
        for (int64_t i = 0; i < count; i++) { /* cells no key reaches go; kept cells stay */
            int32_t c = order[i];
            if (w->cell[c] != CHISEL_OPEN) continue;
            if (!w->disc[c]) {
                shut(w, c);
                continue;
            }
            order[n++] = c;
        }
        count = n;
        if (first) {
            w->target = (int64_t)ceil(keep * (double)w->open);
            first = false;
        }
        int64_t before = w->open;
        bool first_pass = rounds++ == 0;
        n = 0;
        for (int64_t i = 0; i < count; i++) {
            if (stop_requested_at(w->stop, item++)) return false;
            if (w->open <= w->target) return true;
            int32_t c = order[i];
            if (w->cell[c] != CHISEL_OPEN) continue;
            if ((w->d2 && ring_ok(w, c)) || !w->dirty[w->blk[c]]) {
                close_cell(w, c, true);
                continue;
            }
            switch (probe(w, c, first_pass ? CHISEL_PROBE_BUDGET : CHISEL_PROBE_LATER, NULL, false, NULL)) {
            case PROBE_CLOSE: close_cell(w, c, true); break;
            case PROBE_KEEP: w->cell[c] |= CHISEL_KEPT; break;
            case PROBE_DEFER: order[n++] = c; break;
            }
        }
        if (n == count && w->open == before) break; /* cannot happen: the first waiting cell of a clean block goes */
        count = n;
    }
    return true;
}

static bool work_alloc(chisel_work *w)
{
    size_t n = (size_t)w->cells;
    w->cell = mem_calloc(n, 1);
    w->disc = mem_malloc(n * sizeof(int32_t));
    w->low = mem_malloc(n * sizeof(int32_t));
    w->parent = mem_malloc(n * sizeof(int32_t));
    w->sub = mem_malloc(n * sizeof(int32_t));
    w->blk = mem_calloc(n, sizeof(int32_t));
    w->comp = mem_malloc(n * sizeof(int32_t));
    w->seen = mem_calloc(n, sizeof(int32_t));
    w->it = mem_malloc(n);
    w->lab = mem_malloc(n);
    w->dirty = mem_malloc(n);
    w->stack = mem_malloc(n * sizeof(int32_t));
    w->vstack = mem_malloc(n * sizeof(int32_t));
    w->cascade = mem_malloc(n * sizeof(int32_t));
    w->queue = mem_malloc((n + 8) * sizeof(int32_t));
    return w->cell && w->disc && w->low && w->parent && w->sub && w->blk && w->comp && w->seen && w->it && w->lab && w->dirty &&
           w->stack && w->vstack && w->cascade && w->queue;
}

static void work_free(chisel_work *w)
{
    mem_free(w->cell);
    mem_free(w->disc);
    mem_free(w->low);
    mem_free(w->parent);
    mem_free(w->sub);
    mem_free(w->blk);
    mem_free(w->comp);
    mem_free(w->seen);
    mem_free(w->it);
    mem_free(w->lab);
    mem_free(w->dirty);
    mem_free(w->stack);
    mem_free(w->vstack);
    mem_free(w->cascade);
    mem_free(w->queue);
    mem_free(w->keylist);
    mem_free(w->compkeys);
    mem_free(w->uf);
}

static inline int32_t padded_index(const chisel_work *w, int32_t x, int32_t y, int32_t z)
{
    return (x + 1) + (y + 1) * w->px + (z + (w->d2 ? 0 : 1)) * w->px * w->py;
}

static bool chisel_go(run_state *r, const node *n, void *state)
{
    const chisel *ch = (const chisel *)n;
    chisel_state *st = state;
    if (st->done) return false;
    st->done = true;

    chisel_work w = {.stop = &r->stop, .d2 = r->mz == 1};
    w.px = r->mx + 2;
    w.py = r->my + 2;
    w.pz = w.d2 ? 1 : r->mz + 2;
    w.cells = w.px * w.py * w.pz;
    w.off[0] = 1, w.off[1] = -1, w.off[2] = w.px, w.off[3] = -w.px;
    w.ndir = 4;
    if (!w.d2) w.off[4] = w.px * w.py, w.off[5] = -w.px * w.py, w.ndir = 6;
    ring_table(w.groups);

    bool ok = work_alloc(&w), changed = false;
    int32_t *order = NULL;
    if (!ok) goto done;
    int64_t count = 0;
    for (int32_t i = 0; i < r->cells; i++) {
        uint8_t v = r->state[i];
        w.nkeys += gen_in_wave(ch->keys, v);
        count += gen_in_wave(ch->on, v) && !gen_in_wave(ch->keys, v);
    }
    if (w.nkeys == 0 || count == 0) goto done; /* nothing to join, or nothing to close */
    w.keylist = mem_malloc((size_t)w.nkeys * sizeof(int32_t));
    w.compkeys = mem_malloc((size_t)w.nkeys * sizeof(int32_t));
    order = mem_malloc((size_t)count * sizeof *order);
    if (!(ok = w.keylist && w.compkeys && order)) goto done;
    int32_t k = 0;
    int64_t m = 0;
    for (int32_t i = 0; i < r->cells; i++) {
        uint8_t v = r->state[i];
        int32_t p = padded_index(&w, i % r->mx, i / r->mx % r->my, i / (r->mx * r->my));
        if (gen_in_wave(ch->keys, v)) {
            w.cell[p] = CHISEL_OPEN | CHISEL_KEY;
            w.keylist[k++] = p;
        } else if (gen_in_wave(ch->on, v)) {
            w.cell[p] = CHISEL_OPEN;
            order[m++] = p;
        }
    }
    w.open = count;
    w.target = -1;
    for (int64_t i = 0; i < count; i++) { /* a random order (Fisher-Yates, one draw per cell) */
        if (stop_requested_at(&r->stop, i)) goto done;
        int64_t j = i + rng_next_max(&r->random, (int32_t)(count - i));
        int32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    if (w.d2 && !(ok = (w.uf = mem_malloc((size_t)w.cells * sizeof *w.uf)) != NULL)) goto done;
    if (!(w.d2 ? chisel_plane(&w, order, count, ch->keep) : chisel_cells(&w, order, count, ch->keep))) goto done;

    for (int32_t i = 0; i < r->cells; i++) {
        uint8_t v = r->state[i];
        if (!gen_in_wave(ch->on, v) || gen_in_wave(ch->keys, v)) continue;
        int32_t p = padded_index(&w, i % r->mx, i / r->mx % r->my, i / (r->mx * r->my));
        int value = is_open(&w, p) ? ch->value : ch->close;
        if (value < 0 || value == v) continue;
        r->state[i] = (uint8_t)value;
        run_change(r, i);
        changed = true;
    }
done:
    mem_free(order);
    work_free(&w);
    if (!ok) r->out_of_memory = true;
    if (changed) r->acting_node = n->id;
    return changed;
}

const node_kind node_kind_chisel = {
    .name = "chisel",
    .beyond_reference = true,
    .is_branch = false,
    .load = chisel_load,
    .free = chisel_free,
    .state_new = chisel_state_new,
    .state_free = chisel_state_free,
    .reset = chisel_reset,
    .go = chisel_go,
};
