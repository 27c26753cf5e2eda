/* one_plain.h — the fast path of a plain `one` node (no fields, observations or plan). */
#ifndef SMALTI_ONE_PLAIN_H
#define SMALTI_ONE_PLAIN_H
#include "rulenode.h"

typedef struct one_plain one_plain;

/* Whether the fast path can take the node: no fields or observations, no rule over 32769 cells. */
bool one_plain_suits(const rulenode *rn);
/* The node's rules and shift entries as compact tables, once its shift table is built; they hold
   all the scans need, so the node's shift entries and cell pool are freed (NULL after). */
one_plain *one_plain_new(rulenode *rn, int values);
void one_plain_free(one_plain *p);
/* Whether the node finds each match at most once while it is listed (rulenode_finds_once): its
   fused loop then leaves the match mask alone. */
void one_plain_set_unmasked(one_plain *p, bool unmasked);
/* One step (node_kind.go), and steps in a row (node_kind.repeat). */
bool one_plain_go(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st);
long one_plain_repeat(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps);
/* Steps in a row of a markov node whose children are the plain nodes rns[0 .. children), as
   branch_go makes them; -1 if this path does not apply (an observer, a child not yet scanned). */
long one_plain_markov_repeat(run_state *r, const rulenode *const *rns, const one_plain *const *ps, rulenode_state *const *sts, int children,
                             long max_steps);
#endif
