/* branch.c — the branch nodes `markov` and `sequence`, and the implicit root markov. */
#include "branch.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <stdlib.h>
#include <string.h>

void branch_free(node *n)
{
    branch *b = (branch *)n;
    mem_free(b->children);
    mem_free(b);
}

static bool branch_add_child(loader *ld, branch *b, node *child)
{
    node **bigger = mem_realloc(b->children, (size_t)(b->count + 1) * sizeof *bigger);
    if (!bigger) return diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    b->children = bigger;
    b->children[b->count++] = child;
    child->parent = b->base.id;
    if (child->kind->is_branch && !child->kind->ends_run) child->return_to = b->base.id;
    return true;
}

static node *branch_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry, bool markov)
{
    static const char *const known[] = {"symmetry", "values", "origin", "folder", "transparent", NULL};
    diag *d = ld->d;
    branch *b = node_new(ld, sizeof *b, markov ? &node_kind_markov : &node_kind_sequence, el);
    if (!b) return NULL;
    b->markov = markov;
    /* `values`, `origin` and the rest belong to the root element; elsewhere they are ignored. */
    if (b->base.id == 0) xml_check_attrs_ignoring(d, el, known, b->base.kind->ignored_attrs);
    else xml_check_attrs_ignoring(d, el, (const char *const[]){"symmetry", NULL}, b->base.kind->ignored_attrs);

    symmetry_set symmetry = parent_symmetry;
    const char *sym = xml_attr(el, "symmetry");
    bool d2 = ld->grid->mz == 1;
    if (sym && !symmetry_lookup(d2, sym, &symmetry)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown symmetry %s (use one of %s)%s", sym, symmetry_names(d2),
                   symmetry_dim_hint(d2, sym));
        return NULL;
    }
    return branch_load_children(ld, b, el, symmetry) ? &b->base : NULL;
}

bool branch_load_children(loader *ld, branch *b, const xmlNode *el, symmetry_set symmetry)
{
    ld->depth++;
    for (xmlNode *c = xml_first_child(el); c; c = xml_next(c)) {
        if (xml_is(c, "union")) continue; /* read by the grid */
        if (node_kind_reads_child(b->base.kind, xml_name(c))) continue; /* read by the node itself (a map's rules) */
        node *child = node_load(ld, c, symmetry);
        if (!child || !branch_add_child(ld, b, child)) { ld->depth--; return false; }
    }
    ld->depth--;
    return true;
}

static node *markov_load(loader *ld, const xmlNode *el, symmetry_set s) { return branch_load(ld, el, s, true); }
static node *sequence_load(loader *ld, const xmlNode *el, symmetry_set s) { return branch_load(ld, el, s, false); }

node *branch_wrap_markov(loader *ld, node *child)
{
    branch *b = node_new(ld, sizeof *b, &node_kind_markov, NULL);
    if (!b) return NULL;
    b->markov = true;
    if (!branch_add_child(ld, b, child)) return NULL;
    return &b->base;
}

void *branch_state_new(const node *n, const grid_def *g)
{
    (void)n; (void)g;
    return mem_calloc(1, sizeof(branch_state));
}

void branch_reset(run_state *r, const node *n, void *state)
{
    const branch *b = (const branch *)n;
    for (int i = 0; i < b->count; i++) node_reset(r, b->children[i]);
    ((branch_state *)state)->n = 0;
}

/* Run children in order from the current one; a child that succeeds ends the
   step. A child branch becomes the interpreter's current node, so later steps
   go straight to it until it ends. */
bool branch_go(run_state *r, const node *n, void *state)
{
    const branch *b = (const branch *)n;
    branch_state *st = state;
    if (b->markov) st->n = 0;
    for (; st->n < b->count; st->n++) {
        const node *child = b->children[st->n];
        if (child->kind->is_branch) r->current = child->id;
        if (node_go(r, child)) return true;
        if (stop_said(&r->stop)) return false; /* the child was interrupted, not done: stay on it */
    }
    r->current = r->current >= 0 ? r->model->nodes[r->current]->return_to : -1;
    branch_reset(r, n, state);
    return false;
}

/* A markov node starts every step from its first child; a sequence from the child it is on. */
static bool branch_resumes_with(const node *n, const void *state, const node *child)
{
    const branch *b = (const branch *)n;
    int at = b->markov ? 0 : ((const branch_state *)state)->n;
    return at < b->count && b->children[at] == child;
}

/* Steps in a row of a markov node whose children are all leaves that repeat (node_kind.repeats):
   each step is branch_go's, the children tried in order until one acts, and the first child makes
   as many steps in a row as it can. A step in which no child acts is left to go, which ends the
   branch: the children's failed attempts left no trace. */
static long markov_repeat(run_state *r, const node *n, void *state, long max_steps)
{
    (void)state;
    const branch *b = (const branch *)n;
    if (!b->markov) return 0;
    for (int i = 0; i < b->count; i++) {
        const node_kind *k = b->children[i]->kind;
        if (k->is_branch || !k->repeat || !k->repeats || !k->repeats(b->children[i])) return 0;
    }
    const long fused = one_markov_repeat(r, (const node *const *)b->children, b->count, max_steps);
    if (fused >= 0) return fused;
    long made = 0;
    while (made < max_steps) {
        long got = 0;
        for (int i = 0; i < b->count && got == 0; i++) {
            const node *child = b->children[i];
            got = child->kind->repeat(r, child, r->node_states[child->id], i == 0 ? max_steps - made : 1);
        }
        if (got == 0) break;
        made += got;
    }
    return made;
}

static const char *const reference_extras[] = {"periodic", NULL}; /* in the reference's models, read by none */

const node_kind node_kind_markov = {
    .name = "markov",
    .is_branch = true,
    .holds_unions = true,
    .ignored_attrs = reference_extras,
    .load = markov_load,
    .free = branch_free,
    .state_new = branch_state_new,
    .state_free = free,
    .reset = branch_reset,
    .go = branch_go,
    .repeat = markov_repeat,
    .resumes_with = branch_resumes_with,
};
const node_kind node_kind_sequence = {
    .name = "sequence",
    .is_branch = true,
    .holds_unions = true,
    .ignored_attrs = reference_extras,
    .load = sequence_load,
    .free = branch_free,
    .state_new = branch_state_new,
    .state_free = free,
    .reset = branch_reset,
    .go = branch_go,
    .resumes_with = branch_resumes_with,
};
