/* geometry.c — allocating and freeing a run's lattice geometry. */
#include "geometry.h"
#include "mem.h"

geometry *geometry_new(int nx, int ny)
{
    geometry *g = mem_calloc(1, sizeof *g);
    if (!g) return NULL;
    g->nx = nx;
    g->ny = ny;
    g->x = mem_calloc((size_t)nx * ny, sizeof *g->x);
    g->y = mem_calloc((size_t)nx * ny, sizeof *g->y);
    if (!g->x || !g->y) {
        geometry_free(g);
        return NULL;
    }
    return g;
}

void geometry_free(geometry *g)
{
    if (!g) return;
    mem_free(g->x);
    mem_free(g->y);
    mem_free(g);
}
