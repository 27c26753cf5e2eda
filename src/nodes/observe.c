/* observe.c — goals from `<observe>` and the forward/backward potentials that inference and search follow. */
#include "observe.h"
#include "../core/xmlutil.h"
#include <stdlib.h>
#include <string.h>

static const char *const observe_attrs[] = {"value", "from", "to", NULL};

bool observation_load(diag *d, const xmlNode *el, const grid_def *g, observation *by_value)
{
    xml_check_attrs(d, el, observe_attrs);
    char value, from;
    bool present, has_from;
    if (!xml_get_char(d, el, "value", &value, &present)) return false;
    if (!present) return diag_error(d, TS_ERR_MODEL, xml_line(el), "<observe> needs a value attribute");
    int v = g->value_of[(unsigned char)value];
    if (v < 0) return diag_error(d, TS_ERR_MODEL, xml_line(el), "observed value %c is not a value of the grid", value);
    if (!xml_get_char(d, el, "from", &from, &has_from)) return false;
    if (!has_from) from = value;
    if (g->value_of[(unsigned char)from] < 0)
        return diag_error(d, TS_ERR_MODEL, xml_line(el), "from=\"%c\" is not a value of the grid", from);
    const char *to = xml_attr(el, "to");
    if (!to || !*to) return diag_error(d, TS_ERR_MODEL, xml_line(el), "<observe> needs a to attribute (the values it ends as)");
    observation *o = &by_value[v];
    if (!grid_wave(g, to, &o->to))
        return diag_error(d, TS_ERR_MODEL, xml_line(el), "to=\"%s\" names a symbol that is not a value of the grid", to);
    o->present = true;
    o->from = (uint8_t)g->value_of[(unsigned char)from];
    return true;
}

bool potential_rules_init(potential_rules *pr, rule **rules, int rule_count, int c)
{
    memset(pr, 0, sizeof *pr);
    pr->rules = rules;
    pr->rule_count = rule_count;
    pr->c = c;
    pr->oshift_start = calloc((size_t)rule_count + 1, sizeof *pr->oshift_start);
    pr->oshifts = calloc((size_t)rule_count + 1, sizeof *pr->oshifts);
    if (!pr->oshift_start || !pr->oshifts) return false;
    for (int ri = 0; ri < rule_count; ri++) {
        const rule *rl = rules[ri];
        int n = rl->omx * rl->omy * rl->omz, total = 0;
        for (int k = 0; k < n; k++) total += rl->output[k] == RULE_KEEP ? c : 1;
        int *start = calloc((size_t)c + 1, sizeof *start);
        int16_t(*shifts)[3] = malloc((size_t)(total ? total : 1) * sizeof *shifts);
        pr->oshift_start[ri] = start;
        pr->oshifts[ri] = shifts;
        if (!start || !shifts) return false;
        /* Grouped by value, each group in z,y,x order. */
        int used = 0;
        for (int v = 0; v < c; v++) {
            start[v] = used;
            for (int z = 0, k = 0; z < rl->omz; z++)
                for (int y = 0; y < rl->omy; y++)
                    for (int x = 0; x < rl->omx; x++, k++)
                        if (rl->output[k] == v || rl->output[k] == RULE_KEEP) {
                            shifts[used][0] = (int16_t)x;
                            shifts[used][1] = (int16_t)y;
                            shifts[used][2] = (int16_t)z;
                            used++;
                        }
        }
        start[c] = used;
    }
    return true;
}

void potential_rules_free(potential_rules *pr)
{
    for (int ri = 0; pr->oshift_start && ri < pr->rule_count; ri++) {
        free(pr->oshift_start[ri]);
        if (pr->oshifts) free(pr->oshifts[ri]);
    }
    free(pr->oshift_start);
    free(pr->oshifts);
    memset(pr, 0, sizeof *pr);
}

bool potential_scratch_init(potential_scratch *s, const potential_rules *pr, int64_t cells)
{
    memset(s, 0, sizeof *s);
    s->cells = cells;
    s->mask_words = (cells + 63) / 64;
    s->queue = malloc((size_t)(pr->c * cells) * sizeof *s->queue);
    s->mask = malloc((size_t)(s->mask_words * (pr->rule_count ? pr->rule_count : 1)) * sizeof *s->mask);
    if (!s->queue || !s->mask) {
        potential_scratch_free(s);
        return false;
    }
    return true;
}

void potential_scratch_free(potential_scratch *s)
{
    free(s->queue);
    free(s->mask);
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

/* Can the rule be placed at corner (x,y,z) at time t: every cell it needs
   (its output going backwards, its input going forwards) is reachable by t? */
static bool placement_ready(const rule *rl, const uint8_t *cells_of, const int32_t *potentials, int64_t cells, int32_t at,
                            int mx, int my, int t)
{
    int k = 0;
    for (int dz = 0; dz < rl->imz; dz++)
        for (int dy = 0; dy < rl->imy; dy++)
            for (int dx = 0; dx < rl->imx; dx++, k++) {
                uint8_t v = cells_of[k];
                if (v == RULE_KEEP) continue;
                int32_t p = potentials[v * cells + at + dx + dy * mx + dz * mx * my];
                if (p > t || p == -1) return false;
            }
    return true;
}

static void propagate(int32_t *potentials, int mx, int my, int mz, const potential_rules *pr, potential_scratch *s,
                      bool backwards)
{
    const int64_t cells = s->cells;
    const int32_t plane = mx * my;
    int64_t head = 0, tail = 0;
    for (int v = 0; v < pr->c; v++)
        for (int64_t i = 0; i < cells; i++)
            if (potentials[v * cells + i] == 0) s->queue[tail++] = (int32_t)(v * cells + i);
    memset(s->mask, 0, (size_t)(s->mask_words * pr->rule_count) * sizeof *s->mask);
    while (head < tail) {
        int64_t item = s->queue[head++];
        int value = (int)(item / cells);
        int32_t i = (int32_t)(item - value * cells);
        int32_t z = i / plane, y = (i - z * plane) / mx, x = i - z * plane - y * mx;
        int t = potentials[item];
        for (int ri = 0; ri < pr->rule_count; ri++) {
            const rule *rl = pr->rules[ri];
            uint64_t *mask = s->mask + ri * s->mask_words;
            int from, to;
            const int16_t(*shifts)[3];
            if (backwards) {
                from = pr->oshift_start[ri][value];
                to = pr->oshift_start[ri][value + 1];
                shifts = pr->oshifts[ri];
            } else {
                from = rl->ishift_start[value];
                to = rl->ishift_start[value + 1];
                shifts = rl->ishifts;
            }
            for (int l = from; l < to; l++) {
                int sx = x - shifts[l][0], sy = y - shifts[l][1], sz = z - shifts[l][2];
                if (sx < 0 || sy < 0 || sz < 0 || sx + rl->imx > mx || sy + rl->imy > my || sz + rl->imz > mz) continue;
                int32_t si = sx + sy * mx + sz * plane;
                if ((mask[si >> 6] >> (si & 63)) & 1) continue;
                if (!placement_ready(rl, backwards ? rl->output : rl->binput, potentials, cells, si, mx, my, t)) continue;
                mask[si >> 6] |= (uint64_t)1 << (si & 63);
                /* Apply: the cells the other side of the rule gets are reachable at t+1. */
                const uint8_t *apply = backwards ? rl->binput : rl->output;
                int k = 0;
                for (int dz = 0; dz < rl->imz; dz++)
                    for (int dy = 0; dy < rl->imy; dy++)
                        for (int dx = 0; dx < rl->imx; dx++, k++) {
                            uint8_t o = apply[k];
                            if (o == RULE_KEEP) continue;
                            int64_t j = o * cells + si + dx + dy * mx + dz * plane;
                            if (potentials[j] == -1) {
                                potentials[j] = t + 1;
                                s->queue[tail++] = (int32_t)j;
                            }
                        }
            }
        }
    }
}

void observe_backward_potentials(int32_t *potentials, const uint32_t *future, int mx, int my, int mz,
                                 const potential_rules *pr, potential_scratch *s)
{
    const int64_t cells = s->cells;
    for (int v = 0; v < pr->c; v++)
        for (int64_t i = 0; i < cells; i++) potentials[v * cells + i] = (future[i] >> v) & 1 ? 0 : -1;
    propagate(potentials, mx, my, mz, pr, s, true);
}

void observe_forward_potentials(int32_t *potentials, const uint8_t *state, int mx, int my, int mz,
                                const potential_rules *pr, potential_scratch *s)
{
    const int64_t cells = s->cells;
    for (int64_t k = 0; k < pr->c * cells; k++) potentials[k] = -1;
    for (int64_t i = 0; i < cells; i++) potentials[state[i] * cells + i] = 0;
    propagate(potentials, mx, my, mz, pr, s, false);
}

bool observe_goal_reached(const uint8_t *state, const uint32_t *future, int64_t cells)
{
    for (int64_t i = 0; i < cells; i++)
        if (!((future[i] >> state[i]) & 1)) return false;
    return true;
}

int observe_forward_estimate(const int32_t *potentials, int c, const uint32_t *future, int64_t cells)
{
    int sum = 0;
    for (int64_t i = 0; i < cells; i++) {
        int min = 1000, found = 0; /* potentials of 1000 and more do not count, as in the reference */
        for (int v = 0; v < c; v++) {
            int32_t p = potentials[v * cells + i];
            if ((future[i] >> v) & 1 && p >= 0 && p < min) {
                min = p;
                found = 1;
            }
        }
        if (!found) return -1;
        sum += min;
    }
    return sum;
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
