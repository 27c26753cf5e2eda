/* gen.h — attribute parsing and helpers shared by the generator nodes (lsystem, noise, runner, voronoi, poisson). */
#ifndef SMALTI_GEN_H
#define SMALTI_GEN_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/diag.h"
#include "../core/grid.h"
#include "../core/rng.h"

/* A number or a range "a..b" (inclusive), drawn uniformly per use. */
typedef struct gen_range {
    double lo, hi;
} gen_range;

/* One grid value by its symbol. A missing attribute gives *out = -1, which
   is an error "needs a NAME attribute" when `required`. */
bool gen_value(diag *d, const xmlNode *el, const grid_def *g, const char *name, bool required, int *out);
/* Several grid values, one per character ("WRG"), at most GRID_MAX_VALUES.
   A missing attribute gives *count = 0 (an error when `required`). */
bool gen_values(diag *d, const xmlNode *el, const grid_def *g, const char *name, bool required, uint8_t *out, int *count);
/* A wave (value symbols, union symbols or '*'), default every value. */
bool gen_wave(diag *d, const xmlNode *el, const grid_def *g, const char *name, wave_bits *out);
/* A number or "a..b" with min <= a <= b <= max; the default is [dflt, dflt]. */
bool gen_get_range(diag *d, const xmlNode *el, const char *name, double dflt, double min, double max, gen_range *out);
/* A number in [min, max]. */
bool gen_get_double(diag *d, const xmlNode *el, const char *name, double dflt, double min, double max, double *out);
/* One of a NULL-terminated list of names (case-sensitive); *out is its index. */
bool gen_get_choice(diag *d, const xmlNode *el, const char *name, const char *const *choices, int dflt, int *out);

/* A real uniformly in [lo, hi]; an integer range draws uniformly among
   lo..hi inclusive. Both take exactly one draw, even for a single number,
   so the stream does not depend on how a range is written. */
double gen_range_draw(const gen_range *r, rng *random);
int gen_range_draw_int(const gen_range *r, rng *random);

static inline bool gen_in_wave(wave_bits wave, uint8_t value) { return (wave >> value) & 1u; }
#endif
