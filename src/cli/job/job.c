/* job.c — opening a job: the model's settings under the command's, the palette, the tile sheet,
   the load and its lint, in the one order every command follows. */
#include "job.h"
#include "../common/cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/diag.h"
#include "../../io/tilemap.h"

/* A failure of job_open: kept for the caller, and said unless it keeps it. */
static int fail(job *j, const job_request *req, const smalti_error *err)
{
    j->error = *err;
    if (!req->keep_errors) print_error(err);
    return exit_code_for(err->status);
}

/* The colours in order: the built-in palette, the model's own <smalti> colours, a pack entry's or a
   models.xml entry's, then a --palette file's (read by the caller of this). */
static void add_colors(palette *pal, const char *symbols, const uint32_t *rgb, int count)
{
    for (int i = 0; i < count; i++) {
        pal->rgb[(unsigned char)symbols[i]] = rgb[i];
        pal->has[(unsigned char)symbols[i]] = true;
    }
}

/* A step limit given by the command wins; then the entry's or the model's; then smalti's. */
static void resolve_steps(job *j, const job_request *req, bool entry_has, long entry_steps, job_steps_from entry_from,
                          const smalti_settings *own)
{
    if (req->steps_given) {
        j->steps = req->steps;
        j->steps_from = req->steps_from == STEPS_DEFAULT ? STEPS_COMMAND : req->steps_from;
    } else if (entry_has) {
        j->steps = entry_steps;
        j->steps_from = entry_from;
    } else if (own->has_steps) {
        j->steps = own->steps;
        j->steps_from = STEPS_MODEL;
    } else {
        j->steps = req->has_default_steps ? req->default_steps : SMALTI_DEFAULT_STEPS;
        j->steps_from = STEPS_DEFAULT;
    }
    /* A default is raised where the command can: a models.xml entry's steps, a pack entry's (or --steps). */
    j->raise_at = j->steps_from != STEPS_DEFAULT ? j->steps_from : req->entry_where ? STEPS_ENTRY : req->pm ? STEPS_PACK : STEPS_DEFAULT;
}

/* A model of a pack: its manifest entry's settings, then its own <smalti> element's. */
static int settings_of_pack(job *j, const job_request *req)
{
    pack_defaults def;
    smalti_error err;
    if (!pack_model_defaults(req->pk, req->pm, &req->grid, req->params, req->param_count, &def, &err)) {
        return fail(j, req, &err);
    }
    j->seed = req->seed_given ? req->seed : def.seed;
    resolve_steps(j, req, req->pm->has_steps, req->pm->steps, STEPS_PACK, &def.own);
    j->pixel_size = req->pixel_size ? req->pixel_size : def.pixel_size;
    j->iso = req->iso >= 0 ? req->iso == 1 : def.iso;
    add_colors(&j->pal, def.own.color_symbols, def.own.color_rgb, def.own.color_count);
    add_colors(&j->pal, req->pm->color_symbols, req->pm->color_rgb, req->pm->color_count);
    j->mx = def.mx, j->my = def.my, j->mz = def.mz;
    pack_entry_label(req->pk, req->pm->file, j->label, sizeof j->label);
    snprintf(j->name, sizeof j->name, "%s", req->pm->name);
    return EXIT_OK;
}

/* A model file: its own <smalti> element fills in what the command left out. */
static int settings_of_file(job *j, const job_request *req)
{
    smalti_settings own;
    smalti_error err;
    smalti_load_options with_params = smalti_load_defaults();
    with_params.params = req->params;
    with_params.param_count = req->param_count;
    if (!settings_read_file(req->model, &with_params, &own, &err)) {
        return fail(j, req, &err);
    }
    j->seed = req->seed_given ? req->seed : own.has_seed ? own.seed : 1;
    resolve_steps(j, req, false, 0, STEPS_DEFAULT, &own);
    j->pixel_size = req->pixel_size ? req->pixel_size : own.pixel_size > 0 ? own.pixel_size : JOB_DEFAULT_PIXEL_SIZE;
    j->iso = req->iso >= 0 ? req->iso == 1 : own.iso == 1;
    add_colors(&j->pal, own.color_symbols, own.color_rgb, own.color_count);
    const int side_2d = req->size_required ? -1 : SMALTI_DEFAULT_SIDE_2D, side_3d = req->size_required ? -1 : SMALTI_DEFAULT_SIDE_3D;
    settings_grid(&own, &req->grid, side_2d, side_3d, &j->mx, &j->my, &j->mz);
    if (j->mx < 1 || j->my < 1 || j->mz < 1) {
        /* A model file that is not there has no settings either: that is the fault to name. */
        smalti_error open_err;
        if (input_file_error(req->model) && !smalti_model_load(req->model, NULL, &open_err)) {
            return fail(j, req, &open_err);
        }
        error_set(&j->error, SMALTI_ERR_MODEL, req->model, 0, "the model needs a positive size");
        if (req->entry_where)
            fprintf(stderr, "%s: error: <model name=\"%s\"> needs a positive size (or length, width and height), here or in "
                            "the model's <smalti> settings\n", req->entry_where, req->entry_name);
        else
            fprintf(stderr, "%s: error: the model needs a positive size (or length, width and height) in its <smalti> "
                            "settings or the command\n", req->model);
        return EXIT_MODEL;
    }
    /* --height makes a grid 3-D, as a models.xml entry's height does; someone who meant a 2-D
       picture of width by height should hear it. */
    if (req->grid.height > 1 && req->grid.dim != 3 && own.dim != 3 && !req->quiet && !req->size_required)
        fprintf(stderr,
                "smalti: note: --height %d makes a 3-D grid of %dx%dx%d cells (length x width x height: x, y, z); for a "
                "2-D grid give --length X --width Y, and with a 3-D model add --dim 3 to say so\n",
                req->grid.height, j->mx, j->my, j->mz);
    snprintf(j->label, sizeof j->label, "%s", req->model);
    base_name(req->model, j->name, sizeof j->name);
    return EXIT_OK;
}

/* The tile sheet is read before the load, so that a mistake in it costs no load or run. */
static int read_tiles(job *j, const job_request *req, const char *path)
{
    smalti_error err;
    if (!(j->tiles = calloc(1, sizeof *j->tiles))) {
        error_set(&err, SMALTI_ERR_MEMORY, path, 0, "out of memory");
        return fail(j, req, &err);
    }
    if (!tile_sheet_load(j->tiles, path, &err)) {
        return fail(j, req, &err);
    }
    j->tiles_file = path;
    return EXIT_OK;
}

static int load(job *j, const job_request *req)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = j->mx, opt.my = j->my, opt.mz = j->mz;
    opt.resource_dirs = req->resources;
    opt.resource_dir_count = req->resource_count;
    opt.allow_any_path = req->allow_any_path;
    opt.params = req->params;
    opt.param_count = req->param_count;
    opt.max_memory = req->max_memory; /* the load and each run get the budget */
    opt.timeout_seconds = req->timeout_shared ? deadline_left(req->timeout, j->start) : req->timeout;
    if (req->warn) {
        opt.warn = req->warn;
        opt.warn_userdata = req->warn_userdata;
    } else {
        /* Warnings are counted even when quiet, for --strict, which shows them as the errors they become. */
        j->warnings.quiet = req->quiet && !req->strict;
        opt.warn = lint_report_warn;
        opt.warn_userdata = &j->warnings;
    }
    smalti_error err;
    j->model = req->pm ? pack_load_model(req->pk, req->pm, &opt, &err) : smalti_model_load(req->model, &opt, &err);
    if (!j->model) {
        if (err.status == SMALTI_ERR_TIMEOUT) say_timeout(&err, 0, req->timeout);
        return fail(j, req, &err);
    }
    /* The model's values that the palette in use has no colour for, where they can be given one. */
    const char *where = req->pm ? "the model's entry of pack.xml" : req->entry_colors ? "the model's entry" : "a --palette file";
    lint_palette(j->model, &j->pal, j->label, where, opt.warn, opt.warn_userdata);
    return req->warn ? EXIT_OK : lint_report_verdict(&j->warnings, req->strict, j->label);
}

int job_open(job *j, const job_request *req)
{
    memset(j, 0, sizeof *j);
    j->start = now_seconds();
    j->timeout = req->timeout;
    j->timeout_shared = req->timeout_shared;
    j->max_memory = req->max_memory;
    j->max_work = req->max_work;
    j->quiet = req->quiet;
    j->strict = req->strict;
    j->warn = req->warn;
    j->warn_userdata = req->warn_userdata;
    palette_default(&j->pal);
    int rc = req->pm ? settings_of_pack(j, req) : settings_of_file(j, req);
    if (rc == EXIT_OK && req->entry_colors)
        for (int c = 0; c < 256; c++)
            if (req->entry_colors->has[c]) j->pal.rgb[c] = req->entry_colors->rgb[c], j->pal.has[c] = true;
    smalti_error err;
    if (rc == EXIT_OK && req->palette_file && !palette_load_file(&j->pal, req->palette_file, &err)) rc = fail(j, req, &err);
    if (rc == EXIT_OK && req->tiles_file) rc = read_tiles(j, req, req->tiles_file);
    if (rc == EXIT_OK) rc = load(j, req);
    if (rc != EXIT_OK) job_close(j);
    return rc;
}

void job_close(job *j)
{
    smalti_model_free(j->model);
    j->model = NULL;
    if (j->tiles) tile_sheet_free(j->tiles);
    free(j->tiles);
    j->tiles = NULL;
}
