/* poisson_radii.h — `radii` and `radiuspicture` of <poisson>: a radius per grid value or per grey level, read at load. */
#ifndef SMALTI_POISSON_RADII_H
#define SMALTI_POISSON_RADII_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "../core/diag.h"
#include "../core/grid.h"
#include "../core/resource.h"

/* Beyond this a radius is surely a typo; it also keeps squared distances far from overflow. */
#define POISSON_MAX_RADIUS 65536.0

/* Reads radii="G4 F8.5": each entry an `on` value followed at once by its radius, above 0 and at
   most POISSON_MAX_RADIUS. radius_of[v] is the listed radius, or `fallback` for values not listed.
   *listed is false when the attribute is absent. Bad entries are load errors with the line. */
bool poisson_load_radii(diag *d, const xmlNode *el, const grid_def *g, wave_bits on, double fallback,
                        double radius_of[GRID_MAX_VALUES], bool *listed);

/* A grey-level picture stretched over the grid's x and y (every layer alike). */
typedef struct grey_picture {
    uint8_t *grey;                  /* w*h levels, row by row from the top; NULL when there is none */
    int w, h;
} grey_picture;

/* Reads radiuspicture="NAME" (samples/NAME.png under the resource roots) and whiteradius: *white is the
   radius at white, `radius` the one at black. Absent: pic->grey stays NULL. Errors: a picture with
   radii, one attribute without the other, a white radius out of range, a picture that cannot be read. */
bool poisson_load_picture(diag *d, const xmlNode *el, const resources *res, bool has_radii, grey_picture *pic, double *white);

/* The grey level under the centre of cell (x, y) of an mx by my grid. */
uint8_t grey_at(const grey_picture *pic, int32_t x, int32_t y, int32_t mx, int32_t my);
#endif
