/* text.c — the plain-text grid: one line of MX symbols per row, rows z-major. */
#include "output.h"
#include <stdlib.h>

bool write_text_cells(FILE *f, const grid_view *g)
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
