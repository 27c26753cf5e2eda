/* node.h — the node interface shared by every node kind, and the loader that builds the tree. */
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
    node **nodes;       /* every node, indexed by id */
    int node_count, node_cap;
    int depth;
} loader;

typedef struct node_kind {
    const char *name;
    bool is_branch;
    /* The run ends when this branch ends (the reference's map and wfc have
       no parent branch to return to). */
    bool ends_run;
    /* Build the node from its element. The loader has already created the
       generic part; load fills in the rest and returns false on error. */
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

/* Registry: element name -> kind. NULL if the name is not a node. */
const node_kind *node_kind_find(const char *name);
/* Names of node kinds that a later version adds; loading them says so. */
bool node_is_planned(const char *name);

/* Load any node element; registers it and its subtree in the loader. */
node *node_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
/* Register a node created by a kind's load function (assigns its id). */
bool loader_register(loader *ld, node *n, const xmlNode *el);
/* Create the implicit markov around a non-branch root. */
node *branch_wrap_markov(loader *ld, node *child);

/* Node kinds. */
extern const node_kind node_kind_markov, node_kind_sequence, node_kind_one, node_kind_all, node_kind_prl,
    node_kind_convolution, node_kind_map, node_kind_path, node_kind_convchain, node_kind_wfc;
extern const node_kind node_kind_runner;
extern const node_kind node_kind_lsystem;
extern const node_kind node_kind_noise;
extern const node_kind node_kind_voronoi, node_kind_poisson;
#endif
