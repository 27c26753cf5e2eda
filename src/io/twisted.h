/* twisted.h — "twisted maps": a grid drawn onto the lattice of a growgrid node, as PNG, SVG, OBJ (+MTL, texture) or JSON. */
#ifndef SMALTI_TWISTED_H
#define SMALTI_TWISTED_H
#include "output.h"

/* nx*ny points row by row, in lattice units (smalti_run_geometry); each quad holds a block of
   (mx/(nx-1)) x (my/(ny-1)) cells of the grid it is drawn with. */
typedef struct twisted_lattice {
    const double *x, *y;
    int nx, ny;
} twisted_lattice;

/* Whether ext (".png", ".svg", ".obj", ".json", any case) is a twisted output. */
bool twisted_kind(const char *ext);
/* Write g drawn on t to path, the kind chosen by its extension ext (twisted_kind). The grid's sides
   must be multiples of the lattice's quads; else an error in err. A 3-D grid's ".json" has its
   "depth" and cells[z][y][x]; its other kinds are save_twisted_3d's. pixel_size: pixels per cell
   for the PNG pictures, units per cell in the SVG. */
bool save_twisted(const char *path, const char *ext, const grid_view *g, const uint32_t *colors, const twisted_lattice *t,
                  int pixel_size, const temp_hook *temps, smalti_error *err);

/* The picture save_twisted writes as PNG: w*h 0xRRGGBB pixels (free() it), each pixel the mean of
   4x4 samples, each sample the colour of the cell its inverse bilinear map lands in, or
   TWISTED_BACKGROUND outside every quad. NULL when out of memory or too large (err set). */
#define TWISTED_BACKGROUND 0x222222u
uint32_t *twisted_render(const grid_view *g, const uint32_t *colors, const twisted_lattice *t, int pixel_size, int *w, int *h,
                         smalti_error *err);

/* Cells per quad, across (*bx) and down (*by), when g's sides are whole multiples of t's quads; else
   false with an error in err naming path. */
bool twisted_blocks(const char *path, const grid_view *g, const twisted_lattice *t, int *bx, int *by, smalti_error *err);
/* The point at (s,u) in [0,1]^2 of quad (i,j) by bilinear interpolation of its corners, in lattice units. */
/* path with its extension ext replaced by suffix (which includes its own dot); NULL when out of memory. */
char *twisted_sibling(const char *path, const char *ext, const char *suffix);
void twisted_bilinear(const twisted_lattice *t, int i, int j, double s, double u, double *x, double *y);

/* A 3-D grid on the lattice of its xy plane, every layer sharing it (twisted3d.c): ".obj" is each
   non-empty cell's box with its corners bent into its quad, z kept as height (+ a .mtl with a
   material per value); ".png" that mesh drawn isometrically, pixel_size the cube's size as in the
   straight isometric pictures. Other kinds (".svg") are flat: an error. */
bool save_twisted_3d(const char *path, const char *ext, const grid_view *g, const uint32_t *colors, const twisted_lattice *t,
                     int pixel_size, const temp_hook *temps, smalti_error *err);
#endif
