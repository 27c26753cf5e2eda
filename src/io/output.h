/* output.h — writing results: text grids, PNG, MagicaVoxel VOX, palettes, atomic files. */
#ifndef TS_OUTPUT_H
#define TS_OUTPUT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "tessera.h"

#define GRID_COLORS_MAX 256

/* A palette maps symbols to 0xRRGGBB colours. */
typedef struct palette {
    uint32_t rgb[256];
    bool has[256];
} palette;

/* The built-in default palette (the same colours as the reference's palette.xml). */
void palette_default(palette *p);
/* Read <colors><color symbol="B" value="000000"/>...; overrides entries of p. */
bool palette_load_file(palette *p, const char *path, ts_error *err);
/* Colours for a legend; symbols without a colour get grey and are reported. */
void palette_colors(const palette *p, const char *legend, uint32_t *colors, char *missing, size_t missing_size);

/* Atomic files: write to a temporary name beside the target, then rename. */
typedef struct atomic_file {
    FILE *f;
    char tmp[4096];
    char path[4096];
} atomic_file;
bool atomic_open(atomic_file *af, const char *path, ts_error *err);
bool atomic_commit(atomic_file *af, ts_error *err); /* closes; renames on success */
void atomic_abort(atomic_file *af);

typedef struct grid_view {
    const unsigned char *cells;
    int mx, my, mz;
    const char *legend;
} grid_view;

/* The text form of the reference outputs (header lines are written by the caller). */
bool write_text_cells(FILE *f, const grid_view *g);
bool save_png(const char *path, const grid_view *g, const uint32_t *colors, int pixel_size, ts_error *err);
bool save_vox(const char *path, const grid_view *g, const uint32_t *colors, ts_error *err);
#endif
