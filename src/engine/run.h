/* run.h — the mutable state of one run, shared by the interpreter loop and the nodes. */
#ifndef SMALTI_RUN_H
#define SMALTI_RUN_H
#include <stdint.h>
#include <stdlib.h>
#include "smalti.h"
#include "../core/grid.h"
#include "../core/rng.h"
#include "../core/stop.h"
#include "../core/mem.h"
#include "../core/geometry.h"
#include "node.h"
#include "planes.h"

/* A model's parameter (src/nodes/params.c), for the API's listing. */
typedef struct model_param {
    char *name;
    char *default_value; /* the <param>'s value */
    char *value;         /* the value in effect: an override's, else the default */
    bool overridden;
    int line;
} model_param;
typedef struct model_params {
    model_param *items;
    int count;
} model_params;

struct smalti_model {
    char *file;
    grid_def grid;
    bool origin;
    smalti_settings settings; /* the file's own <smalti> settings */
    model_params params;      /* its <param>s, with the values it was loaded with */
    node **nodes;      /* by id; nodes[root] is a branch */
    int node_count;
    int root;
};

/* A requirement that failed in some attempt of this run (smalti_run_requirement). */
typedef struct run_failure {
    int node;
    int line;
    int count;
    char message[200];
} run_failure;

struct run_state {
    const smalti_model *model;
    const grid_def *grid;
    uint8_t *state;          /* the cells of the current grid */
    uint8_t *start_state;    /* the start grid's cells (a map switches to its own) */
    uint8_t *mask;           /* scratch marks used by `all`, all zero between steps */
    int64_t mask_cap;
    bool mask_used;          /* an `all` step has marked it since the last reset */
    int mx, my, mz;
    int32_t cells;
    rng random;
    void **node_states;
    int current;             /* id of the current branch, -1 when the run has ended */
    long counter;            /* steps made */
    /* Every cell change of the run, as flat indices. Positions are absolute
       (changes_base + index) so that old entries can be dropped. */
    int32_t *changes;
    int64_t changes_len, changes_cap, changes_base;
    int64_t *first;          /* first[t - first_base]: position of the first change of step t */
    int64_t first_len, first_cap;
    long first_base;         /* steps before it are no longer needed */
    int acting_node;         /* the leaf that acted in the current step (then the last), -1: none */
    long acting_streak;      /* steps in a row, up to the last, whose acting_node was the same */
    smalti_observer_fn observer;
    void *observer_userdata;
    /* Run-time warnings (run_warn): the caller's channel (NULL: none), and how many since the reset. */
    smalti_warning_fn warn;
    void *warn_userdata;
    int warnings;
    bool out_of_memory;
    /* The deadline and cancel flag (stop_requested(&r->stop) in long loops), and the timeout each reset re-arms. */
    run_stop stop;
    int64_t timeout_ns;
    /* What the run's allocations may hold (mem.h); current during the run's API calls. */
    mem_budget budget;
    /* A node stopped the run with an error (run_fail): its line and message. */
    bool failed;
    int fail_line;
    char fail_message[256];
    bitplanes planes;
    /* Changes the reference does not put in its change log (convolution
       writes the grid directly), so rule nodes must not see them in their
       incremental scans; observers are still told. */
    int32_t *unlogged;
    int64_t unlogged_len, unlogged_cap;
    int32_t *event_cells;     /* logged + unlogged changes of a step, for observers */
    int64_t event_cap;
    /* The lattice a growgrid node fitted (smalti_run_geometry), owned by the run; NULL: none. */
    geometry *geometry;
    /* Requirements: the seed the run was given, the attempt under way (0: the first),
       a restart a failed requirement asked for in this step (its node, else -1), and what failed. */
    int32_t seed;
    int attempt;
    int restart_node;
    int status;                  /* with failed: the smalti_status it reports (0: SMALTI_ERR_RUNTIME) */
    run_failure *failures;       /* each requirement that failed, with its count and last message */
    int failure_count;
    uint8_t *restart_before;     /* the grid before a restart, for the step event's changed cells */
};

struct smalti_run {
    run_state rs;
};

bool run_grow_changes(run_state *r);
/* Make `g`, whose cells are `cells`, the grid the run works on (a map node
   does this; the reference's ip.grid = newgrid). */
bool run_use_grid(run_state *r, const grid_def *g, uint8_t *cells);

static inline void run_change(run_state *r, int32_t index)
{
    if (r->changes_len == r->changes_cap && !run_grow_changes(r)) return;
    r->changes[r->changes_len++] = index;
}
bool run_note_unlogged(run_state *r, int32_t index);
/* Give the run a geometry (it takes g), replacing any it had. */
static inline void run_set_geometry(run_state *r, geometry *g)
{
    geometry_free(r->geometry);
    r->geometry = g;
}
/* Stop the run with an error at a model line (a node's length cap, say);
   smalti_run_error reports it as file:line: message. */
void run_fail(run_state *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A requirement node that failed: the run starts again from its first node with the next attempt's
   seed, after this step (run.c: run_restart); past `tries` failed attempts it stops with
   SMALTI_ERR_REQUIREMENT at the node's line. `what` says what failed. */
void run_requirement_failed(run_state *r, const node *n, int tries, const char *what);
/* The seed of attempt k (k >= 1) of a run given `seed`: the k-th number drawn from .NET's
   System.Random(seed) (docs/language.md, requirements). Attempt 0 is the seed itself. */
int32_t run_attempt_seed(int32_t seed, int attempt);
/* A run-time warning at a model line: the run goes on, but not as the model meant (a wfc node that
   found no solution). Counted, and handed to the caller's smalti_run_set_warn channel, if any: the
   library never prints. */
void run_warn(run_state *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A write the reference does not log: invalidates the bitplanes and, when
   someone observes the run, remembers the cell for the step event. */
static inline void run_change_unlogged(run_state *r, int32_t index)
{
    r->planes.valid = false;
    if (r->observer) run_note_unlogged(r, index);
}

/* The two ends of a step, for nodes that make steps themselves (node_kind.repeat): whether
   one may start (the run goes on and has room for it), and closing one the node made, whose
   acting node was `before` when it began (counts it, records where its changes end, tells
   the observer). */
bool run_step_begin(run_state *r);
void run_step_done(run_state *r, int before);

static inline int64_t run_changes_end(const run_state *r) { return r->changes_base + r->changes_len; }
static inline int32_t run_change_at(const run_state *r, int64_t position) { return r->changes[position - r->changes_base]; }
static inline int64_t run_first(const run_state *r, long turn) { return r->first[turn - r->first_base]; }
/* The common case of run_step_begin, inline: nothing to stop for, and room in the step table. */
static inline bool run_step_ready(run_state *r)
{
    return r->first_len < r->first_cap && r->current >= 0 && !r->out_of_memory && !r->failed && !stop_check(&r->stop, 0);
}
/* run_step_done for a step made by the node that made the one before. */
static inline void run_step_close(run_state *r)
{
    if (r->observer) {
        run_step_done(r, r->acting_node);
        return;
    }
    r->acting_streak++;
    r->counter++;
    r->first[r->first_len++] = run_changes_end(r);
    r->unlogged_len = 0;
}

static inline bool node_go(run_state *r, const node *n) { return n->kind->go(r, n, r->node_states[n->id]); }
static inline void node_reset(run_state *r, const node *n) { n->kind->reset(r, n, r->node_states[n->id]); }
#endif
