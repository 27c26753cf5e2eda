/* lint.h — warnings about models that load but will not do what their author meant. */
#ifndef SMALTI_LINT_H
#define SMALTI_LINT_H
#include "../engine/run.h"
#include <libxml/tree.h>

/* Walk a loaded model's document (root: its root element) and warn through d,
   at the line of each element concerned, about: child elements nothing reads,
   layered (3-D) rules on a 2-D grid, convolution sums the neighbourhood cannot
   reach, paths that repeat themselves without end, unions nothing reads, and
   rules that can never fire because no rule, origin or initial state makes a
   value their input needs (and, lint_lattice, lattices that reach the grid's
   edge). Only what is certain is said: a correct model gets no warning. */
void lint_model(diag *d, const xmlNode *root, const smalti_model *m);
/* (lint_lattice.c) The lattice parity trap: a lattice grown two cells at a time from the origin, by
   the model's one node on a 2-D grid, reaches the edge unless each side is 3 more than a multiple of 4. */
void lint_lattice(diag *d, const xmlNode *root, const smalti_model *m);
#endif
