/* lint_lattice.c — the lattice parity trap: a lattice grown two cells at a time from the origin
   keeps a rim of wall on every side only on sides 3 more than a multiple of 4 (docs/tutorial.md). */
#include "lint.h"
#include "nodes.h"
#include "../core/xmlutil.h"
#include <stdio.h>
#include <string.h>

/* in="XBB" out="?*X" (or out="X?X"): the origin's value X grows two cells across the start value B
   and keeps its old cell, so that every cell of X's parity is reached (the lattice); false for any
   other rule, or one with a probability, a rule image or anything else that could leave cells out. */
static bool is_lattice_step(const xmlNode *rl, char grower, char fill)
{
    const char *in = xml_attr(rl, "in"), *out = xml_attr(rl, "out");
    for (const xmlAttr *a = rl->properties; a; a = a->next)
        if (xml_is(rl, "rule") && strcmp((const char *)a->name, "in") != 0 && strcmp((const char *)a->name, "out") != 0 &&
            strcmp((const char *)a->name, "comment") != 0)
            return false; /* p, file, fin, fout (the node's own attributes are checked by lattice_grower) */
    return in && out && strlen(in) == 3 && strlen(out) == 3 && in[0] == grower && in[1] == fill && in[2] == fill &&
           (out[0] == '*' || out[0] == grower) && out[2] == grower;
}

/* The node that grows the lattice, when the final grid is certainly that lattice: a `one` or `all`
   node that is the whole model (the root, or the only node of a root sequence or markov: a node after
   it could wall the edge in, or fill the grid), without a step limit, other attributes or children
   than rules, with the default symmetry (all 8 ways: the growth reaches every cell of the lattice),
   and only lattice steps of the origin's value over the start value. NULL otherwise. */
static const xmlNode *lattice_grower(const xmlNode *root, const char *values)
{
    const xmlNode *el = root;
    if (xml_is(root, "sequence") || xml_is(root, "markov")) {
        if (xml_attr(root, "symmetry")) return NULL;
        el = NULL;
        for (const xmlNode *c = xml_first_child(root); c; c = xml_next(c)) {
            if (xml_is(c, "smalti") || xml_is(c, "union")) continue;
            if (el) return NULL; /* a second node */
            el = c;
        }
        if (!el) return NULL;
    }
    if (!xml_is(el, "one") && !xml_is(el, "all")) return NULL;
    static const char *const allowed[] = {"values", "origin", "in", "out", "comment", NULL};
    for (const xmlAttr *a = el->properties; a; a = a->next) {
        bool known = false;
        for (int k = 0; allowed[k]; k++) known |= strcmp((const char *)a->name, allowed[k]) == 0;
        if (!known) return NULL; /* steps, symmetry, temperature, search, file, ... */
    }
    bool has_rules = false;
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        if (el == root && (xml_is(c, "smalti") || xml_is(c, "union"))) continue;
        if (!xml_is(c, "rule") || !is_lattice_step(c, values[1], values[0])) return NULL;
        has_rules = true;
    }
    if (!has_rules && !is_lattice_step(el, values[1], values[0])) return NULL;
    return el;
}

/* The sides nearest to n that keep a rim: 3 more than a multiple of 4. */
static void rim_sides(int n, char *buf, size_t size)
{
    int below = n - ((n + 1) % 4);
    if (below >= 7) snprintf(buf, size, "%d or %d", below, below + 4);
    else snprintf(buf, size, "%d", below + 4);
}

void lint_lattice(diag *d, const xmlNode *root, const smalti_model *m)
{
    const grid_def *g = &m->grid;
    const char *values = xml_attr(root, "values");
    /* 2-D only, with room for the growth; the origin is the centre cell (side / 2, rounded down). */
    if (!m->origin || g->mz != 1 || g->mx < 5 || g->my < 5 || !values || strlen(values) < 2) return;
    const xmlNode *el = lattice_grower(root, values);
    if (!el) return;
    /* The lattice holds the cells of the centre's parity: cell 0 when the centre is even, cell
       side - 1 when the side is even and the centre odd; neither only when side % 4 == 3. */
    int side = g->mx % 4 != 3 ? g->mx : g->my % 4 != 3 ? g->my : 0;
    if (!side) return;
    char better[64];
    rim_sides(side, better, sizeof better);
    char sides[64];
    if (g->mx == g->my) snprintf(sides, sizeof sides, "a side of %d", side);
    else snprintf(sides, sizeof sides, "%s side of %d", side == g->mx ? "an x" : "a y", side);
    diag_warn(d, xml_line(el),
              "the lattice this rule grows from the origin reaches the grid's edge at %s (the centre is cell %d), so "
              "passages run along the border with no wall outside them; a side 3 more than a multiple of 4 (%s) keeps "
              "a rim of wall on all four sides",
              sides, side / 2, better);
}
