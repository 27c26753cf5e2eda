/* fuzz_common.h — what the fuzz targets share: the input container (a main text followed by named files),
   the in-memory resource reader over its files, bounds on image sizes, and a file-system path for bytes. */
#ifndef SMALTI_FUZZ_COMMON_H
#define SMALTI_FUZZ_COMMON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../../src/core/resource.h"

/* An input of the model and wfc targets:

       [#3d\n]MAIN TEXT
       \n#~file NAME\nBYTES
       \n#~file NAME\nBYTES ...

   MAIN TEXT is the model (or samples.xml) as XML; "#3d" on the first line asks for a 3-D grid.
   Each file's BYTES run up to the next "\n#~file " or the end of the input. A resource
   path "ROOT/.../X" is served by the first file whose NAME is the path or one of its
   trailing parts ("rules/X.png", or just "X.png"). tests/fuzz/pack.c writes them. */
#define FUZZ_FILE_MARK "\n#~file "
#define FUZZ_3D_MARK "#3d\n"
#define FUZZ_MAX_FILES 64

typedef struct fuzz_file {
    char name[256];
    const uint8_t *data; /* inside the input */
    size_t size;
} fuzz_file;

typedef struct fuzz_input {
    char *main;          /* the main text, NUL-terminated (malloc'd) */
    bool three_d;
    fuzz_file files[FUZZ_MAX_FILES];
    int count;
    int reads;           /* files served */
} fuzz_input;

/* Split an input; false when out of memory. Files past FUZZ_MAX_FILES are dropped. */
bool fuzz_split(const uint8_t *data, size_t size, fuzz_input *in);
void fuzz_input_free(fuzz_input *in);
/* A resource_reader's read over the files of a fuzz_input (the userdata). */
const unsigned char *fuzz_read(void *userdata, const char *path, size_t *size);

/* Width and height of a PNG as stb_image would see them (its IHDR chunk); false if it has none. */
bool fuzz_png_size(const uint8_t *data, size_t size, long *width, long *height);
/* The largest side over the SIZE chunks of a VOX file (0 if none), walking chunks as vox_read.c does. */
long fuzz_vox_max_side(const uint8_t *data, size_t size);
/* Every .png file has at most max_pixels pixels and every .vox file sides of at most max_side:
   the bound that keeps one input's work small (larger pictures are the image target's business). */
bool fuzz_files_small(const fuzz_input *in, long max_pixels, long max_side);

/* Work the harnesses bound by rewriting a model: a search explores up to FUZZ_SEARCH_LIMIT states per
   try (none: without end), a wfc node makes up to FUZZ_WFC_TRIES attempts (1000 by default). */
#define FUZZ_SEARCH_LIMIT 32
#define FUZZ_WFC_TRIES 10
/* The model xml with its work so capped (malloc'd), or NULL when nothing needs a cap (or it does not
   parse: then the loader says so). */
char *fuzz_capped_model(const char *xml);

/* The cell-steps (steps times the grid's cells at each step) a harness's run may make: 2000 steps of a
   16 x 16 grid. A tile wfc node multiplies the grid by its tiles' size (6 x 6 x 6 cells of 4 x 4 x 4 tiles
   are 13,824), and 2000 steps of `all` over that took 45 s under the sanitizers. */
#define FUZZ_WORK_LIMIT (2000L * 16 * 16)
/* smalti_run_to_end(run, step_limit) in chunks of at most 50 steps, each no longer than the cell-steps
   left of FUZZ_WORK_LIMIT allow on the grid before it; stops when not one step is left: the step counter. */
long fuzz_run_bounded(smalti_run *run, long step_limit);

/* A warning callback (smalti_warning_fn) that reads each warning whole and drops it, aborting on one
   without a message: loads given it run the lint, as `smalti run` and `pack check` do, where a quiet
   load would skip it. */
void fuzz_drop_warning(void *userdata, const char *file, int line, const char *message);

/* A path under which the bytes can be read as a file (a memfd: no disk, gone when closed), or -1. */
int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t path_size);
/* libFuzzer's start-up hook, shared by every target: libxml2 set up once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
#endif
