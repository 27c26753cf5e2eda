/* planes.h — per-value bitplanes of the grid, for word-parallel whole-grid match scans. */
#ifndef SMALTI_PLANES_H
#define SMALTI_PLANES_H
#include <stdbool.h>
#include <stdint.h>
#include "../core/rule.h"

typedef struct run_state run_state;

/* Bit x of plane(v, row) is set when cell (x, row) holds v; a row is (y, z). */
typedef struct bitplanes {
    uint64_t *bits;      /* c * rows * words */
    uint8_t *shadow;     /* the cell values the bits show */
    int64_t position;    /* change-log position the planes are current to */
    bool valid;
    int words, rows, c;
    int64_t cells;
    uint64_t *scratch;   /* band masks and temporaries for a scan */
    int64_t scratch_size;
} bitplanes;

bool planes_init(bitplanes *p, int mx, int my, int mz, int c);
void planes_free(bitplanes *p);
/* Bring the planes up to the grid, from the change log or from scratch (making them at the first
   call; r->out_of_memory when they cannot be made). */
void planes_sync(run_state *r);
/* Rules wider than a word are scanned cell by cell instead. */
static inline bool planes_fit(const rule *rl) { return rl->imx <= 63; }
/* For lattice row (lz, ly) of a rule, fill band[(dz*imy + dy)*words ...] with
   the bitmask of corners sx where the rule matches with its corner at
   (sx, ly-dy, lz-dz), zero where that row is out of range, and return the OR
   of all of them in `any` (words long). Returns false when nothing matches. */
bool planes_band(run_state *r, const rule *rl, int lz, int ly, uint64_t *band, uint64_t *any);
uint64_t *planes_scratch(run_state *r, int64_t words);
#endif
