/* field.h — distance fields (`<field>`): potentials that bias which match a rule node picks. */
#ifndef SMALTI_FIELD_H
#define SMALTI_FIELD_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/grid.h"
#include "../core/rule.h"
#include "../core/stop.h"

typedef struct field {
    int value;         /* the value whose potential this is (`for`) */
    bool recompute;    /* recompute on every step, not only the first */
    bool inversed;     /* given by `from`: move away from zero instead of towards it */
    bool essential;    /* the node fails when this field cannot be computed */
    wave_bits zero;    /* cells of these values have potential 0 */
    wave_bits substrate; /* the field spreads through cells of these values */
} field;

bool field_load(diag *d, const xmlNode *el, const grid_def *g, field *f);

/* Which neighbours each cell has: bits x-1, x+1, y-1, y+1, z-1, z+1. */
void field_borders(uint8_t *borders, int mx, int my, int mz);

/* Breadth-first distances from the zero cells through the substrate; -1
   where unreached. `queue` has room for every cell. False when no cell is a
   zero cell, or when `stop` said stop (checked per STOP_ITEMS cells visited; NULL: never). */
bool field_compute(const field *f, int32_t *potential, const uint8_t *state, const uint8_t *borders, int mx, int my,
                   int mz, int32_t *queue, run_stop *stop);

/* A rule cell whose value the rule changes: the only cells that count in the
   change of potential a match would make. */
typedef struct delta_cell {
    int32_t offset;
    uint8_t value;
} delta_cell;

/* The change of total potential if the rule were applied at `at` (the
   reference's DeltaPointwise), or false when a new value is unreachable.
   potentials[v] is the field of value v, or NULL where no field is kept
   (potential 0 everywhere); inversed[v] marks inversed fields. */
static inline bool field_delta(const uint8_t *state, const delta_cell *cells, int count, int32_t at,
                               int32_t *const *potentials, const bool *inversed, int *delta)
{
    int sum = 0;
    for (int k = 0; k < count; k++) {
        int32_t i = at + cells[k].offset;
        uint8_t new_value = cells[k].value, old_value = state[i];
        int new_potential = potentials[new_value] ? potentials[new_value][i] : 0;
        if (new_potential == -1) return false;
        int old_potential = potentials[old_value] ? potentials[old_value][i] : 0;
        sum += new_potential - old_potential;
        if (inversed[old_value]) sum += 2 * old_potential;
        if (inversed[new_value]) sum -= 2 * new_potential;
    }
    *delta = sum;
    return true;
}
#endif
