/* fuzz_pack.c — libFuzzer target: a model pack's zip, opened and checked as `smalti pack check` and
   `smalti run PACK` would: the zip's entries (names, kinds, sizes, inflation, SHA256SUMS), the manifest,
   and for each of its first four models the settings, the thumbnail, a load with the pack's resources
   only on a small grid, and a run of at most 500 steps.

   An input is either a zip's bytes (it starts with "PK"), or fuzz_common.h's container: its main text
   becomes pack.xml (models.xml when it starts with "<models", a MarkovJunior folder's list) and its
   files the zip's other entries, zipped as `pack build` zips (pack_zip_build: sorted, deflated, with a
   SHA256SUMS list), the models among them with their work capped first. A zip's bytes cannot be capped:
   its models that search or hold a wfc node are opened but not loaded. The zip is written to a folder
   of its own under $TMPDIR, removed at exit, and opened with a limit of 16 MiB unpacked. With
   FUZZ_PACK_SAY set, it says why a pack is refused or a model does not load, and what each run made. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "smalti.h"
#include "fuzz_common.h"
#include "../../src/pack/zip_write.h"
#include "../../src/core/diag.h"
#include "../../src/core/resource.h"
#include "../../src/pack/pack.h"

#define MODELS_CHECKED 4
#define STEP_LIMIT 500
#define MAX_UNPACKED ((uint64_t)16 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The folder the zip is written into (made at the first input) and the zip's path in it. */
static char folder[PATH_MAX], zip_path[PATH_MAX + 16];

static void remove_folder(void)
{
    unlink(zip_path);
    rmdir(folder);
}

static bool write_zip(const unsigned char *bytes, size_t size)
{
    if (!folder[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(folder, sizeof folder, "%s/smalti-fuzz-pack-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(folder)) {
            perror("fuzz_pack: mkdtemp");
            abort();
        }
        snprintf(zip_path, sizeof zip_path, "%s/fuzz.zip", folder);
        atexit(remove_folder);
    }
    FILE *f = fopen(zip_path, "wb");
    if (!f) return false;
    bool ok = fwrite(bytes, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* The container's zip, made as pack build makes one; NULL when libzip refuses it. */
static unsigned char *container_zip(const fuzz_input *in, size_t *zip_size)
{
    zip_member members[FUZZ_MAX_FILES + 1];
    size_t count = 0;
    bool ok = true;
    const char *manifest = strncmp(in->main, "<models", 7) == 0 ? "models.xml" : "pack.xml";
    members[count++] = (zip_member){strdup(manifest), (unsigned char *)strdup(in->main), strlen(in->main)};
    for (int i = 0; i < in->count; i++) {
        const fuzz_file *f = &in->files[i];
        unsigned char *bytes = malloc(f->size + 1);
        if (bytes) {
            memcpy(bytes, f->data, f->size);
            bytes[f->size] = 0;
        }
        zip_member m = {strdup(f->name), bytes, f->size};
        /* A model (a .xml file with no NUL in it) runs with its work capped, as the model target's do. */
        size_t n = strlen(f->name);
        if (bytes && n > 4 && strcmp(f->name + n - 4, ".xml") == 0 && strlen((char *)bytes) == f->size) {
            char *capped = fuzz_capped_model((char *)bytes);
            if (capped) {
                free(bytes);
                m.data = (unsigned char *)capped;
                m.size = strlen(capped);
            }
        }
        members[count++] = m;
    }
    for (size_t i = 0; i < count; i++) ok = ok && members[i].name && members[i].data;
    unsigned char *zip = NULL;
    smalti_error err;
    if (ok && !pack_zip_build(members, count, 0, 33, "fuzz.zip", &zip, zip_size, &err)) zip = NULL;
    for (size_t i = 0; i < count; i++) free(members[i].name), free(members[i].data);
    return zip;
}

/* What pack check does with one model, on a grid of at most 16 x 16 (6 x 6 x 6; 10 x 10 and 4 x 4 x 4
   for a model that may search) and STEP_LIMIT steps. */
static void check_model(const pack *p, const pack_model *m)
{
    smalti_error err;
    pack_defaults def;
    if (!pack_model_defaults(p, m, NULL, NULL, 0, &def, &err)) return;
    if (m->thumbnail) {
        size_t size;
        unsigned char *png = pack_read(p, m->thumbnail, &size, &err);
        if (png) {
            diag d = {.file = m->thumbnail, .err = &err, .quiet = 1};
            int w, h;
            free(image_decode_argb(&d, 0, m->thumbnail, png, size, &w, &h));
            free(png);
        }
    }
    /* A zip's own model that would need a cap (it may search, or holds a wfc node) is not loaded; one
       with a NUL byte is, so that loading says why it is not XML. */
    size_t size;
    const unsigned char *xml = pack_entry_data(p, m->file, &size);
    if (xml && strlen((const char *)xml) == size) {
        char *capped = fuzz_capped_model((const char *)xml);
        free(capped);
        if (capped) return;
    }
    bool search = xml && strstr((const char *)xml, "search");
    int most = def.mz > 1 ? (search ? 4 : 6) : (search ? 10 : 16);
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = def.mx < most ? def.mx : most;
    opt.my = def.my < most ? def.my : most;
    opt.mz = def.mz < most ? def.mz : most;
    opt.warn = fuzz_drop_warning; /* not quiet: the lint runs */
    smalti_model *model = pack_load_model(p, m, &opt, &err);
    if (!model) {
        if (getenv("FUZZ_PACK_SAY")) fprintf(stderr, "fuzz_pack: %s does not load: %s:%d: %s\n", m->file, err.file, err.line, err.message);
        return;
    }
    smalti_run *run = smalti_run_new(model, def.seed, &err);
    if (run) {
        long steps = fuzz_run_bounded(run, def.steps > 0 && def.steps < STEP_LIMIT ? def.steps : STEP_LIMIT);
        if (getenv("FUZZ_PACK_SAY")) fprintf(stderr, "fuzz_pack: %s: %d x %d x %d, %ld steps\n", m->file, opt.mx, opt.my, opt.mz, steps);
        smalti_run_error(run, &err);
        smalti_run_free(run);
    }
    smalti_model_free(model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
        if (!write_zip(data, size)) return 0;
    } else {
        fuzz_input in;
        if (!fuzz_split(data, size, &in)) return 0;
        /* Small pictures only, as in the model target. */
        size_t zip_size = 0;
        unsigned char *zip = fuzz_files_small(&in, 48 * 48, 16) ? container_zip(&in, &zip_size) : NULL;
        fuzz_input_free(&in);
        bool written = zip && write_zip(zip, zip_size);
        free(zip);
        if (!written) return 0;
    }
    pack_options opt = {.max_unpacked = MAX_UNPACKED, .warn = fuzz_drop_warning};
    smalti_error err;
    pack *p = pack_open(zip_path, &opt, &err);
    if (!p) {
        if (getenv("FUZZ_PACK_SAY")) fprintf(stderr, "fuzz_pack: refused: %s:%d: %s\n", err.file, err.line, err.message);
        return 0;
    }
    const pack_manifest *man = pack_manifest_of(p);
    for (int i = 0; i < man->model_count && i < MODELS_CHECKED; i++) {
        const pack_model *m = &man->models[i];
        if (pack_find_model(p, m->name) == NULL) abort(); /* every entry can be found by its name */
        check_model(p, m);
    }
    pack_close(p);
    return 0;
}
