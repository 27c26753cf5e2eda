/* poisson_radii.h — `radii` of <poisson>: a radius per grid value, read at load. */
#ifndef SMALTI_POISSON_RADII_H
#define SMALTI_POISSON_RADII_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/diag.h"
#include "../core/grid.h"

/* Beyond this a radius is surely a typo; it also keeps squared distances far from overflow. */
#define POISSON_MAX_RADIUS 65536.0

/* Reads radii="G4 F8.5": each entry an `on` value followed at once by its radius, above 0 and at
   most POISSON_MAX_RADIUS. radius_of[v] is the listed radius, or `fallback` for values not listed.
   *listed is false when the attribute is absent. Bad entries are load errors with the line. */
bool poisson_load_radii(diag *d, const xmlNode *el, const grid_def *g, uint32_t on, double fallback,
                        double radius_of[GRID_MAX_VALUES], bool *listed);
#endif
