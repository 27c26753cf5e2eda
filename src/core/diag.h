/* diag.h — error and warning reporting with file and line while loading a model. */
#ifndef SMALTI_DIAG_H
#define SMALTI_DIAG_H
#include "smalti.h"
#include "stop.h"

typedef struct diag {
    const char *file;        /* the file being loaded, for messages */
    smalti_error *err;           /* where the first error goes (may be NULL) */
    smalti_warning_fn warn;
    void *warn_userdata;
    int quiet;
    int failed;
    run_stop *stop;          /* the load's deadline (NULL: none), asked by diag_stopped */
} diag;

#if defined(__GNUC__)
#define SMALTI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SMALTI_PRINTF(a, b)
#endif

/* Record an error (only the first one is kept); always returns 0 so that
   callers can write `return diag_error(...)`. */
int diag_error(diag *d, smalti_status status, int line, const char *fmt, ...) SMALTI_PRINTF(4, 5);
void diag_warn(diag *d, int line, const char *fmt, ...) SMALTI_PRINTF(3, 4);
/* Whether the load must stop: its deadline passed (one clock read per STOP_CLOCK_EVERY asks, made
   once per rule or node loaded). The first time, records the error. */
bool diag_stopped(diag *d);
void error_set(smalti_error *err, smalti_status status, const char *file, int line, const char *fmt, ...) SMALTI_PRINTF(5, 6);
#endif
