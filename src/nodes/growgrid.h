/* growgrid.h — Growing Grid (Fritzke 1995): fitting a lattice of points to a grey-level density picture. */
#ifndef SMALTI_GROWGRID_H
#define SMALTI_GROWGRID_H
#include <stdbool.h>
#include <stdint.h>
#include "../core/geometry.h"
#include "../core/rng.h"
#include "../core/stop.h"

typedef struct growgrid_params {
    int nx, ny;           /* the target lattice, points across and down (each at least 2) */
    double epoch;         /* samples per lattice point in one epoch */
    double rate_start, rate_end;   /* learning rate: constant rate_start while growing, to rate_end in fine-tuning */
    double sigma_start, sigma_end; /* neighbourhood range in lattice steps, likewise */
    /* Free growth when above 0: rows and columns go in wherever the fit asks, while the lattice keeps
       at most `points` points (nx, ny unused); it ends at the last size whose quads divide divide_x
       by divide_y cells into whole blocks (0: any size), the shape keeping those cells' proportions
       (the picture's when 0). */
    int points;
    int divide_x, divide_y;
} growgrid_params;

/* A shape's density: weight[x + y*w] is 0 outside (black or transparent), else the grey level
   quantised to 1..intervals (brighter is denser). NULL when out of memory (mem.h);
   *total gets the sum of the weights. */
uint8_t *growgrid_density(const uint32_t *argb, int w, int h, int intervals, int64_t *total);

/* Fit a p->nx by p->ny lattice to the density (w*h weights, their sum `total` above 0), drawing
   from `random`: the shape spans the lattice's straight extent, [0, nx-1] x [0, ny-1]. Fills out
   (made by geometry_new with p->nx, p->ny; in free growth with room for p->points points, and its
   nx, ny set to the size grown); ordered so that its first quad turns as the straight lattice's does. False when out of memory or when `stop` asks the run to stop (then out is
   partly filled). */
bool growgrid_fit(const growgrid_params *p, const uint8_t *weight, int w, int h, int64_t total, rng *random, run_stop *stop,
                  geometry *out);

/* The signed area of quad (i,j): positive when it turns as the straight lattice's quads do. */
double growgrid_quad_area(const geometry *g, int i, int j);
#endif
