/* stop.h — a run's deadline, work budget and cancel flag, checked cheaply by the step loop and inside
   long loops (search, WFC, generators), which end early when it says stop. */
#ifndef SMALTI_STOP_H
#define SMALTI_STOP_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef enum stop_reason { STOP_NONE = 0, STOP_CANCELLED, STOP_TIMEOUT, STOP_WORK } stop_reason;

/* Checks between two reads of the clock: a read costs some tens of
   nanoseconds, a check a load and a decrement. */
#define STOP_CLOCK_EVERY 64
/* The items of a cheap loop between two checks (stop_requested_at). */
#define STOP_ITEMS 1024

typedef struct run_stop {
    atomic_int cancel;       /* set by any thread (smalti_run_cancel) */
    int64_t deadline_ns;     /* CLOCK_MONOTONIC nanoseconds; 0: none */
    uint32_t countdown;      /* checks left until the next clock read */
    /* Work, in units of about one cell or item visited: a step costs 1 and each cell it writes 1
       (run_charge_steps); a check inside a long loop costs STOP_ITEMS (one is made per STOP_ITEMS
       cheap items, or per heavy item), or what it says it covers (stop_check's units: a scan's
       row, a search board). Unlike the
       clock, it stops a run at the same point on every machine. work_budget 0: no budget, and
       work_done is not counted. */
    int64_t work_budget, work_done;
    stop_reason reason;      /* why the run stopped; STOP_NONE while it may go on */
} run_stop;

static inline int64_t stop_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* stop_charge's counting, out of line: the loops that check stay as small as they were without it. */
void stop_count_work(run_stop *s, int64_t units);

/* Count `units` (>= 0) of work done when the run has a budget; past it, the run must stop. Without
   one, nothing is counted: a load and a branch in the loops that check. */
static inline void stop_charge(run_stop *s, int64_t units)
{
    if (s->work_budget) stop_count_work(s, units);
}

/* The deadline's part of a check covering `units` of work: a check that covers more than
   STOP_ITEMS units counts as that many checks toward the next clock read, so that the work
   between two reads stays bounded whatever a check covers. */
static inline void stop_count_down(run_stop *s, int64_t units)
{
    if (!s->deadline_ns) return;
    const uint32_t ticks = units > STOP_ITEMS ? (units / STOP_ITEMS < STOP_CLOCK_EVERY ? (uint32_t)(units / STOP_ITEMS) : STOP_CLOCK_EVERY) : 1;
    if (s->countdown <= ticks) {
        s->countdown = STOP_CLOCK_EVERY;
        if (stop_now_ns() >= s->deadline_ns) s->reason = STOP_TIMEOUT;
    } else s->countdown -= ticks;
}

/* Whether the run has already been told to stop, or is cancelled now (the cancel flag is read). */
static inline bool stop_flagged(run_stop *s)
{
    if (s->reason != STOP_NONE) return true;
    if (!atomic_load_explicit(&s->cancel, memory_order_relaxed)) return false;
    s->reason = STOP_CANCELLED;
    return true;
}

/* Whether the run must stop now, after `units` more work: it was cancelled, its deadline passed or
   its work budget is spent; the work is charged to the budget. NULL (no run to answer to) never
   stops. Once true, stays true until stop_rearm. */
static inline bool stop_check(run_stop *s, int64_t units)
{
    if (!s) return false;
    if (stop_flagged(s)) return true;
    if (units) stop_charge(s, units); /* a check between steps (units 0) costs nothing more */
    stop_count_down(s, units);
    return s->reason != STOP_NONE;
}

/* stop_check for work the caller charges to the budget otherwise, or that is not charged (a
   search's estimates, a fast `one` loop's scans): `units` count toward the clock read only. */
static inline bool stop_tick(run_stop *s, int64_t units)
{
    if (!s) return false;
    if (stop_flagged(s)) return true;
    stop_count_down(s, units);
    return s->reason != STOP_NONE;
}

/* The check of a long loop: one per STOP_ITEMS cheap items, or per heavy item. */
static inline bool stop_requested(run_stop *s) { return stop_check(s, STOP_ITEMS); }

/* Whether a check has already said stop (reads neither the clock nor the flag). A node that a
   check interrupted returns at once; the step it was in is not counted, and a branch does not go
   on to its next child. */
static inline bool stop_said(const run_stop *s) { return s && s->reason != STOP_NONE; }

/* In loops whose items are cheap (a cell, a match, a symbol): stop_requested on every
   STOP_ITEMS-th item only, so the clock is read about every STOP_ITEMS * STOP_CLOCK_EVERY items
   (64 K items: well under a millisecond to a few milliseconds). */
static inline bool stop_requested_at(run_stop *s, int64_t item)
{
    return (item & (STOP_ITEMS - 1)) == 0 && stop_requested(s);
}

/* In loops whose items differ in cost (a walker's brush, a turtle's segment): add each item's work
   (cells touched) to *work, and stop_requested once it passes STOP_ITEMS since the last ask. Each
   STOP_ITEMS of work counts as one check toward the next clock read (stop_tick), so that heavy
   items bring the clock read sooner. */
static inline bool stop_requested_after(run_stop *s, int64_t *work, int64_t done)
{
    if ((*work += done) < STOP_ITEMS) return false;
    int64_t checks = *work / STOP_ITEMS;
    *work = 0;
    return stop_check(s, checks * STOP_ITEMS);
}

/* A fresh start (a new run, or a reset): not cancelled, the deadline `timeout_ns` from now (0: none),
   no work done. */
static inline void stop_rearm(run_stop *s, int64_t timeout_ns)
{
    atomic_store(&s->cancel, 0);
    s->deadline_ns = timeout_ns > 0 ? stop_now_ns() + timeout_ns : 0;
    s->work_done = 0;
    s->countdown = 1;
    s->reason = STOP_NONE;
}
#endif
