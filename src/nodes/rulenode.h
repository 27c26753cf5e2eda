/* rulenode.h — what `one`, `all` and `prl` share: rules, step limit and match scanning. */
#ifndef SMALTI_RULENODE_H
#define SMALTI_RULENODE_H
#include "nodes.h"
#include "../core/rule.h"
#include "../engine/run.h"
#include "field.h"
#include "observe.h"
#include "search.h"
#include "../core/mem.h"
#include <string.h>

/* One (rule, shift) pair: a cell of value v changed at (x,y,z) may be the
   shifted cell of a match with its corner at (x-dx, y-dy, z-dz). */
/* A cell the incremental scan tests: offset and wave of a rule_cell, without its shift, so that a
   pool cell stays 16 bytes (a big node's pool holds a copy of a rule's cells per shift). */
typedef struct pool_cell {
    wave_bits wave;
    int32_t offset;
} pool_cell;

typedef struct shift_entry {
    int32_t offset;          /* dx + dy*MX + dz*MX*MY */
    int32_t rule;
    /* The rule's input cells other than the shifted one (whose value is
       known to fit): cells[0 .. count) of the node's cell pool. */
    int32_t cells, count;
    int32_t xmax, ymax, zmax; /* the largest corner that keeps the rule inside */
    int16_t dx, dy, dz;
} shift_entry;

/* A changed cell of value v at (x,y,z) inside box[v] (lo <= x,y,z <= lo + span per axis) has
   all of v's shift entries inside the grid, so the scan tests no bounds for it. When no cell
   has, the box lies outside the grid. On a flat grid (MZ 1) every box spans z 0 only. */
typedef struct shift_box {
    int32_t lo[3];
    uint32_t span[3];
} shift_box;

typedef struct rulenode {
    node base;
    rule **rules;
    int rule_count;
    /* All rules' shifts by value, rule-major as the reference visits them:
       shifts[shift_start[v] .. shift_start[v+1]). */
    int *shift_start;
    shift_entry *shifts;
    pool_cell *cell_pool;
    shift_box *boxes;    /* by value */
    bool earlier_any;    /* some value has RULENODE_EARLIER_MIN shift entries or more */
    int32_t most_shifts; /* the most shift entries a value has */
    /* i / MX and i / (MX*MY) as (i * div) >> 63, exact for 0 <= i < 2^31. */
    uint64_t div_mx, div_plane;
    int steps;           /* 0: no limit */
    double temperature;
    bool uses_mask;      /* one/all remember found matches per rule and cell */
    int rule_bits;       /* bits of a packed match that hold the rule index */
    /* Fields and inference (NULL/0 when the node has none). */
    field *fields;       /* fields[field_of[v]] guides value v */
    int field_count;
    int8_t field_of[GRID_MAX_VALUES];
    bool inversed[GRID_MAX_VALUES];
    observation *observations; /* by value, or NULL */
    bool search;
    int search_limit;
    double depth_coefficient;
    potential_rules potential_rules;
    /* Matches are chosen by potentials: the node has fields, or observations
       without search. delta[ri][0 .. delta_count[ri]) are the cells rule ri
       changes. */
    bool uses_potentials;
    delta_cell **delta;
    int *delta_count;
} rulenode;


/* A found match, packed as (corner index << rule_bits) | rule index: four
   bytes, because `one` draws from long lists at random and the list's cache
   footprint is what limits its speed. */
typedef uint32_t match;

typedef struct keyed_match {
    int32_t index;
    double key;
} keyed_match;

typedef struct rulenode_state {
    int counter;
    long last_matched_turn;  /* -1: scan the whole grid next time */
    match *matches;
    int32_t match_count, match_cap;
    /* Found matches, a bit each, cell-major: the bit of rule ri at corner `at` is the packed
       match itself, (at << rule_bits) | ri, so that the few rules a changed cell can start
       share one or two words. `words` words in all. */
    uint64_t *mask;
    int64_t words;
    int mask_bits;           /* the node's rule_bits */
    uint8_t *newstate;       /* prl: values being written this step */
    int32_t *order;          /* all: shuffled match order, room for order_cap */
    int32_t order_cap;
    /* Potentials by value (NULL rows read as 0) over `potential_block`: GRID_MAX_VALUES rows,
       allocated on first use (most nodes have no field or observation). */
    int32_t **potentials;
    int32_t *potential_block;
    int32_t *field_queue;
    uint8_t *field_borders;
    observe_goal future;     /* the observed goal: allowed values per cell (future.was NULL until observed) */
    bool future_computed;
    int32_t goal_hint;       /* a cell that missed the goal at the last look */
    potential_scratch scratch; /* kept between goals: a node may compute many */
    bool has_trajectory;     /* search found a plan: the node replays it */
    search_result trajectory;
    keyed_match *keyed;      /* all: matches ordered by potential */
    /* one: how its incremental scans went lately, to choose how to test candidates (one_plain.c). */
    uint32_t scan_tried, scan_kept;
    bool scan_branch_free;
    int32_t probe_found;     /* rulenode_nothing_new's count */
    bool probe_futile;       /* its check found something once: this node's long scans find matches */
} rulenode_state;

static inline match match_pack(const rulenode *rn, int ri, int32_t at) { return ((uint32_t)at << rn->rule_bits) | (uint32_t)ri; }
static inline int match_rule(const rulenode *rn, match m) { return (int)(m & ((1u << rn->rule_bits) - 1)); }
static inline int32_t match_at(const rulenode *rn, match m) { return (int32_t)(m >> rn->rule_bits); }

typedef void (*rulenode_add_fn)(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at);

node *rulenode_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry, const node_kind *kind, size_t size);
void rulenode_free(node *n);
/* The node's <field> and <observe> children and search attributes. */
bool rulenode_load_inference(loader *ld, rulenode *rn, const xmlNode *el);
void rulenode_free_inference(rulenode *rn);
void *rulenode_state_new(const node *n, const grid_def *g);
void rulenode_state_free(void *state);
void rulenode_reset(run_state *r, const node *n, void *state);
long rulenode_oldest_turn(const void *state);
/* What the model's changes can be (rulenode_once.c): changes_to[a] bit b when some rule may change
   a cell from a to b; false when some node is neither a branch nor a rule node without search. */
bool rulenode_model_changes(const node *const *nodes, int count, wave_bits changes_to[GRID_MAX_VALUES]);
/* Whether rn finds each match at most once while it is listed, under those changes. */
bool rulenode_finds_once(const rulenode *rn, const wave_bits changes_to[GRID_MAX_VALUES]);

static inline uint64_t mask_bit(const rulenode_state *st, int ri, int32_t at) { return ((uint64_t)(uint32_t)at << st->mask_bits) | (uint64_t)ri; }
static inline bool mask_get(const rulenode_state *st, int ri, int32_t at)
{
    uint64_t b = mask_bit(st, ri, at);
    return (st->mask[b >> 6] >> (b & 63)) & 1;
}
static inline void mask_set(rulenode_state *st, int ri, int32_t at)
{
    uint64_t b = mask_bit(st, ri, at);
    st->mask[b >> 6] |= (uint64_t)1 << (b & 63);
}
static inline void mask_clear(rulenode_state *st, int ri, int32_t at)
{
    uint64_t b = mask_bit(st, ri, at);
    st->mask[b >> 6] &= ~((uint64_t)1 << (b & 63));
}
static inline __attribute__((always_inline)) void rulenode_add_match(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at)
{
    if (st->mask) mask_set(st, ri, at);
    if (st->match_count == st->match_cap) {
        /* One failed allocation ends the run: the rest of the scan must not retry it at every match. */
        if (r->out_of_memory) return;
        int32_t cap = st->match_cap * 2;
        match *bigger = mem_realloc(st->matches, (size_t)cap * sizeof *bigger);
        if (!bigger) { r->out_of_memory = true; return; }
        st->matches = bigger;
        st->match_cap = cap;
    }
    st->matches[st->match_count] = match_pack(rn, ri, at);
    st->match_count++;
}

static inline int32_t rulenode_div(int32_t i, uint64_t div) { return (int32_t)(((unsigned __int128)(uint32_t)i * div) >> 63); }

/* The coordinates of cell i of an MX x MY x MZ grid (xyz), and whether it lies inside value v's
   box (rulenode.boxes), where none of v's shift entries needs a bounds test. */
static inline __attribute__((always_inline)) bool rulenode_cell_inside(const rulenode *rn, int MX, int MY, int MZ, int32_t i, uint8_t v,
                                                                      int xyz[3])
{
    const shift_box *box = &rn->boxes[v];
    if (MZ == 1) {
        xyz[2] = 0;
        xyz[1] = rulenode_div(i, rn->div_mx);
        xyz[0] = i - xyz[1] * MX;
        return (unsigned)(xyz[0] - box->lo[0]) <= box->span[0] && (unsigned)(xyz[1] - box->lo[1]) <= box->span[1];
    }
    xyz[2] = rulenode_div(i, rn->div_plane);
    const int32_t rest = i - xyz[2] * MX * MY;
    xyz[1] = rulenode_div(rest, rn->div_mx);
    xyz[0] = rest - xyz[1] * MX;
    return (unsigned)(xyz[0] - box->lo[0]) <= box->span[0] && (unsigned)(xyz[1] - box->lo[1]) <= box->span[1] &&
           (unsigned)(xyz[2] - box->lo[2]) <= box->span[2];
}

/* Whether the shifted corner si of entry e matches: its other cells fit and its mask bit is
   clear. Without branches on the cells' values, which are random in a growing pattern; the mask
   is read only for a corner that fits (the caller branches on the answer anyway), which spares
   its word in the common case of a changed cell that a wildcard position shifts to a corner that
   does not fit. */
static inline __attribute__((always_inline)) bool rulenode_entry_fits(const rulenode *rn, const rulenode_state *st,
                                                                     const shift_entry *e, const uint8_t *state, int32_t si)
{
    unsigned fits = 1;
    for (const pool_cell *c = rn->cell_pool + e->cells, *c_end = c + e->count; c < c_end; c++)
        fits &= (c->wave >> state[si + c->offset]) & 1;
    return fits && !mask_get(st, e->rule, si);
}

/* A changed cell whose value has this many shift entries or more skips those whose match holds a
   neighbour scanned before it in the same scan (rulenode_scan_changes). */
#define RULENODE_EARLIER_MIN 16

/* Look for matches of every rule around the cells changed since this node
   last matched, in the order the changes were made. A node with a match mask (one, all) marks
   the cells it scans in the run's cell marks (run_state.mask, all zero between steps, cleared
   again at the end): a match whose box holds the cell at x - 1 or y - 1 of the changed cell, when
   that cell was scanned before, was tested then or cannot fit (the state has not changed since,
   that cell's entries hold every match that accepts its value there, and a found match is in the
   mask), so it would add nothing now, and its entry is skipped (one_plain.c's plain_earlier). */
static inline __attribute__((always_inline)) void rulenode_scan_changes_with(run_state *r, const rulenode *rn, rulenode_state *st,
                                                                            rulenode_add_fn add, uint8_t *const marks)
{
    const int MX = r->mx, MZ = r->mz;
    const uint8_t *state = r->state;
    bool marked = false;
    const int64_t start = run_first(r, st->last_matched_turn), end = run_changes_end(r);
    for (int64_t n = start; n < end; n++) {
        if (stop_requested_at(&r->stop, n)) break;
        const int32_t i = run_change_at(r, n);
        const uint8_t value = state[i];
        const shift_entry *e = rn->shifts + rn->shift_start[value], *e_end = rn->shifts + rn->shift_start[value + 1];
        int xyz[3];
        const bool inside = rulenode_cell_inside(rn, MX, r->my, MZ, i, value, xyz);
        const int x = xyz[0], y = xyz[1], z = xyz[2];
        if (marks && e_end - e >= RULENODE_EARLIER_MIN) {
            /* d >= 0, so d & skip is not 0 exactly when that neighbour was scanned and d > 0. */
            const int skip_x = i > 0 && marks[i - 1] ? INT16_MAX : 0, skip_y = i >= MX && marks[i - MX] ? INT16_MAX : 0;
            marks[i] = 1;
            marked = true;
            if (skip_x | skip_y) {
                for (; e < e_end; e++) {
                    if ((e->dx & skip_x) | (e->dy & skip_y)) continue;
                    if (!inside && ((unsigned)(x - e->dx) > (unsigned)e->xmax || (unsigned)(y - e->dy) > (unsigned)e->ymax ||
                                    (unsigned)(z - e->dz) > (unsigned)e->zmax))
                        continue;
                    int32_t si = i - e->offset;
                    if (rulenode_entry_fits(rn, st, e, state, si)) add(r, rn, st, e->rule, si);
                }
                continue;
            }
        }
        if (inside) {
            for (; e < e_end; e++) {
                int32_t si = i - e->offset;
                if (rulenode_entry_fits(rn, st, e, state, si)) add(r, rn, st, e->rule, si);
            }
            continue;
        }
        for (; e < e_end; e++) {
            /* One unsigned compare per axis tests both ends. */
            if ((unsigned)(x - e->dx) > (unsigned)e->xmax || (unsigned)(y - e->dy) > (unsigned)e->ymax ||
                (unsigned)(z - e->dz) > (unsigned)e->zmax)
                continue;
            int32_t si = i - e->offset;
            if (rulenode_entry_fits(rn, st, e, state, si)) add(r, rn, st, e->rule, si);
        }
    }
    if (marked)
        for (int64_t n = start; n < end; n++) marks[run_change_at(r, n)] = 0;
}

/* Whether a whole-grid check shows that the changes since the node last matched, many (a few
   shift entries tried per grid cell), hold no new match (rulenode_probe.c); false when the check
   does not apply. */
bool rulenode_nothing_new(run_state *r, const rulenode *rn, rulenode_state *st);

static inline __attribute__((always_inline)) void rulenode_scan_changes(run_state *r, const rulenode *rn, rulenode_state *st, rulenode_add_fn add)
{
    if (st->mask && rn->earlier_any) rulenode_scan_changes_with(r, rn, st, add, r->mask);
    else rulenode_scan_changes_with(r, rn, st, add, NULL);
}

/* Grow the match list of a scan that keeps its count and room in locals, as rulenode_add_match
   grows it (twice the room); false, with the run out of memory, when it cannot. */
static inline bool rulenode_grow_matches(run_state *r, rulenode_state *st)
{
    if (r->out_of_memory || st->match_cap > INT32_MAX / 2) {
        r->out_of_memory = true;
        return false;
    }
    const int32_t cap = st->match_cap * 2;
    match *bigger = mem_realloc(st->matches, (size_t)cap * sizeof *bigger);
    if (!bigger) {
        r->out_of_memory = true;
        return false;
    }
    st->matches = bigger;
    st->match_cap = cap;
    return true;
}

/* Cells [from, to) of a one-cell rule's scan with rulenode_add_match's work done in place (with
   the mask's bits when `masked`): the same matches in the same order, and the same bits. The list,
   its count and room stay in locals, which the stores to the list could alias through st, so
   rulenode_add_match's loads and stores of st made a chain through memory from match to match.
   The cells go in blocks whose matches' bits share a mask word (a match's bit grows with its
   cell): with room in the list for the whole block, each cell is appended without a branch (kept
   when it fits) and its bit gathered in a register; else cell by cell, the list growing only for
   a match, as rulenode_add_match grows it. */
static inline __attribute__((always_inline)) void rulenode_scan_one_cell_range(run_state *r, const rulenode *rn, rulenode_state *st, int ri,
                                                                              wave_bits wave, int32_t from, int32_t to, bool masked)
{
    const uint8_t *const state = r->state;
    uint64_t *const mask = st->mask;
    const int bits = rn->rule_bits;
    const uint32_t step = 1u << bits;
    const int32_t per_word = bits < 6 ? 64 >> bits : 1;
    match *list = st->matches;
    int32_t count = st->match_count, room = st->match_cap;
    for (int32_t i = from; i < to;) {
        const int32_t block_end = (i | (per_word - 1)) + 1 < to ? (i | (per_word - 1)) + 1 : to;
        match m = ((uint32_t)i << bits) | (uint32_t)ri;
        const uint64_t word_at = m >> 6;
        uint64_t word = 0;
        if (room - count >= block_end - i) {
            for (; i < block_end; i++, m += step) {
                const uint64_t fits = (wave >> state[i]) & 1;
                list[count] = m;
                count += (int32_t)fits;
                word |= fits << (m & 63);
            }
        } else {
            for (; i < block_end; i++, m += step) {
                const uint64_t fits = (wave >> state[i]) & 1;
                if (!fits) continue;
                if (count == room) {
                    st->match_count = count;
                    if (!rulenode_grow_matches(r, st)) {
                        if (masked) mask[word_at] |= word;
                        return;
                    }
                    list = st->matches;
                    room = st->match_cap;
                }
                list[count++] = m;
                word |= (uint64_t)1 << (m & 63);
            }
        }
        if (masked) mask[word_at] |= word;
    }
    st->match_count = count;
}

/* A one-cell rule's scan for rulenode_add_match, in runs of STOP_ITEMS cells between stop checks. */
static inline __attribute__((always_inline)) void rulenode_scan_one_cell_listed(run_state *r, const rulenode *rn, rulenode_state *st, int ri,
                                                                               wave_bits wave)
{
    for (int32_t from = 0; from < r->cells; from += STOP_ITEMS) {
        if (r->out_of_memory || stop_requested(&r->stop)) return;
        const int32_t to = r->cells - from > STOP_ITEMS ? from + STOP_ITEMS : r->cells;
        if (st->mask) rulenode_scan_one_cell_range(r, rn, st, ri, wave, from, to, true);
        else rulenode_scan_one_cell_range(r, rn, st, ri, wave, from, to, false);
    }
}

/* Scan one rule cell by cell over its lattice (for rules wider than a word). */
static inline __attribute__((always_inline)) void rulenode_scan_rule_cells(run_state *r, const rulenode *rn, rulenode_state *st, int ri, rulenode_add_fn add)
{
    const int MX = r->mx, MY = r->my, MZ = r->mz;
    const int32_t plane = MX * MY;
    const uint8_t *state = r->state;
    {
        const rule *rl = rn->rules[ri];
        const int imx = rl->imx, imy = rl->imy, imz = rl->imz;
        if (imx == 1 && imy == 1 && imz == 1) {
            /* Every cell is a lattice cell and the only shift is (0,0,0). */
            const wave_bits wave = rl->input[0];
            if (add == rulenode_add_match) {
                rulenode_scan_one_cell_listed(r, rn, st, ri, wave);
                return;
            }
            for (int32_t from = 0; from < r->cells; from += STOP_ITEMS) {
                if (r->out_of_memory || stop_requested(&r->stop)) return;
                const int32_t to = r->cells - from > STOP_ITEMS ? from + STOP_ITEMS : r->cells;
                for (int32_t i = from; i < to; i++)
                    if ((wave >> state[i]) & 1) add(r, rn, st, ri, i);
            }
            return;
        }
        const int *start = rl->ishift_start;
        const int16_t(*shifts)[3] = rl->ishifts;
        const int32_t *offsets = rl->ishift_offsets;
        const wave_bits present = rl->input_union;
        /* Lattice cells start at imx-1 (and so on), so x - dx >= 0 always
           holds; only lattice cells past xmax (ymax, zmax) need a test. */
        const int xmax = MX - imx, ymax = MY - imy, zmax = MZ - imz;
        for (int z = imz - 1; z < MZ; z += imz)
            for (int y = imy - 1; y < MY; y += imy) {
                if (r->out_of_memory || stop_check(&r->stop, MX)) return; /* the work of a row: its cells */
                const int32_t row_index = y * MX + z * plane;
                const uint8_t *row = state + row_index;
                const bool row_inside = y <= ymax && z <= zmax;
                for (int x = imx - 1; x < MX; x += imx) {
                    uint8_t value = row[x];
                    if (!((present >> value) & 1)) continue;
                    const int32_t index = row_index + x;
                    if (row_inside && x <= xmax) {
                        for (int l = start[value], end = start[value + 1]; l < end; l++) {
                            int32_t si = index - offsets[l];
                            if (rule_matches(rl, state, si)) add(r, rn, st, ri, si);
                        }
                        continue;
                    }
                    for (int l = start[value], end = start[value + 1]; l < end; l++) {
                        int sx = x - shifts[l][0], sy = y - shifts[l][1], sz = z - shifts[l][2];
                        if (sx > xmax || sy > ymax || sz > zmax) continue;
                        int32_t si = index - offsets[l];
                        if (rule_matches(rl, state, si)) add(r, rn, st, ri, si);
                    }
                }
            }
    }
}

/* Scan one rule with the bitplanes: per lattice row, the corners where the
   rule matches come out 64 at a time; they are visited in the reference's
   order (lattice cell, then shifts in z,y,x order, i.e. corners descending).
   With `found` (a count that `add` raises), the scan ends once it is above 0. */
static inline __attribute__((always_inline)) void rulenode_scan_rule_planes_until(run_state *r, const rulenode *rn, rulenode_state *st, int ri,
                                                                                 rulenode_add_fn add, const int32_t *found)
{
    const rule *rl = rn->rules[ri];
    const int MX = r->mx, MY = r->my, MZ = r->mz, imx = rl->imx, imy = rl->imy, imz = rl->imz;
    const int32_t plane = MX * MY;
    const int words = r->planes.words, xmax = MX - imx;
    if (imx > MX || imy > MY || imz > MZ) return; /* the rule cannot fit anywhere */
    const int64_t band_words = (int64_t)imy * imz * words;
    uint64_t *band = planes_scratch(r, band_words + 2 * words);
    if (!band) { r->out_of_memory = true; return; }
    uint64_t *any = band + band_words;
    for (int lz = imz - 1; lz < MZ; lz += imz)
        for (int ly = imy - 1; ly < MY; ly += imy) {
            if (r->out_of_memory || stop_check(&r->stop, MX)) return; /* the work of a row: its cells */
            if (!planes_band(r, rl, lz, ly, band, any)) continue;
            int next = 0;
            for (int w = 0; w < words; w++)
                for (uint64_t bits = any[w]; bits; bits &= bits - 1) {
                    int sx = w * 64 + __builtin_ctzll(bits);
                    if (sx < next) continue;
                    int lx = (sx / imx) * imx + imx - 1;
                    next = lx + 1;
                    for (int dz = 0; dz < imz; dz++)
                        for (int dy = 0; dy < imy; dy++) {
                            const uint64_t *m = band + (int64_t)(dz * imy + dy) * words;
                            for (int dx = 0; dx < imx; dx++) {
                                int cx = lx - dx;
                                if (cx < 0 || cx > xmax || !((m[cx >> 6] >> (cx & 63)) & 1)) continue;
                                add(r, rn, st, ri, cx + (ly - dy) * MX + (lz - dz) * plane);
                                if (found && *found > 0) return;
                            }
                        }
                }
        }
}

static inline __attribute__((always_inline)) void rulenode_scan_rule_planes(run_state *r, const rulenode *rn, rulenode_state *st, int ri, rulenode_add_fn add)
{
    rulenode_scan_rule_planes_until(r, rn, st, ri, add, NULL);
}

/* The cells holding each value, counted once per whole-grid scan and shared by its rules: per
   value, how many (at most the anchor limit and one; -1 until counted) and, when counted, where
   (ascending). rulenode_anchors_free releases the lists. */
typedef struct rulenode_anchors {
    int32_t counts[GRID_MAX_VALUES];
    int32_t *cells[GRID_MAX_VALUES];
} rulenode_anchors;

static inline void rulenode_anchors_init(rulenode_anchors *a)
{
    for (int v = 0; v < GRID_MAX_VALUES; v++) {
        a->counts[v] = -1;
        a->cells[v] = NULL;
    }
}
void rulenode_anchors_free(rulenode_anchors *a);

/* Scan rule ri of the whole grid from the cells holding the value of its rarest single-valued
   input cell, when few enough hold it, adding the matches in the lattice scan's order; false
   (nothing added) when none is rare enough. */
bool rulenode_scan_rule_anchored(run_state *r, const rulenode *rn, rulenode_state *st, int ri, rulenode_add_fn add, rulenode_anchors *anchors);

static inline __attribute__((always_inline)) void rulenode_scan_all(run_state *r, const rulenode *rn, rulenode_state *st, rulenode_add_fn add)
{
    st->match_count = 0;
    rulenode_anchors found;
    rulenode_anchors_init(&found);
    bool synced = false;
    /* Anchors save building the bitplanes; once built and current, bringing them up to date is
       cheaper than counting a value over the grid (a node reset in a loop scans again and again). */
    const bool anchors = !r->planes.bits || !r->planes.valid;
    for (int ri = 0; ri < rn->rule_count && !r->out_of_memory; ri++) {
        if (anchors && rulenode_scan_rule_anchored(r, rn, st, ri, add, &found)) continue;
        const rule *rl = rn->rules[ri];
        /* A one-cell rule tests each cell once either way, in the same order: without current
           bitplanes its scan needs neither building them (a pass and their memory) nor their
           per-corner bookkeeping. */
        if (!synced && anchors && rl->imx == 1 && rl->imy == 1 && rl->imz == 1) {
            rulenode_scan_rule_cells(r, rn, st, ri, add);
            continue;
        }
        if (!synced) {
            planes_sync(r);
            synced = true;
            if (r->out_of_memory) break;
        }
        if (planes_fit(rn->rules[ri])) rulenode_scan_rule_planes(r, rn, st, ri, add);
        else rulenode_scan_rule_cells(r, rn, st, ri, add);
    }
    rulenode_anchors_free(&found);
}

/* The shared first half of a step: the step limit, then collecting matches
   (incrementally from the changes since this node last matched, or by a
   full scan). Returns false when the node cannot act. Inlined into each
   node kind so that its `add` is a direct call in the hot loops. */
/* Inference before the scan: compute the goal and, once per goal, the
   backward potentials or the search plan. False when the node cannot act. */
bool rulenode_observe(run_state *r, const rulenode *rn, rulenode_state *st);
/* Fields after the scan: false when an essential field (or every field
   computed) has no zero cell. */
bool rulenode_compute_fields(run_state *r, const rulenode *rn, rulenode_state *st);
/* Replay the next state of the search plan (the reference copies it over
   the grid without logging). False at the end of the plan. */
bool rulenode_replay(run_state *r, rulenode_state *st);

static inline __attribute__((always_inline)) bool rulenode_go(run_state *r, const rulenode *rn, rulenode_state *st, rulenode_add_fn add)
{
    if (rn->steps > 0 && st->counter >= rn->steps) return false;
    if (rn->observations && !st->future_computed && !rulenode_observe(r, rn, st)) return false;
    if (st->last_matched_turn < 0) rulenode_scan_all(r, rn, st, add);
    else if (!rulenode_nothing_new(r, rn, st)) rulenode_scan_changes(r, rn, st, add);
    if (stop_said(&r->stop)) return false; /* an interrupted scan: the run stops */
    if (rn->fields && !rulenode_compute_fields(r, rn, st)) return false;
    return true;
}

#endif
