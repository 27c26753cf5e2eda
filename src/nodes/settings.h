/* settings.h — a model's own settings (<smalti> as the first child of the root), and the grid they ask for. */
#ifndef SMALTI_SETTINGS_H
#define SMALTI_SETTINGS_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/diag.h"

/* The longest side a model's settings, pack.xml or models.xml may ask for. */
#define SETTINGS_SIDE_MAX (1 << 24)

/* No setting given. */
void settings_clear(smalti_settings *s);
/* The first element child of root when it is <smalti>, else NULL. */
xmlNode *settings_element(const xmlNode *root);
/* Read and check root's <smalti> element into s (cleared when there is none); false after a
   diag_error with the line of the bad value. */
bool settings_parse(diag *d, const xmlNode *root, smalti_settings *s);
/* Read only the settings of a model file, before loading it (for a caller whose own options
   must win over them), with opt's parameters (NULL: the defaults). A file that is missing or not XML gives no settings and true: loading
   it reports that. False, with err set (SMALTI_ERR_MODEL, file:line), on a bad setting. */
bool settings_read_file(const char *path, const smalti_load_options *opt, smalti_settings *s, smalti_error *err);

/* A grid size as asked for by a caller's options (the command line, a models.xml entry):
   each field > 0 when given, 0 when not. */
typedef struct grid_request {
    int size, length, width, height, dim;
} grid_request;
/* The grid: what `over` gives wins, then the settings, then the default side dflt_2d (2-D)
   or dflt_3d (3-D). A side follows a models.xml entry: length and width default to the size,
   height to 1 in 2-D and to the size in 3-D. A size in `over` replaces every side the
   settings give. The dimension: over's, else the settings', else 2. */
void settings_grid(const smalti_settings *s, const grid_request *over, int dflt_2d, int dflt_3d, int *mx, int *my, int *mz);
/* The <color symbol value/> children of el, as a palette file's, appended to symbols/rgb (count
   grows); false after reporting a bad one. Children named skip (NULL: none) are the caller's (a
   pack entry's <param>). Model settings and pack manifests share it. */
bool settings_read_colors(diag *d, const xmlNode *el, const char *skip, char *symbols, uint32_t *rgb, int *count);
#endif
