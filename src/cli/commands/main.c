/* main.c — the smalti command line: `run` and `check`, and the dispatch to the other commands. */
#include "../common/cli.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../../io/tilemap.h"
#include "../../nodes/settings.h"
#include "../../trace/anim.h"
#include "../job/lint_report.h"
#include "../many/many.h"
#include "../pack/pack_cli.h"

typedef struct run_args {
    const char *model, *output, *palette_file, *trace;
    const char *tiles_file;       /* --tiles: symbols to tiles of the user's sheet */
    const char *pack_model;       /* run PACK MODEL: the model of the pack at `model` */
    char installed[300];          /* run @NAME/MODEL: "@NAME", what `model` then points to */
    uint64_t max_unpacked;        /* --max-unpacked; 0: the default cap */
    const char *gif, *frames_dir; /* recordings of the run */
    long size, length, width, height, dim, seed, steps, pixel_size; /* sides, dim, pixel_size: 0 when not given */
    bool seed_given, steps_given;
    long every, delay;            /* 0 when not given */
    double timeout;               /* seconds; 0: none */
    size_t max_memory;            /* bytes; 0: none */
    const char *resources[CLI_MAX_RESOURCES];
    int resource_count;
    bool allow_any_path;
    bool quiet, iso, watch, strict;
    char bundled_dir[4096], bundled_name[256]; /* `run maze`: the installed models' folder and the name */
    many_cli many;                /* --seeds, -j, --manifest, --resume, --shard */
} run_args;

/* -o names the final grid's file by its extension; say so before running, and point
   an animation to --gif. */
static int check_output_kind(const run_args *a)
{
    const char *out = a->output;
    bool tile_map = out && (has_extension(out, ".tmx") || has_extension(out, ".tmj") || has_extension(out, ".csv") ||
                            has_extension(out, ".json"));
    if (a->tiles_file && !tile_map && !(out && has_extension(out, ".png")))
        return usage_error("%s", "--tiles draws with a tile sheet: give -o FILE.png, .tmx, .tmj, .csv or .json");
    if (!out || strcmp(out, "-") == 0 || is_special_file(out) || has_extension(out, ".png") || has_extension(out, ".txt") ||
        has_extension(out, ".vox") || tile_map)
        return EXIT_OK;
    /* twisted maps of a run with a growgrid lattice (without one, the write says so) */
    if (has_extension(out, ".svg") || has_extension(out, ".obj") || has_extension(out, ".json")) return EXIT_OK;
    if (has_extension(out, ".gif")) {
        fprintf(stderr,
                "smalti: -o %s: -o writes the final grid as .png, .txt, .vox, .tmx, .tmj, .csv or .json; for an animated GIF "
                "of the run use --gif %s\n",
                out, out);
        return EXIT_USAGE;
    }
    fprintf(stderr,
            "smalti: -o %s: unknown output kind \"%s\": use .png, .txt, .vox, .tmx, .tmj, .csv or .json (or --gif FILE for an "
            "animation)\n",
            out, path_extension(out));
    return EXIT_USAGE;
}

static int parse_run_args(const char *command, int argc, char **argv, run_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->steps = 50000;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long *target = NULL, min = 1, max = 1L << 24;
        int took = many_cli_option(&a->many, arg, val);
        if (took < 0) return EXIT_USAGE;
        if (took > 0) { i += took - 1; continue; }
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) { a->quiet = true; continue; }
        if (strcmp(arg, "--allow-any-path") == 0) { a->allow_any_path = true; continue; }
        if (strcmp(arg, "--iso") == 0) { a->iso = true; continue; }
        if (strcmp(arg, "--watch") == 0) { a->watch = true; continue; }
        if (strcmp(arg, "--strict") == 0) { a->strict = true; continue; }
        if (strcmp(arg, "--timeout") == 0) {
            if (!parse_timeout(val, &a->timeout)) return EXIT_USAGE;
            i++;
            continue;
        }
        if (strcmp(arg, "--max-unpacked") == 0) {
            if (!parse_max_unpacked(val, &a->max_unpacked)) return EXIT_USAGE;
            i++;
            continue;
        }
        if (strcmp(arg, "--max-memory") == 0) {
            if (!parse_max_memory(val, &a->max_memory)) return EXIT_USAGE;
            i++;
            continue;
        }
        if (strcmp(arg, "--size") == 0) target = &a->size;
        else if (strcmp(arg, "--length") == 0) target = &a->length;
        else if (strcmp(arg, "--width") == 0) target = &a->width;
        else if (strcmp(arg, "--height") == 0) target = &a->height;
        else if (strcmp(arg, "--dim") == 0) { target = &a->dim; min = 2; max = 3; }
        else if (strcmp(arg, "--seed") == 0) { target = &a->seed; min = INT32_MIN; max = INT32_MAX; a->seed_given = true; }
        else if (strcmp(arg, "--steps") == 0) { target = &a->steps; min = -(1L << 40); max = 1L << 40; a->steps_given = true; }
        else if (strcmp(arg, "--pixel-size") == 0) { target = &a->pixel_size; max = 64; }
        else if (strcmp(arg, "--every") == 0) { target = &a->every; max = 1L << 40; }
        else if (strcmp(arg, "--delay") == 0) { target = &a->delay; max = 65535; }
        else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 || strcmp(arg, "--resources") == 0 ||
                 strcmp(arg, "--palette") == 0 || strcmp(arg, "--gif") == 0 || strcmp(arg, "--frames") == 0 ||
                 strcmp(arg, "--trace") == 0 || strcmp(arg, "--tiles") == 0) {
            if (!val) return usage_error("%s needs a value", arg);
            if (strcmp(arg, "--resources") == 0) {
                if (a->resource_count == CLI_MAX_RESOURCES) return usage_error("too many %s options", arg);
                a->resources[a->resource_count++] = val;
            } else if (strcmp(arg, "--palette") == 0) a->palette_file = val;
            else if (strcmp(arg, "--gif") == 0) a->gif = val;
            else if (strcmp(arg, "--frames") == 0) a->frames_dir = val;
            else if (strcmp(arg, "--trace") == 0) a->trace = val;
            else if (strcmp(arg, "--tiles") == 0) a->tiles_file = val;
            else a->output = val;
            i++;
            continue;
        } else if (arg[0] == '-' && arg[1]) return unknown_option(command, arg);
        else if (a->model && !a->pack_model && pack_path_is_pack(a->model)) { a->pack_model = arg; continue; }
        else if (a->model) return usage_error("unexpected argument %s", arg);
        else if (arg[0] == '@' && strchr(arg, '/')) {
            /* @NAME/MODEL or @NAME@VERSION/MODEL: a model of an installed pack. */
            const char *slash = strchr(arg, '/');
            if ((size_t)(slash - arg) >= sizeof a->installed || !slash[1])
                return usage_error("%s: expected @NAME/MODEL or @NAME@VERSION/MODEL", arg);
            snprintf(a->installed, sizeof a->installed, "%.*s", (int)(slash - arg), arg);
            a->model = a->installed;
            a->pack_model = slash + 1;
            continue;
        } else { a->model = arg; continue; }
        if (!val) return usage_error("%s needs a value", arg);
        if (!parse_int_arg(val, min, max, target)) {
            fprintf(stderr, "smalti: %s %s: expected an integer from %ld to %ld\n", arg, val, min, max);
            return EXIT_USAGE;
        }
        i++;
    }
    if (!a->model) return usage_error("%s", "missing MODEL.xml");
    if (!a->pack_model && datadir_find_model(a->model, a->bundled_dir, sizeof a->bundled_dir, a->bundled_name,
                                             sizeof a->bundled_name)) {
        a->model = a->bundled_dir;
        a->pack_model = a->bundled_name;
    }
    if (!a->pack_model && pack_path_is_pack(a->model))
        return usage_error("%s is a pack: name one of its models (smalti pack list lists them)", a->model);
    if (a->pack_model && (a->resource_count || a->allow_any_path))
        return usage_error("%s is a pack: its models take resources from it alone (no --resources or --allow-any-path)",
                           a->model);
    if (a->every && !a->gif && !a->frames_dir) return usage_error("%s", "--every needs --gif FILE or --frames DIR");
    if (a->delay && !a->gif) return usage_error("%s", "--delay needs --gif FILE");
    if (a->dim == 2 && a->height > 1) return usage_error("%s", "--dim 2 with --height: a 2-D grid has no height; give --length X --width Y");
    if (many_cli_wanted(&a->many) && strcmp(command, "run") == 0) {
        if (a->seed_given && a->many.seeds) return usage_error("%s", "--seed and --seeds: give one");
        if (a->gif || a->frames_dir || a->trace || a->watch)
            return usage_error("%s", "--seeds, -j, --manifest, --resume and --shard write final grids only (no --gif, "
                                     "--frames, --trace or --watch)");
        if (!a->output || strcmp(a->output, "-") == 0 || is_special_file(a->output))
            return usage_error("%s", "many runs need -o with a file name template, such as -o 'out/{model}_{seed}.png'");
        if (a->many.o.resume && !a->many.o.manifest) return usage_error("%s", "--resume needs --manifest FILE, which says what is done");
    }
    return check_output_kind(a);
}

/* With a recording or the live view, the final grid goes out only to -o. */
static bool writes_final_grid(const run_args *a)
{
    return a->output || !(a->gif || a->frames_dir || a->watch);
}

/* The final picture's size is known before the run when no node changes the grid (map, wfc): refused
   then, not after the whole run. A model with such nodes is checked when the picture is written. */
static bool picture_fits_before_run(const run_args *a, const smalti_model *model, smalti_error *err)
{
    if (!a->output || !has_extension(a->output, ".png") || a->tiles_file) return true;
    for (int i = 0, n = smalti_model_node_count(model); i < n; i++) {
        smalti_node_info info;
        if (smalti_model_node_info(model, i, &info) && (strcmp(info.kind, "map") == 0 || strcmp(info.kind, "wfc") == 0))
            return true;
    }
    int mx, my, mz;
    smalti_model_grid_size(model, &mx, &my, &mz);
    return grid_png_size_ok(a->output, mx, my, mz, (int)a->pixel_size, err);
}

/* "-" names stdout for the text result (-o -) and the trace (--trace -), which
   cannot share it; a GIF may need its header rewritten at the end, so it needs a file. */
static int check_stdout_use(const run_args *a)
{
    bool text_out = writes_final_grid(a) && (!a->output || strcmp(a->output, "-") == 0);
    if (a->gif && strcmp(a->gif, "-") == 0)
        return usage_error("%s", "--gif -: a GIF cannot go to stdout (its header may be rewritten at the end); give a file name");
    if (!a->trace || strcmp(a->trace, "-") != 0) return EXIT_OK;
    if (text_out) return usage_error("%s", "--trace - and the text result would share stdout; give -o FILE");
    if (a->watch) return usage_error("%s", "--trace - and --watch would share stdout; give --trace FILE");
    if (isatty(STDOUT_FILENO)) return usage_error("%s", "--trace -: a trace is binary, and stdout is a terminal");
    return EXIT_OK;
}

/* Two outputs given one file (--gif f.gif --trace f.gif, --trace x.png -o x.png) would be written
   both, one replacing the other: refused before the run. */
static int check_outputs_distinct(const run_args *a)
{
    const struct {
        const char *option, *path;
    } outs[] = {{"-o", writes_final_grid(a) ? a->output : NULL}, {"--gif", a->gif}, {"--trace", a->trace}};
    const int count = (int)(sizeof outs / sizeof *outs);
    for (int i = 0; i < count; i++)
        for (int k = i + 1; k < count; k++)
            if (outs[i].path && outs[k].path && outputs_collide(outs[i].path, outs[k].path)) {
                char message[4200];
                snprintf(message, sizeof message, "%s %s and %s %s name one file; each output needs its own", outs[i].option,
                         outs[i].path, outs[k].option, outs[k].path);
                return usage_error("%s", message);
            }
    return EXIT_OK;
}

/* The model's own settings (its <smalti> element) fill in what the command line left out:
   the grid, seed, step limit and pixel size, and colours under a --palette file's. */
static int apply_model_settings(run_args *a, palette *pal, int *mx, int *my, int *mz)
{
    smalti_settings s;
    smalti_error err;
    if (!settings_read_file(a->model, NULL, &s, &err)) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    if (!a->seed_given && s.has_seed) a->seed = s.seed;
    if (!a->steps_given && s.has_steps) a->steps = s.steps;
    if (!a->pixel_size) a->pixel_size = s.pixel_size > 0 ? s.pixel_size : 4;
    for (int i = 0; i < s.color_count; i++) {
        pal->rgb[(unsigned char)s.color_symbols[i]] = s.color_rgb[i];
        pal->has[(unsigned char)s.color_symbols[i]] = true;
    }
    grid_request over = {(int)a->size, (int)a->length, (int)a->width, (int)a->height, (int)a->dim};
    settings_grid(&s, &over, 64, 24, mx, my, mz);
    /* --height makes a grid 3-D, as a models.xml entry's height does; someone who meant a
       2-D picture of width by height should hear it. */
    if (a->height > 1 && a->dim != 3 && s.dim != 3 && !a->quiet)
        fprintf(stderr,
                "smalti: note: --height %ld makes a 3-D grid of %dx%dx%d cells (length x width x height: x, y, z); for a "
                "2-D grid give --length X --width Y, and with a 3-D model add --dim 3 to say so\n",
                a->height, *mx, *my, *mz);
    return EXIT_OK;
}

/* run PACK MODEL: the settings of the model's manifest entry, then its own <smalti> element's, fill
   in what the command line left out. */
static int apply_pack_settings(run_args *a, pack **pk, const pack_model **pm, palette *pal, int *mx, int *my, int *mz)
{
    int rc = EXIT_OK;
    *pk = cli_pack_open(a->model, a->max_unpacked, a->max_memory ? 0 : PACK_MAX_MEMORY, a->quiet, &rc);
    if (!*pk) return rc;
    *pm = pack_find_model(*pk, a->pack_model);
    if (!*pm) {
        fprintf(stderr, "%s: error: the pack has no model \"%s\" ('smalti pack list %s' lists them)\n", a->model, a->pack_model,
                a->model);
        return EXIT_USAGE;
    }
    grid_request over = {(int)a->size, (int)a->length, (int)a->width, (int)a->height, (int)a->dim};
    pack_defaults def;
    smalti_error err;
    if (!pack_model_defaults(*pk, *pm, &over, &def, &err)) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    if (!a->seed_given) a->seed = def.seed;
    if (!a->steps_given) a->steps = def.steps;
    if (!a->pixel_size) a->pixel_size = def.pixel_size;
    pack_model_palette(*pm, &def, pal);
    *mx = def.mx, *my = def.my, *mz = def.mz;
    return EXIT_OK;
}

/* What is left of `timeout` seconds (0: none) since `start`: a deadline already passed leaves the
   least positive time, so that the run stops at its first check with the usual message. */
static double timeout_left(double timeout, const struct timespec *start)
{
    if (timeout <= 0) return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double left = timeout - ((double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9);
    return left > 1e-9 ? left : 1e-9;
}

static int load_for_args(const run_args *a, const pack *pk, const pack_model *pm, int mx, int my, int mz, smalti_model **model,
                         lint_report *warnings, const struct timespec *start)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = mx;
    opt.my = my;
    opt.mz = mz;
    opt.resource_dirs = a->resources;
    opt.resource_dir_count = a->resource_count;
    opt.allow_any_path = a->allow_any_path;
    opt.max_memory = a->max_memory; /* the load and the run each get the budget */
    opt.timeout_seconds = timeout_left(a->timeout, start); /* the deadline covers the load; the run gets what is left */
    /* Warnings are counted even under -q, for --strict, which shows them as the errors they become. */
    warnings->quiet = a->quiet && !a->strict;
    opt.warn = lint_report_warn;
    opt.warn_userdata = warnings;
    smalti_error err;
    *model = pk ? pack_load_model(pk, pm, &opt, &err) : smalti_model_load(a->model, &opt, &err);
    if (!*model && err.status == SMALTI_ERR_TIMEOUT) say_timeout(&err, 0, a->timeout);
    if (!*model) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    return EXIT_OK;
}

/* `check`: a search without a limit may visit states without end (MultiSokoban8 at 9x9 does);
   say so for each such node, found by its attributes. */
static void warn_unbounded_search(const smalti_model *model, const char *path)
{
    for (int id = 0; id < smalti_model_node_count(model); id++) {
        smalti_node_info info;
        if (!smalti_model_node_info(model, id, &info)) continue;
        bool search = strstr(info.attributes, "search=\"True\"") || strstr(info.attributes, "search=\"true\"");
        if (search && !strstr(info.attributes, "limit=\""))
            fprintf(stderr,
                    "%s:%d: warning: search without limit may run without end; give <%s> a limit=\"N\" of states, "
                    "or run with --timeout SECONDS\n",
                    path, info.line, info.kind);
    }
}

/* run and check with parsed arguments; *tiles receives the --tiles sheet, which the caller frees. */
static int run_parsed(run_args a, bool check_only, tile_sheet **tiles)
{
    /* --timeout counts from here: reading the settings, loading and running. */
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int rc;
    if (a.iso && !check_only && (!a.output || !has_extension(a.output, ".png")))
        return usage_error("%s", "--iso draws a PNG: give -o FILE.png");
    if (a.iso && a.tiles_file) return usage_error("%s", "--iso draws cubes in palette colours; --tiles draws a sheet's tiles: give one");
    if (a.watch && !check_only && !isatty(STDOUT_FILENO))
        return usage_error("%s", "--watch draws on a terminal, and stdout is not one; record the run with --gif FILE "
                                 "or --frames DIR instead");
    if (!check_only && ((rc = check_stdout_use(&a)) != EXIT_OK || (rc = check_outputs_distinct(&a)) != EXIT_OK)) return rc;
    palette pal;
    palette_default(&pal);
    int mx, my, mz;
    pack *pk = NULL;
    const pack_model *pm = NULL;
    rc = a.pack_model ? apply_pack_settings(&a, &pk, &pm, &pal, &mx, &my, &mz) : apply_model_settings(&a, &pal, &mx, &my, &mz);
    smalti_error err;
    if (rc == EXIT_OK && a.palette_file && !palette_load_file(&pal, a.palette_file, &err)) {
        print_error(&err);
        rc = exit_code_for(err.status);
    }
    /* The tile sheet is read before the run, so that a mistake in it costs no run. */
    if (rc == EXIT_OK && a.tiles_file && !(*tiles = calloc(1, sizeof **tiles))) {
        fprintf(stderr, "%s: error: out of memory\n", a.tiles_file);
        rc = EXIT_MEMORY;
    }
    if (rc == EXIT_OK && a.tiles_file && !tile_sheet_load(*tiles, a.tiles_file, &err)) {
        print_error(&err);
        rc = exit_code_for(err.status);
    }
    smalti_model *model = NULL;
    lint_report warnings = {0};
    if (rc == EXIT_OK) rc = load_for_args(&a, pk, pm, mx, my, mz, &model, &warnings, &start);
    /* A model of a pack is named as "PACK/models/x.xml" or "PACK.zip:models/x.xml" from here on. */
    char entry_label[4200];
    char name[256];
    if (pk && pm) {
        pack_entry_label(pk, pm->file, entry_label, sizeof entry_label);
        a.model = entry_label;
        snprintf(name, sizeof name, "%s", pm->name);
    } else {
        base_name(a.model, name, sizeof name);
    }
    pack_close(pk); /* a loaded model keeps nothing of its pack */
    if (rc != EXIT_OK) return rc;
    lint_report_palette(&warnings, model, &pal, a.model);
    if ((rc = lint_report_verdict(&warnings, a.strict, a.model)) != EXIT_OK) {
        smalti_model_free(model);
        return rc;
    }
    if (check_only) {
        if (!a.quiet) warn_unbounded_search(model, a.model);
        int nodes = smalti_model_node_count(model);
        printf("%s: ok (%d %s, values %s)\n", a.model, nodes, plural(nodes, "node", "nodes"), smalti_model_legend(model));
        smalti_model_free(model);
        return EXIT_OK;
    }
    if (many_cli_wanted(&a.many)) {
        rc = many_run_model(model, name, a.model, &pal, (int)a.pixel_size, a.steps, a.output, &a.many, a.quiet, a.timeout,
                            a.max_memory, (int32_t)a.seed);
        smalti_model_free(model);
        return rc;
    }
    if (!picture_fits_before_run(&a, model, &err)) {
        print_error(&err);
        smalti_model_free(model);
        return exit_code_for(err.status);
    }
    smalti_run_options run_opt = smalti_run_defaults();
    run_opt.timeout_seconds = timeout_left(a.timeout, &start);
    run_opt.max_memory = a.max_memory;
    smalti_run *run = smalti_run_new_with(model, (int32_t)a.seed, &run_opt, &err);
    if (!run) {
        print_error(&err);
        smalti_model_free(model);
        return exit_code_for(err.status);
    }
    /* Observers of the run, all on its one observer slot. */
    observer_fanout fan = {0};
    trace_writer *tracer = NULL;
    if (a.trace) {
        tracer = trace_record_start(a.trace, a.model, run, model, (int32_t)a.seed, a.steps, &pal, &err);
        if (!tracer) {
            print_error(&err);
            smalti_run_free(run);
            smalti_model_free(model);
            return exit_code_for(err.status);
        }
        fanout_add(&fan, trace_observe, tracer);
    }
    anim_recorder *recorder = NULL;
    term_watch *watch = NULL;
    if (a.gif || a.frames_dir) {
        anim_options ao = {
            .gif_path = a.gif,
            .frames_dir = a.frames_dir,
            .every = a.every > 0 ? a.every : 1,
            .pixel_size = (int)a.pixel_size,
            .delay_cs = a.delay > 0 ? (int)a.delay : ANIM_DEFAULT_DELAY,
            .step_limit = a.steps,
            .pal = &pal,
            .temps = temp_files_hook(),
        };
        recorder = anim_start(&ao, run, &err);
        if (!recorder) {
            print_error(&err);
            smalti_run_free(run);
            smalti_model_free(model);
            return exit_code_for(err.status);
        }
        fanout_add(&fan, anim_observe, recorder);
    }
    if (a.watch) {
        watch = watch_start(run, model, &pal, name);
        if (watch) fanout_add(&fan, watch_observe, watch);
    }
    fanout_attach(&fan, run);
    if (watch) {
        watch_run(watch, run, a.steps);
        int sig = watch_end(watch);
        if (sig) {
            /* Ctrl-C: no output from a run cut short, then die of the signal as expected. */
            anim_abort(recorder);
            trace_writer_free(tracer);
            smalti_run_free(run);
            smalti_model_free(model);
            signal(sig, SIG_DFL);
            raise(sig);
            return 128 + sig;
        }
    } else {
        run_with_progress(run, a.steps, name, a.quiet);
    }
    /* The trace is kept even when the run failed: it shows how it got there. */
    if (tracer && !trace_writer_finish(tracer, &err)) {
        print_error(&err);
        rc = exit_code_for(err.status);
    }
    trace_writer_free(tracer);
    smalti_run_grid(run, &mx, &my, &mz);
    if (a.iso && mz == 1 && !a.quiet) fprintf(stderr, "smalti: note: the grid is 2-D, so --iso draws the normal PNG\n");
    bool write_final = writes_final_grid(&a);
    if (rc != EXIT_OK) {
        anim_abort(recorder); /* the trace could not be written; reported above */
    } else if (smalti_run_error(run, &err)) {
        if (err.status == SMALTI_ERR_TIMEOUT) say_timeout(&err, smalti_run_counter(run), a.timeout);
        print_error(&err);
        anim_abort(recorder);
        rc = exit_code_for(err.status);
    } else {
        /* Exit 0 still, as the reference's scripts expect; but the picture is unfinished. */
        if (!a.quiet && a.steps > 0 && !smalti_run_finished(run) && smalti_run_counter(run) >= a.steps) {
            char actor[1200];
            step_limit_actor(model, run, NULL, actor, sizeof actor);
            fprintf(stderr,
                    "%s: stopped at the step limit (%ld %s) before the model finished; raise it with --steps N, or 0 "
                    "for none%s\n",
                    a.model, a.steps, plural(a.steps, "step", "steps"), actor);
        }
        if (recorder && !anim_finish(recorder, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
        }
        text_header header = result_header(model, name, (int32_t)a.seed, a.steps);
        /* The lint has named the model's values without a colour already; a map may end on others. */
        bool colours_said = a.quiet || strcmp(smalti_run_legend(run), smalti_model_legend(model)) == 0;
        char untiled[257];
        if (a.tiles_file && !a.quiet && write_final) tile_sheet_untiled(*tiles, smalti_run_legend(run), untiled);
        if (a.tiles_file && !a.quiet && write_final && untiled[0])
            fprintf(stderr, "%s: warning: no tile for symbols \"%s\"; left empty\n", a.tiles_file, untiled);
        if (write_final && !write_result_tiles(a.output, run, &header, &pal, (int)a.pixel_size, a.tiles_file ? *tiles : NULL,
                                               colours_said, &err)) {
            print_error(&err);
            if (rc == EXIT_OK) rc = exit_code_for(err.status);
        }
    }
    smalti_run_free(run);
    smalti_model_free(model);
    return rc;
}

static int cmd_run(int argc, char **argv, bool check_only)
{
    run_args a;
    int rc = parse_run_args(check_only ? "check" : "run", argc, argv, &a);
    if (rc != EXIT_OK) return rc;
    /* --max-memory bounds the whole command: the pack's unpacking, the XML tree, the run and the
       pictures drawn around it, all counted together (mem_enter_whole). */
    mem_budget whole = {.limit = a.max_memory};
    mem_budget *outer = mem_enter_whole(a.max_memory ? &whole : NULL);
    /* The sheet (15 KB) is allocated only for --tiles: zeroed on the stack of every run, it made
       pages resident that a run without --tiles never needs. */
    tile_sheet *tiles = NULL;
    rc = run_parsed(a, check_only, &tiles);
    if (tiles) tile_sheet_free(tiles);
    free(tiles);
    mem_enter_whole(outer);
    return memory_verdict(&whole, rc, a.model);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_overview(), stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    temp_files_guard();
    smalti_count_xml_memory(); /* the command owns its process: a model's XML tree counts against --max-memory */
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return print_help(NULL);
    if (strcmp(cmd, "help") == 0) {
        /* "help pack check": a pack command's own help. */
        if (argc == 4 && strcmp(argv[2], "pack") == 0) {
            char full[64];
            snprintf(full, sizeof full, "pack %s", argv[3]);
            return usage_of(full) ? print_help(full) : print_help("pack");
        }
        if (argc > 3) return usage_error("%s", "help takes at most one COMMAND");
        return print_help(argc == 3 ? argv[2] : NULL);
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("smalti %s\n", SMALTI_VERSION);
        return EXIT_OK;
    }
    if (strcmp(cmd, "pack") == 0) return cmd_pack(argc - 2, argv + 2);
    if (usage_of(cmd) && wants_help(argc - 2, argv + 2)) return print_help(cmd);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2, false);
    if (strcmp(cmd, "check") == 0) return cmd_run(argc - 2, argv + 2, true);
    if (strcmp(cmd, "batch") == 0) return cmd_batch(argc - 2, argv + 2);
    if (strcmp(cmd, "wfc") == 0) return cmd_wfc(argc - 2, argv + 2);
    if (strcmp(cmd, "view") == 0) return cmd_view(argc - 2, argv + 2);
    if (strcmp(cmd, "studio") == 0) return cmd_studio(argc - 2, argv + 2);
    if (cmd[0] == '-') return unknown_option(NULL, cmd);
    return unknown_command(cmd);
}
