/* twisted3d.h — a 3-D grid bent onto a growgrid lattice: the cells' corners and box faces that the OBJ and PNG writers share. */
#ifndef SMALTI_TWISTED3D_H
#define SMALTI_TWISTED3D_H
#include "twisted.h"

/* The corners of every column of cells bent into its quad: (mx+1)*(my+1) points in cells, the
   corner (cx, cy) at index cx + cy*(mx+1); a corner on a quad's edge is the same point for both
   quads, so neighbouring boxes share their faces. Every layer z uses the same points. */
typedef struct bent_grid {
    const grid_view *g;
    int bx, by; /* cells per quad */
    double *x, *y;
} bent_grid;

/* False with err set (naming path) when g's sides are not whole multiples of t's quads or memory runs out. */
bool bent_grid_make(bent_grid *b, const char *path, const grid_view *g, const twisted_lattice *t, smalti_error *err);
void bent_grid_free(bent_grid *b);

/* A face of a cell's box: the neighbour across it, its corners as offsets from the cell's low
   corner in the order that turns counter-clockwise seen from outside (in the OBJ's axes, x, -y, z),
   and the shade the isometric picture gives it (/256). */
typedef struct box_face {
    int dx, dy, dz;
    unsigned char corner[4][3];
    int shade;
} box_face;
#define BOX_FACES 6
extern const box_face box_faces[BOX_FACES];

/* Calls fn for every face that shows (its cell is not empty, value 0, and the cell across it is
   empty or outside the grid): cell by cell, x fastest, then y, then z, and face by face in
   box_faces' order, with the cell's value. */
typedef void (*box_face_fn)(void *ctx, int x, int y, int z, const box_face *f, uint8_t value);
void box_faces_each(const grid_view *g, box_face_fn fn, void *ctx);

/* The bent boxes drawn isometrically as the straight picture draws cubes (x down-right, y down-left,
   z up, pixel_size the cube's size), each face flat-shaded, the nearest face winning at each of
   3x3 samples a pixel, on the isometric background. */
bool save_bent_iso_png(const char *path, const bent_grid *b, const uint32_t *colors, int pixel_size, const temp_hook *temps,
                       smalti_error *err);
#endif
