/* resource_read.c — the bytes of a resource file, from the file system or from a resource_reader, handed to its reader. */
#include "resource.h"
#include <libxml/parser.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* No PNG resource is near this; larger files are refused before they are read. */
#define IMAGE_MAX_FILE_BYTES (256L << 20)

/* The whole file; NULL with *too_big set when it passes max bytes. */
static unsigned char *read_all(const char *path, long max, size_t *size, bool *too_big)
{
    *too_big = false;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            if ((long)cap >= max) {
                *too_big = true;
                free(buf);
                buf = NULL;
                break;
            }
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = len;
    return buf;
}

uint32_t *image_load_argb(diag *d, int line, const char *path, int *width, int *height)
{
    size_t size = 0;
    bool too_big;
    unsigned char *data = read_all(path, IMAGE_MAX_FILE_BYTES, &size, &too_big);
    if (!data) {
        if (too_big) diag_error(d, SMALTI_ERR_MODEL, line, "%s: a PNG file of more than %ld bytes is absurd", path, IMAGE_MAX_FILE_BYTES);
        else diag_error(d, SMALTI_ERR_MODEL, line, "%s: not a readable PNG image", path);
        return NULL;
    }
    uint32_t *argb = image_decode_argb(d, line, path, data, size, width, height);
    free(data);
    return argb;
}

uint32_t *resource_load_image(const resource_reader *rd, diag *d, int line, const char *path, int *width, int *height)
{
    if (!rd) return image_load_argb(d, line, path, width, height);
    size_t size = 0;
    const unsigned char *data = rd->read(rd->userdata, path, &size);
    if (!data) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: not a readable PNG image", path);
        return NULL;
    }
    return image_decode_argb(d, line, path, data, size, width, height);
}

int32_t *resource_load_vox(const resource_reader *rd, diag *d, int line, const char *path, int *mx, int *my, int *mz)
{
    if (!rd) return vox_load(d, line, path, mx, my, mz);
    size_t size = 0;
    const unsigned char *data = rd->read(rd->userdata, path, &size);
    if (!data) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: cannot open the VOX file", path);
        return NULL;
    }
    return vox_decode(d, line, path, data, size, mx, my, mz);
}

xmlDoc *resource_load_xml(const resource_reader *rd, const char *path, int options)
{
    if (!rd) return xmlReadFile(path, NULL, options);
    size_t size = 0;
    const unsigned char *data = rd->read(rd->userdata, path, &size);
    if (!data || size > INT_MAX) return NULL;
    return xmlReadMemory((const char *)data, (int)size, path, NULL, options);
}
