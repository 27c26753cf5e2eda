/* one_plain.c — the fast path of a plain `one` node (no fields, observations or plan): compact
   tables built at load, and the step that the node makes once (go) or many times in a row (repeat). */
#include "one_plain.h"
#include <stdint.h>
#include <string.h>

/* A cell to test: grid offset from the corner (a rule's test) or from the changed cell (a shift entry's), and the values it accepts. */
typedef struct plain_cell {
    int32_t offset;
    uint32_t wave; /* half a wave_bits: one_plain_suits takes grids of at most 32 values, which keeps a cell 8 bytes */
} plain_cell;

/* The first two cells of a test are inline, offsets from the test's origin (the changed cell of a
   shift entry, the corner of a rule); the rest, if any, are pool[more .. more+more_count), offsets
   from the corner, so that the shift entries of one rule share them. An unused inline cell tests
   the origin against every value, so it always passes. d: a shift entry's shift (dx, dy, dz), for
   the bounds test near the edges; unused in a rule's test. */
typedef struct plain_test {
    plain_cell a, b;
    int32_t more;
    int16_t more_count, d[3];
} plain_test;

/* Rules with more cells than this keep the generic path (more_count is 16 bits). */
#define PLAIN_MAX_CELLS (INT16_MAX + 2)

/* The most values a plain node's grid has: plain_cell's waves are 32 bits. */
#define PLAIN_MAX_VALUES 32

/* A shift entry of rulenode.shifts (same index): the packed match of changed cell i is
   (i << rule_bits) - moff, and the rule's other cells, their offsets from the changed cell. */
typedef struct plain_entry {
    uint32_t moff; /* (corner offset << rule_bits) - rule, modulo 2^32 */
    plain_test test;
} plain_entry;

/* A rule's test of a drawn match: its first three cells inline (a maze's rules have three, and
   a stale draw is a coin toss, so one branch on all three beats one per cell), the rest in the
   pool. An unused cell tests the corner against every value. */
typedef struct plain_rule {
    plain_test test;          /* the first two cells and the pool's */
    plain_cell c;             /* the third */
    int32_t write, write_count; /* writes[write .. write+write_count) */
} plain_rule;

typedef struct plain_write {
    int32_t offset;
    int32_t value;
} plain_write;

/* A changed cell whose value has this many shift entries or more is asked which of its neighbours
   were scanned before it (plain_earlier): fewer entries cost less to test than to skip. At 12 a
   wall's new cells in BasicPartitioning (a 2x3 rule's four turns) skip about half their entries. */
#define PLAIN_EARLIER_MIN 12
#define PLAIN_EARLIER_FUSED_MIN 16

/* How the entries of a value's changed cell are tested: each has at most one other cell to test
   (PLAIN_TEST_ONE), at most two (PLAIN_TEST_TWO, inline), or more. */
enum { PLAIN_TEST_ONE, PLAIN_TEST_TWO, PLAIN_TEST_MORE };

struct one_plain {
    /* The node finds each match at most once while it is listed (rulenode_finds_once), so the
       fused loop neither tests nor keeps its match mask: the other paths still keep it, and the
       bits they leave set are never asked about again. */
    bool unmasked;
    bool three;          /* some rule has a third cell, which plain_rule_fits must test */
    bool later_any;      /* some value has the lists of `later` */
    /* and some value has PLAIN_EARLIER_FUSED_MIN entries or more and some rule writes two cells or
       more: the node's own fused loop, whose scans see one step's changes each, skips by the lists
       (a node of one-cell writes or of shorter lists would only pay for the marks there: MazeTrail's
       12 entries a value, 7 % more instructions). */
    bool later_fused;
    /* No rule writes a value that has shift entries: the node's own changes give it no match, and
       its fused loop skips scanning them. */
    bool quiet;
    uint8_t test_size[PLAIN_MAX_VALUES];
    uint32_t scanned;    /* bit v: value v has shift entries (a changed cell holding it is scanned) */
    /* The fast loops look at a stop when (steps made & stop_mask) is 0: every 64 steps (63), or
       every step (0) for a node of many rules, whose scan of one changed cell tries STOP_ITEMS / 64
       rule shifts or more; each look counts scan_units, the most a cell's scan tries, toward the
       clock read (stop_tick). So a step of 30,000 rules is not 64 steps from a deadline, and a
       node of a few rules pays nothing more in its steps. */
    uint32_t stop_mask;
    int64_t scan_units;
    uint32_t rule_mask;
    int32_t (*top)[3];   /* per rule: the largest corner that keeps it inside, per axis */
    plain_entry *entries;
    plain_rule *rules;
    plain_cell *pool;
    plain_write *writes;
    /* For a value of PLAIN_EARLIER_MIN entries or more (plain_later_listed), those whose match
       leaves out the changed cell's neighbour at x - 1 (dx 0; list 0), at y - 1 (dy 0; list 1), or
       both (list 2), as indices from the value's first entry, in the entries' order: list l of
       value v is later[later_start[l][v] .. later_start[l][v+1]). Empty for the other values;
       both NULL when every list is empty (most nodes: a node keeps its memory small). */
    uint16_t *later;
    int32_t (*later_start)[PLAIN_MAX_VALUES + 1]; /* [3] */
};

void one_plain_set_unmasked(one_plain *p, bool unmasked) { p->unmasked = unmasked; }

bool one_plain_is_quiet(const one_plain *p) { return p->quiet; }

void one_plain_free(one_plain *p)
{
    if (!p) return;
    mem_free(p->entries);
    mem_free(p->rules);
    mem_free(p->pool);
    mem_free(p->writes);
    mem_free(p->top);
    mem_free(p->later);
    mem_free(p->later_start);
    mem_free(p);
}

/* Whether shift entry e of a changed cell at (x, y, z) has its corner inside the grid: one
   unsigned compare per axis tests both ends. */
static inline bool plain_inside(const one_plain *p, const plain_entry *e, int x, int y, int z)
{
    const int32_t *top = p->top[(0u - e->moff) & p->rule_mask];
    return (unsigned)(x - e->test.d[0]) <= (unsigned)top[0] && (unsigned)(y - e->test.d[1]) <= (unsigned)top[1] &&
           (unsigned)(z - e->test.d[2]) <= (unsigned)top[2];
}

/* Fill t from cells[0 .. count), their offsets less `shift`, spilling past two into the pool at *used. */
static void plain_test_fill(plain_test *t, plain_cell *pool, int32_t *used, const pool_cell *cells, int count, int32_t shift)
{
    plain_cell any = {0, UINT32_MAX};
    t->a = count > 0 ? (plain_cell){cells[0].offset - shift, (uint32_t)cells[0].wave} : any;
    t->b = count > 1 ? (plain_cell){cells[1].offset - shift, (uint32_t)cells[1].wave} : any;
    t->more_count = (int16_t)(count > 2 ? count - 2 : 0);
    t->d[0] = t->d[1] = t->d[2] = 0;
    t->more = *used;
    if (pool) for (int k = 2; k < count; k++) pool[(*used)++] = (plain_cell){cells[k].offset, (uint32_t)cells[k].wave};
    else *used += t->more_count;
}

/* The values the node's rules write over: a listed match goes stale only where a cell it needs
   held one of them (a value no rule writes over stays). */
static wave_bits plain_overwritten(const rulenode *rn)
{
    wave_bits over = 0;
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        for (int k = 0, cells = rl->omx * rl->omy * rl->omz; k < cells; k++)
            if (rl->output[k] != RULE_KEEP) over |= rl->input[k] & ~((wave_bits)1 << rl->output[k]);
    }
    return over;
}

/* The same for a rule's own test, from its cells (rule_compile's, which carry their shifts too):
   the test of a drawn match, most of which are stale, so the cells that may have been written
   over (a value in `over`) first; otherwise in the rule's order. order: room for its cells. */
static void plain_rule_test_fill(plain_test *t, plain_cell *pool, int32_t *used, const rule *rl, wave_bits over, plain_cell *order)
{
    const plain_cell any = {0, UINT32_MAX};
    const int count = rl->match_count;
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < count; k++)
            if (((rl->match[k].wave & over) != 0) == (pass == 0)) order[n++] = (plain_cell){rl->match[k].offset, (uint32_t)rl->match[k].wave};
    t->a = count > 0 ? order[0] : any;
    t->b = count > 1 ? order[1] : any;
    t->more_count = (int16_t)(count > 2 ? count - 2 : 0);
    t->d[0] = t->d[1] = t->d[2] = 0;
    t->more = *used;
    for (int k = 2; k < count; k++) pool[(*used)++] = order[k];
}

/* The pool cells of a shift entry: those of the last entry of its rule when they come from the
   same cells (a big rule's entries all share its cell list, rulenode.c's CELL_POOL_MAX), else new
   ones. With pool NULL, only counts them. seen_cells/seen_more: per rule, the last entry with
   pool cells (-1 at first); an entry's cells start and its count determine its list. */
static void plain_entry_fill(plain_test *t, plain_cell *pool, int32_t *used, const rulenode *rn, const shift_entry *e,
                             int32_t *seen_cells, int32_t *seen_more)
{
    if (e->count <= 2) {
        plain_test_fill(t, pool, used, rn->cell_pool + e->cells, e->count, e->offset);
        return;
    }
    if (seen_cells[e->rule] == e->cells) {
        int32_t ignored = 0;
        plain_test_fill(t, NULL, &ignored, rn->cell_pool + e->cells, e->count, e->offset);
        t->more = seen_more[e->rule];
        return;
    }
    plain_test_fill(t, pool, used, rn->cell_pool + e->cells, e->count, e->offset);
    seen_cells[e->rule] = e->cells;
    seen_more[e->rule] = t->more;
}

/* Rule rl's writes that can change their cell, appended to writes at *w. A write never changes its
   cell when the rule's input there accepts only the value written (a match is applied only while
   its input holds); such writes are left out, so that the test of whether a write changes its
   cell, which the rotations of a rule would otherwise make a coin toss (Growth's WB -> WW), goes
   one way. The writes come in the raster order of the output box (rule_compile), which is the
   input's (one_plain_suits), so each write's input wave is read from the box, not looked up among
   the input cells: a 90 x 90 rule has 8100 of each. */
static void plain_rule_writes(const rule *rl, plain_write *writes, int32_t *w)
{
    const wave_bits wildcard = wave_all(rl->c); /* an input cell that accepts anything is not tested */
    for (int p = 0, k = 0, cells = rl->omx * rl->omy * rl->omz; p < cells; p++) {
        const uint8_t v = rl->output[p];
        if (v == RULE_KEEP) continue;
        const rule_write *write = &rl->write[k++];
        const wave_bits in = rl->input[p];
        if ((in & wildcard) != wildcard && in == wave_bit(v)) continue;
        writes[(*w)++] = (plain_write){write->offset, write->value};
    }
}

bool one_plain_suits(const rulenode *rn)
{
    /* Without rules nothing would bound the grid's values by PLAIN_MAX_VALUES. */
    if (rn->fields || rn->observations || rn->rule_count == 0) return false;
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        if (rl->match_count > PLAIN_MAX_CELLS || rl->c > PLAIN_MAX_VALUES) return false;
        /* plain_rule_writes reads the input over the output box (a one node's always match) */
        if (rl->imx != rl->omx || rl->imy != rl->omy || rl->imz != rl->omz) return false;
    }
    return true;
}

/* Whether a value's entries [from, to) get the lists of one_plain.later. */
static inline bool plain_later_listed(int32_t from, int32_t to) { return to - from >= PLAIN_EARLIER_MIN && to - from <= UINT16_MAX + 1; }

/* Fill p->later and its starts from the entries; false when out of memory. */
static bool plain_later_lists(one_plain *p, const int32_t *shift_start, int values)
{
    int32_t start[3][PLAIN_MAX_VALUES + 1] = {{0}};
    for (int pass = 0; pass < 2; pass++) {
        int32_t n = 0;
        for (int l = 0; l < 3; l++)
            for (int v = 0; v < values; v++) {
                const int32_t from = shift_start[v], to = shift_start[v + 1];
                start[l][v] = n;
                for (int32_t k = from; plain_later_listed(from, to) && k < to; k++) {
                    const plain_test *t = &p->entries[k].test;
                    if ((l != 1 && t->d[0] != 0) || (l != 0 && t->d[1] != 0)) continue;
                    if (pass) p->later[n] = (uint16_t)(k - from);
                    n++;
                }
                start[l][v + 1] = n;
            }
        if (n == 0) return true; /* no lists: later_any stays false */
        if (!pass && (!(p->later = mem_malloc((size_t)n * sizeof *p->later)) || !(p->later_start = mem_malloc(sizeof start))))
            return false;
    }
    memcpy(p->later_start, start, sizeof start);
    p->later_any = true;
    return true;
}

int32_t one_plain_entry_shifts(const one_plain *p, const rulenode *rn, uint8_t v, int list, int16_t (*d)[2], int32_t room)
{
    const int32_t from = rn->shift_start[v], to = rn->shift_start[v + 1];
    if (list >= 0 && !plain_later_listed(from, to)) return -1;
    const int32_t count = list < 0 ? to - from : p->later_start ? p->later_start[list][v + 1] - p->later_start[list][v] : 0;
    for (int32_t k = 0; k < count && k < room; k++) {
        const plain_entry *e = &p->entries[from + (list < 0 ? k : p->later[p->later_start[list][v] + k])];
        d[k][0] = e->test.d[0];
        d[k][1] = e->test.d[1];
    }
    return count;
}

one_plain *one_plain_new(rulenode *rn, int values)
{
    _Static_assert(sizeof(plain_entry) <= sizeof(shift_entry), "plain entries are made in place of the shift entries");
    one_plain *p = mem_calloc(1, sizeof *p);
    if (!p) return NULL;
    int32_t entries = rn->shift_start[values], pool = 0, writes = 0;
    int32_t *seen_cells = mem_malloc((size_t)(rn->rule_count ? rn->rule_count : 1) * 2 * sizeof *seen_cells);
    if (!seen_cells) {
        mem_free(p);
        return NULL;
    }
    int32_t *seen_more = seen_cells + rn->rule_count;
    plain_test scratch;
    for (int ri = 0; ri < rn->rule_count; ri++) seen_cells[ri] = -1;
    for (int32_t k = 0; k < entries; k++) plain_entry_fill(&scratch, NULL, &pool, rn, &rn->shifts[k], seen_cells, seen_more);
    for (int ri = 0; ri < rn->rule_count; ri++) {
        pool += rn->rules[ri]->match_count;
        writes += rn->rules[ri]->write_count;
    }
    for (int v = 0; v < values; v++) {
        int most = 0;
        for (int32_t k = rn->shift_start[v]; k < rn->shift_start[v + 1]; k++)
            if (rn->shifts[k].count > most) most = rn->shifts[k].count;
        p->test_size[v] = most <= 1 ? PLAIN_TEST_ONE : most == 2 ? PLAIN_TEST_TWO : PLAIN_TEST_MORE;
        if (rn->shift_start[v + 1] > rn->shift_start[v]) p->scanned |= 1u << v;
        if (rn->shift_start[v + 1] - rn->shift_start[v] > p->scan_units) p->scan_units = rn->shift_start[v + 1] - rn->shift_start[v];
    }
    p->stop_mask = p->scan_units >= STOP_ITEMS / STOP_CLOCK_EVERY ? 0 : 63;
    p->rules = mem_malloc((size_t)(rn->rule_count ? rn->rule_count : 1) * sizeof *p->rules);
    p->pool = mem_malloc((size_t)(pool ? pool : 1) * sizeof *p->pool);
    p->writes = mem_malloc((size_t)(writes ? writes : 1) * sizeof *p->writes);
    p->top = mem_calloc((size_t)(rn->rule_count ? rn->rule_count : 1), sizeof *p->top);
    p->rule_mask = (1u << rn->rule_bits) - 1;
    int most_cells = 0; /* a rule's cells in the order of its test (plain_rule_test_fill) */
    for (int ri = 0; ri < rn->rule_count; ri++)
        if (rn->rules[ri]->match_count > most_cells) most_cells = rn->rules[ri]->match_count;
    plain_cell *order = mem_malloc((size_t)(most_cells ? most_cells : 1) * sizeof *order);
    if (!p->rules || !p->pool || !p->writes || !p->top || !order) {
        mem_free(seen_cells);
        mem_free(order);
        one_plain_free(p);
        return NULL;
    }
    /* Each plain entry is written over the shift entries (it is smaller, and entry k is read
       before entry k is written, which lies below entry k+1), so that a node with many big
       rules never holds both tables: DungeonGrowth's are 1.4 MB each. */
    plain_entry *out = (plain_entry *)(void *)rn->shifts;
    int32_t used = 0;
    for (int ri = 0; ri < rn->rule_count; ri++) seen_cells[ri] = -1;
    for (int32_t k = 0; k < entries; k++) {
        shift_entry e;
        memcpy(&e, &rn->shifts[k], sizeof e);
        plain_entry pe;
        pe.moff = ((uint32_t)e.offset << rn->rule_bits) - (uint32_t)e.rule;
        plain_entry_fill(&pe.test, p->pool, &used, rn, &e, seen_cells, seen_more);
        pe.test.d[0] = e.dx;
        pe.test.d[1] = e.dy;
        pe.test.d[2] = e.dz;
        p->top[e.rule][0] = e.xmax;
        p->top[e.rule][1] = e.ymax;
        p->top[e.rule][2] = e.zmax;
        memcpy(&out[k], &pe, sizeof pe);
    }
    mem_free(seen_cells);
    int32_t w = 0;
    const wave_bits over = plain_overwritten(rn);
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        plain_rule_test_fill(&p->rules[ri].test, p->pool, &used, rl, over, order);
        p->rules[ri].c = (plain_cell){0, UINT32_MAX};
        if (rl->match_count >= 3) p->three = true;
        if (rl->match_count == 3) {
            /* The third cell inline, none in the pool (its pool cell stays, unused). */
            p->rules[ri].c = order[2];
            p->rules[ri].test.more_count = 0;
        }
        p->rules[ri].write = w;
        plain_rule_writes(rl, p->writes, &w);
        p->rules[ri].write_count = w - p->rules[ri].write;
    }
    mem_free(order);
    plain_entry *smaller = mem_realloc(out, (size_t)(entries ? entries : 1) * sizeof *smaller);
    p->entries = smaller ? smaller : out;
    rn->shifts = NULL;
    mem_free(rn->cell_pool);
    rn->cell_pool = NULL;
    /* After the cell pool is freed, so that the lists do not add to the load's peak memory. */
    if (!plain_later_lists(p, rn->shift_start, values)) {
        one_plain_free(p);
        return NULL;
    }
    for (int ri = 0; ri < rn->rule_count; ri++)
        if (p->rules[ri].write_count >= 2) p->later_fused = p->later_any;
    bool wide = false; /* a value of PLAIN_EARLIER_FUSED_MIN entries or more */
    for (int v = 0; v < values; v++) wide |= rn->shift_start[v + 1] - rn->shift_start[v] >= PLAIN_EARLIER_FUSED_MIN;
    p->later_fused &= wide;
    p->quiet = true;
    for (int32_t k = 0; k < w; k++)
        if ((p->scanned >> p->writes[k].value) & 1) p->quiet = false;
    return p;
}

/* Whether the cells of t fit at corner `at`, as 0 or 1: the two inline cells without branching
   on their values, the rest (a big rule's, which mostly fails early) one by one until one does
   not fit. The callers copy t out of its table first: their stores (bytes, matches) could alias it. */
static inline __attribute__((always_inline)) uint64_t plain_fits(plain_test t, const plain_cell *pool, const uint8_t *state, int32_t at,
                                                                 int32_t corner)
{
    const uint8_t *const here = state + at; /* the offsets index from it, with no add per cell */
    uint64_t fits = (t.a.wave >> here[t.a.offset]) & (t.b.wave >> here[t.b.offset]) & 1;
    if (__builtin_expect(t.more_count > 0, 0) && fits)
        for (const plain_cell *c = pool + t.more, *end = c + t.more_count; c < end; c++)
            if (!((c->wave >> state[corner + c->offset]) & 1)) return 0;
    return fits;
}

/* Whether drawn rule pr fits at corner `at`, as 0 or 1: its three inline cells without a branch
   (`three` false: the node's rules have at most two cells, and the third is not read). */
static inline __attribute__((always_inline)) uint64_t plain_rule_fits(const plain_rule *pr, const plain_cell *pool, const uint8_t *state,
                                                                      int32_t at, bool three)
{
    const plain_test t = pr->test;
    const uint8_t *const corner = state + at; /* the offsets index from it, with no add per cell */
    uint64_t fits = (t.a.wave >> corner[t.a.offset]) & (t.b.wave >> corner[t.b.offset]) & 1;
    if (three) fits &= pr->c.wave >> corner[pr->c.offset];
    if (__builtin_expect(t.more_count > 0, 0) && fits)
        for (const plain_cell *m = pool + t.more, *end = m + t.more_count; m < end; m++)
            if (!((m->wave >> corner[m->offset]) & 1)) return 0;
    return fits;
}

/* Room for `need` more matches. */
static bool plain_reserve(run_state *r, rulenode_state *st, int32_t need)
{
    int64_t cap = st->match_cap;
    while (cap - st->match_count < need) cap *= 2;
    if (cap > INT32_MAX) cap = INT32_MAX;
    match *bigger = cap - st->match_count >= need ? mem_realloc(st->matches, (size_t)cap * sizeof *bigger) : NULL;
    if (!bigger) { r->out_of_memory = true; return false; }
    st->matches = bigger;
    st->match_cap = (int32_t)cap;
    return true;
}

/* Test one shift entry of the changed cell i: append its match at list[count] and return the new
   count, which moved only if the match fits and was not already listed (`masked`; without the
   mask, if it fits). */
static inline __attribute__((always_inline)) int32_t plain_add(const plain_entry *entry, int32_t i, const uint8_t *state, uint64_t *mask,
                                                               match *list, int32_t count, int bits, const plain_cell *pool, bool masked)
{
    const plain_entry e = *entry;
    const match m = ((uint32_t)i << bits) - e.moff;
    if (!masked) {
        list[count] = m;
        return count + (int32_t)plain_fits(e.test, pool, state, i, (int32_t)(m >> bits));
    }
    uint64_t *word = &mask[m >> 6], w = *word;
    const uint64_t fits = ~(w >> (m & 63)) & plain_fits(e.test, pool, state, i, (int32_t)(m >> bits));
    list[count] = m;
    *word = w | fits << (m & 63);
    return count + (int32_t)fits;
}

/* Every shift entry of a changed cell far enough from the edges that none needs a bounds test.
   Kept out of line so that its loop has the registers to itself. */
static __attribute__((noinline)) int32_t plain_scan_inside(const plain_entry *e, const plain_entry *end, int32_t i, const uint8_t *state,
                                                           uint64_t *mask, match *list, int32_t count, int bits, const plain_cell *pool)
{
    for (; e < end; e++) count = plain_add(e, i, state, mask, list, count, bits, pool, true);
    return count;
}

/* plain_scan_inside with a branch on each test, which is cheaper when the tests mostly go one
   way (a maze's corridors: most neighbours do not fit). */
static __attribute__((noinline)) int32_t plain_scan_inside_branching(const plain_entry *e, const plain_entry *end, int32_t i,
                                                                     const uint8_t *state, uint64_t *mask, match *list, int32_t count,
                                                                     int bits, const plain_cell *pool)
{
    const uint8_t *const here = state + i;
    for (; e < end; e++) {
        const plain_entry en = *e;
        if (!((en.test.a.wave >> here[en.test.a.offset]) & 1) || !((en.test.b.wave >> here[en.test.b.offset]) & 1)) continue;
        const match m = ((uint32_t)i << bits) - en.moff;
        if (__builtin_expect(en.test.more_count > 0, 0)) {
            const int32_t corner = (int32_t)(m >> bits);
            bool fits = true;
            for (const plain_cell *c = pool + en.test.more, *c_end = c + en.test.more_count; c < c_end && fits; c++)
                fits = (c->wave >> state[corner + c->offset]) & 1;
            if (!fits) continue;
        }
        uint64_t *word = &mask[m >> 6];
        if ((*word >> (m & 63)) & 1) continue;
        *word |= (uint64_t)1 << (m & 63);
        list[count++] = m;
    }
    return count;
}

/* plain_scan_inside_branching inline, for a markov's children, whose changed cells have few entries each. */
static inline __attribute__((always_inline)) int32_t plain_scan_two_branching(const plain_entry *e, const plain_entry *end, int32_t i,
                                                                              const uint8_t *state, uint64_t *mask, match *list,
                                                                              int32_t count, int bits, const plain_cell *pool, bool masked)
{
    const uint32_t ib = (uint32_t)i << bits;
    const uint8_t *const here = state + i; /* the offsets index from it, with no add per cell */
    for (; e < end; e++) {
        if (!((e->test.a.wave >> here[e->test.a.offset]) & 1) || !((e->test.b.wave >> here[e->test.b.offset]) & 1)) continue;
        const match m = ib - e->moff;
        if (__builtin_expect(e->test.more_count > 0, 0) && !plain_fits(e->test, pool, state, i, (int32_t)(m >> bits))) continue;
        if (!masked) {
            list[count++] = m;
            continue;
        }
        uint64_t *word = &mask[m >> 6];
        if ((*word >> (m & 63)) & 1) continue;
        *word |= (uint64_t)1 << (m & 63);
        list[count++] = m;
    }
    return count;
}

/* Which neighbours of changed cell i, at x - 1 (bit 0) and y - 1 (bit 1), were scanned before it
   in this scan: the scan marks each cell it comes to in the run's cell marks (run_state.mask, all
   zero between steps; plain_unmark clears them after). A match whose box holds a cell scanned
   before was tested then, or cannot fit: the state has not changed since, the entries of that
   cell's value hold every match that accepts it there, and a found match is in the mask. So such
   a match adds nothing now, in the reference's order too, and its entries are skipped. At x 0,
   i - 1 is the end of the row before, but an entry shifted by dx > 0 does not fit in the grid
   there anyway (and likewise at y 0). */
static inline unsigned plain_earlier(const uint8_t *marks, int32_t i, int MX)
{
    return (unsigned)(i > 0 && marks[i - 1]) | (unsigned)(i >= MX && marks[i - MX]) << 1;
}

/* Clear the marks of the changes [c, end) of a scan. */
static inline void plain_unmark(uint8_t *marks, const int32_t *c, const int32_t *end)
{
    for (; c < end; c++) marks[*c] = 0;
}

/* Test entry e of changed cell i, with a branch on each test (most do not fit). */
static inline __attribute__((always_inline)) int32_t plain_add_branching(const plain_entry *e, int32_t i, const uint8_t *state, uint64_t *mask,
                                                                         match *list, int32_t count, int bits, const plain_cell *pool,
                                                                         bool masked)
{
    const uint8_t *const here = state + i;
    if (!((e->test.a.wave >> here[e->test.a.offset]) & 1) || !((e->test.b.wave >> here[e->test.b.offset]) & 1)) return count;
    const match m = ((uint32_t)i << bits) - e->moff;
    if (__builtin_expect(e->test.more_count > 0, 0) && !plain_fits(e->test, pool, state, i, (int32_t)(m >> bits))) return count;
    if (masked) {
        uint64_t *word = &mask[m >> 6];
        if ((*word >> (m & 63)) & 1) return count;
        *word |= (uint64_t)1 << (m & 63);
    }
    list[count] = m;
    return count + 1;
}

/* The entries of value v's changed cell i at (x, y, z), from `e` on, but those whose match holds
   a neighbour that plain_earlier found (`earlier`, not 0), by the lists of one_plain.later; with
   bounds tests unless the cell is inside its value's box. */
static __attribute__((noinline)) int32_t plain_scan_later(const one_plain *p, const plain_entry *e, uint8_t v, int32_t i, const int xyz[3],
                                                          bool inside, unsigned earlier, const uint8_t *state, uint64_t *mask,
                                                          match *list, int32_t count, int bits, bool masked)
{
    const int32_t *const start = p->later_start[earlier - 1];
    const uint16_t *k = p->later + start[v], *const k_end = p->later + start[v + 1];
    if (inside) {
        for (; k < k_end; k++) count = plain_add_branching(e + *k, i, state, mask, list, count, bits, p->pool, masked);
        return count;
    }
    for (; k < k_end; k++)
        if (plain_inside(p, e + *k, xyz[0], xyz[1], xyz[2])) count = plain_add_branching(e + *k, i, state, mask, list, count, bits, p->pool, masked);
    return count;
}

/* Which of the two scans to use: branch-free while between a quarter and three quarters of the
   candidates fit (then a branch would be mispredicted often), branching otherwise; judged every
   1024 candidates. The branch-free scan pays a mask update for every candidate: with an eighth
   to seven eighths, MazeBacktracker took it for one child and ran 8 % more instructions, about
   1.5 % slower. */
static inline void plain_judge(uint32_t *tried, uint32_t *kept, bool *branch_free)
{
    if (*tried < 1024) return;
    *branch_free = *kept * 4 > *tried && *kept * 4 < *tried * 3;
    *tried = *kept = 0;
}

static inline void plain_judge_scan(rulenode_state *st, int32_t tried, int32_t kept)
{
    st->scan_tried += (uint32_t)tried;
    st->scan_kept += (uint32_t)kept;
    plain_judge(&st->scan_tried, &st->scan_kept, &st->scan_branch_free);
}

/* A draw's match, taken out of the list as the reference does (rng_next_max's arithmetic on the
   generator's `value`; the last match moves into its slot), its mask bit cleared (`masked`). */
static inline __attribute__((always_inline)) match plain_take(match *list, int32_t *count, uint64_t *mask, int32_t value, bool masked)
{
    const int32_t k = (int32_t)(value * (1.0 / RNG_MBIG) * *count);
    const match m = list[k];
    list[k] = list[--*count];
    if (masked) mask[m >> 6] &= ~((uint64_t)1 << (m & 63));
    return m;
}


/* After a scan (one_plain_scan), which tried `tried` rule shifts: past STOP_ITEMS the clock is asked, their
   number counted toward its read (stop_tick; not charged, as a step's work is charged by its
   caller). The fast loops ask by one_plain.stop_mask instead, once a step at most. */
static inline bool plain_scan_tick(run_stop *s, uint32_t tried)
{
    return tried >= STOP_ITEMS && stop_tick(s, tried);
}
/* The first scan of the whole grid, out of line: it runs once. */
static __attribute__((noinline)) void plain_scan_all(run_state *r, const rulenode *rn, rulenode_state *st)
{
    rulenode_scan_all(r, rn, st, rulenode_add_match);
}

static void one_plain_scan(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st);

/* One step: find the new matches, draw until one still holds (dropping the stale ones), apply it. */
static inline __attribute__((always_inline)) bool plain_step(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, rng *random)
{
    if (rn->steps > 0 && st->counter >= rn->steps) return false;
    one_plain_scan(r, rn, p, st);
    /* An interrupted scan: the run stops. (A scan cut short by memory goes on, as rulenode_go does:
       the step is made from what was found, and the run stops before the next.) */
    if (stop_said(&r->stop)) return false;
    st->last_matched_turn = r->counter;
    uint8_t *state = r->state;
    const int bits = rn->rule_bits;
    const uint32_t rule_mask = (1u << bits) - 1;
    match *list = st->matches;
    uint64_t *mask = st->mask;
    const plain_rule *rules = p->rules;
    const plain_cell *pool = p->pool;
    int32_t count = st->match_count;
    while (count > 0) {
        const match m = plain_take(list, &count, mask, rng_next(random), true);
        const plain_rule pr = rules[m & rule_mask];
        const int32_t at = (int32_t)(m >> bits);
        if (!plain_rule_fits(&pr, pool, state, at, true)) continue;
        st->match_count = count;
        for (const plain_write *w = p->writes + pr.write, *end = w + pr.write_count; w < end; w++) {
            const int32_t i = at + w->offset;
            if (state[i] != w->value) {
                state[i] = (uint8_t)w->value;
                run_change(r, i);
            }
        }
        st->counter++;
        r->acting_node = rn->base.id;
        return true;
    }
    st->match_count = 0;
    return false;
}

bool one_plain_go(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st) { return plain_step(r, rn, p, st, &r->random); }

/* The generic repeat: plain_step after plain_step, the run's and node's fields read and written
   through their structs. Used while an observer listens or before the node's first scan. */
static long plain_repeat_general(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps)
{
    /* The generator in a local, which no store to the grid can alias, so its indices stay in registers. */
    rng random = r->random;
    long made = 0;
    while (made < max_steps && (run_step_ready(r) || run_step_begin(r))) {
        const int before = r->acting_node;
        if (!plain_step(r, rn, p, st, &random)) break;
        if (before == rn->base.id) run_step_close(r);
        else run_step_done(r, before);
        made++;
    }
    r->random = random;
    return made;
}

/* Test the entries [e, end) of a changed cell i inside its value's box whose tests have one
   other cell, or two (`two`): branch-free, as plain_scan_inside, without the pool. */
static inline __attribute__((always_inline)) int32_t plain_scan_inside_one(const plain_entry *e, const plain_entry *end, int32_t i,
                                                                           const uint8_t *state, uint64_t *mask, match *list,
                                                                           int32_t count, int bits, bool two, bool masked)
{
    const uint32_t ib = (uint32_t)i << bits;
    const uint8_t *const here = state + i;
    for (; e < end; e++) {
        const match m = ib - e->moff;
        uint64_t fits = (e->test.a.wave >> here[e->test.a.offset]) & 1;
        if (two) fits &= e->test.b.wave >> here[e->test.b.offset];
        if (!masked) {
            list[count] = m;
            count += (int32_t)(fits & 1);
            continue;
        }
        uint64_t *word = &mask[m >> 6];
        const uint64_t w = *word, added = w | ((uint64_t)1 << (m & 63) & -fits);
        list[count] = m;
        *word = added;
        count += added != w; /* it fits and was not listed */
    }
    return count;
}

#define PLAIN_BATCH 64

/* A list this long (256 KB) lies mostly outside the nearer caches, and each draw's slot and its
   corner cell are misses that the next draw waits on. Its values are known a batch ahead: */
#define PLAIN_FAR_LIST (1 << 16)

/* the slot of the draw after next and the corner cell of the next draw (whose slot was asked
   for a step ago) are asked for now, as if each draw holds and the scans between add nothing: a
   wrong guess costs one wasted fetch. `next` is the next draw's value. */
static inline __attribute__((always_inline)) void plain_fetch_ahead(const match *list, int32_t count, const int32_t *next, const uint8_t *state,
                                                                   int bits)
{
    const int32_t k1 = (int32_t)(next[0] * (1.0 / RNG_MBIG) * count);
    const int32_t k2 = (int32_t)(next[1] * (1.0 / RNG_MBIG) * (count - 1));
    __builtin_prefetch(&list[k2]);
    __builtin_prefetch(state + (list[k1] >> bits));
}

/* The shift entries of changed cell i (of the given value) in the fused loops: without bounds
   tests inside the value's box, by the scan the fit rate chose (the markov loop's branching scan
   inline, `inline_branching`), and entry by entry with bounds tests near the edges. */
static inline __attribute__((always_inline)) int32_t plain_scan_cell(const rulenode *rn, const one_plain *p, const run_state *r, uint8_t value,
                                                                    int32_t i, uint8_t *marks, bool branch_free,
                                                                    bool inline_branching, const uint8_t *state, uint64_t *mask, match *list,
                                                                    int32_t count, bool masked)
{
    const int bits = rn->rule_bits;
    int xyz[3];
    const bool inside = rulenode_cell_inside(rn, r->mx, r->my, r->mz, i, value, xyz);
    const plain_entry *e = p->entries + rn->shift_start[value], *e_end = p->entries + rn->shift_start[value + 1];
    if (marks && plain_later_listed(rn->shift_start[value], rn->shift_start[value + 1])) {
        const unsigned earlier = plain_earlier(marks, i, r->mx);
        if (earlier) return plain_scan_later(p, e, value, i, xyz, inside, earlier, state, mask, list, count, bits, masked);
    }
    if (!inside) {
        for (; e < e_end; e++)
            if (plain_inside(p, e, xyz[0], xyz[1], xyz[2])) count = plain_add(e, i, state, mask, list, count, bits, p->pool, masked);
        return count;
    }
    if (!branch_free)
        return inline_branching || !masked ? plain_scan_two_branching(e, e_end, i, state, mask, list, count, bits, p->pool, masked)
                                : plain_scan_inside_branching(e, e_end, i, state, mask, list, count, bits, p->pool);
    if (p->test_size[value] == PLAIN_TEST_ONE) return plain_scan_inside_one(e, e_end, i, state, mask, list, count, bits, false, masked);
    if (p->test_size[value] == PLAIN_TEST_TWO) return plain_scan_inside_one(e, e_end, i, state, mask, list, count, bits, true, masked);
    if (!masked) {
        for (; e < e_end; e++) count = plain_add(e, i, state, mask, list, count, bits, p->pool, false);
        return count;
    }
    return plain_scan_inside(e, e_end, i, state, mask, list, count, bits, p->pool);
}

/* The scan of the changes since the node last matched (rulenode_scan_changes' matches, in the same
   order), each cell's entries tested inline (plain_scan_cell, as the fused loops test them): a
   single step scans a few cells of a few entries each, where a call per cell cost more than the
   tests. The first time, the whole grid. */
static void one_plain_scan(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st)
{
    if (st->last_matched_turn < 0) {
        plain_scan_all(r, rn, st);
        return;
    }
    const uint8_t *const state = r->state;
    uint64_t *const mask = st->mask;
    const int64_t first = run_first(r, st->last_matched_turn);
    /* No change is logged during the scan, so the log cannot move under these pointers. */
    const int32_t *const scan_start = r->changes + (first - r->changes_base), *const changes_end = r->changes + r->changes_len;
    uint8_t *const marks = p->later_any ? r->mask : NULL;
    const bool branch_free = st->scan_branch_free;
    match *list = st->matches;
    int32_t count = st->match_count, tried = 0, kept = 0;
    int64_t n = first;
    for (const int32_t *c = scan_start; c < changes_end; c++, n++) {
        if (stop_requested_at(&r->stop, n)) break;
        const int32_t i = *c;
        const uint8_t value = state[i];
        const int32_t from = rn->shift_start[value], to = rn->shift_start[value + 1];
        if (from == to) continue;
        if (st->match_cap - count < to - from) {
            st->match_count = count;
            if (!plain_reserve(r, st, to - from)) break;
            list = st->matches;
        }
        const int32_t before = count;
        count = plain_scan_cell(rn, p, r, value, i, marks, branch_free, true, state, mask, list, count, true);
        if (marks) marks[i] = 1;
        tried += to - from;
        kept += count - before;
    }
    st->match_count = count;
    if (marks) plain_unmark(marks, scan_start, changes_end);
    plain_scan_tick(&r->stop, (uint32_t)tried);
    plain_judge_scan(st, tried, kept);
}

/* The fused loops keep the run's change log and step table and the node's match list in locals of
   these names; SPILL writes them back before a call that reads them, RELOAD reads them again after. */
#define PLAIN_SPILL()                                                                                                   \
    do {                                                                                                                \
        r->changes_len = clen;                                                                                          \
        r->first_len = flen;                                                                                            \
        st->match_count = count;                                                                                        \
    } while (0)
#define PLAIN_RELOAD()                                                                                                  \
    do {                                                                                                                \
        changes = r->changes;                                                                                           \
        clen = r->changes_len;                                                                                          \
        ccap = r->changes_cap;                                                                                          \
        cbase = r->changes_base;                                                                                        \
        first = r->first;                                                                                               \
        flen = r->first_len;                                                                                            \
        fcap = r->first_cap;                                                                                            \
        list = st->matches;                                                                                             \
        count = st->match_count;                                                                                        \
        cap = st->match_cap;                                                                                            \
    } while (0)
/* Apply the drawn rule pr at corner `at`: write the cells it changes and log them. The log's room
   is checked once for all the rule's writes; only when it must grow are they written one by one
   beside the growth (whose failure leaves the rest unlogged, as run_change does), and ON_GROW
   makes the step's end ask run_step_begin. */
#define PLAIN_APPLY(ON_GROW)                                                                                            \
    do {                                                                                                                \
        const plain_write *w = p->writes + pr->write, *const w_end = w + pr->write_count;                               \
        if (__builtin_expect(ccap - clen >= pr->write_count, 1)) {                                                      \
            for (; w < w_end; w++) {                                                                                    \
                const int32_t i = at + w->offset;                                                                       \
                if (state[i] == w->value) continue;                                                                     \
                state[i] = (uint8_t)w->value;                                                                           \
                changes[clen++] = i;                                                                                    \
            }                                                                                                           \
            break;                                                                                                      \
        }                                                                                                               \
        for (; w < w_end; w++) {                                                                                        \
            const int32_t i = at + w->offset;                                                                           \
            if (state[i] == w->value) continue;                                                                         \
            state[i] = (uint8_t)w->value;                                                                               \
            if (clen == ccap) {                                                                                         \
                PLAIN_SPILL();                                                                                          \
                r->counter = counter0 + made;                                                                           \
                const bool grown = run_grow_changes(r);                                                                 \
                PLAIN_RELOAD();                                                                                         \
                fcap = 0; /* the next step asks run_step_begin, which stops after a failure */                          \
                ON_GROW;                                                                                                \
                if (!grown) continue;                                                                                   \
            }                                                                                                           \
            changes[clen++] = i;                                                                                        \
        }                                                                                                               \
    } while (0)

/* How many steps plain_repeat_body may make before it looks at its limits again: none of
   max_steps, the node's `steps`, the step table's room and the 64-step check for a stop falls due
   sooner. At least 1: each of them was looked at after the last step. */
static inline long plain_budget(const rulenode *rn, const one_plain *p, const rulenode_state *st, long made, long max_steps,
                                int64_t flen, int64_t fcap)
{
    long left = max_steps - made;
    if (fcap - flen < left) left = (long)(fcap - flen);
    if ((long)p->stop_mask + 1 - (made & p->stop_mask) < left) left = (long)p->stop_mask + 1 - (made & p->stop_mask);
    if (rn->steps > 0 && rn->steps - st->counter - made < left) left = rn->steps - st->counter - made;
    return left;
}

/* Steps in a row with the run's and the node's moving parts (the change log, the step table,
   the match list, the generator's indices) in locals: a store to a grid byte could alias any
   field read through a pointer, so the compiler would reload them after every write. They are
   written back before anything else reads them (growing the log, the list or the table; the
   end). Exactly the steps plain_step and run_step_close make; no observer listens. The counters
   that move by one a step (the run's, the node's, the streak) are set from `made` at the end. */
static inline __attribute__((always_inline)) long plain_repeat_body(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st,
                                                                    long max_steps, bool batched, bool masked, bool three, bool far,
                                                                    bool later, bool quiet)
{
    uint8_t *const state = r->state;
    uint8_t *const marks = r->mask; /* later: the cells scanned so far in this scan (plain_earlier) */
    const int bits = rn->rule_bits;
    const uint32_t rule_mask = (1u << bits) - 1;
    uint64_t *const mask = st->mask;
    /* The generator's values, made ahead in batches by rng_fill (the stream does not depend on
       the grid): batch[used .. filled) are the next ones. At the end the generator is put back to
       where the batch began (`saved`) and advanced by the values used. Batches start small, as a
       call may make one step only (a markov's later child). Unbatched: the indices in locals. */
    int32_t batch[PLAIN_BATCH];
    int used = 0, filled = 0, size = 8;
    rng saved;
    int inext = r->random.inext, inextp = r->random.inextp;
    const long counter0 = r->counter;
    uint32_t tried = st->scan_tried, kept = st->scan_kept;
    bool branch_free = st->scan_branch_free;
    int32_t *changes;
    int64_t clen, ccap, cbase, flen, fcap, *first;
    match *list;
    int32_t count, cap;
    long made = 0;
    PLAIN_RELOAD();
    /* Where the scan starts: the first change of the step the node last matched in. */
    int64_t scan_from = first[st->last_matched_turn - r->first_base];
    /* Steps to make before the next look at the limits, the step table's room and a stop. */
    long left = rn->steps > 0 && st->counter >= rn->steps ? 0 : plain_budget(rn, p, st, made, max_steps, flen, fcap);
    while (left > 0) {
        /* The scan (one_plain_scan): every change since then. */
        const int64_t step_start = cbase + clen;
        bool stopped = false, marked = false;
        /* After a step of this loop, a quiet node's scan would only pass over its own changes,
           none of which it scans: only the scan's stop checks are made. */
        if (quiet && made > 0)
            for (int64_t n = (scan_from + STOP_ITEMS - 1) & ~(int64_t)(STOP_ITEMS - 1); n < step_start; n += STOP_ITEMS)
                if (stop_requested(&r->stop)) { stopped = true; break; }
        for (int64_t n = quiet && made > 0 ? step_start : scan_from; n < step_start; n++) {
            if (stop_requested_at(&r->stop, n)) { stopped = true; break; }
            const int32_t i = changes[n - cbase];
            const uint8_t value = state[i];
            const int32_t from = rn->shift_start[value], to = rn->shift_start[value + 1];
            if (from == to) continue; /* a match that holds the cell cannot fit, but skipping it needs no mark */
            if (cap - count < to - from) {
                PLAIN_SPILL();
                fcap = 0; /* the step's end asks run_step_begin, which stops after a failure */
                left = 1;
                if (!plain_reserve(r, st, to - from)) break;
                list = st->matches;
                cap = st->match_cap;
            }
            const int32_t before = count;
            count = plain_scan_cell(rn, p, r, value, i, later ? marks : NULL, branch_free, false, state, mask, list, count, masked);
            if (later) marks[i] = 1;
            marked |= later;
            tried += (uint32_t)(to - from);
            kept += (uint32_t)(count - before);
        }
        if (later && marked) plain_unmark(marks, changes + (scan_from - cbase), changes + (step_start - cbase));
        plain_judge(&tried, &kept, &branch_free);
        if (stopped) break;
        st->last_matched_turn = counter0 + made;
        /* The draw (plain_step): pr and at, or pr NULL when no match holds. */
        const plain_rule *pr = NULL;
        int32_t at = 0;
#define PLAIN_DRAW()                                                                                                    \
    do {                                                                                                                \
        while (count > 0) {                                                                                             \
            int32_t value;                                                                                              \
            if (batched) {                                                                                              \
                if (used == filled) {                                                                                   \
                    saved = r->random;                                                                                  \
                    rng_fill(&r->random, batch, size);                                                                  \
                    used = 0;                                                                                           \
                    filled = size;                                                                                      \
                    if (size < PLAIN_BATCH) size *= 2;                                                                  \
                }                                                                                                       \
                value = batch[used++];                                                                                  \
            } else {                                                                                                    \
                value = rng_step(r->random.seeds, &inext, &inextp);                                                     \
            }                                                                                                           \
            const match m = plain_take(list, &count, mask, value, masked);                                              \
            at = (int32_t)(m >> bits);                                                                                  \
            if (far && batched && count >= PLAIN_FAR_LIST && used + 1 < filled) plain_fetch_ahead(list, count, batch + used, state, bits); \
            if (plain_rule_fits(&p->rules[m & rule_mask], p->pool, state, at, three)) {                                 \
                pr = &p->rules[m & rule_mask];                                                                          \
                break;                                                                                                  \
            }                                                                                                           \
        }                                                                                                               \
    } while (0)
        PLAIN_DRAW();
        if (!pr) break;
        PLAIN_APPLY(left = 1);
        /* run_step_close without an observer. */
        first[flen++] = cbase + clen;
        scan_from = step_start;
        made++;
        /* A quiet node's next steps, while their scans would make no stop check (none of the last
           step's changes sits at a multiple of STOP_ITEMS), in a loop of the draw and the writes
           alone: the scan's part of the loop above holds registers that these steps then lack. */
        bool ended = false;
        while (quiet && left > 1 && ((scan_from + STOP_ITEMS - 1) & ~(int64_t)(STOP_ITEMS - 1)) >= cbase + clen) {
            left--;
            const int64_t next_start = cbase + clen;
            st->last_matched_turn = counter0 + made;
            pr = NULL;
            PLAIN_DRAW();
            if (!pr) {
                ended = true;
                break;
            }
            PLAIN_APPLY(left = 1);
            first[flen++] = cbase + clen;
            scan_from = next_start;
            made++;
        }
#undef PLAIN_DRAW
        if (ended) break;
        if (--left > 0) continue;
        if (made == max_steps) break;
        /* A deadline or cancel is noticed within 64 steps, or each step of a node of many rules (the
           steps' work is counted by the caller, which bounds max_steps by the work budget left). */
        if (flen >= fcap || ((made & p->stop_mask) == 0 && stop_tick(&r->stop, p->scan_units))) {
            PLAIN_SPILL();
            r->counter = counter0 + made;
            if (!run_step_begin(r)) break;
            PLAIN_RELOAD();
        }
        if (rn->steps > 0 && st->counter + made >= rn->steps) break;
        left = plain_budget(rn, p, st, made, max_steps, flen, fcap);
    }
    r->changes_len = clen;
    r->first_len = flen;
    r->counter = counter0 + made;
    if (made > 0) {
        r->acting_streak = r->acting_node == rn->base.id ? r->acting_streak + made : made;
        r->acting_node = rn->base.id;
        st->counter += (int)made;
    }
    r->unlogged_len = 0;
    st->match_count = count;
    st->scan_tried = tried;
    st->scan_kept = kept;
    st->scan_branch_free = branch_free;
    if (batched && used < filled) {
        r->random = saved;
        rng_fill(&r->random, batch, used);
    }
    if (!batched) {
        r->random.inext = inext;
        r->random.inextp = inextp;
    }
    return made;
}

/* The loop compiled for each way a node can need it: batched or not, with the match mask or
   without it (a node that finds each match once, one_plain.unmasked), testing a drawn rule's
   third cell or not (one_plain.three), and, batched, fetching ahead for a far list or not (the
   fetches' arithmetic cost the short lists of Growth and MazeGrowth 3-4 % more instructions);
   with the third cell, skipping by the lists of one_plain.later or not (asking for them cost
   River 3 % more instructions); batched, for a quiet node or not (asking cost Growth 2 % more). */
typedef long (*plain_repeat_fn)(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps);
#define PLAIN_REPEAT(NAME, BATCHED, MASKED, THREE, FAR, LATER, QUIET)                                                   \
    static __attribute__((noinline)) long NAME(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps) \
    {                                                                                                                   \
        return plain_repeat_body(r, rn, p, st, max_steps, BATCHED, MASKED, THREE, FAR, LATER, QUIET);                   \
    }
PLAIN_REPEAT(plain_repeat_unbatched, false, true, false, false, false, false)
PLAIN_REPEAT(plain_repeat_batched, true, true, false, false, false, false)
PLAIN_REPEAT(plain_repeat_unbatched_unmasked, false, false, false, false, false, false)
PLAIN_REPEAT(plain_repeat_batched_unmasked, true, false, false, false, false, false)
PLAIN_REPEAT(plain_repeat_unbatched_three, false, true, true, false, false, false)
PLAIN_REPEAT(plain_repeat_batched_three, true, true, true, false, false, false)
PLAIN_REPEAT(plain_repeat_unbatched_unmasked_three, false, false, true, false, false, false)
PLAIN_REPEAT(plain_repeat_batched_unmasked_three, true, false, true, false, false, false)
PLAIN_REPEAT(plain_repeat_far, true, true, false, true, false, false)
PLAIN_REPEAT(plain_repeat_far_unmasked, true, false, false, true, false, false)
PLAIN_REPEAT(plain_repeat_far_three, true, true, true, true, false, false)
PLAIN_REPEAT(plain_repeat_far_unmasked_three, true, false, true, true, false, false)
PLAIN_REPEAT(plain_repeat_unbatched_later, false, true, true, false, true, false)
PLAIN_REPEAT(plain_repeat_batched_later, true, true, true, false, true, false)
PLAIN_REPEAT(plain_repeat_unbatched_unmasked_later, false, false, true, false, true, false)
PLAIN_REPEAT(plain_repeat_batched_unmasked_later, true, false, true, false, true, false)
PLAIN_REPEAT(plain_repeat_far_later, true, true, true, true, true, false)
PLAIN_REPEAT(plain_repeat_far_unmasked_later, true, false, true, true, true, false)
PLAIN_REPEAT(plain_repeat_batched_quiet, true, true, false, false, false, true)
PLAIN_REPEAT(plain_repeat_batched_unmasked_quiet, true, false, false, false, false, true)
PLAIN_REPEAT(plain_repeat_batched_three_quiet, true, true, true, false, false, true)
PLAIN_REPEAT(plain_repeat_batched_unmasked_three_quiet, true, false, true, false, false, true)
PLAIN_REPEAT(plain_repeat_far_quiet, true, true, false, true, false, true)
PLAIN_REPEAT(plain_repeat_far_unmasked_quiet, true, false, false, true, false, true)
PLAIN_REPEAT(plain_repeat_far_three_quiet, true, true, true, true, false, true)
PLAIN_REPEAT(plain_repeat_far_unmasked_three_quiet, true, false, true, true, false, true)
#undef PLAIN_REPEAT
/* [batched + far][unmasked][shape: two cells, three, three and later lists] */
static const plain_repeat_fn plain_repeats[3][2][3] = {
    {{plain_repeat_unbatched, plain_repeat_unbatched_three, plain_repeat_unbatched_later},
     {plain_repeat_unbatched_unmasked, plain_repeat_unbatched_unmasked_three, plain_repeat_unbatched_unmasked_later}},
    {{plain_repeat_batched, plain_repeat_batched_three, plain_repeat_batched_later},
     {plain_repeat_batched_unmasked, plain_repeat_batched_unmasked_three, plain_repeat_batched_unmasked_later}},
    {{plain_repeat_far, plain_repeat_far_three, plain_repeat_far_later},
     {plain_repeat_far_unmasked, plain_repeat_far_unmasked_three, plain_repeat_far_unmasked_later}},
};
/* A quiet node's: [batched, far][unmasked][shape: two cells, three] (with the later lists, a
   quiet node takes the loop above, which scans its own changes). */
static const plain_repeat_fn plain_quiet_repeats[2][2][2] = {
    {{plain_repeat_batched_quiet, plain_repeat_batched_three_quiet},
     {plain_repeat_batched_unmasked_quiet, plain_repeat_batched_unmasked_three_quiet}},
    {{plain_repeat_far_quiet, plain_repeat_far_three_quiet}, {plain_repeat_far_unmasked_quiet, plain_repeat_far_unmasked_three_quiet}},
};

/* The first steps of a call unbatched (many calls make a step or two: a backtracker's), the rest,
   if it goes on, batched. */
#define PLAIN_UNBATCHED_STEPS 32
static long plain_repeat_fast(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps)
{
    const long first = max_steps < PLAIN_UNBATCHED_STEPS ? max_steps : PLAIN_UNBATCHED_STEPS;
    const int shape = p->later_fused ? 2 : p->three;
    long made = plain_repeats[0][p->unmasked][shape](r, rn, p, st, first);
    if (made < PLAIN_UNBATCHED_STEPS || made == max_steps || !run_step_begin(r)) return made;
    const int far = st->match_count >= PLAIN_FAR_LIST;
    if (p->quiet && shape < 2) return made + plain_quiet_repeats[far][p->unmasked][shape](r, rn, p, st, max_steps - made);
    return made + plain_repeats[1 + far][p->unmasked][shape](r, rn, p, st, max_steps - made);
}

long one_plain_repeat(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps)
{
    if (r->observer || st->last_matched_turn < 0) return plain_repeat_general(r, rn, p, st, max_steps);
    if (max_steps <= 0 || !run_step_begin(r)) return 0;
    return plain_repeat_fast(r, rn, p, st, max_steps);
}

/* plain_repeat_body for the children of a markov node, plain nodes rns[0 .. children): each
   step is branch_go's, the children tried in order until one acts, the first one again after
   any step. The node being tried keeps its parts in the same locals as plain_repeat_body's,
   swapped when another is tried: a backtracker switches at nearly every step, and a call per
   switch cost more than the step. A step in which no child acts ends the loop (go, called
   again, makes the same attempts, which leave no trace). A copy of plain_repeat_body's loop:
   one loop for both cost a single node's steps 2 % more instructions. */
static inline __attribute__((always_inline)) long plain_markov_body(run_state *r, const rulenode *const *rns, const one_plain *const *ps,
                                                                    rulenode_state *const *sts, int children, long max_steps, bool any_later)
{
    uint8_t *const state = r->state;
    uint8_t *const marks = r->mask; /* the cells scanned so far in a scan (plain_earlier) */
    /* The generator's values made ahead in batches, as in plain_repeat_body: batch[used .. filled)
       are the next ones; at the end the generator is put back to where the batch began and
       advanced by the values used. Batches start small, as a call may make a step or two. */
    int32_t batch[PLAIN_BATCH];
    int used = 0, filled = 0, size = 8;
    rng saved;
    const long counter0 = r->counter;
    int actor = r->acting_node;
    long streak = r->acting_streak;
    int32_t *changes;
    int64_t clen, ccap, cbase, flen, fcap, *first;
    long made = 0;
    /* The node being tried, and its parts. */
    int child = 0;
    const rulenode *rn;
    const one_plain *p;
    rulenode_state *st;
    int bits;
    uint32_t rule_mask;
    uint64_t *mask;
    match *list;
    int32_t count, cap;
    uint32_t tried, kept;
    bool branch_free;
    int64_t scan_from;
    /* How often the loop looks at a stop: as its heaviest child asks (one_plain.stop_mask). */
    uint32_t stop_mask = 63;
    int64_t scan_units = 0;
    for (int c = 0; c < children; c++) {
        stop_mask &= ps[c]->stop_mask;
        if (ps[c]->scan_units > scan_units) scan_units = ps[c]->scan_units;
    }
    /* Where a node's scan starts: the first change of the step it last matched in. */
#define PLAIN_LOAD_NODE(c)                                                                                              \
    do {                                                                                                                \
        rn = rns[c];                                                                                                    \
        p = ps[c];                                                                                                      \
        st = sts[c];                                                                                                    \
        bits = rn->rule_bits;                                                                                           \
        rule_mask = (1u << bits) - 1;                                                                                   \
        mask = st->mask;                                                                                                \
        list = st->matches;                                                                                             \
        count = st->match_count;                                                                                        \
        cap = st->match_cap;                                                                                            \
        tried = st->scan_tried;                                                                                         \
        kept = st->scan_kept;                                                                                           \
        branch_free = st->scan_branch_free;                                                                             \
        scan_from = first[st->last_matched_turn - r->first_base];                                                      \
    } while (0)
#define PLAIN_SAVE_NODE()                                                                                               \
    do {                                                                                                                \
        st->match_count = count;                                                                                        \
        st->scan_tried = tried;                                                                                         \
        st->scan_kept = kept;                                                                                           \
        st->scan_branch_free = branch_free;                                                                             \
    } while (0)
    changes = r->changes;
    clen = r->changes_len;
    ccap = r->changes_cap;
    cbase = r->changes_base;
    first = r->first;
    flen = r->first_len;
    fcap = r->first_cap;
    PLAIN_LOAD_NODE(0);
    for (;;) {
        const int64_t step_start = cbase + clen;
        const plain_rule *pr = NULL;
        int32_t at = 0;
        if (rn->steps > 0 && st->counter >= rn->steps) goto failed;
        /* The scan (one_plain_scan): every change since then. Its stop checks are for a long scan
           only; the loop checks every 64 steps anyway. */
        bool stopped = false;
        const uint32_t scanned = p->scanned;
        const bool long_scan = step_start - scan_from > STOP_ITEMS;
        /* A scan of two changes or more skips by the lists of `later` (plain_earlier), marking
           the cells it scans; one change, the common case after the child's own step, needs none. */
        const bool later = any_later && p->later_any && step_start - scan_from > 1;
        const int32_t *const c_from = changes + (scan_from - cbase), *const c_end = changes + (step_start - cbase);
        for (const int32_t *c = c_from; c < c_end; c++) {
            if (long_scan && stop_requested_at(&r->stop, c - c_from)) { stopped = true; break; }
            const int32_t i = *c;
            const uint8_t value = state[i];
            if (!((scanned >> value) & 1)) continue;
            /* A cell scanned earlier in this scan adds nothing now (the state has not changed
               since, and its fits are in the mask): a walker's cell is written by two steps in
               a row (B -> R, then R -> G), three changes apart. */
            if (c - 3 >= c_from && ((c[-1] == i) | (c[-2] == i) | (c[-3] == i))) continue;
            const int32_t from = rn->shift_start[value], to = rn->shift_start[value + 1];
            if (cap - count < to - from) {
                PLAIN_SPILL();
                fcap = 0; /* the next step asks run_step_begin, which stops after a failure */
                if (!plain_reserve(r, st, to - from)) break;
                list = st->matches;
                cap = st->match_cap;
            }
            const int32_t before = count;
            count = plain_scan_cell(rn, p, r, value, i, later ? marks : NULL, branch_free, true, state, mask, list, count, true);
            if (later) marks[i] = 1;
            tried += (uint32_t)(to - from);
            kept += (uint32_t)(count - before);
        }
        if (later) plain_unmark(marks, c_from, c_end);
        plain_judge(&tried, &kept, &branch_free);
        if (stopped) break;
        st->last_matched_turn = counter0 + made;
        /* The draw (plain_step). */
        while (count > 0) {
            if (used == filled) {
                saved = r->random;
                rng_fill(&r->random, batch, size);
                used = 0;
                filled = size;
                if (size < PLAIN_BATCH) size *= 2;
            }
            const int32_t value = batch[used++];
            const match m = plain_take(list, &count, mask, value, true);
            at = (int32_t)(m >> bits);
            if (plain_rule_fits(&p->rules[m & rule_mask], p->pool, state, at, true)) {
                pr = &p->rules[m & rule_mask];
                break;
            }
        }
        if (!pr) {
        failed:
            if (child + 1 == children) break;
            PLAIN_SAVE_NODE();
            child++;
            PLAIN_LOAD_NODE(child);
            continue;
        }
        PLAIN_APPLY((void)0);
        /* run_step_close without an observer. */
        first[flen++] = cbase + clen;
        st->counter++;
        if (actor == rn->base.id) streak++;
        else {
            actor = rn->base.id;
            streak = 1;
        }
        scan_from = step_start;
        if (++made == max_steps) break;
        /* A deadline or cancel is noticed within 64 steps, or each step when a child has many rules
           (the steps' work is counted by the caller, which bounds max_steps by the work budget left). */
        if (flen >= fcap || ((made & stop_mask) == 0 && stop_tick(&r->stop, scan_units))) {
            PLAIN_SPILL();
            r->counter = counter0 + made;
            if (!run_step_begin(r)) break;
            PLAIN_RELOAD();
        }
        if (child != 0) {
            PLAIN_SAVE_NODE();
            child = 0;
            PLAIN_LOAD_NODE(0);
        }
    }
#undef PLAIN_SPILL
#undef PLAIN_RELOAD
#undef PLAIN_APPLY
#undef PLAIN_LOAD_NODE
#undef PLAIN_SAVE_NODE
    r->changes_len = clen;
    r->first_len = flen;
    r->counter = counter0 + made;
    r->acting_node = actor;
    r->acting_streak = streak;
    r->unlogged_len = 0;
    st->match_count = count;
    st->scan_tried = tried;
    st->scan_kept = kept;
    st->scan_branch_free = branch_free;
    if (used < filled) {
        r->random = saved;
        rng_fill(&r->random, batch, used);
    }
    return made;
}


/* plain_markov_body compiled twice: with the lists of `later` when some child has them, and
   without (the marks' bookkeeping, compiled in, cost NystromDungeon's backtracker 1 % more instructions). */
static __attribute__((noinline)) long plain_markov_steps_later(run_state *r, const rulenode *const *rns, const one_plain *const *ps,
                                                               rulenode_state *const *sts, int children, long max_steps)
{
    return plain_markov_body(r, rns, ps, sts, children, max_steps, true);
}
static __attribute__((noinline)) long plain_markov_steps(run_state *r, const rulenode *const *rns, const one_plain *const *ps,
                                                         rulenode_state *const *sts, int children, long max_steps)
{
    return plain_markov_body(r, rns, ps, sts, children, max_steps, false);
}

long one_plain_markov_repeat(run_state *r, const rulenode *const *rns, const one_plain *const *ps, rulenode_state *const *sts, int children,
                             long max_steps)
{
    if (r->observer) return -1;
    for (int c = 0; c < children; c++)
        if (sts[c]->last_matched_turn < 0) return -1;
    if (max_steps <= 0 || !run_step_begin(r)) return 0;
    for (int c = 0; c < children; c++)
        if (ps[c]->later_any) return plain_markov_steps_later(r, rns, ps, sts, children, max_steps);
    return plain_markov_steps(r, rns, ps, sts, children, max_steps);
}
