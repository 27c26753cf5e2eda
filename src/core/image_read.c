/* image_read.c — decode PNG resources (rule images, samples) through stb_image. */
#include "resource.h"
#include <limits.h>
#include <stdlib.h>
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#if defined(__GNUC__)
/* stb declares functions it does not define when only PNG is enabled. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb/stb_image.h>

/* Resource images are small; anything this large is a mistake or an attack. */
#define IMAGE_MAX_PIXELS (1 << 24)

uint32_t *image_decode_argb(diag *d, int line, const char *path, const unsigned char *data, size_t size, int *width,
                            int *height)
{
    int w, h, channels;
    if (size > INT_MAX || !stbi_info_from_memory(data, (int)size, &w, &h, &channels)) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: not a readable PNG image", path);
        return NULL;
    }
    if (w < 1 || h < 1 || (long)w * h > IMAGE_MAX_PIXELS) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: image size %dx%d is absurd", path, w, h);
        return NULL;
    }
    unsigned char *rgba = stbi_load_from_memory(data, (int)size, &w, &h, &channels, 4);
    if (!rgba) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: broken PNG image (%s)", path, stbi_failure_reason());
        return NULL;
    }
    uint32_t *argb = malloc((size_t)w * h * sizeof *argb);
    if (!argb) {
        stbi_image_free(rgba);
        diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
        return NULL;
    }
    for (long i = 0; i < (long)w * h; i++) {
        const unsigned char *p = rgba + 4 * i;
        argb[i] = (uint32_t)p[3] << 24 | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    }
    stbi_image_free(rgba);
    *width = w;
    *height = h;
    return argb;
}
