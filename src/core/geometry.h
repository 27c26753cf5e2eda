/* geometry.h — a run's lattice geometry: the points a growgrid node fitted, one quad per block of cells. */
#ifndef SMALTI_GEOMETRY_H
#define SMALTI_GEOMETRY_H
#include <stdbool.h>

/* nx*ny points, row by row (point (i,j) at index i + j*nx), in lattice units: the straight
   lattice has point (i,j) at (i,j). Each cell block between four neighbouring points is one quad;
   an output scales a unit to the block's size in cells, (grid width)/(nx-1). */
typedef struct geometry {
    int nx, ny;
    double *x, *y;
} geometry;

/* A geometry of nx*ny points, all at 0; NULL when out of memory (mem.h). */
geometry *geometry_new(int nx, int ny);
void geometry_free(geometry *g);
#endif
