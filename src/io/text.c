/* text.c — the text form of a result: the header lines of the reference format, then one line of MX symbols per row, rows z-major. */
#include "output.h"
#include <stdlib.h>

static bool write_text_cells(FILE *f, const grid_view *g)
{
    char *line = malloc((size_t)g->mx + 1);
    if (!line) return false;
    line[g->mx] = '\n';
    for (int z = 0; z < g->mz; z++)
        for (int y = 0; y < g->my; y++) {
            const unsigned char *row = g->cells + (size_t)y * g->mx + (size_t)z * g->mx * g->my;
            for (int x = 0; x < g->mx; x++) line[x] = g->legend[row[x]];
            fwrite(line, 1, (size_t)g->mx + 1, f);
        }
    free(line);
    return !ferror(f);
}

bool write_text_result(FILE *f, const text_header *h, const grid_view *g)
{
    fprintf(f, "model %s\ngrid %d %d %d\nseed %d\nsteps-limit %ld\nsteps %ld\nlegend %s\nsize %d %d %d\n", h->model, h->mx,
            h->my, h->mz, (int)h->seed, h->step_limit, h->steps, g->legend, g->mx, g->my, g->mz);
    return write_text_cells(f, g);
}
