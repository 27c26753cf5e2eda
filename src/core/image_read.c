/* image_read.c — decode PNG resources (rule images, samples) through stb_image, after our own check of the chunks. */
#include "resource.h"
#include "mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
/* stb's buffers (the inflated data, the filtered rows, the pixels) count against the memory budget
   in force, as the library's own do: a small file that declares a huge image fails as out of memory. */
#define STBI_MALLOC(size) mem_malloc(size)
#define STBI_REALLOC(p, size) mem_realloc(p, size)
#define STBI_FREE(p) mem_free(p)
#if defined(__GNUC__)
/* stb declares functions it does not define when only PNG is enabled. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb/stb_image.h>

/* Resource images are small; anything this large is a mistake or an attack. */
#define IMAGE_MAX_PIXELS (1 << 24)

static uint32_t get_u32be(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool is_letter(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* Walk the chunks up to IEND before stb does, so that what is wrong is said in our words: stb's reason for
   an unknown critical chunk holds the chunk's raw name bytes (and is built in a static buffer). Empty IDAT
   chunks are dropped in place: the first one makes stb call memcpy(NULL, ..., 0), which UBSan rejects, and
   they hold nothing. NULL when the chunks are sound, else what is wrong with them. */
static const char *check_chunks(unsigned char *png, size_t *len, char *why, size_t why_size)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (*len < 8 || memcmp(png, signature, 8) != 0) return "not a PNG image";
    size_t at = 8;
    bool first = true, any_data = false;
    for (;;) {
        if (*len - at < 12) return "broken PNG image: the file ends inside a chunk (is it cut short?)";
        uint32_t n = get_u32be(png + at);
        const unsigned char *tag = png + at + 4;
        if (n > 0x7fffffffu || n > *len - at - 12) return "broken PNG image: a chunk runs past the end of the file";
        if (!is_letter(tag[0]) || !is_letter(tag[1]) || !is_letter(tag[2]) || !is_letter(tag[3]))
            return "broken PNG image: a chunk whose name is not four letters";
        /* (Apple's CgBI chunk comes before IHDR; stb reads those files.) */
        if (first && memcmp(tag, "IHDR", 4) != 0 && memcmp(tag, "CgBI", 4) != 0)
            return "broken PNG image: the first chunk is not IHDR";
        first = first && memcmp(tag, "IHDR", 4) != 0;
        bool idat = memcmp(tag, "IDAT", 4) == 0;
        if (idat && n == 0) {
            memmove(png + at, png + at + 12, *len - at - 12);
            *len -= 12;
            continue;
        }
        any_data |= idat;
        if (memcmp(tag, "IEND", 4) == 0) break;
        /* A critical chunk (upper-case first letter) that stb does not read makes the picture unreadable. */
        static const char *const known[] = {"IHDR", "PLTE", "IDAT", "CgBI"};
        bool is_known = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++) is_known |= memcmp(tag, known[k], 4) == 0;
        if (!is_known && tag[0] >= 'A' && tag[0] <= 'Z') {
            snprintf(why, why_size, "unsupported PNG image: its critical chunk %.4s is not one smalti reads", (const char *)tag);
            return why;
        }
        at += 12 + (size_t)n;
    }
    return any_data ? NULL : "broken PNG image: no IDAT chunk (no pixels)";
}

/* stb's reason for a failure as the message's words: never its raw bytes. */
static const char *failure_text(const char *reason, char *buf, size_t size)
{
    static const char *const plain[][2] = {
        {"bad png sig", "not a PNG image"},
        {"too large", "broken PNG image: too large"},
        {"0-pixel image", "broken PNG image: it has no pixels"},
        {"1/2/4/8/16-bit only", "unsupported PNG image: only 1, 2, 4, 8 and 16 bits per channel are read"},
        {"not enough pixels", "broken PNG image: fewer pixels than its size says"},
        {"no IDAT", "broken PNG image: no IDAT chunk (no pixels)"},
        {"outofdata", "broken PNG image: the file ends inside a chunk (is it cut short?)"},
    };
    for (size_t k = 0; reason && k < sizeof plain / sizeof *plain; k++)
        if (strcmp(reason, plain[k][0]) == 0) return plain[k][1];
    /* Anything else is a damaged header or damaged compressed data: stb's short reason, printable only. */
    size_t n = (size_t)snprintf(buf, size, "broken PNG image (");
    for (const char *p = reason ? reason : "unknown"; *p && n + 2 < size; p++) buf[n++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
    snprintf(buf + n, size - n, ")");
    return buf;
}

/* Decode PNG bytes (a copy: empty IDAT chunks are dropped from it). */
uint32_t *image_decode_argb(diag *d, int line, const char *path, const unsigned char *data, size_t size, int *width,
                            int *height)
{
    if (size > IMAGE_MAX_BYTES) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: a PNG image of more than %ld bytes is absurd", path, IMAGE_MAX_BYTES);
        return NULL;
    }
    size_t len = size;
    unsigned char *png = mem_malloc(size ? size : 1);
    if (!png) {
        diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
        return NULL;
    }
    if (size) memcpy(png, data, size);
    char why[128];
    const char *problem = check_chunks(png, &len, why, sizeof why);
    int w = 0, h = 0, channels;
    if (!problem && !stbi_info_from_memory(png, (int)len, &w, &h, &channels)) problem = failure_text(stbi_failure_reason(), why, sizeof why);
    if (!problem && (w < 1 || h < 1 || (long)w * h > IMAGE_MAX_PIXELS)) {
        snprintf(why, sizeof why, "image size %dx%d is absurd", w, h);
        problem = why;
    }
    unsigned char *rgba = problem ? NULL : stbi_load_from_memory(png, (int)len, &w, &h, &channels, 4);
    mem_free(png);
    if (!rgba && !problem) {
        const char *reason = stbi_failure_reason();
        if (reason && strcmp(reason, "outofmem") == 0) {
            diag_error(d, SMALTI_ERR_RUNTIME, line, "%s: out of memory decoding the PNG image (%dx%d)", path, w, h);
            return NULL;
        }
        problem = failure_text(reason, why, sizeof why);
    }
    if (problem) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: %s", path, problem);
        return NULL;
    }
    uint32_t *argb = mem_malloc((size_t)w * h * sizeof *argb);
    if (!argb) {
        stbi_image_free(rgba);
        diag_error(d, SMALTI_ERR_RUNTIME, line, "%s: out of memory decoding the PNG image (%dx%d)", path, w, h);
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

uint32_t *image_load_argb(diag *d, int line, const char *path, int *width, int *height)
{
    size_t len;
    unsigned char *png = resource_read_file(NULL, d, line, path, "PNG image", IMAGE_MAX_BYTES, &len);
    if (!png) return NULL;
    uint32_t *argb = image_decode_argb(d, line, path, png, len, width, height);
    mem_free(png);
    return argb;
}
