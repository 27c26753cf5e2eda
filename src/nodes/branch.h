/* branch.h — what branch nodes share: children run in order, the current child remembered between steps. */
#ifndef SMALTI_BRANCH_H
#define SMALTI_BRANCH_H
#include "nodes.h"

typedef struct branch {
    node base;
    bool markov;      /* markov restarts from its first child every step */
    node **children;
    int count;
} branch;

typedef struct branch_state {
    int n;            /* index of the child being run; map: -1 before it maps */
} branch_state;

/* Load the node elements inside `el` as children of `b`. */
bool branch_load_children(loader *ld, branch *b, const xmlNode *el, symmetry_set symmetry);
void branch_free(node *n);
void branch_reset(run_state *r, const node *n, void *state);
void *branch_state_new(const node *n, const grid_def *g);
bool branch_go(run_state *r, const node *n, void *state);
#endif
