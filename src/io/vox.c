/* vox.c — write a 3-D grid as a MagicaVoxel .vox file (version 150), value 0 empty. */
#include "output.h"
#include <stdlib.h>
#include "../core/diag.h"

static void put_u32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

static void put_chunk(FILE *f, const char *id, uint32_t content, uint32_t children)
{
    fwrite(id, 1, 4, f);
    put_u32(f, content);
    put_u32(f, children);
}

bool save_vox(const char *path, const grid_view *g, const uint32_t *colors, const temp_hook *temps, smalti_error *err)
{
    if (g->mx > 256 || g->my > 256 || g->mz > 256) {
        error_set(err, SMALTI_ERR_USAGE, path, 0, "VOX holds at most 256 cells per side, the grid is %dx%dx%d", g->mx, g->my, g->mz);
        return false;
    }
    uint32_t voxels = 0;
    size_t cells = (size_t)g->mx * g->my * g->mz;
    for (size_t i = 0; i < cells; i++) voxels += g->cells[i] != 0;
    atomic_file af;
    if (!atomic_open(&af, path, temps, err)) return false;
    FILE *f = af.f;
    fwrite("VOX ", 1, 4, f);
    put_u32(f, 150);
    put_chunk(f, "MAIN", 0, 1092 + voxels * 4);
    put_chunk(f, "PACK", 4, 0);
    put_u32(f, 1);
    put_chunk(f, "SIZE", 12, 0);
    put_u32(f, (uint32_t)g->mx);
    put_u32(f, (uint32_t)g->my);
    put_u32(f, (uint32_t)g->mz);
    put_chunk(f, "XYZI", 4 + voxels * 4, 0);
    put_u32(f, voxels);
    for (int z = 0; z < g->mz; z++)
        for (int y = 0; y < g->my; y++)
            for (int x = 0; x < g->mx; x++) {
                unsigned char v = g->cells[x + y * g->mx + (size_t)z * g->mx * g->my];
                if (!v) continue;
                unsigned char b[4] = {(unsigned char)x, (unsigned char)y, (unsigned char)z, (unsigned char)(v + 1)};
                fwrite(b, 1, 4, f);
            }
    /* Palette entry k+1 is the colour of value k, as MagicaVoxel counts from 1. */
    put_chunk(f, "RGBA", 1024, 0);
    int legend_len = 0;
    while (g->legend[legend_len]) legend_len++;
    for (int i = 0; i < 255; i++) {
        unsigned char b[4];
        if (i < legend_len) {
            uint32_t c = colors[i];
            b[0] = (unsigned char)(c >> 16); b[1] = (unsigned char)(c >> 8); b[2] = (unsigned char)c; b[3] = 0;
        } else {
            b[0] = b[1] = b[2] = (unsigned char)(0xff - i - 1); b[3] = 0xff;
        }
        fwrite(b, 1, 4, f);
    }
    put_u32(f, 0);
    return atomic_commit(&af, err);
}
