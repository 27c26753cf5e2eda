/* search.h — the reference's best-first search for a sequence of rule applications that reaches an observed goal. */
#ifndef SMALTI_SEARCH_H
#define SMALTI_SEARCH_H
#include <stdbool.h>
#include <stdint.h>
#include "observe.h"
#include "../core/stop.h"

typedef struct search_result {
    bool found;            /* false: the search gave up (the node then runs without a plan) */
    bool out_of_memory;
    bool stopped;          /* the run's deadline passed or it was cancelled during the search */
    uint8_t **states;      /* the grid after each step of the plan */
    int length;
} search_result;

/* Search from `present` (2-D, mx*my cells) towards `future`. `all` searches
   over `all`-style steps (every maximal non-overlapping set of matches),
   otherwise over single rule applications. limit < 0: no limit on the
   states visited. The ranks' random tie-breaks come from a stream seeded
   with `seed`, as in the reference. The search checks `stop` (may be NULL)
   before each state it expands. */
search_result search_run(const uint8_t *present, const observe_goal *future, const potential_rules *pr, int mx, int my,
                         bool all, int limit, double depth_coefficient, int32_t seed, run_stop *stop);
void search_result_free(search_result *res);
#endif
