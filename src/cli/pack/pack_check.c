/* pack_check.c — `smalti pack check`: the manifest, every model's load, lint, resources and a capped run at its defaults. */
#define _XOPEN_SOURCE 700
#include "pack_cli.h"
#include "../job/job.h"
#include <ftw.h>
#include <libxml/parser.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../../core/diag.h"
#include "../../core/resource.h"

enum check_status { CHECK_OK, CHECK_WARNINGS, CHECK_FAILED, CHECK_CAPPED };
static const char *const status_word[] = {"ok", "warnings", "failed", "capped"};

typedef struct check_job {
    const pack_model *m;
    enum check_status status;
    char *warnings; /* "file:line: warning: ...\n" lines */
    size_t warnings_len;
    int warning_count;
    char detail[1400]; /* the grid and steps, or why it failed or was capped */
    double seconds;
    bool done;
} check_job;

typedef struct check_ctx {
    const pack *p;
    check_job *jobs;
    int count, next;
    double timeout;          /* wall time of a run; 0: none (the default: a verdict from the clock differs by machine) */
    long long max_work;      /* work of a run (smalti_run_options.max_work) */
    long default_steps;
    size_t max_memory;
    pthread_mutex_t lock;
    pthread_cond_t finished;
} check_ctx;

static void collect_warning(void *userdata, const char *file, int line, const char *message)
{
    check_job *item = userdata;
    char text[1200];
    int n = line > 0 ? snprintf(text, sizeof text, "%s:%d: warning: %s\n", file ? file : "", line, message)
                     : snprintf(text, sizeof text, "%s: warning: %s\n", file ? file : "", message);
    if (n < 0) return;
    if (n >= (int)sizeof text) n = (int)sizeof text - 1;
    char *bigger = realloc(item->warnings, item->warnings_len + (size_t)n + 1);
    if (!bigger) return;
    item->warnings = bigger;
    memcpy(item->warnings + item->warnings_len, text, (size_t)n + 1);
    item->warnings_len += (size_t)n;
    item->warning_count++;
}

static void fail(check_job *item, const smalti_error *err)
{
    item->status = err->status == SMALTI_ERR_TIMEOUT ? CHECK_CAPPED : CHECK_FAILED;
    if (err->line > 0) snprintf(item->detail, sizeof item->detail, "%s:%d: %s", err->file, err->line, err->message);
    else snprintf(item->detail, sizeof item->detail, "%s: %s", err->file, err->message);
}

/* A thumbnail is a PNG inside the pack. */
static bool check_thumbnail(const check_ctx *c, check_job *item)
{
    if (!item->m->thumbnail) return true;
    smalti_error err;
    size_t size;
    unsigned char *data = pack_read(c->p, item->m->thumbnail, &size, &err);
    if (data) {
        char label[PATH_MAX + 64];
        pack_entry_label(c->p, item->m->thumbnail, label, sizeof label);
        diag d = {.file = label, .err = &err, .quiet = 1};
        int w, h;
        uint32_t *pixels = image_decode_argb(&d, 0, label, data, size, &w, &h);
        mem_free(data);
        if (pixels) {
            free(pixels);
            return true;
        }
    }
    fail(item, &err);
    return false;
}

/* 950, 12.3k, 4.61M, 10G: the work of a run in the units --max-work takes. */
static const char *work_amount(long long work, char *buf, size_t size)
{
    static const char suffix[] = " kMGT";
    double v = (double)work;
    int k = 0;
    while (v >= 1000 && k < 4) v /= 1000, k++;
    if (k == 0) snprintf(buf, size, "%lld", work);
    else snprintf(buf, size, "%.3g%c", v, suffix[k]);
    return buf;
}

/* The line of a model that ran: its grid, seed and steps, and the work it did of the budget. */
static void describe_run(const check_ctx *c, check_job *item, const job *j, const char *grid, long long work, long steps,
                         bool cut)
{
    char work_text[32];
    snprintf(item->detail, sizeof item->detail, "%s, seed %d, %ld %s%s, work %s (%.2g %% of the budget), %.2f s", grid,
             (int)j->seed, steps, plural(steps, "step", "steps"),
             !cut ? "" : j->steps_from != STEPS_DEFAULT ? " (its step limit)" : " (stopped at the default step limit)",
             work_amount(work, work_text, sizeof work_text), 100.0 * (double)work / (double)c->max_work, item->seconds);
}

/* Which budget stopped a capped run (the work done tells): the work budget is the same on every
   machine, the time cap is not. */
static void describe_cap(const check_ctx *c, check_job *item, const job *j, const char *grid, long long work, long steps)
{
    char budget[32];
    if (work > c->max_work)
        snprintf(item->detail, sizeof item->detail, "%s, seed %d: stopped by the work budget of %s at step %ld before "
                 "the model finished (--max-work N raises it)", grid, (int)j->seed, work_amount(c->max_work, budget, sizeof budget), steps);
    else
        snprintf(item->detail, sizeof item->detail, "%s, seed %d: stopped by the time cap of %g s (--timeout) at step %ld before the "
                 "model finished; a time cap depends on the machine, the work budget (--max-work) does not", grid, (int)j->seed,
                 c->timeout, steps);
}


/* The model's job (its load and lint, the warnings collected) and one run capped by the budgets. */
static void check_model(const check_ctx *c, check_job *item)
{
    const pack_model *m = item->m;
    double start = now_seconds();
    if (!check_thumbnail(c, item)) return;
    const job_request req = {.model = pack_path(c->p), .pk = c->p, .pm = m, .iso = -1, .has_default_steps = true, .default_steps = c->default_steps,
                             .timeout = c->timeout, .max_memory = c->max_memory, .max_work = c->max_work, .quiet = true,
                             .warn = collect_warning, .warn_userdata = item, .keep_errors = true};
    job j;
    int rc = job_open(&j, &req);
    char grid[64]; /* the sides the model is checked at, for its line */
    if (j.mz > 1) snprintf(grid, sizeof grid, "%dx%dx%d", j.mx, j.my, j.mz);
    else snprintf(grid, sizeof grid, "%dx%d", j.mx, j.my);
    if (rc != EXIT_OK) {
        fail(item, &j.error);
        if (item->status == CHECK_CAPPED) /* the load ran out of time: said as a run cut short is */
            snprintf(item->detail, sizeof item->detail, "%s, seed %d: stopped by the time cap of %g s (--timeout) while loading, "
                     "before the model finished; a time cap depends on the machine, the work budget (--max-work) does not",
                     grid, (int)j.seed, c->timeout);
        return;
    }
    smalti_error err = {0};
    const job_observers obs = {.no_progress = true};
    job_run_spec spec = {.seed = j.seed, .observers = &obs, .no_note = true, .keep_errors = true, .report = job_keep_error,
                         .report_userdata = &err};
    smalti_run *run = NULL;
    job_result res;
    job_run(&j, &run, &spec, &res);
    item->seconds = now_seconds() - start;
    if (!run) fail(item, &err);
    else if (res.error.status != SMALTI_OK) {
        fail(item, &res.error);
        if (item->status == CHECK_CAPPED) describe_cap(c, item, &j, grid, smalti_run_work(run), res.steps);
    } else {
        /* A model that is still going at a step limit it did not choose itself stops there, as
           MarkovJunior's Program.cs stops every entry at 50000 steps: some corpus models never
           finish and are meant to be cut (SmartSAW, SubmergedKnots). `run` stops it at the same
           step, so the check passes, with a warning asking the entry to say so (--strict fails it). */
        if (res.limited && j.steps_from == STEPS_DEFAULT) {
            char message[256];
            snprintf(message, sizeof message, "the run was still going at the default step limit of %ld steps and stopped "
                     "there, as a models.xml entry with no steps does in MarkovJunior; if that is meant, say so with "
                     "steps=\"%ld\" in the model's entry", j.steps, j.steps);
            collect_warning(item, j.label, m->line, message);
        }
        item->status = item->warning_count ? CHECK_WARNINGS : CHECK_OK;
        describe_run(c, item, &j, grid, smalti_run_work(run), res.steps, res.limited);
    }
    smalti_run_free(run);
    job_close(&j);
}

static void *check_worker(void *arg)
{
    check_ctx *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int i = c->next < c->count ? c->next++ : -1;
        pthread_mutex_unlock(&c->lock);
        if (i < 0) return NULL;
        check_model(c, &c->jobs[i]);
        pthread_mutex_lock(&c->lock);
        c->jobs[i].done = true;
        pthread_cond_broadcast(&c->finished);
        pthread_mutex_unlock(&c->lock);
    }
}

/* A folder pack: every symbolic link in it must lead to somewhere inside it. nftw's callback has
   no user pointer, so the walk is told its root through this thread's variable. */
static _Thread_local struct {
    const char *real_root;
    int bad;
} walk;

static int walk_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (type != FTW_SL && type != FTW_SLN) return 0;
    char *real = realpath(path, NULL);
    size_t n = strlen(walk.real_root);
    if (!real || strncmp(real, walk.real_root, n) != 0 || (real[n] != '/' && real[n] != 0)) {
        printf("failed    %s: a symbolic link that leads %s (to %s); a pack may only link inside itself\n", path,
               real ? "out of the pack" : "nowhere", real ? real : "nothing");
        walk.bad++;
    }
    free(real);
    return 0;
}

static int check_folder_links(const pack *p)
{
    if (pack_is_zip(p)) return 0;
    char *real_root = realpath(pack_path(p), NULL);
    if (!real_root) return 0;
    walk.real_root = real_root, walk.bad = 0;
    nftw(pack_path(p), walk_entry, 16, FTW_PHYS);
    free(real_root);
    return walk.bad;
}

typedef struct check_args {
    const char *path;
    uint64_t max_unpacked;
    double timeout;
    long long max_work;
    long steps, jobs_n;
    size_t max_memory;
    bool strict, quiet;
} check_args;

/* One option with its value val (NULL: none left): the arguments it took (1 or 2), or -1 after a usage error. */
static int parse_check_option(void *args, const char *arg, const char *val)
{
    check_args *a = args;
    if (strcmp(arg, "--strict") == 0) return a->strict = true, 1;
    if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) return a->quiet = true, 1;
    if (strcmp(arg, "--max-unpacked") == 0) return parse_max_unpacked(val, &a->max_unpacked) ? 2 : -1;
    if (strcmp(arg, "--timeout") == 0) return parse_timeout(val, &a->timeout) ? 2 : -1;
    if (strcmp(arg, "--max-work") == 0) return parse_max_work(val, &a->max_work) ? 2 : -1;
    if (strcmp(arg, "--max-memory") == 0) return parse_max_memory(val, &a->max_memory) ? 2 : -1;
    if (strcmp(arg, "--steps") == 0) {
        if (!val || !parse_int_arg(val, -(1L << 40), 1L << 40, &a->steps))
            return usage_error("--steps takes a whole number, not %s", val ? val : "nothing"), -1;
        return 2;
    }
    if (strcmp(arg, "-j") == 0 || strcmp(arg, "--jobs") == 0) {
        if (!val || !parse_int_arg(val, 1, 64, &a->jobs_n))
            return usage_error("-j takes a number of threads from 1 to 64, not %s", val ? val : "nothing"), -1;
        return 2;
    }
    return unknown_option("pack check", arg), -1;
}

static int parse_check_args(int argc, char **argv, check_args *a)
{
    *a = (check_args){.max_work = PACK_MAX_WORK, .steps = 50000, .jobs_n = 1, .max_memory = PACK_MAX_MEMORY};
    int rc = cli_parse_args(argc, argv, parse_check_option, a, &a->path, usage_error);
    if (rc != EXIT_OK) return rc;
    if (!a->path) return usage_error("%s", "pack check needs PACK (a folder or a .zip)");
    return EXIT_OK;
}

/* One job for each of the manifest's models; false when out of memory. */
static bool check_ctx_init(check_ctx *c, const pack *p, const check_args *a)
{
    const pack_manifest *man = pack_manifest_of(p);
    *c = (check_ctx){.p = p, .count = man->model_count, .timeout = a->timeout, .max_work = a->max_work,
                     .default_steps = a->steps, .max_memory = a->max_memory};
    c->jobs = calloc((size_t)c->count, sizeof *c->jobs);
    if (!c->jobs) return false;
    for (int i = 0; i < c->count; i++) c->jobs[i].m = &man->models[i];
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->finished, NULL);
    return true;
}

static void check_ctx_free(check_ctx *c)
{
    for (int i = 0; i < c->count; i++) free(c->jobs[i].warnings);
    free(c->jobs);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->finished);
}

/* Up to jobs_n threads checking models (when none starts, this one checks them all); the threads started. */
static int start_workers(check_ctx *c, long jobs_n, pthread_t threads[64])
{
    xmlInitParser(); /* once, before threads load models */
    int started = 0;
    for (int t = 0; t < jobs_n && t < c->count; t++)
        if (pthread_create(&threads[t], NULL, check_worker, c) == 0) started++;
    if (!started) check_worker(c);
    return started;
}

/* A model's warnings, each line indented under its status line. */
static void print_warnings(const char *warnings)
{
    for (const char *line = warnings; *line;) {
        const char *eol = strchr(line, '\n');
        printf("          %.*s\n", (int)(eol ? eol - line : (long)strlen(line)), line);
        line = eol ? eol + 1 : line + strlen(line);
    }
}

/* In the manifest's order, each line as soon as its model is done; counts gets how many had each status. */
static void report_models(check_ctx *c, const check_args *a, int counts[4])
{
    for (int i = 0; i < c->count; i++) {
        pthread_mutex_lock(&c->lock);
        while (!c->jobs[i].done) pthread_cond_wait(&c->finished, &c->lock);
        pthread_mutex_unlock(&c->lock);
        check_job *item = &c->jobs[i];
        if (a->strict && item->status == CHECK_WARNINGS) item->status = CHECK_FAILED;
        counts[item->status]++;
        printf("%-9s %s: %s\n", status_word[item->status], item->m->name, item->detail);
        if (item->warnings && (!a->quiet || a->strict)) print_warnings(item->warnings);
        fflush(stdout);
    }
}

int cmd_pack_check(int argc, char **argv)
{
    check_args a;
    int rc = parse_check_args(argc, argv, &a);
    if (rc != EXIT_OK) return rc;
    double start = now_seconds();
    pack *p = cli_pack_open(a.path, a.max_unpacked, a.max_memory, a.quiet, &rc);
    if (!p) {
        printf("failed    %s: the pack cannot be opened (above)\n", a.path);
        return rc;
    }
    const pack_manifest *man = pack_manifest_of(p);
    printf("%s %s: %s lists %d %s\n", man->name, man->version, man->file, man->model_count,
           plural(man->model_count, "model", "models"));
    fflush(stdout);
    int bad_links = check_folder_links(p);
    check_ctx c;
    if (!check_ctx_init(&c, p, &a)) {
        pack_close(p);
        fprintf(stderr, "smalti: out of memory\n");
        return EXIT_RUNTIME;
    }
    pthread_t threads[64];
    int started = start_workers(&c, a.jobs_n, threads);
    int counts[4] = {0};
    report_models(&c, &a, counts);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    int failed = counts[CHECK_FAILED] + bad_links;
    printf("%s: %d %s: %d ok, %d with warnings, %d failed, %d capped (%.1f s)\n", a.path, c.count,
           plural(c.count, "model", "models"), counts[CHECK_OK], counts[CHECK_WARNINGS], failed, counts[CHECK_CAPPED],
           now_seconds() - start);
    check_ctx_free(&c);
    pack_close(p);
    return failed ? EXIT_MODEL : counts[CHECK_CAPPED] ? EXIT_TIMEOUT : EXIT_OK;
}
