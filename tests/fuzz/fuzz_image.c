/* fuzz_image.c — libFuzzer target: the input as a PNG and as a VOX file, through the decoders (from memory
   and from a file), and when small as a rule image of a 2-D (PNG) or 3-D (VOX) model, and a PNG as the
   sample of an overlap wfc node and of a convchain node, each run for a few hundred steps. */
#include <libxml/parser.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "smalti.h"
#include "fuzz_common.h"
#include "../../src/nodes/nodes.h"

#define STEP_LIMIT 300

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct one_file {
    const uint8_t *data;
    size_t size;
} one_file;

/* Every resource is the input. */
static const unsigned char *read_input(void *userdata, const char *path, size_t *size)
{
    (void)path;
    const one_file *f = userdata;
    *size = f->size;
    return f->size ? f->data : (const unsigned char *)"";
}

static void run_model(const char *xml, int mx, int my, int mz, one_file *f)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = mx;
    opt.my = my;
    opt.mz = mz;
    const char *roots[] = {"r"};
    opt.resource_dirs = roots;
    opt.resource_dir_count = 1;
    opt.quiet = 1;
    resource_reader reader = {read_input, f};
    smalti_error err;
    smalti_model *m = model_load_string_from(xml, "image.xml", &opt, &reader, &err);
    if (!m) return;
    smalti_run *run = smalti_run_new(m, 1, &err);
    if (run) {
        smalti_run_to_end(run, STEP_LIMIT);
        smalti_run_free(run);
    }
    smalti_model_free(m);
}

#define VALUES "BWRGUYOPKNEabcdefghijklmnopqrst"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    smalti_error err;
    memset(&err, 0, sizeof err);
    diag d = {.file = "fuzz", .err = &err, .quiet = 1};
    one_file f = {data, size};
    /* Pictures of a million pixels up to the decoder's bound decode slowly and add nothing. */
    long pw, ph;
    if (fuzz_png_size(data, size, &pw, &ph) && pw <= (1L << 24) && ph <= (1L << 24) && pw * ph > (1L << 20) &&
        pw * ph <= (1L << 24))
        return 0;

    int w = 0, h = 0;
    /* A reader hands back as many pixels or voxels as the sizes it returns: read every one. */
    volatile uint32_t sum = 0;
    uint32_t *argb = image_decode_argb(&d, 1, "fuzz.png", data, size, &w, &h);
    bool png = argb != NULL;
    for (size_t i = 0; png && i < (size_t)w * h; i++) sum += argb[i];
    free(argb);
    int sx = 0, sy = 0, sz = 0;
    int32_t *vox = vox_decode(&d, 1, "fuzz.vox", data, size, &sx, &sy, &sz);
    bool is_vox = vox != NULL;
    for (size_t i = 0; is_vox && i < (size_t)sx * sy * sz; i++) sum += (uint32_t)vox[i];
    free(vox);
    (void)sum;

    /* The file readers, on a file of the same bytes. */
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd >= 0) {
        int w2, h2, x2, y2, z2;
        uint32_t *a2 = image_load_argb(&d, 1, path, &w2, &h2);
        if ((a2 != NULL) != png || (a2 && (w2 != w || h2 != h))) abort();
        free(a2);
        int32_t *v2 = vox_load(&d, 1, path, &x2, &y2, &z2);
        if ((v2 != NULL) != is_vox || (v2 && (x2 != sx || y2 != sy || z2 != sz))) abort();
        free(v2);
        close(fd);
    }

    if (png && (long)w * h <= 64 * 64) {
        /* file= glues the input (left half) to the output (right half); fin/fout are whole images. */
        run_model("<one values=\"" VALUES "\"><rule file=\"img\" legend=\"" VALUES "\"/></one>", 16, 16, 1, &f);
        run_model("<all values=\"" VALUES "\"><rule fin=\"img\" fout=\"img\" legend=\"" VALUES "\"/></all>", 16, 16, 1, &f);
        if ((long)w * h <= 12 * 12) {
            run_model("<wfc values=\"" VALUES "\" sample=\"img\" n=\"2\" periodic=\"True\"/>", 10, 10, 1, &f);
            run_model("<sequence values=\"BWR\"><convchain sample=\"img\" on=\"B\" black=\"W\" white=\"R\" n=\"2\" steps=\"3\"/></sequence>",
                      12, 12, 1, &f);
        }
    }
    if (is_vox && (long)sx * sy * sz <= 6 * 6 * 6)
        run_model("<one values=\"" VALUES "\"><rule file=\"img\" legend=\"" VALUES "\"/></one>", 6, 6, 6, &f);
    return 0;
}
