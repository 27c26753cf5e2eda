/* lint_report.h — the warnings of `run` and `check`: printed, counted, and made errors by --strict. */
#ifndef SMALTI_CLI_LINT_REPORT_H
#define SMALTI_CLI_LINT_REPORT_H
#include <stdbool.h>
#include "smalti.h"
#include "../../io/output.h"

typedef struct lint_report {
    int count;  /* warnings said while loading and after */
    bool quiet; /* count them without printing (-q without --strict) */
} lint_report;

/* A smalti_warning_fn: "file:line: warning: message" on stderr, counted in the lint_report at userdata. */
void lint_report_warn(void *userdata, const char *file, int line, const char *message);
/* Warn, through warn, about values of the model that the palette in use has no colour for, saying
   where they can be given one (`where`: "a --palette file"). */
void lint_palette(const smalti_model *model, const palette *pal, const char *path, const char *where, smalti_warning_fn warn,
                  void *userdata);
/* With --strict, any warning makes the command fail: says so and returns EXIT_MODEL; else EXIT_OK. */
int lint_report_verdict(const lint_report *lr, bool strict, const char *path);
#endif
