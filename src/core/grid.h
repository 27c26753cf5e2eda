/* grid.h — a grid's definition: its values, waves (unions, *), folder and size. */
#ifndef SMALTI_GRID_H
#define SMALTI_GRID_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "diag.h"

/* Waves are bitsets over values, as int in the reference, so at most 31 values. */
#define GRID_MAX_VALUES 31
/* A grid larger than this many cells is refused as absurd. */
#define GRID_MAX_CELLS (1L << 28)

/* The one place a grid's cell count is formed from sides that attributes gave: every side at least 1
   and the product within GRID_MAX_CELLS, with no overflow whatever the sides. *cells gets the product
   (INT64_MAX when it overflows) for the caller's message. */
bool grid_cells_within_cap(int64_t mx, int64_t my, int64_t mz, int64_t *cells);

typedef struct grid_def {
    int mx, my, mz;
    int c;                          /* number of values */
    char chars[GRID_MAX_VALUES + 1]; /* the legend, NUL-terminated */
    int8_t value_of[256];           /* symbol -> value, -1 if none */
    uint32_t wave_of[256];          /* symbol -> wave (values, unions, '*') */
    bool has_wave[256];
    uint32_t transparent;
    char *folder;                   /* resource subfolder, or NULL */
} grid_def;

/* Whether a child element's <union> children belong to the grid too (which elements those are is
   the node kinds' fact, not the grid's: node_holds_unions in src/nodes answers it). */
typedef bool (*grid_holds_unions_fn)(const xmlNode *el);
/* Load from an element carrying `values` (the root or a map node). Unions are collected from `el`
   and its descendants through elements that hold_unions (and through unions), breadth first. */
bool grid_load(diag *d, const xmlNode *el, int mx, int my, int mz, grid_holds_unions_fn holds_unions, grid_def *g);
void grid_free(grid_def *g);
/* Sum of 1 << value over the symbols; false if a symbol is not a value. */
bool grid_wave(const grid_def *g, const char *symbols, uint32_t *out);
#endif
