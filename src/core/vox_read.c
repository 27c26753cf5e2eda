/* vox_read.c — read the voxels of a MagicaVoxel .vox file (rule images and samples of 3-D grids). */
#include "resource.h"
#include "mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Coordinates in XYZI are bytes, so no model of the format is larger. */
#define VOX_MAX_SIDE 256

static uint32_t read_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The reference scans for SIZE and XYZI and ignores everything else, taking
   the last model when there are several; this walks the chunks one after the
   other (children follow their parent's content, so MAIN needs no special
   case) and does the same. A model is a SIZE chunk and the XYZI chunk after
   it, taken together: the size returned is the one the voxels were read
   with, and a SIZE without its XYZI is refused (the reference would return
   that SIZE with the voxels of another model). */
static int32_t *vox_parse(diag *d, int line, const char *path, unsigned char *buf, long size, int *mx, int *my, int *mz);

int32_t *vox_load(diag *d, int line, const char *path, int *mx, int *my, int *mz)
{
    size_t len = 0;
    unsigned char *buf = resource_read_file(NULL, d, line, path, "VOX file", VOX_MAX_BYTES, &len);
    if (!buf) return NULL;
    return vox_parse(d, line, path, buf, (long)len, mx, my, mz);
}

int32_t *vox_decode(diag *d, int line, const char *name, const unsigned char *data, size_t size, int *mx, int *my, int *mz)
{
    if (size > (size_t)VOX_MAX_BYTES) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: VOX file larger than %ld bytes is absurd", name, VOX_MAX_BYTES);
        return NULL;
    }
    unsigned char *buf = mem_malloc(size ? size : 1);
    if (!buf) {
        diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
        return NULL;
    }
    if (size) memcpy(buf, data, size);
    return vox_parse(d, line, name, buf, (long)size, mx, my, mz);
}

/* Takes buf (size bytes) and frees it. */
static int32_t *vox_parse(diag *d, int line, const char *path, unsigned char *buf, long size, int *mx, int *my, int *mz)
{
    int32_t *voxels = NULL;
    int sx = -1, sy = -1, sz = -1;  /* the SIZE waiting for its XYZI, -1 when none is */
    int vx = 0, vy = 0, vz = 0;     /* the size of the model in voxels */
    const char *problem = NULL;
    if (size < 8 || memcmp(buf, "VOX ", 4) != 0) {
        problem = "not a VOX file (no \"VOX \" magic)";
        goto fail;
    }
    long pos = 8;
    while (pos < size) {
        if (size - pos < 12) { problem = "truncated chunk header"; goto fail; }
        const unsigned char *chunk = buf + pos;
        uint32_t content = read_u32(chunk + 4);
        if (content > (uint32_t)(size - pos - 12)) { problem = "a chunk runs past the end of the file"; goto fail; }
        const unsigned char *body = chunk + 12;
        if (memcmp(chunk, "SIZE", 4) == 0) {
            if (content < 12) { problem = "SIZE chunk too short"; goto fail; }
            uint32_t x = read_u32(body), y = read_u32(body + 4), z = read_u32(body + 8);
            if (x < 1 || y < 1 || z < 1 || x > VOX_MAX_SIDE || y > VOX_MAX_SIDE || z > VOX_MAX_SIDE) {
                diag_error(d, SMALTI_ERR_MODEL, line, "%s: model size %dx%dx%d is absurd (each side must be 1..%d)", path,
                           (int)x, (int)y, (int)z, VOX_MAX_SIDE);
                mem_free(buf);
                mem_free(voxels);
                return NULL;
            }
            if (sx >= 0) { problem = "a SIZE chunk without its XYZI chunk"; goto fail; }
            sx = (int)x; sy = (int)y; sz = (int)z;
        } else if (memcmp(chunk, "XYZI", 4) == 0) {
            if (sx < 0) { problem = "an XYZI chunk without a SIZE chunk before it"; goto fail; }
            if (content < 4) { problem = "XYZI chunk too short"; goto fail; }
            uint32_t count = read_u32(body);
            if (count > (content - 4) / 4) { problem = "XYZI chunk has more voxels than bytes"; goto fail; }
            mem_free(voxels);
            size_t cells = (size_t)sx * sy * sz;
            voxels = mem_malloc(cells * sizeof *voxels);
            if (!voxels) {
                mem_free(buf);
                diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
                return NULL;
            }
            for (size_t i = 0; i < cells; i++) voxels[i] = -1;
            for (uint32_t k = 0; k < count; k++) {
                const unsigned char *v = body + 4 + 4 * (size_t)k;
                if (v[0] >= sx || v[1] >= sy || v[2] >= sz) {
                    diag_error(d, SMALTI_ERR_MODEL, line, "%s: voxel (%d, %d, %d) lies outside the %dx%dx%d model", path, v[0],
                               v[1], v[2], sx, sy, sz);
                    mem_free(buf);
                    mem_free(voxels);
                    return NULL;
                }
                voxels[v[0] + (size_t)v[1] * sx + (size_t)v[2] * sx * sy] = v[3];
            }
            vx = sx; vy = sy; vz = sz;
            sx = sy = sz = -1;
        }
        pos += 12 + (long)content;
    }
    if (sx >= 0) { problem = "a SIZE chunk without its XYZI chunk"; goto fail; }
    if (!voxels) { problem = "no voxel data (XYZI chunk)"; goto fail; }
    mem_free(buf);
    *mx = vx;
    *my = vy;
    *mz = vz;
    return voxels;
fail:
    diag_error(d, SMALTI_ERR_MODEL, line, "%s: broken VOX file: %s", path, problem);
    mem_free(buf);
    mem_free(voxels);
    return NULL;
}
