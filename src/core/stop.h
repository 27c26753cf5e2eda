/* stop.h — a run's deadline and cancel flag, checked cheaply by the step loop and inside long loops
   (search, WFC, generators), which end early when it says stop. */
#ifndef SMALTI_STOP_H
#define SMALTI_STOP_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef enum stop_reason { STOP_NONE = 0, STOP_CANCELLED, STOP_TIMEOUT } stop_reason;

/* Checks between two reads of the clock: a read costs some tens of
   nanoseconds, a check a load and a decrement. */
#define STOP_CLOCK_EVERY 64

typedef struct run_stop {
    atomic_int cancel;       /* set by any thread (smalti_run_cancel) */
    int64_t deadline_ns;     /* CLOCK_MONOTONIC nanoseconds; 0: none */
    uint32_t countdown;      /* checks left until the next clock read */
    stop_reason reason;      /* why the run stopped; STOP_NONE while it may go on */
} run_stop;

static inline int64_t stop_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether the run must stop now: it was cancelled, or its deadline passed.
   NULL (no run to answer to) never stops. Once true, stays true until stop_rearm. */
static inline bool stop_requested(run_stop *s)
{
    if (!s) return false;
    if (s->reason != STOP_NONE) return true;
    if (atomic_load_explicit(&s->cancel, memory_order_relaxed)) {
        s->reason = STOP_CANCELLED;
        return true;
    }
    if (s->deadline_ns && --s->countdown == 0) {
        s->countdown = STOP_CLOCK_EVERY;
        if (stop_now_ns() >= s->deadline_ns) s->reason = STOP_TIMEOUT;
    }
    return s->reason != STOP_NONE;
}

/* A fresh start (a new run, or a reset): not cancelled, the deadline `timeout_ns` from now (0: none). */
static inline void stop_rearm(run_stop *s, int64_t timeout_ns)
{
    atomic_store(&s->cancel, 0);
    s->deadline_ns = timeout_ns > 0 ? stop_now_ns() + timeout_ns : 0;
    s->countdown = 1;
    s->reason = STOP_NONE;
}
#endif
