/* run.c — one run of a model: seeding, the step loop, the change log and observers. */
#include "run.h"
#include <string.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

/* A run with a memory budget makes it current for the length of each API call (mem.h); without one,
   nothing is counted and a step pays nothing for the feature. */
static mem_budget *budget_enter(run_state *r) { return r->budget.limit ? mem_enter(&r->budget) : NULL; }
static void budget_leave(run_state *r, mem_budget *caller)
{
    if (r->budget.limit) mem_enter(caller);
}

void smalti_run_free(smalti_run *run)
{
    if (!run) return;
    run_state *r = &run->rs;
    mem_budget *caller = budget_enter(r);
    if (r->node_states)
        for (int i = 0; i < r->model->node_count; i++)
            if (r->node_states[i]) r->model->nodes[i]->kind->state_free(r->node_states[i]);
    mem_free(r->node_states);
    mem_free(r->start_state);
    mem_free(r->mask);
    mem_free(r->changes);
    mem_free(r->first);
    planes_free(&r->planes);
    mem_free(r->unlogged);
    mem_free(r->event_cells);
    geometry_free(r->geometry);
    mem_free(r->failures);
    mem_free(r->restart_before);
    budget_leave(r, caller);
    mem_free(run);
}

smalti_run_options smalti_run_defaults(void)
{
    return (smalti_run_options){.timeout_seconds = 0, .max_memory = 0, .max_work = 0};
}

smalti_run *smalti_run_new(const smalti_model *m, int32_t seed, smalti_error *err)
{
    return smalti_run_new_with(m, seed, NULL, err);
}

/* The largest timeout taken as given (about 31 years); longer ones mean none. */
#define RUN_MAX_TIMEOUT_SECONDS 1e9

smalti_run *smalti_run_new_with(const smalti_model *m, int32_t seed, const smalti_run_options *opt, smalti_error *err)
{
    if (opt && !(opt->timeout_seconds >= 0)) {
        error_set(err, SMALTI_ERR_USAGE, m->file, 0, "the timeout must be 0 (none) or a number of seconds above 0");
        return NULL;
    }
    if (opt && opt->max_work < 0) {
        error_set(err, SMALTI_ERR_USAGE, m->file, 0, "the work budget must be 0 (none) or a number above 0");
        return NULL;
    }
    smalti_run *run = mem_calloc(1, sizeof *run);
    if (!run) {
        error_set(err, SMALTI_ERR_RUNTIME, m->file, 0, "out of memory creating a run");
        return NULL;
    }
    run_state *r = &run->rs;
    r->budget.limit = opt ? opt->max_memory : 0;
    mem_budget *caller = budget_enter(r);
    if (opt && opt->timeout_seconds > 0 && opt->timeout_seconds <= RUN_MAX_TIMEOUT_SECONDS)
        r->timeout_ns = (int64_t)(opt->timeout_seconds * 1e9) > 0 ? (int64_t)(opt->timeout_seconds * 1e9) : 1;
    r->stop.work_budget = opt ? opt->max_work : 0;
    r->model = m;
    r->grid = &m->grid;
    r->mx = m->grid.mx;
    r->my = m->grid.my;
    r->mz = m->grid.mz;
    r->cells = r->mx * r->my * r->mz;
    r->state = r->start_state = mem_malloc((size_t)r->cells);
    r->mask = mem_calloc((size_t)r->cells, 1);
    r->mask_cap = r->cells;
    r->node_states = mem_calloc((size_t)m->node_count, sizeof *r->node_states);
    r->changes_cap = 1024;
    r->changes = mem_malloc((size_t)r->changes_cap * sizeof *r->changes);
    r->first_cap = 1024;
    r->first = mem_malloc((size_t)r->first_cap * sizeof *r->first);
    if (!r->state || !r->mask || !r->node_states || !r->changes || !r->first) goto oom;
    if (!planes_init(&r->planes, r->mx, r->my, r->mz, m->grid.c)) goto oom;
    for (int i = 0; i < m->node_count; i++) {
        r->node_states[i] = m->nodes[i]->kind->state_new(m->nodes[i], m->nodes[i]->grid);
        if (!r->node_states[i]) goto oom;
    }
    budget_leave(r, caller);
    smalti_run_reset(run, seed);
    return run;
oom:
    budget_leave(r, caller);
    if (r->budget.spent)
        error_set(err, SMALTI_ERR_MEMORY, m->file, 0, "a run of this model needs more than its memory budget of %.1f MiB to start",
                  (double)r->budget.limit / (1 << 20));
    else error_set(err, SMALTI_ERR_RUNTIME, m->file, 0, "out of memory creating a run");
    smalti_run_free(run);
    return NULL;
}

bool run_use_grid(run_state *r, const grid_def *g, uint8_t *cells)
{
    int32_t count = g->mx * g->my * g->mz;
    if (count > r->mask_cap) {
        uint8_t *mask = mem_calloc((size_t)count, 1);
        if (!mask) { r->out_of_memory = true; return false; }
        mem_free(r->mask);
        r->mask = mask;
        r->mask_cap = count;
    }
    planes_free(&r->planes);
    if (!planes_init(&r->planes, g->mx, g->my, g->mz, g->c)) { r->out_of_memory = true; return false; }
    r->grid = g;
    r->mx = g->mx;
    r->my = g->my;
    r->mz = g->mz;
    r->cells = count;
    r->state = cells;
    return true;
}

/* The oldest step any node may still scan the change log from. */
static long oldest_needed_turn(const run_state *r)
{
    long oldest = r->counter;
    for (int i = 0; i < r->model->node_count; i++) {
        const node *n = r->model->nodes[i];
        if (!n->kind->oldest_turn) continue;
        long turn = n->kind->oldest_turn(r->node_states[i]);
        if (turn >= 0 && turn < oldest) oldest = turn;
    }
    return oldest;
}

/* Drop step starts that no node will ask for again. */
static void compact_first(run_state *r)
{
    long drop = oldest_needed_turn(r) - r->first_base;
    if (drop <= 0) return;
    memmove(r->first, r->first + drop, (size_t)(r->first_len - drop) * sizeof *r->first);
    r->first_len -= drop;
    r->first_base += drop;
}

/* Drop log entries older than any step a node may still scan from. */
static void compact_changes(run_state *r)
{
    int64_t keep = run_first(r, oldest_needed_turn(r));
    int64_t drop = keep - r->changes_base;
    if (drop <= 0) return;
    memmove(r->changes, r->changes + drop, (size_t)(r->changes_len - drop) * sizeof *r->changes);
    r->changes_len -= drop;
    r->changes_base = keep;
}

bool run_grow_changes(run_state *r)
{
    compact_changes(r);
    if (r->changes_len < r->changes_cap / 2) return true;
    int64_t cap = r->changes_cap * 2;
    int32_t *bigger = mem_realloc(r->changes, (size_t)cap * sizeof *bigger);
    if (!bigger) {
        r->out_of_memory = true;
        return false;
    }
    r->changes = bigger;
    r->changes_cap = cap;
    return true;
}

bool run_note_unlogged(run_state *r, int32_t index)
{
    if (r->unlogged_len == r->unlogged_cap) {
        int64_t cap = r->unlogged_cap ? 2 * r->unlogged_cap : 1024;
        int32_t *bigger = mem_realloc(r->unlogged, (size_t)cap * sizeof *bigger);
        if (!bigger) { r->out_of_memory = true; return false; }
        r->unlogged = bigger;
        r->unlogged_cap = cap;
    }
    r->unlogged[r->unlogged_len++] = index;
    return true;
}

/* Tell the observer what the step did: its logged changes, then any unlogged ones. */
/* The run back at its start, its generator seeded: the start grid and cells, the node states, an
   empty change log whose first step is the next one. False when the start grid cannot be had again. */
static bool restore_start(run_state *r, int32_t seed)
{
    const smalti_model *m = r->model;
    rng_seed(&r->random, seed);
    if (r->grid != &m->grid && !run_use_grid(r, &m->grid, r->start_state)) return false;
    memset(r->state, 0, (size_t)r->cells);
    /* Zeroed again only after an `all` step marked it (a step cut short may leave marks): a run
       without one never touches its pages (a 1023² grid's mask is 1 MB). */
    if (r->mask_used) memset(r->mask, 0, (size_t)r->mask_cap);
    r->mask_used = false;
    if (m->origin) r->state[r->mx / 2 + (r->my / 2) * r->mx + (r->mz / 2) * r->mx * r->my] = 1;
    r->changes_len = 0;
    r->changes_base = 0;
    r->first_len = 1;
    r->first_base = r->counter;
    r->first[0] = 0;
    node_reset(r, m->nodes[m->root]);
    r->current = m->root;
    r->planes.valid = false;
    r->unlogged_len = 0;
    run_set_geometry(r, NULL);
    return true;
}

void smalti_run_reset(smalti_run *run, int32_t seed)
{
    run_state *r = &run->rs;
    mem_budget *caller = budget_enter(r);
    r->budget.spent = false;
    r->counter = 0;
    r->seed = seed;
    r->attempt = 0;
    r->restart_node = -1;
    r->failure_count = 0;
    if (!restore_start(r, seed)) {
        budget_leave(r, caller);
        return;
    }
    r->acting_node = -1;
    r->acting_streak = 0;
    r->out_of_memory = false;
    stop_rearm(&r->stop, r->timeout_ns);
    r->failed = false;
    r->warnings = 0;
    r->status = 0;
    r->fail_line = 0;
    r->fail_message[0] = 0;
    budget_leave(r, caller);
}

int32_t run_attempt_seed(int32_t seed, int attempt)
{
    rng draws;
    rng_seed(&draws, seed);
    int32_t next = seed;
    for (int k = 0; k < attempt; k++) next = rng_next(&draws);
    return next;
}

void run_requirement_failed(run_state *r, const node *n, int tries, const char *what)
{
    int i = 0;
    while (i < r->failure_count && r->failures[i].node != n->id) i++;
    if (i == r->failure_count) {
        run_failure *grown = mem_realloc(r->failures, (size_t)(i + 1) * sizeof *grown);
        if (!grown) {
            r->out_of_memory = true;
            return;
        }
        r->failures = grown;
        r->failures[i] = (run_failure){.node = n->id, .line = n->line};
        r->failure_count++;
    }
    r->failures[i].count++;
    snprintf(r->failures[i].message, sizeof r->failures[i].message, "%s", what);
    if (r->attempt + 1 >= tries) {
        run_fail(r, n->line, "the requirement failed on all %d attempts (tries=\"%d\"); the last time: %s", r->attempt + 1,
                 tries, what);
        r->status = SMALTI_ERR_REQUIREMENT;
        return;
    }
    r->restart_node = n->id;
}

/* The restart a failed requirement asked for in this step: the next attempt's seed, the start grid
   and node states again, the step counter going on. The step is the requirement's, and observers
   hear of every cell it put back (or of the start grid, when a map had switched grids). */
static void run_restart(run_state *r)
{
    const int node_id = r->restart_node;
    r->restart_node = -1;
    const bool same_grid = r->grid == &r->model->grid;
    const bool tell = r->observer && same_grid;
    if (tell && !r->restart_before && !(r->restart_before = mem_malloc((size_t)r->cells))) {
        r->out_of_memory = true;
        return;
    }
    if (tell) memcpy(r->restart_before, r->state, (size_t)r->cells);
    r->attempt++;
    if (!restore_start(r, run_attempt_seed(r->seed, r->attempt))) {
        r->out_of_memory = true;
        return;
    }
    r->acting_node = node_id;
    if (tell)
        for (int32_t i = 0; i < r->cells; i++)
            if (r->restart_before[i] != r->state[i]) run_change_unlogged(r, i);
}

static void notify_observer(run_state *r)
{
    int64_t start = run_first(r, r->counter - 1);
    int64_t logged = run_changes_end(r) - start;
    const int32_t *cells = r->changes + (start - r->changes_base);
    if (r->unlogged_len > 0) {
        int64_t need = logged + r->unlogged_len;
        if (need > r->event_cap) {
            int32_t *bigger = mem_realloc(r->event_cells, (size_t)need * sizeof *bigger);
            if (!bigger) { r->out_of_memory = true; return; }
            r->event_cells = bigger;
            r->event_cap = need;
        }
        memcpy(r->event_cells, cells, (size_t)logged * sizeof *cells);
        memcpy(r->event_cells + logged, r->unlogged, (size_t)r->unlogged_len * sizeof *cells);
        cells = r->event_cells;
        logged = need;
    }
    smalti_step_event ev = {
        .step = r->counter,
        .node_id = r->acting_node,
        .changed = cells,
        .changed_count = (size_t)logged,
        .grid = r->state,
    };
    r->observer(r->observer_userdata, &ev);
}

/* Whether a step may start: the run goes on, and the step table has room for its entry. */
bool run_step_begin(run_state *r)
{
    if (r->current < 0 || r->out_of_memory || r->failed || stop_check(&r->stop, 0)) return false;
    if (r->first_len == r->first_cap) {
        compact_first(r);
        if (r->first_len > r->first_cap / 2) {
            int64_t *bigger = mem_realloc(r->first, (size_t)r->first_cap * 2 * sizeof *bigger);
            if (!bigger) { r->out_of_memory = true; return false; }
            r->first = bigger;
            r->first_cap *= 2;
        }
    }
    return true;
}

void run_step_done(run_state *r, int before)
{
    r->acting_streak = r->acting_node == before ? r->acting_streak + 1 : 1;
    r->counter++;
    r->first[r->first_len++] = run_changes_end(r);
    if (r->observer) notify_observer(r);
    r->unlogged_len = 0;
}

/* One step, with the run's budget current. */
static inline __attribute__((always_inline)) int run_step(smalti_run *run)
{
    run_state *r = &run->rs;
    if (!run_step_begin(r)) return 0;
    int before = r->acting_node;
    r->acting_node = -1;
    node_go(r, r->model->nodes[r->current]);
    /* A node that a deadline or cancel interrupted left its step half done: it is not counted and
       not observed, and the run stays stopped until a reset. */
    if (stop_said(&r->stop)) {
        r->acting_node = before;
        r->restart_node = -1;
        return 0;
    }
    if (r->restart_node >= 0) run_restart(r);
    run_step_done(r, before);
    return 1;
}

/* After a step: when the current branch repeats (a markov of leaves that repeat), let it make
   the following steps. Otherwise, after a step in which a leaf acted: when the next step would begin by calling that leaf again
   (its branch is the current one and resumes with it), let the leaf make the following steps in
   a row itself, up to `max`, while it keeps acting (node_kind.repeat). Returns the steps made. */
static long run_repeat(run_state *r, long max)
{
    if (max <= 0) return 0;
    if (r->current >= 0) {
        const node *current = r->model->nodes[r->current];
        if (current->kind->repeat) {
            long made = current->kind->repeat(r, current, r->node_states[current->id], max);
            if (made > 0) return made;
        }
    }
    if (r->acting_node < 0) return 0;
    const node *leaf = r->model->nodes[r->acting_node];
    if (!leaf->kind->repeat || leaf->parent != r->current) return 0;
    const node *branch = r->model->nodes[leaf->parent];
    if (!branch->kind->resumes_with || !branch->kind->resumes_with(branch, r->node_states[branch->id], leaf)) return 0;
    return leaf->kind->repeat(r, leaf, r->node_states[leaf->id], max);
}

/* The cells written since the change log stood at `log_before` (a map to a new grid starts a new log). */
static int64_t run_written_since(const run_state *r, int64_t log_before)
{
    const int64_t written = run_changes_end(r) - log_before;
    return written > 0 ? written : 0;
}

/* Count the steps made since the change log stood at `log_before` as work: each step 1, and each
   cell it wrote 1 (the scans inside steps count at their stop checks). A run that has just ended
   is not stopped by its budget: its last steps are counted, but the run finished. */
static void run_charge_steps(run_state *r, long steps, int64_t log_before)
{
    if (steps <= 0 || !r->stop.work_budget) return;
    const stop_reason before = r->stop.reason;
    stop_charge(&r->stop, steps + run_written_since(r, log_before));
    if (r->current < 0) r->stop.reason = before;
}

/* The steps a node may make in a row within the work budget left (less `owed`, counted but not
   yet charged), if each costs `step_cost`: at least one, as a step begun is counted after it is made. */
static long run_steps_affordable(const run_state *r, long max, int64_t owed, int64_t step_cost)
{
    const int64_t left = (r->stop.work_budget - r->stop.work_done - owed) / (step_cost > 0 ? step_cost : 1);
    return left < 1 ? 1 : left < max ? (long)left : max;
}

int smalti_run_step(smalti_run *run)
{
    mem_budget *caller = budget_enter(&run->rs);
    const int64_t log_before = run_changes_end(&run->rs);
    int stepped = run_step(run);
    run_charge_steps(&run->rs, stepped, log_before);
    budget_leave(&run->rs, caller);
    return stepped;
}

long smalti_run_to_end(smalti_run *run, long step_limit)
{
    run_state *r = &run->rs;
    mem_budget *caller = budget_enter(r);
    for (;;) {
        if (step_limit > 0 && r->counter >= step_limit) break;
        const long before = r->counter;
        const int64_t log_before = run_changes_end(r), work_before = r->stop.work_done;
        if (!run_step(run)) break;
        long max = step_limit <= 0 ? LONG_MAX : step_limit - r->counter;
        if (r->stop.work_budget) {
            /* The steps that follow in a row may cost what this one did: the work counted inside it and
               its own charge, which comes after them. */
            const int64_t own = 1 + run_written_since(r, log_before);
            max = run_steps_affordable(r, max, own, (r->stop.work_done - work_before) + own);
        }
        run_repeat(r, max);
        run_charge_steps(r, r->counter - before, log_before);
    }
    budget_leave(r, caller);
    return r->counter;
}

int smalti_run_finished(const smalti_run *run) { return run->rs.current < 0; }
int smalti_run_out_of_memory(const smalti_run *run) { return run->rs.out_of_memory; }

void run_fail(run_state *r, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fail_message, sizeof r->fail_message, fmt, ap);
    va_end(ap);
    r->fail_line = line;
    r->failed = true;
}

void run_warn(run_state *r, int line, const char *fmt, ...)
{
    r->warnings++;
    if (!r->warn) return;
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    r->warn(r->warn_userdata, r->model->file ? r->model->file : "", line, message);
}

int smalti_run_warning_count(const smalti_run *run) { return run->rs.warnings; }

void smalti_run_set_warn(smalti_run *run, smalti_warning_fn fn, void *userdata)
{
    run->rs.warn = fn;
    run->rs.warn_userdata = userdata;
}

int smalti_run_error(const smalti_run *run, smalti_error *err)
{
    const run_state *r = &run->rs;
    if (!r->failed && !r->out_of_memory && r->stop.reason == STOP_NONE) return 0;
    if (err) {
        err->status = r->failed && r->status ? (smalti_status)r->status : SMALTI_ERR_RUNTIME;
        snprintf(err->file, sizeof err->file, "%s", r->model->file ? r->model->file : "");
        err->line = r->failed ? r->fail_line : 0;
        if (r->failed) snprintf(err->message, sizeof err->message, "%s", r->fail_message);
        else if (r->out_of_memory && r->budget.spent) {
            err->status = SMALTI_ERR_MEMORY;
            snprintf(err->message, sizeof err->message, "stopped after %ld steps: the run needed more than its memory budget of %.1f MiB",
                     r->counter, (double)r->budget.limit / (1 << 20));
        } else if (r->out_of_memory) snprintf(err->message, sizeof err->message, "out of memory after %ld steps", r->counter);
        else if (r->stop.reason == STOP_TIMEOUT) {
            err->status = SMALTI_ERR_TIMEOUT;
            snprintf(err->message, sizeof err->message, "stopped after %ld steps: the run took longer than its timeout of %g s",
                     r->counter, (double)r->timeout_ns / 1e9);
        } else if (r->stop.reason == STOP_WORK) {
            err->status = SMALTI_ERR_TIMEOUT;
            snprintf(err->message, sizeof err->message, "stopped after %ld steps: the run needed more than its work budget of %lld units",
                     r->counter, (long long)r->stop.work_budget);
        } else {
            err->status = SMALTI_ERR_CANCELLED;
            snprintf(err->message, sizeof err->message, "cancelled after %ld steps", r->counter);
        }
    }
    return 1;
}
long smalti_run_counter(const smalti_run *run) { return run->rs.counter; }
int smalti_run_attempts(const smalti_run *run) { return run->rs.attempt + 1; }
int32_t smalti_attempt_seed(int32_t seed, int attempt) { return run_attempt_seed(seed, attempt); }

int smalti_run_requirement(const smalti_run *run, int index, int *line, int *failures, const char **message)
{
    const run_state *r = &run->rs;
    if (index < 0 || index >= r->failure_count) return 0;
    if (line) *line = r->failures[index].line;
    if (failures) *failures = r->failures[index].count;
    if (message) *message = r->failures[index].message;
    return 1;
}
long long smalti_run_work(const smalti_run *run) { return run->rs.stop.work_done; }

int smalti_run_geometry(const smalti_run *run, const double **px, const double **py, int *points_x, int *points_y)
{
    const geometry *g = run->rs.geometry;
    if (px) *px = g ? g->x : NULL;
    if (py) *py = g ? g->y : NULL;
    if (points_x) *points_x = g ? g->nx : 0;
    if (points_y) *points_y = g ? g->ny : 0;
    return g != NULL;
}

int smalti_run_last_node(const smalti_run *run, long *steps)
{
    if (steps) *steps = run->rs.acting_streak;
    return run->rs.acting_node;
}

const unsigned char *smalti_run_grid(const smalti_run *run, int *mx, int *my, int *mz)
{
    if (mx) *mx = run->rs.mx;
    if (my) *my = run->rs.my;
    if (mz) *mz = run->rs.mz;
    return run->rs.state;
}

const char *smalti_run_legend(const smalti_run *run) { return run->rs.grid->chars; }

void smalti_run_cancel(smalti_run *run) { atomic_store(&run->rs.stop.cancel, 1); }

void smalti_run_set_observer(smalti_run *run, smalti_observer_fn fn, void *userdata)
{
    run->rs.observer = fn;
    run->rs.observer_userdata = userdata;
}
