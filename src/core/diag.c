/* diag.c — error and warning reporting with file and line while loading a model. */
#include "diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void error_vset(smalti_error *err, smalti_status status, const char *file, int line, const char *fmt, va_list ap)
{
    if (!err) return;
    err->status = status;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

void error_set(smalti_error *err, smalti_status status, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, status, file, line, fmt, ap);
    va_end(ap);
}

int diag_error(diag *d, smalti_status status, int line, const char *fmt, ...)
{
    if (d->failed) return 0;
    d->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    error_vset(d->err, status, d->file, line, fmt, ap);
    va_end(ap);
    return 0;
}

bool diag_stopped(diag *d)
{
    if (!stop_requested(d->stop)) return false;
    diag_error(d, SMALTI_ERR_TIMEOUT, 0, "loading the model took longer than its timeout");
    return true;
}

void diag_warn(diag *d, int line, const char *fmt, ...)
{
    if (d->quiet) return;
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (d->warn) d->warn(d->warn_userdata, d->file, line, message);
    else fprintf(stderr, "%s:%d: warning: %s\n", d->file ? d->file : "", line, message);
}
