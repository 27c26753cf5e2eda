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
/* Whether no rule writes a value the node scans (one_plain.quiet): its fused loop then scans none
   of its own changes, and makes only that scan's stop checks. For the tests. */
bool one_plain_is_quiet(const one_plain *p);
/* One step (node_kind.go), and steps in a row (node_kind.repeat). */
bool one_plain_go(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st);
long one_plain_repeat(run_state *r, const rulenode *rn, const one_plain *p, rulenode_state *st, long max_steps);
/* Steps in a row of a markov node whose children are the plain nodes rns[0 .. children), as
   branch_go makes them; -1 if this path does not apply (an observer, a child not yet scanned). */
long one_plain_markov_repeat(run_state *r, const rulenode *const *rns, const one_plain *const *ps, rulenode_state *const *sts, int children,
                             long max_steps);
/* The tables of a `one` node, or NULL when it is not plain (one.c). */
const one_plain *one_node_plain(const node *n);
/* The shifts (dx, dy) of the shift entries of value v, in their order: all of them (list -1), or
   those a scan tests for a changed cell whose neighbour at x - 1 (list 0), at y - 1 (list 1) or
   at both (list 2) was scanned before it in the same scan. At most `room` go into d; returns how
   many there are, or -1 when the value has no such lists. For the tests. */
int32_t one_plain_entry_shifts(const one_plain *p, const rulenode *rn, uint8_t v, int list, int16_t (*d)[2], int32_t room);
#endif
