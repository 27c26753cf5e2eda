/* progress.c — run a model to its end, showing a progress line on a terminal for long runs. */
#include "pieces.h"
#include "../common/cli.h"
#include <stdio.h>
#include <unistd.h>

long run_with_progress(smalti_run *run, long step_limit, const char *label, bool quiet)
{
    bool show = !quiet && isatty(2);
    double start = show ? now_seconds() : 0, last_print = 0;
    bool printed = false;
    for (;;) {
        /* Step in chunks so that the clock is read rarely. */
        long chunk_end = smalti_run_counter(run) + 4096;
        if (step_limit > 0 && chunk_end > step_limit) chunk_end = step_limit;
        if (smalti_run_to_end(run, chunk_end) < chunk_end || chunk_end == step_limit) goto done;
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

void step_limit_actor(const smalti_model *model, const smalti_run *run, const char *file, char *buf, size_t size)
{
    long streak = 0;
    int id = smalti_run_last_node(run, &streak);
    smalti_node_info info;
    buf[0] = 0;
    if (streak <= 0) return;
    if (id < 0) {
        /* A branch handing control back makes one such step; many in a row is a node failing
           again and again (a wfc without a solution). */
        if (streak > 1) snprintf(buf, size, "; no node acted in the last %ld steps", streak);
        return;
    }
    if (!smalti_model_node_info(model, id, &info)) return;
    char where[64 + 1024] = "";
    if (info.line > 0) snprintf(where, sizeof where, " at line %d%s%s", info.line, file ? " of " : "", file ? file : "");
    if (streak == 1) snprintf(buf, size, "; the last step was made by <%s>%s", info.kind, where);
    else snprintf(buf, size, "; the last %ld steps were all made by <%s>%s", streak, info.kind, where);
}
