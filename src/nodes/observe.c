/* observe.c — goals from `<observe>` and the forward/backward potentials that inference and search follow. */
#include "observe.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

static const char *const observe_attrs[] = {"value", "from", "to", NULL};

bool observation_load(diag *d, const xmlNode *el, const grid_def *g, observation *by_value)
{
    xml_check_attrs(d, el, observe_attrs);
    char value, from;
    bool present, has_from;
    if (!xml_get_char(d, el, "value", &value, &present)) return false;
    if (!present) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<observe> needs a value attribute");
    int v = g->value_of[(unsigned char)value];
    if (v < 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "observed value %c is not a value of the grid", value);
    if (!xml_get_char(d, el, "from", &from, &has_from)) return false;
    if (!has_from) from = value;
    if (g->value_of[(unsigned char)from] < 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "from=\"%c\" is not a value of the grid", from);
    const char *to = xml_attr(el, "to");
    if (!to || !*to) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<observe> needs a to attribute (the values it ends as)");
    observation *o = &by_value[v];
    if (!grid_wave(g, to, &o->to))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "to=\"%s\" names a symbol that is not a value of the grid", to);
    o->present = true;
    o->from = (uint8_t)g->value_of[(unsigned char)from];
    return true;
}

static bool grow(void **array, int *cap, int count, size_t size)
{
    if (count < *cap) return true;
    int bigger_cap = *cap ? 2 * *cap : 64;
    void *bigger = mem_realloc(*array, (size_t)bigger_cap * size);
    if (!bigger) return false;
    *array = bigger;
    *cap = bigger_cap;
    return true;
}

static potential_entry entry_at(const potential_rules *pr, const rule *rl, int ri, int dx, int dy, int dz, int need,
                                int give, int give_end)
{
    int32_t offset = dx + dy * pr->mx + dz * pr->mx * pr->my;
    return (potential_entry){.slot = ri - (int64_t)offset * pr->rule_count, .offset = offset, .need = need,
                             .give = give, .give_end = give_end, .rule = ri,
                             .dx = (int16_t)dx, .dy = (int16_t)dy, .dz = (int16_t)dz,
                             .xmax = pr->mx - rl->imx, .ymax = pr->my - rl->imy, .zmax = pr->mz - rl->imz};
}

static bool init_direction(potential_rules *pr, int d)
{
    const bool backwards = d == 1;
    const int c = pr->c, rule_count = pr->rule_count;
    int need_cap = 0, need_count = 0, trigger_cap = 0, trigger_count = 0, give_cap = 0, give_count = 0;
    int *need_total = mem_calloc((size_t)rule_count + 1, sizeof(int));
    int *give_start = mem_malloc((size_t)(rule_count + 1) * sizeof(int));
    pr->need_start[d] = mem_malloc((size_t)(c + 1) * sizeof(int));
    pr->trigger_start[d] = mem_malloc((size_t)(c + 1) * sizeof(int));
    bool ok = need_total && give_start && pr->need_start[d] && pr->trigger_start[d];
    for (int ri = 0; ok && ri < rule_count; ri++) {
        const rule *rl = pr->rules[ri];
        const uint8_t *need = backwards ? rl->output : rl->binput, *give = backwards ? rl->binput : rl->output;
        give_start[ri] = give_count;
        for (int dz = 0, k = 0; ok && dz < rl->imz; dz++)
            for (int dy = 0; ok && dy < rl->imy; dy++)
                for (int dx = 0; dx < rl->imx; dx++, k++) {
                    if (need[k] != RULE_KEEP) need_total[ri]++;
                    /* A value without potentials is never looked at, and a cell the
                       rule also needs has its potential when the rule fires: giving
                       either changes nothing. */
                    if (give[k] == RULE_KEEP || pr->row_of[give[k]] < 0 || give[k] == need[k]) continue;
                    if (!(ok = grow((void **)&pr->give[d], &give_cap, give_count, sizeof(potential_give)))) break;
                    int32_t offset = dx + dy * pr->mx + dz * pr->mx * pr->my;
                    pr->give[d][give_count++] = (potential_give){.at = pr->row_of[give[k]] * pr->cells + offset,
                                                                 .offset = offset, .value = give[k]};
                }
        if (need_total[ri] > pr->max_need) pr->max_need = need_total[ri];
    }
    if (ok) give_start[rule_count] = give_count;
    for (int v = 0; ok && v < c; v++) {
        pr->need_start[d][v] = need_count;
        pr->trigger_start[d][v] = trigger_count;
        for (int ri = 0; ok && ri < rule_count; ri++) {
            const rule *rl = pr->rules[ri];
            if (rl->imx > pr->mx || rl->imy > pr->my || rl->imz > pr->mz) continue; /* never inside */
            const uint8_t *need = backwards ? rl->output : rl->binput;
            bool needs_nothing = need_total[ri] == 0;
            for (int dz = 0, k = 0; ok && dz < rl->imz; dz++)
                for (int dy = 0; ok && dy < rl->imy; dy++)
                    for (int dx = 0; dx < rl->imx; dx++, k++) {
                        potential_entry e = entry_at(pr, rl, ri, dx, dy, dz, need_total[ri], give_start[ri], give_start[ri + 1]);
                        if (!needs_nothing) {
                            if (need[k] != v) continue;
                            if (!(ok = grow((void **)&pr->need_entries[d], &need_cap, need_count, sizeof e))) break;
                            pr->need_entries[d][need_count++] = e;
                            continue;
                        }
                        /* The cells whose arrival makes the reference look at the placement. */
                        bool accepts = backwards ? rl->output[k] == v || rl->output[k] == RULE_KEEP : ((rl->input[k] >> v) & 1) != 0;
                        if (!accepts) continue;
                        if (!(ok = grow((void **)&pr->trigger_entries[d], &trigger_cap, trigger_count, sizeof e))) break;
                        pr->trigger_entries[d][trigger_count++] = e;
                    }
        }
    }
    if (ok) {
        pr->need_start[d][c] = need_count;
        pr->trigger_start[d][c] = trigger_count;
        bool queued[GRID_MAX_VALUES + 1] = {false};
        for (int v = 0; v < c; v++) {
            queued[v] = pr->need_start[d][v + 1] > pr->need_start[d][v] || pr->trigger_start[d][v + 1] > pr->trigger_start[d][v];
            pr->queued_values[d] += queued[v];
        }
        for (int k = 0; k < give_count; k++) pr->give[d][k].queued = queued[pr->give[d][k].value];
    }
    mem_free(need_total);
    mem_free(give_start);
    return ok;
}

/* Mark the cells where every entry's placement lies inside the grid, so
   that the propagation tests bounds only near the border. */
static bool init_interior(potential_rules *pr)
{
    int lo[3] = {0, 0, 0}, hi[3] = {pr->mx - 1, pr->my - 1, pr->mz - 1};
    for (int d = 0; d < 2; d++)
        for (int kind = 0; kind < 2; kind++) {
            const potential_entry *e = kind ? pr->trigger_entries[d] : pr->need_entries[d];
            int count = kind ? pr->trigger_start[d][pr->c] : pr->need_start[d][pr->c];
            for (int k = 0; k < count; k++) {
                const int delta[3] = {e[k].dx, e[k].dy, e[k].dz}, max[3] = {e[k].xmax, e[k].ymax, e[k].zmax};
                for (int a = 0; a < 3; a++) {
                    if (delta[a] > lo[a]) lo[a] = delta[a];
                    if (max[a] + delta[a] < hi[a]) hi[a] = max[a] + delta[a];
                }
            }
        }
    pr->interior = mem_calloc((size_t)((pr->cells + 63) / 64), sizeof *pr->interior);
    if (!pr->interior) return false;
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++) {
                int64_t i = x + (int64_t)y * pr->mx + (int64_t)z * pr->mx * pr->my;
                pr->interior[i >> 6] |= (uint64_t)1 << (i & 63);
            }
    return true;
}

/* Whether any placement looks at value v's arrivals in direction d (the
   entries init_direction makes for it). */
static bool looked_at(const potential_rules *pr, int d, int v)
{
    const bool backwards = d == 1;
    for (int ri = 0; ri < pr->rule_count; ri++) {
        const rule *rl = pr->rules[ri];
        if (rl->imx > pr->mx || rl->imy > pr->my || rl->imz > pr->mz) continue;
        const uint8_t *need = backwards ? rl->output : rl->binput;
        const int n = rl->imx * rl->imy * rl->imz;
        bool needs_nothing = true;
        for (int k = 0; k < n; k++) needs_nothing &= need[k] == RULE_KEEP;
        for (int k = 0; k < n; k++) {
            if (!needs_nothing ? need[k] == v
                               : backwards ? rl->output[k] == v || rl->output[k] == RULE_KEEP : ((rl->input[k] >> v) & 1) != 0)
                return true;
        }
    }
    return false;
}

bool potential_rules_init(potential_rules *pr, rule **rules, int rule_count, int c, int mx, int my, int mz, wave_bits kept)
{
    memset(pr, 0, sizeof *pr);
    pr->rules = rules;
    pr->rule_count = rule_count;
    pr->c = c;
    pr->mx = mx;
    pr->my = my;
    pr->mz = mz;
    pr->cells = (int64_t)mx * my * mz;
    while ((1 << pr->value_bits) < c) pr->value_bits++;
    for (int v = 0; v < c; v++) {
        bool keep = ((kept >> v) & 1) || looked_at(pr, 0, v) || looked_at(pr, 1, v);
        pr->row_of[v] = (int8_t)(keep ? pr->rows++ : -1);
    }
    for (int v = c; v <= GRID_MAX_VALUES; v++) pr->row_of[v] = -1;
    return init_direction(pr, 0) && init_direction(pr, 1) && init_interior(pr);
}

void potential_rules_free(potential_rules *pr)
{
    for (int d = 0; d < 2; d++) {
        mem_free(pr->need_start[d]);
        mem_free(pr->need_entries[d]);
        mem_free(pr->trigger_start[d]);
        mem_free(pr->trigger_entries[d]);
        mem_free(pr->give[d]);
    }
    mem_free(pr->interior);
    memset(pr, 0, sizeof *pr);
}

bool potential_scratch_init(potential_scratch *s, const potential_rules *pr, int64_t cells)
{
    memset(s, 0, sizeof *s);
    s->cells = cells;
    s->mask_words = (cells + 63) / 64;
    int rules = pr->rule_count ? pr->rule_count : 1;
    int queued = pr->queued_values[0] > pr->queued_values[1] ? pr->queued_values[0] : pr->queued_values[1];
    s->queue = mem_malloc((size_t)((queued ? queued : 1) * cells) * sizeof *s->queue);
    s->mask = mem_malloc((size_t)(s->mask_words * rules) * sizeof *s->mask);
    s->counts = mem_malloc((size_t)(cells * rules) * (pr->max_need > 255 ? 2 : 1));
    s->met = mem_malloc((size_t)(cells ? cells : 1));
    if (!s->queue || !s->mask || !s->counts || !s->met) {
        potential_scratch_free(s);
        return false;
    }
    return true;
}

void potential_scratch_free(potential_scratch *s)
{
    mem_free(s->queue);
    mem_free(s->mask);
    mem_free(s->counts);
    mem_free(s->met);
    memset(s, 0, sizeof *s);
}

bool observe_future(const observation *by_value, int c, uint8_t *state, int64_t cells, observe_goal *goal)
{
    bool seen[GRID_MAX_VALUES + 1] = {false};
    for (int v = 0; v <= GRID_MAX_VALUES; v++) goal->wave_of[v] = v >= c ? 0 : by_value[v].present ? by_value[v].to : wave_bit(v);
    for (int64_t i = 0; i < cells; i++) {
        uint8_t value = state[i];
        seen[value] = true;
        goal->was[i] = value;
        if (by_value[value].present) state[i] = by_value[value].from;
    }
    for (int v = 0; v < c; v++)
        if (by_value[v].present && !seen[v]) return false;
    return true;
}

static inline bool entry_inside(const potential_entry *e, int x, int y, int z)
{
    return (unsigned)(x - e->dx) <= (unsigned)e->xmax && (unsigned)(y - e->dy) <= (unsigned)e->ymax &&
           (unsigned)(z - e->dz) <= (unsigned)e->zmax;
}

/* Spread potentials from the zero cells, whose queued ones are in
   s->queue[0 .. tail). A placement fires at the time t of its last needed
   cell and gives its cells t+1 where they have no potential yet. With a
   goal (forward estimates), stop as soon as every cell has a goal value
   (s->met marks those, `unmet` counts the others) and return the sum of
   those first times (-1 if a cell never gets one under 1000); else return
   0. Everything the loop updates lives in locals: the counters are bytes,
   and a byte store could alias any field read through a pointer. */
static inline __attribute__((always_inline)) int spread(int32_t *const potentials, const potential_rules *pr,
                                                       potential_scratch *s, const int d, const observe_goal *const goal,
                                                       int64_t tail, int64_t unmet, const bool wide, const bool with_goal)
{
    uint32_t *const queue = s->queue;
    uint8_t *const met = s->met;
    uint8_t *const counts8 = s->counts;
    uint16_t *const counts16 = s->counts;
    uint64_t *const fired = s->mask;
    const int64_t cells = s->cells, mask_words = s->mask_words;
    const int value_bits = pr->value_bits, rule_count = pr->rule_count;
    const uint32_t value_mask = (1u << value_bits) - 1;
    const int mx = pr->mx;
    const int32_t plane = pr->mx * pr->my;
    const uint64_t *const interior = pr->interior;
    const int8_t *const row_of = pr->row_of;
    const potential_give *const gives = pr->give[d];
    const potential_entry *const need_entries = pr->need_entries[d], *const trigger_entries = pr->trigger_entries[d];
    const int *const need_start = pr->need_start[d], *const trigger_start = pr->trigger_start[d];
    const uint8_t *const goal_was = goal ? goal->was : NULL;
    const wave_bits *const goal_wave_of = goal ? goal->wave_of : NULL;
    int sum = 0;
    bool done = false;
/* The placement with its corner at SI fires at time T. */
#define FIRE(E, SI, T)                                                                                                   \
    for (const potential_give *g = gives + (E)->give, *g_end = gives + (E)->give_end; g < g_end; g++) {               \
        int64_t j = (SI) + g->at;                                                                                        \
        if (potentials[j] != -1) continue;                                                                               \
        potentials[j] = (T) + 1;                                                                                         \
        int32_t cell = (SI) + g->offset;                                                                                 \
        if (g->queued) queue[tail++] = (uint32_t)cell << value_bits | g->value;                                          \
        if (!with_goal || met[cell] || !((goal_wave_of[goal_was[cell]] >> g->value) & 1)) continue;                                        \
        /* Potentials arrive in increasing order, so this is the cell's least. */                                        \
        met[cell] = 1;                                                                                                   \
        sum += (T) + 1;                                                                                                  \
        if ((T) + 1 >= 1000) { sum = -1; done = true; break; }                                                           \
        if (--unmet == 0) { done = true; break; }                                                                        \
    }
    for (int64_t head = 0; head < tail; head++) {
        /* Counted toward the clock only (a search charges its boards' estimates by their size);
           the interrupted caller looks at stop_said. */
        if ((head & (STOP_ITEMS - 1)) == STOP_ITEMS - 1 && stop_tick(s->stop, STOP_ITEMS)) return with_goal ? -1 : 0;
        const uint32_t item = queue[head];
        const int value = (int)(item & value_mask);
        const int32_t i = (int32_t)(item >> value_bits);
        const int32_t t = potentials[row_of[value] * cells + i];
        /* A kind with no entries at all has no array (NULL), and NULL + 0 is undefined. */
        const potential_entry *e = need_entries ? need_entries + need_start[value] : NULL;
        const potential_entry *const e_end = need_entries ? need_entries + need_start[value + 1] : NULL;
        const potential_entry *te = trigger_entries ? trigger_entries + trigger_start[value] : NULL;
        const potential_entry *const te_end = trigger_entries ? trigger_entries + trigger_start[value + 1] : NULL;
        /* The counters of the placements around a cell lie together. */
        const int64_t base = (int64_t)i * rule_count;
        /* Away from the border every entry's placement is inside the grid. */
        const bool inside = (interior[i >> 6] >> (i & 63)) & 1;
        int x = 0, y = 0, z = 0;
        if (!inside) {
            z = i / plane;
            y = (i - z * plane) / mx;
            x = i - z * plane - y * mx;
        }
        for (; e < e_end; e++) {
            if (!inside && !entry_inside(e, x, y, z)) continue;
            const int64_t slot = e->slot + base;
            const int count = wide ? ++counts16[slot] : ++counts8[slot];
            if (count != e->need) continue;
            const int32_t si = i - e->offset;
            FIRE(e, si, t)
            if (with_goal && done) return sum;
        }
        for (; te < te_end; te++) {
            if (!inside && !entry_inside(te, x, y, z)) continue;
            const int32_t si = i - te->offset;
            uint64_t *mask = fired + te->rule * mask_words;
            if ((mask[si >> 6] >> (si & 63)) & 1) continue;
            mask[si >> 6] |= (uint64_t)1 << (si & 63);
            FIRE(te, si, t)
            if (with_goal && done) return sum;
        }
    }
#undef FIRE
    return with_goal ? -1 : 0;
}

static int propagate(int32_t *potentials, const potential_rules *pr, potential_scratch *s, bool backwards,
                     const observe_goal *goal, int64_t tail, int64_t unmet)
{
    const int d = backwards;
    if (goal && unmet == 0) return 0;
    memset(s->mask, 0, (size_t)(s->mask_words * pr->rule_count) * sizeof *s->mask);
    const bool wide = pr->max_need > 255;
    memset(s->counts, 0, (size_t)(s->cells * pr->rule_count) * (wide ? 2 : 1));
    if (goal) return wide ? spread(potentials, pr, s, d, goal, tail, unmet, true, true)
                          : spread(potentials, pr, s, d, goal, tail, unmet, false, true);
    return wide ? spread(potentials, pr, s, d, NULL, tail, 0, true, false)
                : spread(potentials, pr, s, d, NULL, tail, 0, false, false);
}

static bool queued_value(const potential_rules *pr, int d, int v)
{
    return pr->need_start[d][v + 1] > pr->need_start[d][v] || pr->trigger_start[d][v + 1] > pr->trigger_start[d][v];
}

void observe_backward_potentials(int32_t *potentials, const observe_goal *future, const potential_rules *pr,
                                 potential_scratch *s)
{
    const int64_t cells = s->cells;
    const int d = 1;
    wave_bits kept = 0, queued = 0;
    for (int v = 0; v < pr->c; v++) {
        if (pr->row_of[v] >= 0) kept |= wave_bit(v);
        if (queued_value(pr, d, v)) queued |= wave_bit(v);
    }
    memset(potentials, 0xff, (size_t)(pr->rows * cells) * sizeof *potentials); /* -1 */
    /* The zero cells, queued cell by cell (the order within a time does not
       change the potentials). */
    int64_t tail = 0;
    for (int64_t i = 0; i < cells; i++)
        for (wave_bits f = observe_goal_at(future, i) & kept; f; f &= f - 1) {
            int v = __builtin_ctzll(f);
            potentials[pr->row_of[v] * cells + i] = 0;
            if ((queued >> v) & 1) s->queue[tail++] = (uint32_t)i << pr->value_bits | (uint32_t)v;
        }
    propagate(potentials, pr, s, true, NULL, tail, 0);
}

int observe_forward_estimate_of(int32_t *potentials, const uint8_t *state, const observe_goal *future,
                                const potential_rules *pr, potential_scratch *s)
{
    const int64_t cells = s->cells;
    const int d = 0;
    int64_t tail = 0, unmet = 0;
    memset(potentials, 0xff, (size_t)(pr->rows * cells) * sizeof *potentials); /* -1 */
    for (int64_t i = 0; i < cells; i++) {
        const int v = state[i];
        if (pr->row_of[v] >= 0) potentials[pr->row_of[v] * cells + i] = 0;
        if (queued_value(pr, d, v)) s->queue[tail++] = (uint32_t)i << pr->value_bits | (uint32_t)v;
        s->met[i] = (observe_goal_at(future, i) >> v) & 1;
        unmet += !s->met[i];
    }
    return propagate(potentials, pr, s, false, future, tail, unmet);
}

static inline bool cells_met(const uint8_t *state, const observe_goal *future, int64_t from, int64_t to, int32_t *hint)
{
    const uint8_t *const was = future->was;
    const wave_bits *const wave_of = future->wave_of;
    for (int64_t i = from < 0 ? 0 : from; i < to; i++)
        if (!((wave_of[was[i]] >> state[i]) & 1)) {
            *hint = (int32_t)i;
            return false;
        }
    return true;
}

bool observe_goal_reached(const uint8_t *state, const observe_goal *future, int64_t cells, int32_t *hint)
{
    /* A cell that is not there yet is usually next to the last one found
       (the head of a growing line): look near it first. */
    int64_t h = *hint < cells ? *hint : 0;
    for (int64_t window = 64; window <= 4096; window *= 64)
        if (!cells_met(state, future, h - window, h + window < cells ? h + window : cells, hint)) return false;
    return cells_met(state, future, 0, cells, hint);
}

int observe_backward_estimate(const int32_t *potentials, const uint8_t *state, int64_t cells)
{
    int sum = 0;
    for (int64_t i = 0; i < cells; i++) {
        int32_t p = potentials[state[i] * cells + i];
        if (p < 0) return -1;
        sum += p;
    }
    return sum;
}
