/* map.c — the `map` node: rewrite the grid into a new grid of another size and values, then run its children on it. */
#include "branch.h"
#include "../core/rule.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

typedef struct map_node {
    branch b;                 /* children, run once the new grid is made */
    grid_def newgrid;
    int num[3], den[3];       /* scale factors num/den per axis */
    rule **rules;
    int rule_count;
} map_node;

typedef struct map_state {
    branch_state b;           /* b.n == -1: the mapping step has not happened */
    uint8_t *cells;           /* the new grid */
} map_state;

static const char *const map_attrs[] = {"scale", "values", "symmetry", "folder", "transparent", "outputValues", "regular", NULL};
static const char *const map_rule_attrs[] = {"in", "out", "fin", "fout", "file", "legend", "p", NULL};

static void map_free(node *n)
{
    map_node *m = (map_node *)n;
    for (int i = 0; i < m->rule_count; i++) rule_free(m->rules[i]);
    mem_free(m->rules);
    grid_free(&m->newgrid);
    branch_free(n);
}

/* "2", "5/3": a positive fraction. */
static bool parse_factor(const char *s, size_t len, int *num, int *den)
{
    char text[32];
    if (len == 0 || len >= sizeof text) return false;
    memcpy(text, s, len);
    text[len] = 0;
    char *slash = strchr(text, '/');
    if (slash) *slash = 0;
    if (!xml_parse_int_text(text, num) || *num < 1) return false;
    *den = 1;
    if (slash && (!xml_parse_int_text(slash + 1, den) || *den < 1)) return false;
    return true;
}

static bool parse_scale(diag *d, const xmlNode *el, map_node *m)
{
    const char *scale = xml_attr(el, "scale");
    if (!scale) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<map> needs a scale attribute, such as scale=\"2 2 1\"");
    const char *p = scale;
    for (int axis = 0; axis < 3; axis++) {
        size_t len = strcspn(p, " ");
        if (!parse_factor(p, len, &m->num[axis], &m->den[axis]) || (axis < 2 && p[len] != ' ') || (axis == 2 && p[len]))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                              "scale=\"%s\" should be 3 positive factors separated by spaces, such as \"2 2 1\" or \"5/3 5/3 1\"",
                              scale);
        p += len + (p[len] == ' ');
    }
    return true;
}

static node *map_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    diag *d = ld->d;
    map_node *m = node_new(ld, sizeof *m, &node_kind_map, el);
    if (!m) return NULL;
    xml_check_attrs(d, el, map_attrs);
    if (!parse_scale(d, el, m)) return NULL;

    grid_def *old = ld->grid;
    int64_t size[3] = {(int64_t)old->mx * m->num[0] / m->den[0], (int64_t)old->my * m->num[1] / m->den[1],
                       (int64_t)old->mz * m->num[2] / m->den[2]};
    int64_t cells;
    bool empty = size[0] < 1 || size[1] < 1 || size[2] < 1;
    if (!grid_cells_within_cap(size[0], size[1], size[2], &cells)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "scale=\"%s\" turns the %dx%dx%d grid into %lldx%lldx%lld, %s",
                   xml_attr(el, "scale"), old->mx, old->my, old->mz, (long long)size[0], (long long)size[1],
                   (long long)size[2], empty ? "which is empty" : "which is absurdly large");
        return NULL;
    }
    if (!grid_load(d, el, (int)size[0], (int)size[1], (int)size[2], ld->max_values, node_holds_unions, &m->newgrid)) return NULL;

    bool d2 = old->mz == 1;
    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    if (sym && !symmetry_lookup(d2, sym, &symmetry)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown symmetry %s (use one of %s)%s", sym, symmetry_names(d2),
                   symmetry_dim_hint(d2, sym));
        return NULL;
    }
    /* The children act on the new grid. */
    ld->grid = &m->newgrid;
    bool ok = branch_load_children(ld, &m->b, el, symmetry);
    ld->grid = old;
    if (!ok) return NULL;

    /* The map's rules read the old grid's values and write the new grid's. */
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "rule")) continue;
        xml_check_attrs(d, x, map_rule_attrs);
        rule *r = rule_load(d, ld->res, x, old, &m->newgrid);
        if (!r) return NULL;
        r->original = true;
        if (!rule_expand(d, r, d2, symmetry, &m->rules, &m->rule_count)) return NULL;
    }
    return &m->b.base;
}

static void *map_state_new(const node *n, const grid_def *g)
{
    (void)g;
    const map_node *m = (const map_node *)n;
    map_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    st->cells = mem_malloc((size_t)m->newgrid.mx * m->newgrid.my * m->newgrid.mz);
    if (!st->cells) { mem_free(st); return NULL; }
    st->b.n = -1;
    return st;
}

static void map_state_free(void *state)
{
    map_state *st = state;
    if (st) mem_free(st->cells);
    mem_free(st);
}

static void map_reset(run_state *r, const node *n, void *state)
{
    branch_reset(r, n, state);
    ((map_state *)state)->b.n = -1;
}

/* The rule's input at corner (x,y,z) of the old grid, wrapping around its edges. */
static bool map_matches(const rule *rl, const uint8_t *state, int x, int y, int z, int mx, int my, int mz)
{
    for (int dz = 0, k = 0; dz < rl->imz; dz++)
        for (int dy = 0; dy < rl->imy; dy++)
            for (int dx = 0; dx < rl->imx; dx++, k++) {
                int sx = x + dx, sy = y + dy, sz = z + dz;
                if (sx >= mx) sx -= mx;
                if (sy >= my) sy -= my;
                if (sz >= mz) sz -= mz;
                if (sx >= mx || sy >= my || sz >= mz) return false; /* a rule larger than twice the grid */
                if (!((rl->input[k] >> state[sx + sy * mx + sz * mx * my]) & 1)) return false;
            }
    return true;
}

static void map_apply(const rule *rl, uint8_t *state, int x, int y, int z, int mx, int my, int mz)
{
    for (int dz = 0, k = 0; dz < rl->omz; dz++)
        for (int dy = 0; dy < rl->omy; dy++)
            for (int dx = 0; dx < rl->omx; dx++, k++) {
                int sx = x + dx, sy = y + dy, sz = z + dz;
                if (sx >= mx) sx -= mx;
                if (sy >= my) sy -= my;
                if (sz >= mz) sz -= mz;
                if (sx >= mx || sy >= my || sz >= mz) continue;
                if (rl->output[k] != RULE_KEEP) state[sx + sy * mx + sz * mx * my] = rl->output[k];
            }
}

/* x * num / den without int overflow; it is below the new grid's side. */
static int scaled(int x, int num, int den)
{
    return (int)((int64_t)x * num / den);
}

static bool map_go(run_state *r, const node *n, void *state)
{
    const map_node *m = (const map_node *)n;
    map_state *st = state;
    if (st->b.n >= 0) return branch_go(r, n, state);
    const grid_def *g = &m->newgrid;
    memset(st->cells, 0, (size_t)g->mx * g->my * g->mz);
    for (int ri = 0; ri < m->rule_count; ri++) {
        const rule *rl = m->rules[ri];
        for (int z = 0; z < r->mz; z++)
            for (int y = 0; y < r->my; y++) {
                /* A row's work: its cells. Stopped, the old grid stays and no new one is made. */
                if (stop_check(&r->stop, r->mx)) return false;
                for (int x = 0; x < r->mx; x++)
                    if (map_matches(rl, r->state, x, y, z, r->mx, r->my, r->mz))
                        map_apply(rl, st->cells, scaled(x, m->num[0], m->den[0]), scaled(y, m->num[1], m->den[1]),
                                  scaled(z, m->num[2], m->den[2]), g->mx, g->my, g->mz);
            }
    }
    if (!run_use_grid(r, g, st->cells)) return false;
    /* The reference swaps grids without logging; observers hear of every cell. */
    for (int32_t i = 0; i < r->cells; i++) run_change_unlogged(r, i);
    st->b.n = 0;
    r->acting_node = n->id;
    return true;
}

static const char *const map_own_children[] = {"rule", NULL}; /* read by the map: its rules, from the old grid to the new */

const node_kind node_kind_map = {
    .name = "map",
    .is_branch = true,
    .ends_run = true,
    .makes_grid = true,
    .own_children = map_own_children,
    .load = map_load,
    .free = map_free,
    .state_new = map_state_new,
    .state_free = map_state_free,
    .reset = map_reset,
    .go = map_go,
};
