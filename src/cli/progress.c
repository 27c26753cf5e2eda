/* progress.c — run a model to its end, showing a progress line on a terminal for long runs. */
#include "cli.h"
#include <stdio.h>
#include <unistd.h>

long run_with_progress(smalti_run *run, long step_limit, const char *label, bool quiet)
{
    bool show = !quiet && isatty(2);
    double start = show ? now_seconds() : 0, last_print = 0;
    bool printed = false;
    for (;;) {
        /* Step in chunks so that the clock is read rarely. */
        for (int k = 0; k < 4096; k++) {
            if (step_limit > 0 && smalti_run_counter(run) >= step_limit) goto done;
            if (!smalti_run_step(run)) goto done;
        }
        if (!show) continue;
        double t = now_seconds();
        if (t - start >= 1.0 && t - last_print >= 0.2) {
            long n = smalti_run_counter(run);
            if (step_limit > 0)
                fprintf(stderr, "\r%s: step %ld of at most %ld (%.0f%%), %.1f s ", label, n, step_limit, 100.0 * n / step_limit, t - start);
            else
                fprintf(stderr, "\r%s: step %ld, %.1f s ", label, n, t - start);
            last_print = t;
            printed = true;
        }
    }
done:
    if (printed) fprintf(stderr, "\r\033[K");
    return smalti_run_counter(run);
}
