/* api_shared.c — a program that sees only smalti.h and links only libsmalti.so: the exported API is
   enough to load a model, run it to the end and read its grid. Usage: api_shared MODEL.xml SIZE */
#include "smalti.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    smalti_error err;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = atoi(argv[2]);
    opt.mz = 1;
    opt.quiet = 1;
    smalti_model *model = smalti_model_load(argv[1], &opt, &err);
    if (!model) {
        fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
        return 1;
    }
    smalti_run *run = smalti_run_new(model, 1, &err);
    if (!run) return 1;
    long steps = smalti_run_to_end(run, 0);
    int mx, my, mz;
    const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
    const char *legend = smalti_run_legend(run);
    long counts[256] = {0};
    for (long i = 0; i < (long)mx * my * mz; i++) counts[cells[i]]++;
    printf("%s %dx%dx%d steps=%ld finished=%d", SMALTI_VERSION, mx, my, mz, steps, smalti_run_finished(run));
    for (int v = 0; legend[v]; v++) printf(" %c=%ld", legend[v], counts[v]);
    printf("\n");
    smalti_run_free(run);
    smalti_model_free(model);
    return 0;
}
