/* batch.c — `smalti batch`: a models.xml list run the way MarkovJunior's Program.cs does, or every
   model of a pack; each entry a job (job/job.h) run for each of its seeds, or, with an output
   template, every output of every entry a work item of many runs (many/). */
#include "commands.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../../core/resource.h"
#include "../../core/rng.h"
#include "../../core/xmlutil.h"
#include "../common/output_kinds.h"
#include "../job/job.h"
#include "../many/many.h"
#include "../pack/pack_cli.h"

typedef struct batch_args {
    const char *list, *models_dir, *out_dir;
    const char *resources[CLI_MAX_RESOURCES];
    int resource_count;
    cli_sets sets;          /* --set NAME=VALUE, for every entry */
    bool allow_any_path;
    bool quiet;
    bool seeded;            /* --seed given: the master seed */
    long seed;
    const char *palette_file, *tiles_file;
    uint64_t max_unpacked;  /* with a pack */
    double timeout;         /* --timeout: seconds each entry's load and each of its runs may take; 0: none */
    size_t max_memory;      /* --max-memory: bytes each entry may hold (its load, runs and pictures); 0: none */
    many_cli many;          /* -j, --manifest, --resume, --shard */
    bool template_out;      /* -o names files ({model}, {seed}...): many runs */
    many_model *gathered;   /* the entries' open jobs, gathered for many runs */
    int gathered_count, gathered_cap;
} batch_args;

/* One entry: what its job asks, and its seeds. */
typedef struct batch_entry {
    job_request req;
    palette colors;         /* a models.xml entry's <color> children */
    char path[4096], where[4200];
    int32_t *seeds;         /* amount of them; NULL: the job's default seed, once */
    int amount;
    bool gif;
    int line;               /* a models.xml entry's line (for notes), else 0 */
} batch_entry;

static job_request request_of(const batch_args *a)
{
    return (job_request){.resources = a->resources, .resource_count = a->resource_count, .allow_any_path = a->allow_any_path,
                         .params = a->sets.items, .param_count = a->sets.count, .iso = -1, .palette_file = a->palette_file, .tiles_file = a->tiles_file, .timeout = a->timeout,
                         .max_memory = a->max_memory, .quiet = a->quiet};
}

/* The entry's seeds: those `seeds` lists, then draws of the master generator; false after saying
   why (a seed that is no 32-bit integer). The reference runs `amount` outputs whatever `seeds`
   lists; a longer list is cut short, with a warning. */
static bool entry_seeds(batch_entry *e, diag *d, const xmlNode *xm, const char *name, rng *meta)
{
    const char *seeds = xml_attr(xm, "seeds");
    int listed = 0;
    for (const char *p = seeds; p && *p; listed++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        if (v < INT32_MIN || v > INT32_MAX) {
            fprintf(stderr, "%s: error: <model name=\"%s\"> seeds=\"%s\": %.*s is not a 32-bit integer\n", e->where, name,
                    seeds, (int)(end - p), p);
            return false;
        }
        p = end;
    }
    if (listed > e->amount && e->gif)
        diag_warn(d, e->line, "<model name=\"%s\"> lists %d seeds but gif=\"True\" makes one output, so only the first is run; "
                  "drop gif to run them all", name, listed);
    else if (listed > e->amount)
        diag_warn(d, e->line, "<model name=\"%s\"> lists %d seeds but amount is %d%s, so only the first %d %s run; add "
                  "amount=\"%d\" to run them all", name, listed, e->amount, xml_attr(xm, "amount") ? "" : " (the default)",
                  e->amount, e->amount == 1 ? "is" : "are", listed);
    if (!(e->seeds = malloc((size_t)(e->amount > 0 ? e->amount : 1) * sizeof *e->seeds))) return false;
    const char *cursor = seeds;
    for (int k = 0; k < e->amount; k++) {
        char *end = NULL;
        long given = cursor ? strtol(cursor, &end, 10) : 0;
        if (cursor && end != cursor) e->seeds[k] = (int32_t)given, cursor = end;
        else e->seeds[k] = rng_next(meta), cursor = NULL;
    }
    return true;
}

/* A models.xml <model> entry as a job request: its attributes, then the model's own <smalti>
   settings (job_open), then the reference's defaults. EXIT_OK or the code after saying why. */
static int entry_of_list(const batch_args *a, diag *d, const xmlNode *xm, rng *meta, batch_entry *e)
{
    static const char *const known[] = {"name", "size", "d", "length", "width", "height", "amount", "pixelsize",
                                        "seeds", "steps", "gif", "iso", "gui", NULL};
    xml_check_attrs(d, xm, known);
    const char *name = xml_attr(xm, "name"), *why;
    e->line = xml_line(xm);
    snprintf(e->where, sizeof e->where, "%s:%d", a->list, e->line);
    /* A model's name reaches paths: its file, and {model} in an output template. */
    if (!resource_name_is_plain(name, &why)) {
        fprintf(stderr, "%s: error: <model> name=\"%s\" %s: a model's name is one plain file name\n", e->where, name ? name : "", why);
        return EXIT_MODEL;
    }
    snprintf(e->path, sizeof e->path, "%s/%s.xml", a->models_dir, name);
    e->req = request_of(a);
    e->req.model = e->path;
    e->req.size_required = true;
    e->req.entry_where = e->where;
    e->req.entry_name = name;
    grid_request *g = &e->req.grid;
    const int side = SETTINGS_SIDE_MAX; /* the sides and pixel size as in <smalti> settings */
    int steps;
    bool iso;
    if (!xml_get_int_range(d, xm, "size", 0, 1, side, &g->size) || !xml_get_int(d, xm, "d", 0, &g->dim) ||
        !xml_get_int_range(d, xm, "length", 0, 1, side, &g->length) || !xml_get_int_range(d, xm, "width", 0, 1, side, &g->width) ||
        !xml_get_int_range(d, xm, "height", 0, 1, side, &g->height) || !xml_get_int_range(d, xm, "amount", 2, 0, 1 << 20, &e->amount) ||
        !xml_get_int_range(d, xm, "pixelsize", 0, 1, 64, &e->req.pixel_size) || !xml_get_bool(d, xm, "gif", false, &e->gif) ||
        !xml_get_int(d, xm, "steps", e->gif ? 1000 : 0, &steps) || !xml_get_bool(d, xm, "iso", false, &iso) ||
        !palette_read_colors(&e->colors, xm, a->list, d->err)) {
        print_error(d->err);
        d->failed = 0;
        return EXIT_MODEL;
    }
    if (xml_attr(xm, "d") && g->dim != 2 && g->dim != 3) {
        fprintf(stderr, "%s: error: <model name=\"%s\"> d=\"%d\": the dimension must be 2 or 3\n", e->where, name, g->dim);
        return EXIT_MODEL;
    }
    e->req.steps_given = xml_attr(xm, "steps") || e->gif; /* gif="True": the reference's limit of 1000 */
    e->req.steps = steps;
    e->req.steps_from = STEPS_ENTRY;
    e->req.iso = xml_attr(xm, "iso") ? iso : -1;
    e->req.entry_colors = &e->colors;
    if (e->gif) e->amount = 1;
    return entry_seeds(e, d, xm, name, meta) ? EXIT_OK : EXIT_MODEL;
}

/* Many runs: keep the entry's open job and seeds for many_execute (which runs them after the last
   entry); false when out of memory or a seed repeats. */
static bool gather(batch_args *a, job *j, const int32_t *seeds, int amount)
{
    if (a->gathered_count == a->gathered_cap) {
        int cap = a->gathered_cap ? a->gathered_cap * 2 : 16;
        many_model *grown = realloc(a->gathered, (size_t)cap * sizeof *grown);
        if (!grown) return false;
        a->gathered = grown;
        a->gathered_cap = cap;
    }
    many_model *m = &a->gathered[a->gathered_count];
    *m = (many_model){.job = j, .out = a->out_dir};
    if (!seed_list_of(seeds ? seeds : &j->seed, seeds ? amount : 1, &m->seeds)) return false;
    a->gathered_count++;
    return true;
}

/* Each seed of the open job into the output folder: NAME_SEED.png (or .vox), with NAME_SEED.gif
   for a gif entry. EXIT_OK or the first failure's code. */
static int run_seeds(const batch_args *a, const batch_entry *e, const job *j)
{
    int rc = EXIT_OK, count = e->seeds ? e->amount : 1;
    smalti_run *run = NULL;
    for (int k = 0; k < count && rc == EXIT_OK; k++) {
        const int32_t seed = e->seeds ? e->seeds[k] : j->seed;
        char label[300], gif[4400], who[4600], out[4400];
        snprintf(label, sizeof label, "%s_%d", j->name, (int)seed);
        snprintf(gif, sizeof gif, "%s/%s.gif", a->out_dir, label);
        snprintf(who, sizeof who, "%s: %s", e->line ? e->where : j->label, label);
        /* gif="True": the reference's gif mode writes a picture of every step; here they are the frames of one GIF. */
        const job_observers obs = {.gif = e->gif ? gif : NULL};
        job_run_spec spec = {.seed = seed, .observers = &obs, .who = who};
        job_result res;
        if ((rc = job_run(j, &run, &spec, &res)) != EXIT_OK) break;
        if (e->gif && !a->quiet) printf("%s: animation of every step -> %s\n", label, gif);
        /* As Program.cs: a picture when the final grid is 2-D or the entry asks for iso, else a VOX
           (a map node may change the size); a template's extension when -o gives one. */
        job_default_output(j, run, a->out_dir, seed, out, sizeof out);
        smalti_error err;
        if (!job_write_output(j, run, seed, out, NULL, false, &err)) {
            print_error(&err);
            rc = exit_code_for(err.status);
        } else if (!a->quiet) {
            printf("%s: %ld %s -> %s\n", label, res.steps, plural(res.steps, "step", "steps"), out);
        }
    }
    smalti_run_free(run);
    return rc;
}

/* One entry opened and run (or gathered); EXIT_OK or the code after saying why. */
static int run_entry(batch_args *a, batch_entry *e)
{
    job *j = malloc(sizeof *j);
    if (!j) return fprintf(stderr, "smalti: out of memory\n"), EXIT_MEMORY;
    int rc = job_open(j, &e->req);
    if (rc == EXIT_OK && a->template_out) {
        if (e->gif && !a->quiet)
            fprintf(stderr, "%s: warning: <model name=\"%s\"> gif=\"True\": many runs write final grids only, not the "
                            "animation\n", e->where, j->name);
        if (gather(a, j, e->seeds, e->amount)) return EXIT_OK;
        fprintf(stderr, "%s: error: <model name=\"%s\"> lists a seed twice (or memory ran out)\n", e->where, j->name);
        rc = EXIT_MODEL;
    } else if (rc == EXIT_OK) {
        rc = run_seeds(a, e, j);
    }
    if (rc != EXIT_OK || !a->template_out) job_close(j);
    free(j);
    return rc;
}

/* An entry run within --max-memory, which bounds each entry as `run` bounds its command: the model
   file, its XML tree, the load, the runs and the pictures, counted together. */
static int run_entry_within(batch_args *a, batch_entry *e)
{
    mem_budget whole = {.limit = a->max_memory};
    mem_budget *outer = mem_enter_whole(a->max_memory ? &whole : NULL);
    int rc = run_entry(a, e);
    mem_enter_whole(outer);
    free(e->seeds);
    return memory_verdict(&whole, rc, a->list);
}

/* Entries of one name run the same model file; the manifest and --resume know an output by
   (name, seed), so no seed may come twice under a name. */
static bool names_seeds_unique(const batch_args *a)
{
    for (int x = 0; x < a->gathered_count; x++)
        for (int y = x + 1; y < a->gathered_count; y++) {
            const many_model *mx = &a->gathered[x], *my = &a->gathered[y];
            if (strcmp(mx->job->name, my->job->name) != 0) continue;
            for (int64_t k = 0; k < my->seeds.total; k++)
                for (int64_t i = 0; i < mx->seeds.total; i++)
                    if (seed_list_at(&mx->seeds, i) == seed_list_at(&my->seeds, k)) {
                        fprintf(stderr, "%s: error: two entries of model \"%s\" run seed %d; many runs know an output by its "
                                        "model and seed (give the entries seeds of their own)\n", a->list, mx->job->name,
                                (int)seed_list_at(&my->seeds, k));
                        return false;
                    }
        }
    return true;
}

/* Run what the entries gathered, then close it. */
static int run_gathered(batch_args *a)
{
    int64_t most = 0;
    for (int m = 0; m < a->gathered_count; m++)
        if (a->gathered[m].seeds.total > most) most = a->gathered[m].seeds.total;
    int rc = names_seeds_unique(a) ? many_check_template(a->out_dir, most, a->gathered, a->gathered_count) : EXIT_MODEL;
    if (rc == EXIT_OK && a->gathered_count > 0) {
        a->many.o.quiet = a->quiet;
        a->many.o.max_memory = a->max_memory;
        if (a->many.o.shard_n == 0) a->many.o.shard_k = a->many.o.shard_n = 1;
        rc = many_execute(a->gathered, a->gathered_count, &a->many.o);
    }
    for (int m = 0; m < a->gathered_count; m++) {
        job_close((job *)a->gathered[m].job);
        free((job *)a->gathered[m].job);
        seed_list_free(&a->gathered[m].seeds);
    }
    free(a->gathered);
    return rc;
}

/* Every <model> of a models.xml list; the worst exit code. */
static int batch_list(batch_args *a)
{
    char models_dir[4096];
    if (!a->models_dir) {
        const char *slash = strrchr(a->list, '/');
        snprintf(models_dir, sizeof models_dir, "%.*s%s", slash ? (int)(slash - a->list + 1) : 0, a->list, "models");
        a->models_dir = models_dir;
    }
    xmlDoc *doc;
    int worst = read_list_file(a->list, "model list", &doc), failures = 0, entries = 0;
    if (worst != EXIT_OK) return worst;
    if (!a->template_out && !make_output_dir(a->out_dir)) {
        xmlFreeDoc(doc);
        return EXIT_IO;
    }
    /* The seeds of outputs without one: successive numbers of one generator, seeded with --seed S
       (the same list and S give the same outputs) or, as in the reference, at random. */
    rng meta;
    rng_seed(&meta, a->seeded ? (int32_t)a->seed : (int32_t)(time(NULL) ^ getpid()));
    smalti_error err;
    diag d = {.file = a->list, .err = &err, .warn = print_warning, .quiet = a->quiet};
    for (const xmlNode *xm = xml_first_child(xmlDocGetRootElement(doc)); xm; xm = xml_next(xm)) {
        /* The reference skips other elements; a typo should be seen, but it does not stop the others. */
        if (!xml_is(xm, "model")) {
            diag_warn(&d, xml_line(xm), "unknown element <%s> skipped (entries are <model>)", xml_name(xm));
            continue;
        }
        entries++;
        batch_entry e;
        memset(&e, 0, sizeof e);
        int rc = entry_of_list(a, &d, xm, &meta, &e);
        rc = rc == EXIT_OK ? run_entry_within(a, &e) : (free(e.seeds), rc);
        if (rc != EXIT_OK) failures++, worst = rc;
    }
    xmlFreeDoc(doc);
    if (!a->quiet || failures) fprintf(stderr, "batch: %d %s, %d failed\n", entries, plural(entries, "entry", "entries"), failures);
    return worst;
}

/* Every model of a pack, for each seed its entry lists (else its default seed); the worst exit code. */
static int batch_pack(batch_args *a)
{
    int worst = EXIT_OK, failures = 0;
    pack *p = cli_pack_open(a->list, a->max_unpacked, a->max_memory ? a->max_memory : PACK_MAX_MEMORY, a->quiet, &worst);
    if (!p) return worst;
    if (!a->template_out && !make_output_dir(a->out_dir)) {
        pack_close(p);
        return EXIT_IO;
    }
    const pack_manifest *man = pack_manifest_of(p);
    for (int i = 0; i < man->model_count; i++) {
        const pack_model *m = &man->models[i];
        batch_entry e = {.amount = m->seed_count};
        e.req = request_of(a);
        e.req.model = a->list, e.req.pk = p, e.req.pm = m;
        snprintf(e.where, sizeof e.where, "%s", a->list);
        if (m->seed_count > 0 && (e.seeds = malloc((size_t)m->seed_count * sizeof *e.seeds)))
            memcpy(e.seeds, m->seeds, (size_t)m->seed_count * sizeof *e.seeds);
        int rc = m->seed_count > 0 && !e.seeds ? EXIT_MEMORY : run_entry_within(a, &e);
        if (rc != EXIT_OK) failures++, worst = rc;
    }
    if (!a->quiet || failures)
        fprintf(stderr, "batch: %d %s, %d failed\n", man->model_count, plural(man->model_count, "model", "models"), failures);
    pack_close(p); /* the open jobs keep nothing of it */
    if (a->template_out) {
        int many = run_gathered(a);
        if (many != EXIT_OK) worst = many;
    }
    return worst;
}

/* One option with its value val: the arguments taken (1 or 2), or -1 after a usage error. */
static int parse_option(batch_args *a, const char *arg, const char *val)
{
    int took = many_cli_option(&a->many, arg, val);
    if (took == 0) took = cli_set_option(&a->sets, arg, val);
    if (took != 0) return took;
    if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) return a->quiet = true, 1;
    if (strcmp(arg, "--allow-any-path") == 0) return a->allow_any_path = true, 1;
    if (strcmp(arg, "--max-unpacked") == 0) return parse_max_unpacked(val, &a->max_unpacked) ? 2 : -1;
    if (strcmp(arg, "--timeout") == 0) return parse_timeout(val, &a->timeout) ? 2 : -1;
    if (strcmp(arg, "--max-memory") == 0) return parse_max_memory(val, &a->max_memory) ? 2 : -1;
    if (strcmp(arg, "--seed") == 0) {
        if (!val || !parse_int_arg(val, INT32_MIN, INT32_MAX, &a->seed)) {
            fprintf(stderr, "smalti: --seed takes an integer from %ld to %ld\n", (long)INT32_MIN, (long)INT32_MAX);
            return -1;
        }
        return a->seeded = true, 2;
    }
    const char **text = strcmp(arg, "--models") == 0 ? &a->models_dir : strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 ? &a->out_dir
                        : strcmp(arg, "--palette") == 0 ? &a->palette_file : strcmp(arg, "--tiles") == 0 ? &a->tiles_file : NULL;
    if (!text && strcmp(arg, "--resources") != 0) return unknown_option("batch", arg), -1;
    if (!val) return usage_error("%s needs a value", arg), -1;
    if (text) *text = val;
    else if (a->resource_count == CLI_MAX_RESOURCES) return usage_error("too many %s options", arg), -1;
    else a->resources[a->resource_count++] = val;
    return 2;
}

/* What the options say together; EXIT_OK or the usage error. */
static int check_batch_args(batch_args *a)
{
    if (!a->list) return usage_error("%s", "batch needs MODELS.xml or a PACK");
    a->template_out = strchr(a->out_dir, '{') || many_cli_wanted(&a->many);
    if (a->many.seeds) return usage_error("%s", "batch takes no --seeds: the entries' seeds and amount, and --seed S, give them");
    const char *several;
    if (!cli_sets_single(&a->sets, &several))
        return usage_error("--set %s: batch takes one value a parameter (a comma separates the values of run's many runs)", several);
    if (a->template_out && !strchr(a->out_dir, '{'))
        return usage_error("%s", "-j, --manifest, --resume and --shard need -o with a file name template, such as "
                                 "-o 'out/{model}_{seed}.png'");
    if (a->many.o.resume && !a->many.o.manifest) return usage_error("%s", "--resume needs --manifest FILE, which says what is done");
    if (a->tiles_file) {
        const output_kind *kind = a->template_out ? output_kind_of(a->out_dir) : NULL;
        char kinds[200];
        output_kind_list(kinds, sizeof kinds, true);
        if (!kind || !kind->takes_tiles) {
            fprintf(stderr, "smalti: --tiles draws with a tile sheet: give -o a template of FILE%s\n", kinds);
            return EXIT_USAGE;
        }
    }
    if (pack_path_is_pack(a->list) && (a->models_dir || a->resource_count || a->seeded || a->allow_any_path))
        return usage_error("%s", "batch PACK takes no --models, --resources, --seed or --allow-any-path: the pack gives the "
                                 "models, resources and seeds");
    return EXIT_OK;
}

int cmd_batch(int argc, char **argv)
{
    batch_args a = {.out_dir = "output"};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int took = arg[0] == '-' ? parse_option(&a, arg, i + 1 < argc ? argv[i + 1] : NULL) : 1;
        if (took < 0) return EXIT_USAGE;
        if (arg[0] != '-' && a.list) return usage_error("unexpected argument %s", arg);
        if (arg[0] != '-') a.list = arg;
        i += took - 1;
    }
    int rc = check_batch_args(&a);
    if (rc != EXIT_OK) return rc;
    if (pack_path_is_pack(a.list)) return batch_pack(&a);
    rc = batch_list(&a);
    if (a.template_out) {
        int many = run_gathered(&a);
        if (many != EXIT_OK) rc = many;
    }
    return rc;
}
