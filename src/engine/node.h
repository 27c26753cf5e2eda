/* node.h — the node interface: what the run loop knows of a node kind, and the loader state kinds build the tree with. */
#ifndef SMALTI_NODE_H
#define SMALTI_NODE_H
#include <libxml/tree.h>
#include <stdbool.h>
#include "../core/diag.h"
#include "../core/grid.h"
#include "../core/resource.h"
#include "../core/symmetry.h"

typedef struct node node;
typedef struct run_state run_state;

typedef struct loader {
    diag *d;
    grid_def *grid;     /* the grid the nodes being loaded act on */
    const resources *res; /* where rule images and samples are looked up */
    int max_values;     /* the most values a grid of the model may have (grid_load) */
    node **nodes;       /* every node, indexed by id */
    int node_count, node_cap;
    int depth;
} loader;

/* What the loader, the grid and the lint know of a kind is written here, in its table, so that a new
   kind is its own file in src/nodes plus its line in src/nodes/registry.c. */
typedef struct node_kind {
    const char *name;   /* the element name */
    bool is_branch;
    /* The run ends when this branch ends (the reference's map and wfc have
       no parent branch to return to). */
    bool ends_run;
    /* Its node is a rulenode (src/nodes/rulenode.h): one, all, prl. */
    bool is_rule_node;
    /* Its element defines a grid of its own, on which its children act (map, wfc). */
    bool makes_grid;
    /* <union> children of its element belong to the grid it acts on (markov, sequence: where the
       reference collects unions from, besides the grid's own element). */
    bool holds_unions;
    /* For branches: the child elements that are not nodes but the kind reads itself, NULL-terminated
       (NULL: none). The branch loads its other children as nodes; the lint skips these too. */
    const char *const *own_children;
    /* Attributes that the reference's own models carry on this element where it reads nothing:
       accepted without a warning, as the reference does (NULL-terminated, or NULL: none). */
    const char *const *ignored_attrs;
    /* For the lint: the element reads no child elements, so any it has are ignored. */
    bool reads_no_children;
    /* For the lint: the node writes no values but those its attributes and children name (other
       leaves, not rule nodes, may write any). */
    bool writes_named_values;
    /* The kind is smalti's, not MarkovJunior's: a model that uses one may have up to GRID_MAX_VALUES
       values, where a model of the reference's kinds only keeps its GRID_REFERENCE_MAX_VALUES. */
    bool beyond_reference;
    /* The node changes no cell: it only looks (a requirement, whose restart resets every node and
       so keeps what rule nodes prove about their matches true). */
    bool changes_no_cells;
    /* Build the node from its element: it opens with node_new (src/nodes),
       which creates and registers the generic part, then fills in the rest;
       NULL on error. */
    node *(*load)(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
    void (*free)(node *n);
    /* Per-run mutable state. */
    void *(*state_new)(const node *n, const grid_def *grid);
    void (*state_free)(void *state);
    void (*reset)(run_state *run, const node *n, void *state);
    bool (*go)(run_state *run, const node *n, void *state);
    /* Optional: the oldest step whose changes the node will still read, or -1.
       Lets the run drop older entries of its change log. */
    long (*oldest_turn)(const void *state);
    /* Optional: make further steps in a row, each begun with run_step_begin and
       closed with run_step_done, while the node acts, up to max_steps; returns the steps made.
       It must leave no trace of an attempt in which the node cannot act: its go, called again
       then, does the same thing. The run calls a leaf's only when the next steps would call the
       node's go first (resumes_with), a branch's when the branch is the current one, and never
       while a step is under way. A branch's steps are its go's steps (it may make none). */
    long (*repeat)(run_state *run, const node *n, void *state, long max_steps);
    /* Optional, for leaves with repeat: whether this node's repeat makes steps (a kind may repeat
       only some of its nodes). A branch may then call repeat for it with max_steps 1 to make one
       step, its go's step, or none and no trace. */
    bool (*repeats)(const node *n);
    /* Optional, for branches: whether this branch's next go begins with child's go. */
    bool (*resumes_with)(const node *branch, const void *state, const node *child);
} node_kind;

struct node {
    const node_kind *kind;
    int id;
    int line;
    int parent;        /* enclosing node, -1 for the root */
    int depth;
    const grid_def *grid; /* the grid the node acts on */
    /* For branches: the branch that becomes current when this one ends (the
       reference's Branch.parent), -1 when the run should end then. */
    int return_to;
    char *summary;     /* smalti_node_info.attributes: the element in one line (NULL: none) */
};

#endif
