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
    return (potential_entry){.slot = (int64_t)ri * pr->cells - offset, .offset = offset, .need = need,
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
                    /* A value without potentials is never looked at: giving it one changes nothing. */
                    if (give[k] == RULE_KEEP || pr->row_of[give[k]] < 0) continue;
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

bool potential_rules_init(potential_rules *pr, rule **rules, int rule_count, int c, int mx, int my, int mz, uint32_t kept)
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
    for (int v = c; v < GRID_MAX_VALUES; v++) pr->row_of[v] = -1;
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

bool observe_future(const observation *by_value, int c, uint8_t *state, int64_t cells, uint32_t *future)
{
    bool seen[GRID_MAX_VALUES + 1] = {false};
    for (int64_t i = 0; i < cells; i++) {
        uint8_t value = state[i];
        seen[value] = true;
        if (by_value[value].present) {
            future[i] = by_value[value].to;
            state[i] = by_value[value].from;
        } else future[i] = 1u << value;
    }
    for (int v = 0; v < c; v++)
        if (by_value[v].present && !seen[v]) return false;
    return true;
}

/* The state of one propagation. */
typedef struct spread {
    int32_t *potentials;
    uint32_t *queue;
    uint8_t *met;
    const uint32_t *goal;
    int64_t cells, tail, unmet;
    int value_bits;
    int sum;
    bool done;
} spread;

/* A placement with its corner at si fires at time t: its cells get t+1
   where they have no potential yet. With a goal, sets done once the goal
   estimate is complete. */
static inline __attribute__((always_inline)) void fire(spread *sp, const potential_give *give,
                                                      const potential_give *give_end, int32_t si, int32_t t,
                                                      bool with_goal)
{
    for (; give < give_end; give++) {
        int64_t j = si + give->at;
        if (sp->potentials[j] != -1) continue;
        sp->potentials[j] = t + 1;
        int32_t cell = si + give->offset;
        if (give->queued) sp->queue[sp->tail++] = (uint32_t)cell << sp->value_bits | give->value;
        if (!with_goal) continue;
        if (sp->met[cell] || !((sp->goal[cell] >> give->value) & 1)) continue;
        /* Potentials arrive in increasing order, so this is the cell's least. */
        sp->met[cell] = 1;
        sp->sum += t + 1;
        if (t + 1 >= 1000) { sp->sum = -1; sp->done = true; return; }
        if (--sp->unmet == 0) { sp->done = true; return; }
    }
}

static inline bool entry_inside(const potential_entry *e, int x, int y, int z)
{
    return (unsigned)(x - e->dx) <= (unsigned)e->xmax && (unsigned)(y - e->dy) <= (unsigned)e->ymax &&
           (unsigned)(z - e->dz) <= (unsigned)e->zmax;
}

/* One arrival: value at cell i with potential t. Away from the border every
   entry's placement is inside the grid and needs no test. */
static inline __attribute__((always_inline)) void arrive(spread *sp, const potential_rules *pr, potential_scratch *s,
                                                        int d, int value, int32_t i, bool wide, bool with_goal)
{
    const int32_t t = sp->potentials[pr->row_of[value] * sp->cells + i];
    const potential_give *give = pr->give[d];
    const potential_entry *e = pr->need_entries[d] + pr->need_start[d][value];
    const potential_entry *e_end = pr->need_entries[d] + pr->need_start[d][value + 1];
    const potential_entry *te = pr->trigger_entries[d] + pr->trigger_start[d][value];
    const potential_entry *te_end = pr->trigger_entries[d] + pr->trigger_start[d][value + 1];
    uint8_t *counts8 = s->counts;
    uint16_t *counts16 = s->counts;
    const bool inside = (pr->interior[i >> 6] >> (i & 63)) & 1;
    int x = 0, y = 0, z = 0;
    if (!inside) {
        const int32_t plane = pr->mx * pr->my;
        z = i / plane;
        y = (i - z * plane) / pr->mx;
        x = i - z * plane - y * pr->mx;
    }
    for (; e < e_end && !sp->done; e++) {
        if (!inside && !entry_inside(e, x, y, z)) continue;
        int64_t slot = e->slot + i;
        int count = wide ? ++counts16[slot] : ++counts8[slot];
        if (count == e->need) fire(sp, give + e->give, give + e->give_end, i - e->offset, t, with_goal);
    }
    for (; te < te_end && !sp->done; te++) {
        if (!inside && !entry_inside(te, x, y, z)) continue;
        int32_t si = i - te->offset;
        uint64_t *mask = s->mask + te->rule * s->mask_words;
        if ((mask[si >> 6] >> (si & 63)) & 1) continue;
        mask[si >> 6] |= (uint64_t)1 << (si & 63);
        fire(sp, give + te->give, give + te->give_end, si, t, with_goal);
    }
}

static inline __attribute__((always_inline)) void spread_all(spread *sp, const potential_rules *pr, potential_scratch *s,
                                                            int d, bool wide, bool with_goal)
{
    const uint32_t value_mask = (1u << sp->value_bits) - 1;
    for (int64_t head = 0; head < sp->tail && !sp->done; head++) {
        uint32_t item = sp->queue[head];
        arrive(sp, pr, s, d, (int)(item & value_mask), (int32_t)(item >> sp->value_bits), wide, with_goal);
    }
}

/* Spread potentials from the zero cells, whose queued ones are in
   s->queue[0 .. tail). With a goal, stop as soon as every cell has a goal
   value and return the forward estimate (the sum of those first times; -1
   if a cell never gets one under 1000); else return 0. */
static int propagate(int32_t *potentials, const potential_rules *pr, potential_scratch *s, bool backwards,
                     const uint32_t *goal, int64_t tail, int64_t unmet)
{
    const int d = backwards;
    const int64_t cells = s->cells;
    spread sp = {.potentials = potentials, .queue = s->queue, .met = s->met, .goal = goal, .cells = cells,
                 .tail = tail, .unmet = unmet, .value_bits = pr->value_bits};
    if (goal && unmet == 0) return 0;
    memset(s->mask, 0, (size_t)(s->mask_words * pr->rule_count) * sizeof *s->mask);
    const bool wide = pr->max_need > 255;
    memset(s->counts, 0, (size_t)(cells * pr->rule_count) * (wide ? 2 : 1));
    if (goal) {
        if (wide) spread_all(&sp, pr, s, d, true, true);
        else spread_all(&sp, pr, s, d, false, true);
    } else {
        if (wide) spread_all(&sp, pr, s, d, true, false);
        else spread_all(&sp, pr, s, d, false, false);
    }
    if (!goal) return 0;
    return sp.done ? sp.sum : -1;
}

void observe_backward_potentials(int32_t *potentials, const uint32_t *future, const potential_rules *pr,
                                 potential_scratch *s)
{
    const int64_t cells = s->cells;
    const int d = 1;
    int64_t tail = 0;
    for (int v = 0; v < pr->c; v++) {
        if (pr->row_of[v] < 0) continue;
        int32_t *row = potentials + pr->row_of[v] * cells;
        const bool queued = pr->need_start[d][v + 1] > pr->need_start[d][v] || pr->trigger_start[d][v + 1] > pr->trigger_start[d][v];
        for (int64_t i = 0; i < cells; i++) row[i] = (int32_t)((future[i] >> v) & 1) - 1;
        if (!queued) continue;
        for (int64_t i = 0; i < cells; i++) {
            s->queue[tail] = (uint32_t)i << pr->value_bits | (uint32_t)v;
            tail += (future[i] >> v) & 1;
        }
    }
    propagate(potentials, pr, s, true, NULL, tail, 0);
}

int observe_forward_estimate_of(int32_t *potentials, const uint8_t *state, const uint32_t *future,
                                const potential_rules *pr, potential_scratch *s)
{
    const int64_t cells = s->cells;
    const int d = 0;
    int64_t tail = 0, unmet = 0;
    for (int64_t k = 0; k < pr->rows * cells; k++) potentials[k] = -1;
    for (int64_t i = 0; i < cells; i++) {
        const int v = state[i];
        if (pr->row_of[v] >= 0) potentials[pr->row_of[v] * cells + i] = 0;
        s->met[i] = (future[i] >> v) & 1;
        unmet += !s->met[i];
    }
    /* Queued by value then cell, as the zero cells are found. */
    for (int v = 0; v < pr->c; v++) {
        if (pr->need_start[d][v + 1] == pr->need_start[d][v] && pr->trigger_start[d][v + 1] == pr->trigger_start[d][v]) continue;
        for (int64_t i = 0; i < cells; i++)
            if (state[i] == v) s->queue[tail++] = (uint32_t)i << pr->value_bits | (uint32_t)v;
    }
    return propagate(potentials, pr, s, false, future, tail, unmet);
}

static inline bool cells_met(const uint8_t *state, const uint32_t *future, int64_t from, int64_t to, int32_t *hint)
{
    for (int64_t i = from < 0 ? 0 : from; i < to; i++)
        if (!((future[i] >> state[i]) & 1)) {
            *hint = (int32_t)i;
            return false;
        }
    return true;
}

bool observe_goal_reached(const uint8_t *state, const uint32_t *future, int64_t cells, int32_t *hint)
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
