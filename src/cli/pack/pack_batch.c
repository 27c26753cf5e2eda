/* pack_batch.c — `smalti batch PACK`: every model of a pack for each of its seeds, straight from the folder or zip. */
#include "pack_cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One model of the pack, each of its seeds; an exit code. */
static int batch_model(const pack *p, const pack_model *m, const char *out_dir, const pack_batch_budget *budget, bool quiet)
{
    smalti_error err;
    pack_defaults def;
    if (!pack_model_defaults(p, m, NULL, &def, &err)) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    palette pal;
    pack_model_palette(m, &def, &pal);
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = def.mx, opt.my = def.my, opt.mz = def.mz;
    opt.quiet = quiet;
    opt.timeout_seconds = budget->timeout;
    opt.max_memory = budget->max_memory;
    smalti_model *model = pack_load_model(p, m, &opt, &err);
    if (!model) {
        if (err.status == SMALTI_ERR_TIMEOUT) say_timeout(&err, 0, budget->timeout);
        print_error(&err);
        return exit_code_for(err.status);
    }
    char label[4200];
    pack_entry_label(p, m->file, label, sizeof label);
    int rc = EXIT_OK, seeds = m->seed_count > 0 ? m->seed_count : 1;
    smalti_run *run = NULL;
    smalti_run_options ro = smalti_run_defaults();
    ro.timeout_seconds = budget->timeout; /* counted again from each reset: each seed gets the whole --timeout */
    ro.max_memory = budget->max_memory;
    for (int k = 0; k < seeds && rc == EXIT_OK; k++) {
        int32_t seed = m->seed_count > 0 ? m->seeds[k] : def.seed;
        if (!run) run = smalti_run_new_with(model, seed, &ro, &err);
        else smalti_run_reset(run, seed);
        if (!run) {
            print_error(&err);
            rc = exit_code_for(err.status);
            break;
        }
        char name[300], path[4096];
        snprintf(name, sizeof name, "%s_%d", m->name, (int)seed);
        run_with_progress(run, def.steps, name, quiet);
        if (smalti_run_error(run, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
            break;
        }
        if (!quiet && def.steps > 0 && !smalti_run_finished(run) && smalti_run_counter(run) >= def.steps)
            fprintf(stderr, "%s: %s stopped at the step limit (%ld %s) before the model finished\n", label, name, def.steps,
                    plural(def.steps, "step", "steps"));
        int fx, fy, fz;
        smalti_run_grid(run, &fx, &fy, &fz);
        snprintf(path, sizeof path, "%s/%s.%s", out_dir, name, fz == 1 || def.iso ? "png" : "vox");
        text_header header = result_header(model, m->name, seed, def.steps);
        if (!write_result(path, run, &header, &pal, def.pixel_size, quiet, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
        } else if (!quiet) {
            long n = smalti_run_counter(run);
            printf("%s: %ld %s -> %s\n", name, n, plural(n, "step", "steps"), path);
        }
    }
    smalti_run_free(run);
    smalti_model_free(model);
    return rc;
}

int pack_batch(const char *path, const char *out_dir, uint64_t max_unpacked, const pack_batch_budget *budget, bool quiet)
{
    int rc = EXIT_OK;
    pack *p = cli_pack_open(path, max_unpacked, budget->max_memory ? budget->max_memory : PACK_MAX_MEMORY, quiet, &rc);
    if (!p) return rc;
    if (!make_output_dir(out_dir)) {
        pack_close(p);
        return EXIT_IO;
    }
    const pack_manifest *man = pack_manifest_of(p);
    int failures = 0, worst = EXIT_OK;
    for (int i = 0; i < man->model_count; i++) {
        /* As `batch LIST`: --max-memory bounds each model's load, runs and pictures together. */
        mem_budget whole = {.limit = budget->max_memory};
        mem_budget *outer = mem_enter_whole(budget->max_memory ? &whole : NULL);
        int r = batch_model(p, &man->models[i], out_dir, budget, quiet);
        mem_enter_whole(outer);
        r = memory_verdict(&whole, r, path);
        if (r != EXIT_OK) failures++, worst = r;
    }
    if (!quiet || failures)
        fprintf(stderr, "batch: %d %s, %d failed\n", man->model_count, plural(man->model_count, "model", "models"), failures);
    pack_close(p);
    return worst;
}
