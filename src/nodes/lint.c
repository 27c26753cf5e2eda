/* lint.c — warnings about models that load but will not do what their author meant.
   Runs on the document of a model that loaded; every warning is one the model
   certainly deserves, so each test here errs towards silence. */
#include "lint.h"
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct lint {
    diag *d;
    const grid_def *grid;     /* the root grid */
    bool origin;
    bool layered_warned;      /* the 3-D warning is said once */
    bool other_grids;         /* a map or wfc makes a grid of its own: no value pass */
    wave_bits all;            /* every value of the root grid */
    wave_bits made;           /* values that nodes other than one/all/prl may write */
    const xmlNode **rules;    /* on the root grid: <rule> elements, or rule nodes carrying in/out */
    int rule_count, rule_cap;
    bool out_of_memory;
} lint;

/* The kind of node the element is, or NULL (a <union>, a <rule>, ...): what the lint knows of it. */
static const node_kind *kind_of(const xmlNode *el) { return node_kind_find(xml_name(el)); }

static bool is_rulenode(const xmlNode *el)
{
    const node_kind *kind = kind_of(el);
    return kind && kind->is_rule_node;
}

static bool is_root(const xmlNode *el) { return el->parent && el->parent->type == XML_DOCUMENT_NODE; }

static void warn_ignored_children(lint *L, const xmlNode *el)
{
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c))
        if (!is_root(el) || !(xml_is(c, "union") || xml_is(c, "smalti"))) /* the root's unions and settings are read */
            diag_warn(L->d, xml_line(c), "<%s> inside <%s> is ignored: <%s> reads no child elements", xml_name(c), xml_name(el),
                  xml_name(el));
}

static wave_bits values_in(const lint *L, const char *text)
{
    wave_bits made = 0;
    for (const char *s = text; s && *s; s++) {
        int v = L->grid->value_of[(unsigned char)*s];
        if (v >= 0) made |= wave_bit(v);
    }
    return made;
}

/* The values named anywhere in the attributes of el and the elements below it:
   more than the node can write, never less (what the value pass needs). */
static wave_bits values_named(const lint *L, const xmlNode *el)
{
    wave_bits made = 0;
    for (const xmlAttr *a = el->properties; a; a = a->next) {
        if (strcmp((const char *)a->name, "comment") == 0) continue;
        made |= values_in(L, xml_attr(el, (const char *)a->name));
    }
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c)) made |= values_named(L, c);
    return made;
}

/* A pattern with layers: "AB/CD EF/GH" has two, separated by a space between symbols. */
static bool is_layered(const char *pattern)
{
    if (!pattern) return false;
    const char *s = pattern;
    while (*s == ' ') s++;
    for (; *s; s++)
        if (*s == ' ' && s[1] && s[1] != ' ') return true;
    return false;
}

static bool marked_3d(const xmlNode *el)
{
    const char *dim = xml_attr(el, "d");
    return dim && strcmp(dim, "3") == 0;
}

/* A rule (a <rule>, or a rule node carrying in/out) on the root grid. `node` is the rule node. */
static void add_rule(lint *L, const xmlNode *rl, const xmlNode *owner)
{
    bool from_file = xml_attr(rl, "file") || xml_attr(rl, "fin") || xml_attr(rl, "fout");
    if (from_file) { /* a rule image: its symbols are not read here, so it may make any value */
        L->made = L->all;
        return;
    }
    if (diag_stopped(L->d)) return;
    /* 3-D rules never fit a 2-D grid; the reference's models mark the rules they
       keep for 3-D runs of a shared file with d="3", and those are meant. */
    if (L->grid->mz == 1 && !L->layered_warned && !marked_3d(rl) && !marked_3d(owner) &&
        (is_layered(xml_attr(rl, "in")) || is_layered(xml_attr(rl, "out")))) {
        L->layered_warned = true;
        diag_warn(L->d, xml_line(rl),
                  "this rule has layers (separated by spaces), so the model is 3-D, but the grid is 2-D and the rule never "
                  "fits it: run the model with --dim 3");
    }
    if (!xml_attr(rl, "in") || !xml_attr(rl, "out")) return;
    if (L->rule_count == L->rule_cap) {
        int cap = L->rule_cap ? 2 * L->rule_cap : 32;
        const xmlNode **bigger = mem_realloc(L->rules, (size_t)cap * sizeof *bigger);
        if (!bigger) { L->out_of_memory = true; return; }
        L->rules = bigger;
        L->rule_cap = cap;
    }
    L->rules[L->rule_count++] = rl;
}

static void lint_rulenode(lint *L, const xmlNode *el, bool root_grid)
{
    bool union_scope = is_root(el); /* the grid reads the root's unions, and no other rule node's */
    bool has_rules = false;
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        if (xml_is(c, "rule")) {
            has_rules = true;
            if (root_grid) add_rule(L, c, el);
            warn_ignored_children(L, c);
        } else if (xml_is(c, "union")) {
            if (!union_scope)
                diag_warn(L->d, xml_line(c), "<union> inside <%s> is never read: unions are read from the root element "
                          "and from markov and sequence nodes; move it up", xml_name(el));
            warn_ignored_children(L, c);
        } else if (xml_is(c, "smalti")) {
            continue; /* the model's settings (on the root), not ours to judge */
        } else {
            /* An observation's `from` is written over its value's cells before the search. */
            if (xml_is(c, "observe") && root_grid) L->made |= values_in(L, xml_attr(c, "from"));
            warn_ignored_children(L, c); /* field, observe */
        }
    }
    if (!has_rules && root_grid) add_rule(L, el, el);
}

/* The neighbour counts a convolution rule can see: sums of `cells` weights (fewer at a
   border), each weight being how often a value appears in `values`. Only sums up to cells times
   the heaviest weight can be reached, so only those are looked at. */
#define LINT_MAX_SUM (26 * GRID_MAX_VALUES)
static void reachable_sums(const int *weight, int value_count, int cells, bool *reach)
{
    int heaviest = 0;
    for (int v = 0; v < value_count; v++)
        if (weight[v] > heaviest) heaviest = weight[v];
    const int top = cells * heaviest < LINT_MAX_SUM ? cells * heaviest : LINT_MAX_SUM;
    bool now[LINT_MAX_SUM + 1] = {false}, next[LINT_MAX_SUM + 1];
    now[0] = true;
    memcpy(reach, now, sizeof now);
    for (int k = 0; k < cells; k++) {
        memset(next, 0, (size_t)top + 1);
        for (int s = 0; s <= top; s++)
            for (int v = 0; now[s] && v < value_count; v++)
                if (s + weight[v] <= top) next[s + weight[v]] = true;
        memcpy(now, next, (size_t)top + 1);
        for (int s = 0; s <= top; s++) reach[s] |= now[s];
    }
}

static void lint_convolution_rule(lint *L, const xmlNode *rl, const char *hood, int cells, const char *grid_values)
{
    const char *values = xml_attr(rl, "values"), *sum = xml_attr(rl, "sum");
    if (!values || !sum) return;
    int weight[GRID_MAX_VALUES] = {0}, count = 0;
    for (const char *g = grid_values; *g && count < GRID_MAX_VALUES; g++) {
        if (*g == ' ') continue;
        for (const char *s = values; *s; s++) weight[count] += *s == *g;
        count++;
    }
    bool reach[LINT_MAX_SUM + 1];
    reachable_sums(weight, count, cells, reach);
    int most = 0;
    for (int s = 0; s <= LINT_MAX_SUM; s++)
        if (reach[s]) most = s;
    /* Each item of "5..8,12" on its own: a range that reaches some count is fine. */
    for (const char *p = sum; *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) return; /* the loader has read it, so this does not happen */
        const char *item = p;
        p = end;
        if (p[0] == '.' && p[1] == '.') {
            hi = strtol(p + 2, &end, 10);
            p = end;
        }
        int len = (int)(p - item);
        bool any = false;
        for (long s = lo; s <= hi && s <= LINT_MAX_SUM; s++) any |= s >= 0 && reach[s];
        if (!any) {
            if (lo > most)
                diag_warn(L->d, xml_line(rl),
                          "sum \"%.*s\" can never be reached: the %s neighborhood has %d cells, so the count of \"%s\" is at "
                          "most %d",
                          len, item, hood, cells, values, most);
            else
                diag_warn(L->d, xml_line(rl), "sum \"%.*s\" can never be reached by %d %s neighbours counted by values=\"%s\"",
                          len, item, cells, hood, values);
        }
        if (*p == ',') p++;
        else if (*p) return;
    }
}

static void lint_convolution(lint *L, const xmlNode *el, const char *grid_values, bool d2)
{
    /* The kernels' sizes, as src/nodes/convolution.c defines them. */
    const char *hood = xml_attr(el, "neighborhood");
    int cells = !hood ? 0 : strcmp(hood, "VonNeumann") == 0 ? (d2 ? 4 : 6) : strcmp(hood, "Moore") == 0 && d2 ? 8
              : strcmp(hood, "NoCorners") == 0 && !d2 ? 18 : strcmp(hood, "VonNeumann2") == 0 && d2 ? 12
              : strcmp(hood, "Moore2") == 0 && d2 ? 24 : 0;
    if (!cells || !grid_values) return;
    const char *self = xml_attr(el, "self");
    if (self && strcasecmp(self, "False") != 0) cells++; /* the cell itself is counted too (if unsure, it may be) */
    bool has_rules = false;
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        has_rules = true;
        lint_convolution_rule(L, c, hood, cells, grid_values);
        warn_ignored_children(L, c);
    }
    if (!has_rules) lint_convolution_rule(L, el, hood, cells, grid_values);
}

/* A path drawn in one of its own start values leaves a start next to the goal, so
   it succeeds again at once, and again. A sequence runs it alone until it fails,
   and so does a markov where it comes first: those runs never end. */
static void lint_path(lint *L, const xmlNode *el)
{
    const char *from = xml_attr(el, "from"), *color = xml_attr(el, "color");
    if (!from || !from[0] || (color && (!color[0] || !strchr(from, color[0])))) return;
    const xmlNode *parent = el->parent;
    bool root = is_root(el);
    const node_kind *around = parent ? kind_of(parent) : NULL;
    bool alone = root || around == &node_kind_sequence ||
                 (parent && (around == &node_kind_markov || is_root(parent)) && xml_first_child(parent) == el);
    if (!alone) return;
    const char *loop = root ? "the run" : xml_name(parent);
    if (!color)
        diag_warn(L->d, xml_line(el),
                  "<path> without color draws with its first 'from' value '%c', so once it has drawn a path it finds "
                  "a start next to the goal again and again, and %s%s never ends; give it a color",
                  from[0], root ? "" : "the ", loop);
    else
        diag_warn(L->d, xml_line(el),
                  "<path> draws with color '%c', one of its 'from' values, so once it has drawn a path it finds a start "
                  "next to the goal again and again, and %s%s never ends; give it a color that is not a start",
                  color[0], root ? "" : "the ", loop);
}

/* One element below the root (or the root itself); `union_scope`: a <union>
   here is read; `grid_values`: the values of the grid el acts on. */
static void lint_element(lint *L, const xmlNode *el, bool root_grid, bool union_scope, const char *grid_values, bool d2)
{
    if (is_rulenode(el)) {
        lint_rulenode(L, el, root_grid);
        return;
    }
    if (xml_is(el, "union")) {
        warn_ignored_children(L, el);
        return;
    }
    const node_kind *kind = kind_of(el);
    if (!kind) return; /* not a node: the loader has refused it, or it is the root's settings */
    if (kind->reads_no_children) warn_ignored_children(L, el);
    if (kind == &node_kind_path) lint_path(L, el);
    if (kind == &node_kind_convolution) lint_convolution(L, el, grid_values, d2);
    bool new_grid = kind->makes_grid;
    if (new_grid) {
        L->other_grids = true;
        root_grid = false;
        grid_values = xml_attr(el, "values");
    }
    /* What the other node kinds write: the values their attributes name (writes_named_values), or anything. */
    if (root_grid && !kind->is_branch) L->made |= kind->writes_named_values ? values_named(L, el) : L->all;
    if (!kind->is_branch) return;
    bool children_in_scope = new_grid || union_scope;
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        if (node_kind_reads_child(kind, xml_name(c))) continue; /* a map's or wfc's own, on two grids */
        if (is_root(el) && xml_is(c, "smalti")) continue;        /* the model's settings, not a node */
        lint_element(L, c, root_grid, children_in_scope, grid_values, d2);
    }
}

static bool rule_can_match(const lint *L, const char *in, wave_bits present, char *missing)
{
    for (const char *s = in; *s; s++) {
        if (*s == ' ' || *s == '/') continue;
        if (!(grid_symbol_wave(L->grid, (unsigned char)*s) & present)) {
            *missing = *s;
            return false;
        }
    }
    return true;
}

static wave_bits rule_output(const lint *L, const char *out)
{
    wave_bits made = 0;
    for (const char *s = out; *s; s++) {
        int v = L->grid->value_of[(unsigned char)*s];
        if (v >= 0) made |= wave_bit(v);
    }
    return made;
}

/* The values that can ever be on the grid: the first (which fills it), origin's,
   what other nodes write, and what every rule whose input can be there writes. */
static void lint_values(lint *L)
{
    wave_bits present = wave_bit(0) | L->made;
    if (L->origin && L->grid->c > 1) present |= wave_bit(1);
    char missing;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < L->rule_count; i++) {
            if (diag_stopped(L->d)) return; /* the load fails on its deadline: no more warnings */
            if (!rule_can_match(L, xml_attr(L->rules[i], "in"), present, &missing)) continue;
            wave_bits made = rule_output(L, xml_attr(L->rules[i], "out"));
            if (made & ~present) {
                present |= made;
                changed = true;
            }
        }
    }
    for (int i = 0; i < L->rule_count; i++) {
        if (diag_stopped(L->d)) return;
        if (rule_can_match(L, xml_attr(L->rules[i], "in"), present, &missing)) continue;
        bool is_value = L->grid->value_of[(unsigned char)missing] >= 0;
        diag_warn(L->d, xml_line(L->rules[i]),
                  "this rule can never fire: its input needs %s'%c', and no rule, origin or initial state ever makes %s",
                  is_value ? "" : "a value of union ", missing, is_value ? "it" : "one");
    }
}

void lint_model(diag *d, const xmlNode *root, const smalti_model *m)
{
    lint L = {.d = d, .grid = &m->grid, .origin = m->origin};
    L.all = wave_all(m->grid.c);
    const char *values = xml_attr(root, "values");
    bool d2 = m->grid.mz == 1;
    if (is_rulenode(root)) lint_rulenode(&L, root, true);
    else lint_element(&L, root, true, true, values, d2);
    if (!L.other_grids && !L.out_of_memory) lint_values(&L);
    if (!diag_stopped(d)) lint_lattice(d, root, m);
    mem_free(L.rules);
}
