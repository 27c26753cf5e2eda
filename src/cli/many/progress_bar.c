/* progress_bar.c — the progress of many runs: done/total, the rate and the time left, as a bar on a
   terminal or a line every few seconds in a log. */
#include "many.h"
#include "../common/cli.h"
#include <stdio.h>
#include <unistd.h>

void many_progress_start(many_progress *p)
{
    p->tty = isatty(2);
    p->start = p->last = now_seconds();
    p->drawn = false;
}

static void format_duration(double s, char *buf, size_t size)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, size, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
    else snprintf(buf, size, "%lds", t);
}

void many_progress_show(many_progress *p, int64_t done, int64_t total, bool final)
{
    double t = now_seconds();
    if (final) {
        if (p->drawn && p->tty) fprintf(stderr, "\r\033[K");
        return;
    }
    /* A terminal's bar five times a second; a log's line every five seconds. */
    if (t - p->last < (p->tty ? 0.2 : 5.0)) return;
    p->last = t;
    double rate = done / (t - p->start > 0 ? t - p->start : 1e-9);
    char eta[32] = "?";
    if (rate > 0) format_duration((double)(total - done) / rate, eta, sizeof eta);
    if (p->tty) {
        char bar[31];
        int fill = total > 0 ? (int)(30 * done / total) : 30;
        for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
        bar[30] = 0;
        fprintf(stderr, "\r[%s] %lld/%lld runs, %.1f/s, ETA %s \033[K", bar, (long long)done, (long long)total, rate, eta);
    } else {
        fprintf(stderr, "smalti: %lld/%lld runs (%.0f%%), %.1f/s, ETA %s\n", (long long)done, (long long)total,
                total > 0 ? 100.0 * done / total : 100.0, rate, eta);
    }
    p->drawn = true;
}
