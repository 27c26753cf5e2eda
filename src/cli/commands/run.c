/* run.c — `smalti run` and `smalti check`: the command line made into a job (job/job.h), then one
   run with its observers, or many runs (--seeds, many/) of the same job. */
#include "commands.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../common/output_kinds.h"
#include "../job/job.h"
#include "../many/many.h"
#include "../pack/pack_cli.h"

typedef struct run_args {
    const char *model, *output, *palette_file, *tiles_file;
    const char *pack_model;       /* run PACK MODEL: the model of the pack at `model` */
    char installed[300];          /* run @NAME/MODEL: "@NAME", what `model` then points to */
    uint64_t max_unpacked;        /* --max-unpacked; 0: the default cap */
    job_observers obs;            /* --trace, --gif, --frames, --every, --delay, --watch */
    long size, length, width, height, dim, seed, steps, pixel_size; /* sides, dim, pixel_size: 0 when not given */
    bool seed_given, steps_given;
    double timeout;               /* seconds; 0: none */
    size_t max_memory;            /* bytes; 0: none */
    const char *resources[CLI_MAX_RESOURCES];
    int resource_count;
    cli_sets sets;                /* --set NAME=VALUE */
    bool allow_any_path;
    bool quiet, iso, strict;
    char bundled_dir[4096], bundled_name[256]; /* `run maze`: the installed models' folder and the name */
    many_cli many;                /* --seeds, -j, --manifest, --resume, --shard */
} run_args;

/* -o names the final grid's file by its extension (common/output_kinds.c); said before running,
   with an animation pointed to --gif. */
static int check_output_kind(const run_args *a)
{
    const char *out = a->output;
    const bool text = !out || strcmp(out, "-") == 0 || is_special_file(out);
    const output_kind *kind = text ? NULL : output_kind_of(out);
    char kinds[200];
    if (a->tiles_file && !(kind && kind->takes_tiles)) {
        output_kind_list(kinds, sizeof kinds, true);
        fprintf(stderr, "smalti: --tiles draws with a tile sheet: give -o FILE%s\n", kinds);
        return EXIT_USAGE;
    }
    if (text || kind) return EXIT_OK;
    output_kind_list(kinds, sizeof kinds, false);
    if (has_extension(out, ".gif"))
        fprintf(stderr, "smalti: -o %s: -o writes the final grid as %s; for an animated GIF of the run use --gif %s\n", out,
                kinds, out);
    else
        fprintf(stderr, "smalti: -o %s: unknown output kind \"%s\": use %s (or --gif FILE for an animation; smalti help "
                        "outputs lists them)\n", out, path_extension(out), kinds);
    return EXIT_USAGE;
}

/* An option that takes a value: its place in run_args, else NULL. */
static const char **text_option(run_args *a, const char *arg)
{
    static const struct { const char *name; size_t offset; } texts[] = {
        {"-o", offsetof(run_args, output)},          {"--output", offsetof(run_args, output)},
        {"--palette", offsetof(run_args, palette_file)}, {"--tiles", offsetof(run_args, tiles_file)},
        {"--gif", offsetof(run_args, obs.gif)},       {"--frames", offsetof(run_args, obs.frames_dir)},
        {"--trace", offsetof(run_args, obs.trace)},
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        if (strcmp(arg, texts[i].name) == 0) return (const char **)((char *)a + texts[i].offset);
    return NULL;
}

/* An option that takes a whole number: its place and bounds, else NULL. */
static long *number_option(run_args *a, const char *arg, long *min, long *max)
{
    *min = 1, *max = 1L << 24;
    if (strcmp(arg, "--size") == 0) return &a->size;
    if (strcmp(arg, "--length") == 0) return &a->length;
    if (strcmp(arg, "--width") == 0) return &a->width;
    if (strcmp(arg, "--height") == 0) return &a->height;
    if (strcmp(arg, "--dim") == 0) return *min = 2, *max = 3, &a->dim;
    if (strcmp(arg, "--seed") == 0) return a->seed_given = true, *min = INT32_MIN, *max = INT32_MAX, &a->seed;
    if (strcmp(arg, "--steps") == 0) return a->steps_given = true, *min = -(1L << 40), *max = 1L << 40, &a->steps;
    if (strcmp(arg, "--pixel-size") == 0) return *max = 64, &a->pixel_size;
    if (strcmp(arg, "--every") == 0) return *max = 1L << 40, &a->obs.every;
    if (strcmp(arg, "--delay") == 0) return *max = 65535, &a->obs.delay;
    return NULL;
}

/* A flag: true when arg is one (and set). */
static bool flag_option(run_args *a, const char *arg)
{
    if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) return a->quiet = true;
    if (strcmp(arg, "--allow-any-path") == 0) return a->allow_any_path = true;
    if (strcmp(arg, "--iso") == 0) return a->iso = true;
    if (strcmp(arg, "--watch") == 0) return a->obs.watch = true;
    if (strcmp(arg, "--strict") == 0) return a->strict = true;
    return false;
}

/* One option with its value val (NULL: none left): the arguments it took (1 or 2), or -1 after a usage error. */
static int parse_option(run_args *a, const char *command, const char *arg, const char *val)
{
    int took = many_cli_option(&a->many, arg, val);
    if (took == 0) took = cli_set_option(&a->sets, arg, val);
    if (took != 0 || flag_option(a, arg)) return took ? took : 1;
    if (strcmp(arg, "--timeout") == 0) return parse_timeout(val, &a->timeout) ? 2 : -1;
    if (strcmp(arg, "--max-unpacked") == 0) return parse_max_unpacked(val, &a->max_unpacked) ? 2 : -1;
    if (strcmp(arg, "--max-memory") == 0) return parse_max_memory(val, &a->max_memory) ? 2 : -1;
    const char **text = text_option(a, arg);
    if (text || strcmp(arg, "--resources") == 0) {
        if (!val) return usage_error("%s needs a value", arg), -1;
        if (text) *text = val;
        else if (a->resource_count == CLI_MAX_RESOURCES) return usage_error("too many %s options", arg), -1;
        else a->resources[a->resource_count++] = val;
        return 2;
    }
    long min, max, *number = number_option(a, arg, &min, &max);
    if (!number) return unknown_option(command, arg), -1;
    if (!val) return usage_error("%s needs a value", arg), -1;
    if (!parse_int_arg(val, min, max, number)) {
        fprintf(stderr, "smalti: %s %s: expected an integer from %ld to %ld\n", arg, val, min, max);
        return -1;
    }
    return 2;
}

/* MODEL, PACK MODEL, @NAME/MODEL or a bundled model's name. */
static int parse_model(run_args *a, const char *arg)
{
    if (a->model && !a->pack_model && pack_path_is_pack(a->model)) a->pack_model = arg;
    else if (a->model) return usage_error("unexpected argument %s", arg);
    else if (arg[0] == '@' && strchr(arg, '/')) {
        /* @NAME/MODEL or @NAME@VERSION/MODEL: a model of an installed pack. */
        const char *slash = strchr(arg, '/');
        if ((size_t)(slash - arg) >= sizeof a->installed || !slash[1])
            return usage_error("%s: expected @NAME/MODEL or @NAME@VERSION/MODEL", arg);
        snprintf(a->installed, sizeof a->installed, "%.*s", (int)(slash - arg), arg);
        a->model = a->installed;
        a->pack_model = slash + 1;
    } else a->model = arg;
    return EXIT_OK;
}

/* What the options say together; EXIT_OK or the usage error. */
static int check_run_args(const char *command, run_args *a)
{
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
    if (a->obs.every && !a->obs.gif && !a->obs.frames_dir) return usage_error("%s", "--every needs --gif FILE or --frames DIR");
    if (a->obs.delay && !a->obs.gif) return usage_error("%s", "--delay needs --gif FILE");
    if (a->dim == 2 && a->height > 1) return usage_error("%s", "--dim 2 with --height: a 2-D grid has no height; give --length X --width Y");
    const char *several;
    bool lists = !cli_sets_single(&a->sets, &several);
    if (lists && strcmp(command, "run") != 0)
        return usage_error("--set %s: several values (a comma separates them) are for many runs of `run`; check takes one", several);
    if ((many_cli_wanted(&a->many) || lists) && strcmp(command, "run") == 0) {
        if (a->seed_given && a->many.seeds) return usage_error("%s", "--seed and --seeds: give one");
        if (a->obs.gif || a->obs.frames_dir || a->obs.trace || a->obs.watch)
            return usage_error("%s", "--seeds, -j, --manifest, --resume and --shard write final grids only (no --gif, "
                                     "--frames, --trace or --watch)");
        if (!a->output || strcmp(a->output, "-") == 0 || is_special_file(a->output))
            return usage_error("%s", "many runs need -o with a file name template, such as -o 'out/{model}_{seed}.png'");
        if (a->many.o.resume && !a->many.o.manifest) return usage_error("%s", "--resume needs --manifest FILE, which says what is done");
    }
    return check_output_kind(a);
}

static int parse_run_args(const char *command, int argc, char **argv, run_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int rc = arg[0] == '-' && arg[1] ? parse_option(a, command, arg, i + 1 < argc ? argv[i + 1] : NULL) : parse_model(a, arg);
        if (rc < 0 || (arg[0] != '-' && rc != EXIT_OK)) return EXIT_USAGE;
        if (arg[0] == '-' && arg[1]) i += rc - 1;
    }
    return check_run_args(command, a);
}

/* With a recording or the live view, the final grid goes out only to -o. */
static bool writes_final_grid(const run_args *a)
{
    return a->output || !(a->obs.gif || a->obs.frames_dir || a->obs.watch);
}

/* "-" names stdout for the text result (-o -) and the trace (--trace -), which cannot share it;
   a GIF may need its header rewritten at the end, so it needs a file. Two outputs given one file
   (--gif f.gif --trace f.gif) would be written both, one replacing the other. */
static int check_outputs(const run_args *a)
{
    const char *trace = a->obs.trace;
    if (a->obs.gif && strcmp(a->obs.gif, "-") == 0)
        return usage_error("%s", "--gif -: a GIF cannot go to stdout (its header may be rewritten at the end); give a file name");
    if (trace && strcmp(trace, "-") == 0) {
        if (writes_final_grid(a) && (!a->output || strcmp(a->output, "-") == 0))
            return usage_error("%s", "--trace - and the text result would share stdout; give -o FILE");
        if (a->obs.watch) return usage_error("%s", "--trace - and --watch would share stdout; give --trace FILE");
        if (isatty(STDOUT_FILENO)) return usage_error("%s", "--trace -: a trace is binary, and stdout is a terminal");
    }
    const struct { const char *option, *path; } outs[] = {
        {"-o", writes_final_grid(a) ? a->output : NULL}, {"--gif", a->obs.gif}, {"--trace", trace}};
    for (int i = 0; i < 3; i++)
        for (int k = i + 1; k < 3; k++)
            if (outs[i].path && outs[k].path && outputs_collide(outs[i].path, outs[k].path)) {
                char message[4200];
                snprintf(message, sizeof message, "%s %s and %s %s name one file; each output needs its own", outs[i].option,
                         outs[i].path, outs[k].option, outs[k].path);
                return usage_error("%s", message);
            }
    return EXIT_OK;
}

static int check_run_only(const run_args *a)
{
    if (a->iso && (!a->output || !has_extension(a->output, ".png"))) return usage_error("%s", "--iso draws a PNG: give -o FILE.png");
    if (a->iso && a->tiles_file) return usage_error("%s", "--iso draws cubes in palette colours; --tiles draws a sheet's tiles: give one");
    if (a->obs.watch && !isatty(STDOUT_FILENO))
        return usage_error("%s", "--watch draws on a terminal, and stdout is not one; record the run with --gif FILE "
                                 "or --frames DIR instead");
    return check_outputs(a);
}

/* The final picture's size is known before the run when no node changes the grid (map, wfc): refused
   then, not after the whole run. A model with such nodes is checked when the picture is written. */
static bool picture_fits_before_run(const run_args *a, const job *j, smalti_error *err)
{
    if (!a->output || !has_extension(a->output, ".png") || j->tiles) return true;
    for (int i = 0, n = smalti_model_node_count(j->model); i < n; i++) {
        smalti_node_info info;
        if (smalti_model_node_info(j->model, i, &info) && (strcmp(info.kind, "map") == 0 || strcmp(info.kind, "wfc") == 0))
            return true;
    }
    return grid_png_size_ok(a->output, j->mx, j->my, j->mz, j->pixel_size, err);
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

/* `check`: "params: rooms=12 (default 8), width=40", the values it was loaded with; nothing without params. */
static void print_params(const smalti_model *model)
{
    int count = smalti_model_param_count(model);
    for (int i = 0; i < count; i++) {
        smalti_param_info p;
        if (!smalti_model_param(model, i, &p)) continue;
        printf("%s%s=%s", i ? ", " : "params: ", p.name, p.value);
        if (p.overridden) printf(" (default %s)", p.default_value);
    }
    if (count) printf("\n");
}

static job_request request_of(const run_args *a, const pack *pk, const pack_model *pm)
{
    return (job_request){
        .model = a->model, .pk = pk, .pm = pm, .resources = a->resources, .resource_count = a->resource_count,
        .allow_any_path = a->allow_any_path, .params = a->sets.items, .param_count = a->sets.count,
        .grid = {(int)a->size, (int)a->length, (int)a->width, (int)a->height, (int)a->dim},
        .seed_given = a->seed_given, .seed = (int32_t)a->seed, .steps_given = a->steps_given, .steps = a->steps,
        .pixel_size = (int)a->pixel_size, .iso = -1, .palette_file = a->palette_file, .tiles_file = a->tiles_file,
        .timeout = a->timeout, .timeout_shared = true, .max_memory = a->max_memory, .quiet = a->quiet, .strict = a->strict};
}

/* The one run of `run`, after the job is open. */
static int run_once(const run_args *a, const job *j)
{
    smalti_error err;
    if (!picture_fits_before_run(a, j, &err)) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    job_run_spec spec = {.seed = j->seed, .output = writes_final_grid(a) ? (a->output ? a->output : "-") : NULL,
                         .observers = &a->obs};
    smalti_run *run = NULL;
    job_result res;
    int rc = job_run(j, &run, &spec, &res);
    smalti_run_free(run);
    if (res.signal) return rc; /* the caller raises it again */
    if (a->iso && res.mz == 1 && !a->quiet) fprintf(stderr, "smalti: note: the grid is 2-D, so --iso draws the normal PNG\n");
    return rc;
}

/* run and check with parsed arguments. --timeout counts from the job's opening: the settings, the
   load and the run. */
static int run_parsed(const run_args *a, bool check_only)
{
    int rc = check_only ? EXIT_OK : check_run_only(a);
    if (rc != EXIT_OK) return rc;
    pack *pk = NULL;
    const pack_model *pm = NULL;
    if (a->pack_model) {
        if (!(pk = cli_pack_open(a->model, a->max_unpacked, a->max_memory ? 0 : PACK_MAX_MEMORY, a->quiet, &rc))) return rc;
        if (!(pm = pack_find_model(pk, a->pack_model))) {
            fprintf(stderr, "%s: error: the pack has no model \"%s\" ('smalti pack list %s' lists them)\n", a->model,
                    a->pack_model, a->model);
            pack_close(pk);
            return EXIT_USAGE;
        }
    }
    job j;
    const job_request req = request_of(a, pk, pm);
    const char *several;
    if (!check_only && !cli_sets_single(&a->sets, &several)) {
        rc = many_run_product(&req, a->sets.items, a->sets.count, a->output, &a->many);
        pack_close(pk);
        return rc;
    }
    rc = job_open(&j, &req);
    pack_close(pk); /* a loaded model keeps nothing of its pack */
    if (rc != EXIT_OK) return rc;
    if (check_only) {
        if (!a->quiet) warn_unbounded_search(j.model, j.label);
        int nodes = smalti_model_node_count(j.model);
        printf("%s: ok (%d %s, values %s)\n", j.label, nodes, plural(nodes, "node", "nodes"), smalti_model_legend(j.model));
        print_params(j.model);
    } else if (many_cli_wanted(&a->many)) {
        rc = many_run_job(&j, a->output, &a->many);
    } else {
        rc = run_once(a, &j);
    }
    job_close(&j);
    return rc;
}

int cmd_run(int argc, char **argv, bool check_only)
{
    run_args a;
    int rc = parse_run_args(check_only ? "check" : "run", argc, argv, &a);
    if (rc != EXIT_OK) return rc;
    /* --max-memory bounds the whole command: the pack's unpacking, the XML tree, the run and the
       pictures drawn around it, all counted together (mem_enter_whole). */
    mem_budget whole = {.limit = a.max_memory};
    mem_budget *outer = mem_enter_whole(a.max_memory ? &whole : NULL);
    rc = run_parsed(&a, check_only);
    mem_enter_whole(outer);
    if (rc > 128) {
        /* Ctrl-C in --watch: no output from a run cut short, then die of the signal as expected. */
        signal(rc - 128, SIG_DFL);
        raise(rc - 128);
    }
    return memory_verdict(&whole, rc, a.model);
}
