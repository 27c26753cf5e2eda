/* text.c — the plain-text grid: one line of MX symbols per row, rows z-major. */
#include "output.h"

bool write_text_cells(FILE *f, const grid_view *g)
{
    for (int z = 0; z < g->mz; z++)
        for (int y = 0; y < g->my; y++) {
            const unsigned char *row = g->cells + (size_t)y * g->mx + (size_t)z * g->mx * g->my;
            for (int x = 0; x < g->mx; x++) putc(g->legend[row[x]], f);
            putc('\n', f);
        }
    return !ferror(f);
}
