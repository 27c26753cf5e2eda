/* lint_report.c — the warnings of `run` and `check`: printed, counted, and made errors by --strict. */
#include "lint_report.h"
#include "../common/cli.h"
#include <stdio.h>

void lint_report_warn(void *userdata, const char *file, int line, const char *message)
{
    lint_report *lr = userdata;
    lr->count++;
    if (lr->quiet) return;
    if (line > 0) fprintf(stderr, "%s:%d: warning: %s\n", file ? file : "", line, message);
    else fprintf(stderr, "%s: warning: %s\n", file ? file : "", message);
}

void lint_palette(const smalti_model *model, const palette *pal, const char *path, const char *where, smalti_warning_fn warn,
                  void *userdata)
{
    const char *legend = smalti_model_legend(model);
    uint32_t colors[64];
    char missing[64];
    palette_colors(pal, legend, colors, missing, sizeof missing);
    if (!missing[0]) return;
    smalti_node_info root; /* node 0 is the root element, which carries `values` */
    int line = smalti_model_node_info(model, 0, &root) ? root.line : 0;
    char message[320];
    snprintf(message, sizeof message,
             "values \"%s\" have no colour in the palette, so pictures draw them grey; give them one with "
             "<color symbol=\"X\" value=\"RRGGBB\"/> in %s",
             missing, where);
    warn(userdata, path, line, message);
}

int lint_report_verdict(const lint_report *lr, bool strict, const char *path)
{
    if (!strict || lr->count == 0) return EXIT_OK;
    fprintf(stderr, "%s: error: %d warning%s, and --strict makes warnings errors\n", path, lr->count, lr->count == 1 ? "" : "s");
    return EXIT_MODEL;
}
