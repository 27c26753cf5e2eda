/* grid.h — a grid's definition: its values, waves (unions, *), folder and size. */
#ifndef SMALTI_GRID_H
#define SMALTI_GRID_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "diag.h"

/* A wave is a bitset over values: bit v is value v. The reference's waves are int, so its models
   have at most 31 values (with 32 its '*' is empty, past that values share bits); a model that
   uses one of smalti's own nodes may have up to 64, one bit each of a 64-bit wave. */
typedef uint64_t wave_bits;
#define GRID_MAX_VALUES 64
#define GRID_REFERENCE_MAX_VALUES 31
static inline wave_bits wave_bit(int value) { return (wave_bits)1 << value; }
/* The wave of every value of a grid with c values ('*'). */
static inline wave_bits wave_all(int c) { return c >= 64 ? ~(wave_bits)0 : wave_bit(c) - 1; }
/* A grid larger than this many cells is refused as absurd. */
#define GRID_MAX_CELLS (1L << 28)

/* The one place a grid's cell count is formed from sides that attributes gave: every side at least 1
   and the product within GRID_MAX_CELLS, with no overflow whatever the sides. *cells gets the product
   (INT64_MAX when it overflows) for the caller's message. */
bool grid_cells_within_cap(int64_t mx, int64_t my, int64_t mz, int64_t *cells);

/* Symbols (values, unions, '*') are ASCII: grid_load and xml_get_char refuse others. */
#define GRID_SYMBOLS 128

typedef struct grid_def {
    int mx, my, mz;
    int c;                          /* number of values */
    char chars[GRID_MAX_VALUES + 1]; /* the legend, NUL-terminated */
    int8_t value_of[256];           /* symbol -> value, -1 if none */
    wave_bits wave_of[GRID_SYMBOLS]; /* symbol -> wave (values, unions, '*'); read it through grid_symbol_wave */
    bool has_wave[256];
    wave_bits transparent;
    char *folder;                   /* resource subfolder, or NULL */
} grid_def;

/* The wave of a symbol: 0 (no value) for a character that is no symbol of the grid. */
static inline wave_bits grid_symbol_wave(const grid_def *g, unsigned char ch) { return ch < GRID_SYMBOLS ? g->wave_of[ch] : 0; }

/* Whether a child element's <union> children belong to the grid too (which elements those are is
   the node kinds' fact, not the grid's: node_holds_unions in src/nodes answers it). */
typedef bool (*grid_holds_unions_fn)(const xmlNode *el);
/* Load from an element carrying `values` (the root or a map node), at most max_values of them
   (GRID_MAX_VALUES, or GRID_REFERENCE_MAX_VALUES for a model of the reference's nodes only).
   Unions are collected from `el` and its descendants through elements that hold_unions (and
   through unions), breadth first. */
bool grid_load(diag *d, const xmlNode *el, int mx, int my, int mz, int max_values, grid_holds_unions_fn holds_unions,
               grid_def *g);
void grid_free(grid_def *g);
/* Sum of 1 << value over the symbols; false if a symbol is not a value. */
bool grid_wave(const grid_def *g, const char *symbols, wave_bits *out);
#endif
