/* batch.c — `smalti batch`: run a models.xml list the way MarkovJunior's Program.cs does. */
#include "../common/cli.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../../core/resource.h"
#include "../../core/rng.h"
#include "../../core/xmlutil.h"
#include "../../nodes/settings.h"
#include "../../trace/anim.h"
#include "../many/many.h"
#include "../pack/pack_cli.h"

typedef struct batch_args {
    const char *list, *models_dir, *out_dir;
    const char *resources[CLI_MAX_RESOURCES];
    int resource_count;
    bool allow_any_path;
    bool quiet;
    bool seeded; /* --seed given: the master seed */
    long seed;
    uint64_t max_unpacked; /* with a pack */
    double timeout;        /* --timeout: seconds each entry's load and each of its runs may take; 0: none */
    size_t max_memory;     /* --max-memory: bytes each entry may hold (its load, runs and pictures); 0: none */
    many_cli many;         /* -j, --manifest, --resume, --shard */
    bool template_out;     /* -o names files ({model}, {seed}...): many runs */
    many_model *gathered;  /* the entries gathered for many runs */
    int gathered_count, gathered_cap;
} batch_args;

/* Many runs: keep the entry's loaded model and seeds for many_execute (which runs them after
   the last entry); false when out of memory. */
static bool gather_entry(batch_args *a, smalti_model *model, const char *name, const char *path, const palette *pal,
                         int pixelsize, int steps, const int32_t *seeds, int amount)
{
    if (a->gathered_count == a->gathered_cap) {
        int cap = a->gathered_cap ? a->gathered_cap * 2 : 16;
        many_model *grown = realloc(a->gathered, (size_t)cap * sizeof *grown);
        if (!grown) return false;
        a->gathered = grown;
        a->gathered_cap = cap;
    }
    many_model *m = &a->gathered[a->gathered_count];
    *m = (many_model){.model = model, .pal = *pal, .pixel_size = pixelsize, .steps = steps, .out = a->out_dir};
    snprintf(m->name, sizeof m->name, "%s", name);
    m->label = strdup(path);
    if (!m->label || !seed_list_of(seeds, amount, &m->seeds)) {
        free((char *)m->label);
        return false;
    }
    a->gathered_count++;
    return true;
}

/* Run one <model> entry; returns an exit code (0 when every run was written). */
static int run_entry(batch_args *a, diag *d, const xmlNode *xm, const palette *base, rng *meta)
{
    static const char *const known[] = {"name", "size", "d", "length", "width", "height", "amount", "pixelsize",
                                        "seeds", "steps", "gif", "iso", "gui", NULL};
    xml_check_attrs(d, xm, known);
    const char *name = xml_attr(xm, "name"), *why;
    /* A model's name reaches paths: its file, and {model} in an output template. */
    if (!resource_name_is_plain(name, &why)) {
        fprintf(stderr, "%s:%d: error: <model> name=\"%s\" %s: a model's name is one plain file name\n", a->list, xml_line(xm),
                name ? name : "", why);
        return EXIT_MODEL;
    }
    /* An attribute the entry leaves out comes from the model's own <smalti> settings, then
       from the reference's defaults. */
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.xml", a->models_dir, name);
    smalti_settings own;
    if (!settings_read_file(path, NULL, &own, d->err)) {
        print_error(d->err);
        return EXIT_MODEL;
    }
    grid_request over;
    int amount, pixelsize, steps;
    bool gif, iso;
    /* The sides and pixel size as in <smalti> settings; at most as many outputs as `smalti wfc` makes. */
    const int side = SETTINGS_SIDE_MAX;
    if (!xml_get_int_range(d, xm, "size", 0, 1, side, &over.size) || !xml_get_int(d, xm, "d", 0, &over.dim) ||
        !xml_get_int_range(d, xm, "length", 0, 1, side, &over.length) || !xml_get_int_range(d, xm, "width", 0, 1, side, &over.width) ||
        !xml_get_int_range(d, xm, "height", 0, 1, side, &over.height) || !xml_get_int_range(d, xm, "amount", 2, 0, 1 << 20, &amount) ||
        !xml_get_int_range(d, xm, "pixelsize", own.pixel_size > 0 ? own.pixel_size : 4, 1, 64, &pixelsize) ||
        !xml_get_bool(d, xm, "gif", false, &gif) || !xml_get_bool(d, xm, "iso", own.iso == 1, &iso) ||
        !xml_get_int(d, xm, "steps", own.has_steps ? (int)own.steps : gif ? 1000 : 50000, &steps)) {
        print_error(d->err);
        d->failed = 0;
        return EXIT_MODEL;
    }
    if (xml_attr(xm, "d") && over.dim != 2 && over.dim != 3) {
        fprintf(stderr, "%s:%d: error: <model name=\"%s\"> d=\"%d\": the dimension must be 2 or 3\n", a->list, xml_line(xm), name, over.dim);
        return EXIT_MODEL;
    }
    int mx, my, mz;
    settings_grid(&own, &over, -1, -1, &mx, &my, &mz);
    if (mx < 1 || my < 1 || mz < 1 || (xml_attr(xm, "size") && over.size < 1)) {
        /* A model file that is not there has no settings either: that is the fault to name. */
        smalti_error open_err;
        if (input_file_error(path) && !smalti_model_load(path, NULL, &open_err)) {
            print_error(&open_err);
            return exit_code_for(open_err.status);
        }
        fprintf(stderr, "%s:%d: error: <model name=\"%s\"> needs a positive size (or length, width and height), here or in "
                        "the model's <smalti> settings\n", a->list, xml_line(xm), name);
        return EXIT_MODEL;
    }
    const char *seeds = xml_attr(xm, "seeds");
    int seed_count = 0;
    for (const char *p = seeds; p && *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        if (v < INT32_MIN || v > INT32_MAX) {
            fprintf(stderr, "%s:%d: error: <model name=\"%s\"> seeds=\"%s\": %.*s is not a 32-bit integer\n", a->list, xml_line(xm),
                    name, seeds, (int)(end - p), p);
            return EXIT_MODEL;
        }
        seed_count++;
        p = end;
    }
    if (gif) amount = 1;
    /* The reference runs `amount` outputs whatever `seeds` lists; a longer list is cut short. */
    if (seed_count > amount && gif)
        diag_warn(d, xml_line(xm), "<model name=\"%s\"> lists %d seeds but gif=\"True\" makes one output, so only the first is run; "
                  "drop gif to run them all", name, seed_count);
    else if (seed_count > amount)
        diag_warn(d, xml_line(xm),
                  "<model name=\"%s\"> lists %d seeds but amount is %d%s, so only the first %.0d%s run; add "
                  "amount=\"%d\" to run them all",
                  name, seed_count, amount, xml_attr(xm, "amount") ? "" : " (the default)", amount == 1 ? 0 : amount,
                  amount == 1 ? "is" : " are", seed_count);
    palette pal = *base;
    for (int i = 0; i < own.color_count; i++) {
        pal.rgb[(unsigned char)own.color_symbols[i]] = own.color_rgb[i];
        pal.has[(unsigned char)own.color_symbols[i]] = true;
    }
    if (!palette_read_colors(&pal, xm, a->list, d->err)) {
        print_error(d->err);
        return EXIT_MODEL;
    }

    smalti_load_options opt = smalti_load_defaults();
    opt.mx = mx; opt.my = my; opt.mz = mz;
    opt.resource_dirs = a->resources;
    opt.resource_dir_count = a->resource_count;
    opt.allow_any_path = a->allow_any_path;
    opt.quiet = a->quiet;
    opt.max_memory = a->max_memory;
    opt.timeout_seconds = a->timeout;
    smalti_error err;
    smalti_model *model = smalti_model_load(path, &opt, &err);
    if (!model) {
        if (err.status == SMALTI_ERR_TIMEOUT) say_timeout(&err, 0, a->timeout);
        print_error(&err);
        return exit_code_for(err.status);
    }
    /* The entry's seeds: those it lists, then draws of the master generator. */
    int32_t *entry_seeds = malloc((size_t)(amount > 0 ? amount : 1) * sizeof *entry_seeds);
    if (!entry_seeds) {
        smalti_model_free(model);
        fprintf(stderr, "smalti: out of memory\n");
        return EXIT_MEMORY;
    }
    const char *seed_cursor = seeds;
    for (int k = 0; k < amount; k++) {
        char *end = NULL;
        long given = seed_cursor ? strtol(seed_cursor, &end, 10) : 0;
        if (seed_cursor && end != seed_cursor) {
            entry_seeds[k] = (int32_t)given;
            seed_cursor = end;
        } else {
            entry_seeds[k] = rng_next(meta);
            seed_cursor = NULL;
        }
    }
    if (a->template_out) {
        if (gif) diag_warn(d, xml_line(xm), "<model name=\"%s\"> gif=\"True\": many runs write final grids only, not the animation", name);
        bool ok = gather_entry(a, model, name, path, &pal, pixelsize, steps, entry_seeds, amount);
        free(entry_seeds);
        if (ok) return EXIT_OK;
        fprintf(stderr, "%s:%d: error: <model name=\"%s\"> lists a seed twice (or memory ran out)\n", a->list, xml_line(xm), name);
        smalti_model_free(model);
        return EXIT_MODEL;
    }
    int rc = EXIT_OK;
    smalti_run *run = NULL;
    smalti_run_options ro = smalti_run_defaults();
    ro.timeout_seconds = a->timeout; /* counted again from each reset: each output gets the whole --timeout */
    ro.max_memory = a->max_memory;
    for (int k = 0; k < amount && rc == EXIT_OK; k++) {
        int32_t seed = entry_seeds[k];
        if (!run) run = smalti_run_new_with(model, seed, &ro, &err);
        else smalti_run_reset(run, seed);
        if (!run) { print_error(&err); rc = exit_code_for(err.status); break; }
        char label[300];
        snprintf(label, sizeof label, "%s_%d", name, (int)seed);
        /* gif="True": the reference's gif mode writes a picture of every step; here they
           are the frames of one animated GIF. */
        anim_recorder *recorder = NULL;
        char gif_path[4096], out_path[4096];
        if (gif) {
            snprintf(gif_path, sizeof gif_path, "%s/%s.gif", a->out_dir, label);
            anim_options ao = {.gif_path = gif_path, .every = 1, .pixel_size = pixelsize, .delay_cs = ANIM_DEFAULT_DELAY,
                               .step_limit = steps, .pal = &pal, .temps = temp_files_hook()};
            recorder = anim_start(&ao, run, &err);
            if (!recorder) { print_error(&err); rc = exit_code_for(err.status); break; }
            smalti_run_set_observer(run, anim_observe, recorder);
        }
        run_with_progress(run, steps, label, a->quiet);
        smalti_run_set_observer(run, NULL, NULL);
        if (smalti_run_error(run, &err)) {
            print_error(&err);
            anim_abort(recorder);
            rc = exit_code_for(err.status);
            break;
        }
        if (recorder && !anim_finish(recorder, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
            break;
        }
        if (recorder && !a->quiet) printf("%s: animation of every step -> %s\n", label, gif_path);
        if (!a->quiet && steps > 0 && !smalti_run_finished(run) && smalti_run_counter(run) >= steps) {
            char actor[1200];
            step_limit_actor(model, run, path, actor, sizeof actor);
            fprintf(stderr, "%s:%d: %s stopped at the step limit (%d %s) before the model finished; raise the entry's steps, "
                            "or set steps=\"0\" for none%s\n", a->list, xml_line(xm), label, steps, plural(steps, "step", "steps"), actor);
        }
        /* As Program.cs: a picture when the final grid is 2-D or the entry asks for
           iso (then drawn isometrically), else a VOX. A map node may change the size. */
        int fx, fy, fz;
        smalti_run_grid(run, &fx, &fy, &fz);
        snprintf(out_path, sizeof out_path, "%s/%s.%s", a->out_dir, label, fz == 1 || iso ? "png" : "vox");
        text_header header = result_header(model, name, seed, steps);
        if (!write_result(out_path, run, &header, &pal, pixelsize, a->quiet, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
        } else if (!a->quiet) {
            long n = smalti_run_counter(run);
            printf("%s: %ld %s -> %s\n", label, n, plural(n, "step", "steps"), out_path);
        }
    }
    free(entry_seeds);
    smalti_run_free(run);
    smalti_model_free(model);
    return rc;
}

/* Entries of one name run the same model file; the manifest and --resume know an output by
   (name, seed), so no seed may come twice under a name. */
static bool names_seeds_unique(const batch_args *a)
{
    for (int x = 0; x < a->gathered_count; x++)
        for (int y = x + 1; y < a->gathered_count; y++) {
            if (strcmp(a->gathered[x].name, a->gathered[y].name) != 0) continue;
            for (int64_t k = 0; k < a->gathered[y].seeds.total; k++) {
                int32_t seed = seed_list_at(&a->gathered[y].seeds, k);
                for (int64_t j = 0; j < a->gathered[x].seeds.total; j++)
                    if (seed_list_at(&a->gathered[x].seeds, j) == seed) {
                        fprintf(stderr, "%s: error: two entries of model \"%s\" run seed %d; many runs know an output by its "
                                        "model and seed (give the entries seeds of their own)\n", a->list, a->gathered[x].name, (int)seed);
                        return false;
                    }
            }
        }
    return true;
}

/* Run what the entries gathered, then free it. */
static int run_gathered(batch_args *a)
{
    int64_t most = 0;
    for (int m = 0; m < a->gathered_count; m++)
        if (a->gathered[m].seeds.total > most) most = a->gathered[m].seeds.total;
    int rc = names_seeds_unique(a) ? many_check_template(a->out_dir, most, a->gathered_count) : EXIT_MODEL;
    if (rc == EXIT_OK && a->gathered_count > 0) {
        a->many.o.quiet = a->quiet;
        a->many.o.timeout = a->timeout;
        a->many.o.max_memory = a->max_memory;
        if (a->many.o.shard_n == 0) a->many.o.shard_k = a->many.o.shard_n = 1;
        rc = many_execute(a->gathered, a->gathered_count, &a->many.o);
    }
    for (int m = 0; m < a->gathered_count; m++) {
        smalti_model_free((smalti_model *)a->gathered[m].model);
        free((char *)a->gathered[m].label);
        seed_list_free(&a->gathered[m].seeds);
    }
    free(a->gathered);
    return rc;
}

int cmd_batch(int argc, char **argv)
{
    batch_args a = {.out_dir = "output"};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) { a.quiet = true; continue; }
        if (strcmp(arg, "--allow-any-path") == 0) { a.allow_any_path = true; continue; }
        if (strcmp(arg, "--max-unpacked") == 0) {
            if (!parse_max_unpacked(i + 1 < argc ? argv[i + 1] : NULL, &a.max_unpacked)) return EXIT_USAGE;
            i++;
            continue;
        }
        if (strcmp(arg, "--timeout") == 0 || strcmp(arg, "--max-memory") == 0) {
            const char *val = i + 1 < argc ? argv[i + 1] : NULL;
            if (arg[2] == 't' ? !parse_timeout(val, &a.timeout) : !parse_max_memory(val, &a.max_memory)) return EXIT_USAGE;
            i++;
            continue;
        }
        int took = many_cli_option(&a.many, arg, i + 1 < argc ? argv[i + 1] : NULL);
        if (took < 0) return EXIT_USAGE;
        if (took > 0) { i += took - 1; continue; }
        if (strcmp(arg, "--seed") == 0) {
            if (i + 1 >= argc || !parse_int_arg(argv[i + 1], INT32_MIN, INT32_MAX, &a.seed)) {
                fprintf(stderr, "smalti: --seed takes an integer from %ld to %ld\n", (long)INT32_MIN, (long)INT32_MAX);
                return EXIT_USAGE;
            }
            a.seeded = true;
            i++;
            continue;
        }
        bool takes = strcmp(arg, "--models") == 0 || strcmp(arg, "--resources") == 0 || strcmp(arg, "-o") == 0 ||
                     strcmp(arg, "--output") == 0;
        if (takes) {
            if (i + 1 >= argc) { fprintf(stderr, "smalti: %s needs a value\n", arg); return EXIT_USAGE; }
            const char *val = argv[++i];
            if (strcmp(arg, "--models") == 0) a.models_dir = val;
            else if (strcmp(arg, "--resources") == 0) {
                if (a.resource_count == CLI_MAX_RESOURCES) { fprintf(stderr, "smalti: too many --resources\n"); return EXIT_USAGE; }
                a.resources[a.resource_count++] = val;
            } else a.out_dir = val;
        } else if (arg[0] == '-') {
            return unknown_option("batch", arg);
        } else if (a.list) {
            fprintf(stderr, "smalti: unexpected argument %s\n", arg);
            return EXIT_USAGE;
        } else a.list = arg;
    }
    if (!a.list) { fprintf(stderr, "smalti: batch needs MODELS.xml\n"); return EXIT_USAGE; }
    a.template_out = strchr(a.out_dir, '{') || many_cli_wanted(&a.many);
    if (a.many.seeds) return usage_error("%s", "batch takes no --seeds: the entries' seeds and amount, and --seed S, give them");
    if (a.template_out && !strchr(a.out_dir, '{'))
        return usage_error("%s", "-j, --manifest, --resume and --shard need -o with a file name template, such as "
                                 "-o 'out/{model}_{seed}.png'");
    if (a.many.o.resume && !a.many.o.manifest) return usage_error("%s", "--resume needs --manifest FILE, which says what is done");
    if (pack_path_is_pack(a.list)) {
        if (a.template_out) return usage_error("%s", "batch PACK does not take -o templates or many-run options yet");
        if (a.models_dir || a.resource_count || a.seeded || a.allow_any_path)
            return usage_error("%s", "batch PACK takes only -o DIR, -q, --max-unpacked, --timeout and --max-memory: the pack "
                                     "gives the models, resources and seeds");
        const pack_batch_budget budget = {.timeout = a.timeout, .max_memory = a.max_memory};
        return pack_batch(a.list, a.out_dir, a.max_unpacked, &budget, a.quiet);
    }
    char models_dir[4096];
    if (!a.models_dir) {
        const char *slash = strrchr(a.list, '/');
        if (slash) snprintf(models_dir, sizeof models_dir, "%.*s/models", (int)(slash - a.list), a.list);
        else snprintf(models_dir, sizeof models_dir, "models");
        a.models_dir = models_dir;
    }
    xmlDoc *doc;
    int read = read_list_file(a.list, "model list", &doc);
    if (read != EXIT_OK) return read;
    if (!a.template_out && !make_output_dir(a.out_dir)) { xmlFreeDoc(doc); return EXIT_IO; }
    palette pal;
    palette_default(&pal);
    rng meta;
    /* The seeds of outputs without one: successive numbers of one generator, seeded with
       --seed S (the same list and S give the same outputs) or, as in the reference, at random. */
    rng_seed(&meta, a.seeded ? (int32_t)a.seed : (int32_t)(time(NULL) ^ getpid()));
    smalti_error err;
    diag d = {.file = a.list, .err = &err, .warn = print_warning, .quiet = a.quiet};
    int worst = EXIT_OK, failures = 0, entries = 0;
    for (const xmlNode *xm = xml_first_child(xmlDocGetRootElement(doc)); xm; xm = xml_next(xm)) {
        /* The reference skips other elements; a typo should be seen, but it does not stop the others. */
        if (!xml_is(xm, "model")) {
            diag_warn(&d, xml_line(xm), "unknown element <%s> skipped (entries are <model>)", xml_name(xm));
            continue;
        }
        entries++;
        /* --max-memory bounds each entry as `run` bounds its command: the model file, its XML tree,
           the load, the runs and the pictures, counted together; a shared list cannot ask for more. */
        mem_budget whole = {.limit = a.max_memory};
        mem_budget *outer = mem_enter_whole(a.max_memory ? &whole : NULL);
        int rc = run_entry(&a, &d, xm, &pal, &meta);
        mem_enter_whole(outer);
        rc = memory_verdict(&whole, rc, a.list);
        if (rc != EXIT_OK) { failures++; worst = rc; }
    }
    xmlFreeDoc(doc);
    if (a.template_out) {
        int rc = run_gathered(&a);
        if (rc != EXIT_OK) worst = rc;
    }
    if (!a.quiet || failures) fprintf(stderr, "batch: %d %s, %d failed\n", entries, plural(entries, "entry", "entries"), failures);
    return worst;
}
