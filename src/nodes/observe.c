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

static potential_entry entry_at(const potential_rules *pr, const rule *rl, int ri, int dx, int dy, int dz)
{
    return (potential_entry){.rule = ri, .offset = dx + dy * pr->mx + dz * pr->mx * pr->my,
                             .dx = (int16_t)dx, .dy = (int16_t)dy, .dz = (int16_t)dz,
                             .xmax = pr->mx - rl->imx, .ymax = pr->my - rl->imy, .zmax = pr->mz - rl->imz};
}

static bool init_direction(potential_rules *pr, int d)
{
    const bool backwards = d == 1;
    const int c = pr->c, rule_count = pr->rule_count;
    int need_cap = 0, need_count = 0, trigger_cap = 0, trigger_count = 0, give_cap = 0, give_count = 0;
    pr->need_total[d] = mem_calloc((size_t)rule_count + 1, sizeof(int));
    pr->give_start[d] = mem_malloc((size_t)(rule_count + 1) * sizeof(int));
    pr->need_start[d] = mem_malloc((size_t)(c + 1) * sizeof(int));
    pr->trigger_start[d] = mem_malloc((size_t)(c + 1) * sizeof(int));
    if (!pr->need_total[d] || !pr->give_start[d] || !pr->need_start[d] || !pr->trigger_start[d]) return false;
    for (int ri = 0; ri < rule_count; ri++) {
        const rule *rl = pr->rules[ri];
        const uint8_t *need = backwards ? rl->output : rl->binput, *give = backwards ? rl->binput : rl->output;
        pr->give_start[d][ri] = give_count;
        for (int dz = 0, k = 0; dz < rl->imz; dz++)
            for (int dy = 0; dy < rl->imy; dy++)
                for (int dx = 0; dx < rl->imx; dx++, k++) {
                    if (need[k] != RULE_KEEP) pr->need_total[d][ri]++;
                    if (give[k] == RULE_KEEP) continue;
                    if (!grow((void **)&pr->give[d], &give_cap, give_count, sizeof(int64_t))) return false;
                    pr->give[d][give_count++] = give[k] * pr->cells + dx + dy * pr->mx + dz * pr->mx * pr->my;
                }
        if (pr->need_total[d][ri] > pr->max_need) pr->max_need = pr->need_total[d][ri];
    }
    pr->give_start[d][rule_count] = give_count;
    for (int v = 0; v < c; v++) {
        pr->need_start[d][v] = need_count;
        pr->trigger_start[d][v] = trigger_count;
        for (int ri = 0; ri < rule_count; ri++) {
            const rule *rl = pr->rules[ri];
            if (rl->imx > pr->mx || rl->imy > pr->my || rl->imz > pr->mz) continue; /* never inside */
            const uint8_t *need = backwards ? rl->output : rl->binput;
            bool needs_nothing = pr->need_total[d][ri] == 0;
            for (int dz = 0, k = 0; dz < rl->imz; dz++)
                for (int dy = 0; dy < rl->imy; dy++)
                    for (int dx = 0; dx < rl->imx; dx++, k++) {
                        if (!needs_nothing) {
                            if (need[k] != v) continue;
                            if (!grow((void **)&pr->need_entries[d], &need_cap, need_count, sizeof(potential_entry))) return false;
                            pr->need_entries[d][need_count++] = entry_at(pr, rl, ri, dx, dy, dz);
                            continue;
                        }
                        /* The cells whose arrival makes the reference look at the placement. */
                        bool accepts = backwards ? rl->output[k] == v || rl->output[k] == RULE_KEEP : ((rl->input[k] >> v) & 1) != 0;
                        if (!accepts) continue;
                        if (!grow((void **)&pr->trigger_entries[d], &trigger_cap, trigger_count, sizeof(potential_entry))) return false;
                        pr->trigger_entries[d][trigger_count++] = entry_at(pr, rl, ri, dx, dy, dz);
                    }
        }
    }
    pr->need_start[d][c] = need_count;
    pr->trigger_start[d][c] = trigger_count;
    return true;
}

bool potential_rules_init(potential_rules *pr, rule **rules, int rule_count, int c, int mx, int my, int mz)
{
    memset(pr, 0, sizeof *pr);
    pr->rules = rules;
    pr->rule_count = rule_count;
    pr->c = c;
    pr->mx = mx;
    pr->my = my;
    pr->mz = mz;
    pr->cells = (int64_t)mx * my * mz;
    return init_direction(pr, 0) && init_direction(pr, 1);
}

void potential_rules_free(potential_rules *pr)
{
    for (int d = 0; d < 2; d++) {
        mem_free(pr->need_total[d]);
        mem_free(pr->need_start[d]);
        mem_free(pr->need_entries[d]);
        mem_free(pr->trigger_start[d]);
        mem_free(pr->trigger_entries[d]);
        mem_free(pr->give_start[d]);
        mem_free(pr->give[d]);
    }
    memset(pr, 0, sizeof *pr);
}

bool potential_scratch_init(potential_scratch *s, const potential_rules *pr, int64_t cells)
{
    memset(s, 0, sizeof *s);
    s->cells = cells;
    s->mask_words = (cells + 63) / 64;
    int rules = pr->rule_count ? pr->rule_count : 1;
    s->queue = mem_malloc((size_t)(pr->c * cells) * sizeof *s->queue);
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

/* A placement fires at time t: its cells get t+1 where they have no
   potential yet. Returns false when the goal estimate is complete. */
typedef struct spread {
    int32_t *potentials;
    potential_scratch *s;
    const uint32_t *goal;
    int64_t tail, unmet;
    int sum;
    bool done;
} spread;

static void fire(spread *sp, const int64_t *give, const int64_t *give_end, int32_t si, int32_t t)
{
    const int64_t cells = sp->s->cells;
    for (; give < give_end; give++) {
        int64_t j = si + *give;
        if (sp->potentials[j] != -1) continue;
        sp->potentials[j] = t + 1;
        sp->s->queue[sp->tail++] = (int32_t)j;
        if (!sp->goal) continue;
        int64_t idx = j % cells;
        if (sp->s->met[idx] || !((sp->goal[idx] >> (j / cells)) & 1)) continue;
        /* Potentials arrive in increasing order, so this is the cell's least. */
        sp->s->met[idx] = 1;
        sp->sum += t + 1;
        if (t + 1 >= 1000) { sp->sum = -1; sp->done = true; return; }
        if (--sp->unmet == 0) { sp->done = true; return; }
    }
}

static inline bool entry_corner(const potential_entry *e, int x, int y, int z, int32_t i, int32_t *si)
{
    if ((unsigned)(x - e->dx) > (unsigned)e->xmax || (unsigned)(y - e->dy) > (unsigned)e->ymax ||
        (unsigned)(z - e->dz) > (unsigned)e->zmax)
        return false;
    *si = i - e->offset;
    return true;
}

/* Spread potentials from the zero cells. With a goal, stop as soon as every
   cell has a goal value and return the forward estimate (the sum of those
   first times; -1 if a cell never gets one under 1000); else return 0. */
static int propagate(int32_t *potentials, const potential_rules *pr, potential_scratch *s, bool backwards,
                     const uint32_t *goal)
{
    const int d = backwards;
    const int64_t cells = s->cells;
    const int mx = pr->mx;
    const int32_t plane = mx * pr->my;
    spread sp = {.potentials = potentials, .s = s, .goal = goal};
    for (int v = 0; v < pr->c; v++)
        for (int64_t i = 0; i < cells; i++)
            if (potentials[v * cells + i] == 0) s->queue[sp.tail++] = (int32_t)(v * cells + i);
    memset(s->mask, 0, (size_t)(s->mask_words * pr->rule_count) * sizeof *s->mask);
    const bool wide = pr->max_need > 255;
    memset(s->counts, 0, (size_t)(cells * pr->rule_count) * (wide ? 2 : 1));
    uint8_t *counts8 = s->counts;
    uint16_t *counts16 = s->counts;
    if (goal) {
        memset(s->met, 0, (size_t)cells);
        for (int64_t k = 0; k < sp.tail; k++) {
            int64_t idx = s->queue[k] % cells;
            if ((goal[idx] >> (s->queue[k] / cells)) & 1) s->met[idx] = 1;
        }
        for (int64_t i = 0; i < cells; i++) sp.unmet += !s->met[i];
        if (sp.unmet == 0) return 0;
    }
    const potential_entry *need_entries = pr->need_entries[d], *trigger_entries = pr->trigger_entries[d];
    const int *need_start = pr->need_start[d], *trigger_start = pr->trigger_start[d], *need_total = pr->need_total[d];
    const int *give_start = pr->give_start[d];
    const int64_t *give = pr->give[d];
    for (int64_t head = 0; head < sp.tail && !sp.done; head++) {
        int64_t item = s->queue[head];
        int value = (int)(item / cells);
        int32_t i = (int32_t)(item - value * cells);
        int32_t z = i / plane, y = (i - z * plane) / mx, x = i - z * plane - y * mx;
        const int32_t t = potentials[item];
        int32_t si;
        for (int l = need_start[value], end = need_start[value + 1]; l < end && !sp.done; l++) {
            const potential_entry *e = &need_entries[l];
            if (!entry_corner(e, x, y, z, i, &si)) continue;
            int64_t slot = (int64_t)e->rule * cells + si;
            int count = wide ? ++counts16[slot] : ++counts8[slot];
            if (count == need_total[e->rule]) fire(&sp, give + give_start[e->rule], give + give_start[e->rule + 1], si, t);
        }
        for (int l = trigger_start[value], end = trigger_start[value + 1]; l < end && !sp.done; l++) {
            const potential_entry *e = &trigger_entries[l];
            if (!entry_corner(e, x, y, z, i, &si)) continue;
            uint64_t *mask = s->mask + e->rule * s->mask_words;
            if ((mask[si >> 6] >> (si & 63)) & 1) continue;
            mask[si >> 6] |= (uint64_t)1 << (si & 63);
            fire(&sp, give + give_start[e->rule], give + give_start[e->rule + 1], si, t);
        }
    }
    if (!goal) return 0;
    return sp.done ? sp.sum : -1;
}

void observe_backward_potentials(int32_t *potentials, const uint32_t *future, const potential_rules *pr,
                                 potential_scratch *s)
{
    const int64_t cells = s->cells;
    for (int v = 0; v < pr->c; v++)
        for (int64_t i = 0; i < cells; i++) potentials[v * cells + i] = (future[i] >> v) & 1 ? 0 : -1;
    propagate(potentials, pr, s, true, NULL);
}

int observe_forward_estimate_of(int32_t *potentials, const uint8_t *state, const uint32_t *future,
                                const potential_rules *pr, potential_scratch *s)
{
    const int64_t cells = s->cells;
    for (int64_t k = 0; k < pr->c * cells; k++) potentials[k] = -1;
    for (int64_t i = 0; i < cells; i++) potentials[state[i] * cells + i] = 0;
    return propagate(potentials, pr, s, false, future);
}

bool observe_goal_reached(const uint8_t *state, const uint32_t *future, int64_t cells)
{
    for (int64_t i = 0; i < cells; i++)
        if (!((future[i] >> state[i]) & 1)) return false;
    return true;
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
