/* main.c — the smalti command line: `run` and `check`, and the dispatch to the other commands. */
#include "cli.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../trace/anim.h"

static const char usage_text[] =
    "smalti " SMALTI_VERSION " - a fast MarkovJunior interpreter\n"
    "\n"
    "Usage:\n"
    "  smalti run MODEL.xml [options]     run a model once and write its final grid\n"
    "  smalti batch MODELS.xml [options]  run a models.xml list as MarkovJunior does\n"
    "  smalti check MODEL.xml [options]   load a model and report problems, without running\n"
    "  smalti wfc SAMPLES.xml [options]   the classic WaveFunctionCollapse sample list\n"
    "  smalti view RUN.trace -o RUN.html  a trace as one self-contained HTML viewer page\n"
    "                                     (-o -: to stdout)\n"
    "  smalti --help | --version\n"
    "\n"
    "Options of run and check:\n"
    "  --size N              grid side (default 64 in 2-D, 24 in 3-D)\n"
    "  --length X --width Y --height Z   grid sides, overriding --size\n"
    "  --dim 3               a 3-D grid (height defaults to the size)\n"
    "  --seed S              random seed (default 1)\n"
    "  --steps N             step limit (default 50000; 0 or negative: none)\n"
    "  --timeout SECONDS     stop the run after this much wall time (exit 6, no\n"
    "                        output); checked between steps and inside search,\n"
    "                        wfc and generators\n"
    "  --max-memory SIZE     the most memory the run may hold, in bytes or with K, M\n"
    "                        or G (2G); past it the run stops (exit 7, no output).\n"
    "                        Loading the model (its images) has the same budget\n"
    "  --resources DIR       resource root (repeatable; default ./resources, then\n"
    "                        ../resources beside the model)\n"
    "  --allow-any-path      let the model name resources outside the roots\n"
    "  -o, --output FILE     .png (palette colours), .txt (text grid) or .vox (3-D);\n"
    "                        without -o, or with -o -, the text form goes to stdout.\n"
    "                        A 3-D grid's .png is an isometric picture, as the\n"
    "                        reference draws it\n"
    "  --iso                 ask for that isometric PNG (models.xml iso=\"True\");\n"
    "                        needs -o FILE.png; a 2-D grid gets its normal PNG\n"
    "  --pixel-size N        pixels per cell in a 2-D PNG, cube size in an isometric\n"
    "                        one (default 4, as models.xml pixelsize)\n"
    "  --palette FILE        colours to use over the built-in palette\n"
    "  --trace FILE          record every step (acting node, changed cells) for\n"
    "                        `smalti view` (format: docs/trace-format.md); - for\n"
    "                        stdout, when the result goes to -o FILE\n"
    "  -q, --quiet           no progress line and no warnings\n"
    "\n"
    "Watching and recording a run (run only; with any of them the final grid is\n"
    "written only when -o is given):\n"
    "  --gif FILE            an animated GIF of the run (3-D grids: isometric frames)\n"
    "  --frames DIR          DIR/STEP.png for each kept step, as the reference's gif\n"
    "                        mode names them (DIR is made if missing)\n"
    "  --every N             keep every N-th step (default 1); the start (step 0) and\n"
    "                        the last step are always kept\n"
    "  --delay CS            GIF frame delay in hundredths of a second (default 5); the\n"
    "                        last frame shows for at least 2 s\n"
    "  --watch               draw the run live in the terminal (24-bit colour, half\n"
    "                        blocks, at most 30 frames a second, fitted to the window);\n"
    "                        stdout must be a terminal. Ctrl-C stops the run: no GIF\n"
    "                        and no -o output then (PNG frames made so far stay)\n"
    "\n"
    "Options of batch:\n"
    "  --models DIR          folder of the model files (default: models/ beside MODELS.xml)\n"
    "  --resources DIR       resource root (repeatable)\n"
    "  --allow-any-path      let models name resources outside the roots\n"
    "  -o DIR                output folder (default: output); 2-D grids and iso=\"True\"\n"
    "                        entries give MODEL_SEED.png, other 3-D grids MODEL_SEED.vox\n"
    "  -q, --quiet           no progress line and no warnings\n"
    "\n"
    "Options of wfc (overlapping and simpletiled entries of a samples.xml):\n"
    "  --samples DIR         folder holding samples/ and tilesets/ (default: beside SAMPLES.xml)\n"
    "  -o DIR                output folder (default: output); files \"NAME N3 0.png\",\n"
    "                        \"NAME SUBSET 0.png\"\n"
    "  --seed S              first seed (default 1; an entry's seed attribute overrides it)\n"
    "  --runs N              outputs per entry (default: its screenshots, else 2)\n"
    "  --tries K             seeds tried per output before giving up (default 10)\n"
    "  --backtrack N         on a contradiction take back up to the N latest decisions\n"
    "                        (overrides the entries' backtrack attribute; 0: restart)\n"
    "  -q, --quiet           no per-output lines and no warnings\n"
    "\n"
    "Exit codes: 0 success, 2 usage error, 3 model error, 4 runtime error, 5 I/O error,\n"
    "6 timeout, 7 memory budget spent.\n"
    "\n"
    "Examples:\n"
    "  smalti run models/maze.xml --size 48 -o maze.png\n"
    "  smalti run models/tower3d.xml --length 21 --width 21 --height 32 --iso -o tower.png\n"
    "  smalti run ../shared/mj/models/Growth.xml --size 359 --steps 40000 -o growth.txt\n"
    "  smalti run ../shared/mj/models/MazeGrowth.xml --size 95 --every 20 --gif maze.gif\n"
    "  smalti run ../shared/mj/models/MazeGrowth.xml --size 255 --watch\n"
    "  smalti batch ../shared/mj/models.xml -o out/\n";

typedef struct run_args {
    const char *model, *output, *palette_file, *trace;
    const char *gif, *frames_dir; /* recordings of the run */
    long size, length, width, height, dim, seed, steps, pixel_size;
    long every, delay;            /* 0 when not given */
    double timeout;               /* seconds; 0: none */
    size_t max_memory;            /* bytes; 0: none */
    const char *resources[CLI_MAX_RESOURCES];
    int resource_count;
    bool allow_any_path;
    bool quiet, iso, watch;
} run_args;

static int parse_run_args(int argc, char **argv, run_args *a)
{
    memset(a, 0, sizeof *a);
    a->size = a->length = a->width = a->height = -1;
    a->dim = 2;
    a->seed = 1;
    a->steps = 50000;
    a->pixel_size = 4;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long *target = NULL, min = 1, max = 1L << 24;
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) { a->quiet = true; continue; }
        if (strcmp(arg, "--allow-any-path") == 0) { a->allow_any_path = true; continue; }
        if (strcmp(arg, "--iso") == 0) { a->iso = true; continue; }
        if (strcmp(arg, "--watch") == 0) { a->watch = true; continue; }
        if (strcmp(arg, "--timeout") == 0) {
            if (!val) return usage_error("%s needs a value", arg);
            char *end;
            a->timeout = strtod(val, &end);
            if (end == val || *end || !(a->timeout > 0 && a->timeout <= 1e9))
                return usage_error("--timeout takes a number of seconds above 0, not %s", val);
            i++;
            continue;
        }
        if (strcmp(arg, "--max-memory") == 0) {
            if (!val) return usage_error("%s needs a value", arg);
            if (!parse_size_arg(val, &a->max_memory))
                return usage_error("--max-memory takes a size such as 500M or 2G (at least 1M), not %s", val);
            i++;
            continue;
        }
        if (strcmp(arg, "--size") == 0) target = &a->size;
        else if (strcmp(arg, "--length") == 0) target = &a->length;
        else if (strcmp(arg, "--width") == 0) target = &a->width;
        else if (strcmp(arg, "--height") == 0) target = &a->height;
        else if (strcmp(arg, "--dim") == 0) { target = &a->dim; min = 2; max = 3; }
        else if (strcmp(arg, "--seed") == 0) { target = &a->seed; min = INT32_MIN; max = INT32_MAX; }
        else if (strcmp(arg, "--steps") == 0) { target = &a->steps; min = -(1L << 40); max = 1L << 40; }
        else if (strcmp(arg, "--pixel-size") == 0) { target = &a->pixel_size; max = 64; }
        else if (strcmp(arg, "--every") == 0) { target = &a->every; max = 1L << 40; }
        else if (strcmp(arg, "--delay") == 0) { target = &a->delay; max = 65535; }
        else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 || strcmp(arg, "--resources") == 0 ||
                 strcmp(arg, "--palette") == 0 || strcmp(arg, "--gif") == 0 || strcmp(arg, "--frames") == 0 ||
                 strcmp(arg, "--trace") == 0) {
            if (!val) return usage_error("%s needs a value", arg);
            if (strcmp(arg, "--resources") == 0) {
                if (a->resource_count == CLI_MAX_RESOURCES) return usage_error("too many %s options", arg);
                a->resources[a->resource_count++] = val;
            } else if (strcmp(arg, "--palette") == 0) a->palette_file = val;
            else if (strcmp(arg, "--gif") == 0) a->gif = val;
            else if (strcmp(arg, "--frames") == 0) a->frames_dir = val;
            else if (strcmp(arg, "--trace") == 0) a->trace = val;
            else a->output = val;
            i++;
            continue;
        } else if (arg[0] == '-' && arg[1]) return usage_error("unknown option %s", arg);
        else if (a->model) return usage_error("unexpected argument %s", arg);
        else { a->model = arg; continue; }
        if (!val) return usage_error("%s needs a value", arg);
        if (!parse_int_arg(val, min, max, target)) {
            fprintf(stderr, "smalti: %s %s: expected an integer from %ld to %ld\n", arg, val, min, max);
            return EXIT_USAGE;
        }
        i++;
    }
    if (!a->model) return usage_error("%s", "missing MODEL.xml");
    if (a->every && !a->gif && !a->frames_dir) return usage_error("%s", "--every needs --gif FILE or --frames DIR");
    if (a->delay && !a->gif) return usage_error("%s", "--delay needs --gif FILE");
    return EXIT_OK;
}

/* With a recording or the live view, the final grid goes out only to -o. */
static bool writes_final_grid(const run_args *a)
{
    return a->output || !(a->gif || a->frames_dir || a->watch);
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

static int load_for_args(const run_args *a, smalti_model **model)
{
    smalti_load_options opt = smalti_load_defaults();
    long size = a->size > 0 ? a->size : (a->dim == 3 ? 24 : 64);
    opt.mx = (int)(a->length > 0 ? a->length : size);
    opt.my = (int)(a->width > 0 ? a->width : size);
    opt.mz = (int)(a->height > 0 ? a->height : (a->dim == 3 ? size : 1));
    opt.resource_dirs = a->resources;
    opt.resource_dir_count = a->resource_count;
    opt.allow_any_path = a->allow_any_path;
    opt.quiet = a->quiet;
    opt.max_memory = a->max_memory; /* the load and the run each get the budget */
    smalti_error err;
    *model = smalti_model_load(a->model, &opt, &err);
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

static int cmd_run(int argc, char **argv, bool check_only)
{
    run_args a;
    int rc = parse_run_args(argc, argv, &a);
    if (rc != EXIT_OK) return rc;
    if (a.iso && !check_only && (!a.output || !has_extension(a.output, ".png")))
        return usage_error("%s", "--iso draws a PNG: give -o FILE.png");
    if (a.watch && !check_only && !isatty(STDOUT_FILENO))
        return usage_error("%s", "--watch draws on a terminal, and stdout is not one; record the run with --gif FILE "
                                 "or --frames DIR instead");
    if (!check_only && (rc = check_stdout_use(&a)) != EXIT_OK) return rc;
    palette pal;
    palette_default(&pal);
    smalti_error err;
    if (a.palette_file && !palette_load_file(&pal, a.palette_file, &err)) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    smalti_model *model;
    rc = load_for_args(&a, &model);
    if (rc != EXIT_OK) return rc;
    if (check_only) {
        if (!a.quiet) warn_unbounded_search(model, a.model);
        printf("%s: ok (%d nodes, values %s)\n", a.model, smalti_model_node_count(model), smalti_model_legend(model));
        smalti_model_free(model);
        return EXIT_OK;
    }
    smalti_run_options run_opt = smalti_run_defaults();
    run_opt.timeout_seconds = a.timeout;
    run_opt.max_memory = a.max_memory;
    smalti_run *run = smalti_run_new_with(model, (int32_t)a.seed, &run_opt, &err);
    if (!run) {
        print_error(&err);
        smalti_model_free(model);
        return exit_code_for(err.status);
    }
    char name[256];
    base_name(a.model, name, sizeof name);
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
    int mx, my, mz;
    smalti_run_grid(run, &mx, &my, &mz);
    if (a.iso && mz == 1 && !a.quiet) fprintf(stderr, "smalti: note: the grid is 2-D, so --iso draws the normal PNG\n");
    bool write_final = writes_final_grid(&a);
    if (rc != EXIT_OK) {
        anim_abort(recorder); /* the trace could not be written; reported above */
    } else if (smalti_run_error(run, &err)) {
        print_error(&err);
        anim_abort(recorder);
        rc = exit_code_for(err.status);
    } else {
        if (recorder && !anim_finish(recorder, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
        }
        text_header header = result_header(model, name, (int32_t)a.seed, a.steps);
        if (write_final && !write_result(a.output, run, &header, &pal, (int)a.pixel_size, &err)) {
            print_error(&err);
            if (rc == EXIT_OK) rc = exit_code_for(err.status);
        }
    }
    smalti_run_free(run);
    smalti_model_free(model);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    temp_files_guard();
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("smalti %s\n", SMALTI_VERSION);
        return EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2, false);
    if (strcmp(cmd, "check") == 0) return cmd_run(argc - 2, argv + 2, true);
    if (strcmp(cmd, "batch") == 0) return cmd_batch(argc - 2, argv + 2);
    if (strcmp(cmd, "wfc") == 0) return cmd_wfc(argc - 2, argv + 2);
    if (strcmp(cmd, "view") == 0) return cmd_view(argc - 2, argv + 2);
    return usage_error("unknown command %s", cmd);
}
