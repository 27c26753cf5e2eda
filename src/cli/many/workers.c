/* workers.c — run a work list of (model, seed) pairs on threads: shards, --resume, the manifest and
   the progress of many runs. Each pair's output depends on the pair alone, so the number of
   threads changes only the order in which the manifest's lines are written. */
#include "many.h"
#include "../common/cli.h"
#include "../common/output_kinds.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Threads at most: each writes one temporary file at a time, and the list that a signal
   cleans up (tempfiles.c) has room for this many and a few more. */
#define MANY_MAX_JOBS 256

/* The generated tilesets the maps share: one per model and folder, written once (shared_tileset). */
#define MANY_MAX_TILESETS 256
typedef struct shared_tileset_list {
    pthread_mutex_t lock;
    int count;
    char *path[MANY_MAX_TILESETS];
    const job *owner[MANY_MAX_TILESETS];
    bool written[MANY_MAX_TILESETS];
} shared_tileset_list;

typedef struct many_state {
    many_model *models;
    int count;
    const many_options *o;
    const manifest_done *done;
    char **keys;               /* each model's key in the manifest (manifest_key) */
    int manifest_fd;           /* -1: no manifest */
    int64_t total;             /* items over all models, before the shard and --resume */
    atomic_llong next;         /* the next item to take, in the fixed order */
    atomic_llong made, failed, limited;
    atomic_int worst;          /* the worst exit code so far */
    atomic_bool stop;          /* the manifest could not be written: end early */
    atomic_bool colours_said;  /* the note on symbols without a colour is made once */
    atomic_int threads_running;
    pthread_mutex_t log;       /* one message at a time on stderr */
    shared_tileset_list tilesets;
} many_state;

static void note_failure(many_state *s, int code)
{
    int worst = atomic_load(&s->worst);
    while (code > worst && !atomic_compare_exchange_weak(&s->worst, &worst, code)) {}
    atomic_fetch_add(&s->failed, 1);
}

static void log_error(many_state *s, const many_model *m, int32_t seed, const smalti_error *err)
{
    if (temp_files_ending()) return;
    pthread_mutex_lock(&s->log);
    if (err->file[0] && err->line > 0) fprintf(stderr, "%s:%d: error: seed %d: %s\n", err->file, err->line, (int)seed, err->message);
    else fprintf(stderr, "%s: error: seed %d: %s\n", err->file[0] ? err->file : m->job->label, (int)seed, err->message);
    pthread_mutex_unlock(&s->log);
}

/* The folders on the way to path; several threads may make the same one at once. */
static bool make_parent_dirs(const char *path, smalti_error *err)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            snprintf(err->file, sizeof err->file, "%.*s", (int)sizeof err->file - 1, dir);
            snprintf(err->message, sizeof err->message, "cannot make the folder: %s", strerror(errno));
            err->line = 0;
            err->status = SMALTI_ERR_IO;
            return false;
        }
        *p = '/';
    }
    return true;
}

/* The model of item g, and g's place among that model's seeds. */
static int locate(const many_state *s, int64_t g, int64_t *k)
{
    int m = 0;
    while (g >= s->models[m].seeds.total) g -= s->models[m++].seeds.total;
    *k = g;
    return m;
}

static bool is_pending(const many_state *s, int64_t g, int *m, int64_t *k, int32_t *seed)
{
    if (!shard_has(g, s->o->shard_k, s->o->shard_n)) return false;
    *m = locate(s, g, k);
    *seed = seed_list_at(&s->models[*m].seeds, *k);
    return !manifest_done_has(s->done, s->keys[*m], *seed);
}

/* The output path of item (m, k); false when the template makes it too long. */
static bool item_path(const many_state *s, int m, int64_t k, int32_t seed, char *path, size_t size)
{
    int w, h, d;
    smalti_model_grid_size(s->models[m].job->model, &w, &h, &d);
    template_fields f = {s->models[m].job->name, seed, k, w, h, d, s->models[m].job->model};
    return template_expand(s->models[m].out, &f, path, size);
}

/* Its manifest line; false (the list stops) when it cannot be written. */
static bool append_manifest_line(many_state *s, const many_model *mm, const smalti_run *run, const job_result *res, int64_t k,
                                 int32_t seed, const char *path, double seconds)
{
    manifest_entry e = {.model = mm->job->name, .seed = seed, .i = k, .steps = res->steps, .finished = res->finished,
                        .ms = 1000 * seconds, .output_count = 1, .attempts = res->attempts,
                        .warnings = res->warnings, .params = mm->job->model};
    const char *outputs[1] = {path};
    e.outputs = outputs;
    const unsigned char *cells = smalti_run_grid(run, &e.mx, &e.my, &e.mz);
    manifest_grid_sha256(cells, e.mx, e.my, e.mz, e.sha256);
    char line[9000];
    size_t len = manifest_format(&e, line, sizeof line);
    if (len && manifest_append(s->manifest_fd, line, len)) return true;
    pthread_mutex_lock(&s->log);
    fprintf(stderr, "%s: error: cannot write the manifest line of seed %d: %s\n", s->o->manifest, (int)seed,
            len ? strerror(errno) : "too long");
    pthread_mutex_unlock(&s->log);
    note_failure(s, EXIT_IO);
    atomic_store(&s->stop, true);
    return false;
}

/* The error of a run, with its seed, one message at a time (a job_run_spec's report). */
typedef struct item_report {
    many_state *s;
    const many_model *m;
    int32_t seed;
} item_report;
static void report_item(void *userdata, const smalti_error *err)
{
    const item_report *r = userdata;
    log_error(r->s, r->m, r->seed, err);
}

/* The generated tileset that the tile maps of model m in path's folder share ("FOLDER/NAME.tiles.png"),
   written by the first run to need it; NULL when the output is no tile map, a sheet draws it
   (--tiles), or the name is taken by another model of the list. */
static const char *shared_tileset(many_state *s, int m, const smalti_run *run, const char *path, char *buf, size_t size)
{
    const output_kind *kind = output_kind_of(path);
    const job *j = s->models[m].job;
    if (!kind || !kind->takes_tiles || has_extension(path, ".png") || j->tiles) return NULL;
    const char *slash = strrchr(path, '/');
    if (snprintf(buf, size, "%.*s%s.tiles.png", slash ? (int)(slash - path + 1) : 0, path, j->name) >= (int)size) return NULL;
    pthread_mutex_lock(&s->tilesets.lock);
    shared_tileset_list *l = &s->tilesets;
    int i = 0;
    while (i < l->count && strcmp(l->path[i], buf) != 0) i++;
    bool ours = i < l->count && l->owner[i] == j && l->written[i];
    if (i == l->count && l->count < MANY_MAX_TILESETS && (l->path[i] = strdup(buf))) {
        smalti_error err;
        l->owner[i] = j;
        l->written[i] = ours = job_write_tileset(j, run, buf, &err); /* when not, each map writes its own, and says why */
        l->count++;
    }
    pthread_mutex_unlock(&s->tilesets.lock);
    return ours ? buf : NULL;
}

/* Run item (m, k, seed) on *run (made or reset by job_run), write its output and its manifest line. */
static void run_item(many_state *s, smalti_run **run, int *run_model, int m, int64_t k, int32_t seed)
{
    many_model *mm = &s->models[m];
    const job *j = mm->job;
    double start = now_seconds();
    if (*run && *run_model != m) {
        smalti_run_free(*run);
        *run = NULL;
    }
    *run_model = m;
    char path[4200];
    if (!item_path(s, m, k, seed, path, sizeof path)) {
        smalti_error err = {0};
        snprintf(err.file, sizeof err.file, "%.*s", (int)sizeof err.file - 1, j->label);
        snprintf(err.message, sizeof err.message, "the output name of the template is too long");
        log_error(s, mm, seed, &err);
        note_failure(s, EXIT_USAGE);
        return;
    }
    smalti_error err;
    if (!make_parent_dirs(path, &err)) {
        log_error(s, mm, seed, &err);
        note_failure(s, EXIT_IO);
        return;
    }
    item_report r = {s, mm, seed};
    const job_observers quiet_steps = {.no_progress = true};
    job_run_spec spec = {.seed = seed, .observers = &quiet_steps, .no_note = true, .seed_in_warnings = true,
                         .report = report_item, .report_userdata = &r,
                         .colours_said = s->o->quiet || atomic_exchange(&s->colours_said, true)};
    job_result res;
    int rc = job_run(j, run, &spec, &res); /* the run alone: its output follows, with the shared tileset */
    char tileset[4200];
    if (rc == EXIT_OK) {
        spec.tileset = shared_tileset(s, m, *run, path, tileset, sizeof tileset);
        if (!job_write_output(j, *run, seed, path, spec.tileset, spec.colours_said, &err)) {
            if (!temp_files_ending()) log_error(s, mm, seed, &err);
            rc = mem_whole_spent() ? EXIT_MEMORY : exit_code_for(err.status); /* the picture passed --max-memory */
        }
    }
    if (rc != EXIT_OK) {
        note_failure(s, rc);
        smalti_run_free(*run); /* a run that failed is made afresh for the next seed */
        *run = NULL;
        return;
    }
    if (res.limited) atomic_fetch_add(&s->limited, 1);
    if (s->manifest_fd >= 0 && !append_manifest_line(s, mm, *run, &res, k, seed, path, now_seconds() - start)) return;
    atomic_fetch_add(&s->made, 1);
}

static void *worker(void *arg)
{
    many_state *s = arg;
    smalti_run *run = NULL;
    int run_model = -1;
    /* --max-memory bounds each thread's run together with the picture it writes (a budget counts
       one thread's allocations, and a picture is drawn outside the run's calls). */
    mem_budget own = {.limit = s->o->max_memory};
    mem_budget *outer = own.limit ? mem_enter_whole(&own) : NULL;
    while (!atomic_load(&s->stop)) {
        int64_t g = atomic_fetch_add(&s->next, 1);
        if (g >= s->total) break;
        int m;
        int64_t k;
        int32_t seed;
        own.spent = false; /* each item's failure is its own */
        if (is_pending(s, g, &m, &k, &seed)) run_item(s, &run, &run_model, m, k, seed);
    }
    smalti_run_free(run);
    if (own.limit) mem_enter_whole(outer);
    atomic_fetch_sub(&s->threads_running, 1);
    return NULL;
}

/* NAME.tmpPID or NAME.tmpPID.N (io/atomic.c) of a process that is gone: its pid, else 0. */
static long dead_temp_pid(const char *name, size_t *base_len)
{
    const char *t = strstr(name, ".tmp");
    for (; t; t = strstr(t + 1, ".tmp")) {
        char *end;
        long pid = strtol(t + 4, &end, 10);
        if (end == t + 4 || pid <= 0) continue;
        if (*end == '.') {
            const char *n = end + 1;
            strtol(n, &end, 10);
            if (end == n) continue;
        }
        if (*end) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) return 0; /* alive (or not ours to judge) */
        *base_len = (size_t)(t - name);
        return pid;
    }
    return 0;
}

/* --resume after a crash (kill -9 cannot be caught): remove the temporary files that dead
   smalti processes left beside the outputs still to make. Only names of this work list are
   touched, and only those of processes that no longer run here. */
static void remove_stale_temps(many_state *s)
{
    manifest_done *pending = manifest_done_new(), *dirs = manifest_done_new();
    char path[4200], dir[4200];
    for (int64_t g = 0; pending && dirs && g < s->total; g++) {
        int m;
        int64_t k;
        int32_t seed;
        if (!is_pending(s, g, &m, &k, &seed) || !item_path(s, m, k, seed, path, sizeof path)) continue;
        manifest_done_add(pending, path, 0);
        char *slash = strrchr(path, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
        manifest_done_add(dirs, dir, 0);
    }
    /* Each folder once. */
    for (size_t i = 0; dirs && i < manifest_done_capacity(dirs); i++) {
        const char *d = manifest_done_slot(dirs, i);
        DIR *folder = d ? opendir(d) : NULL;
        if (!folder) continue;
        struct dirent *e;
        while ((e = readdir(folder))) {
            size_t base_len;
            if (!dead_temp_pid(e->d_name, &base_len)) continue;
            bool here = strcmp(d, ".") == 0 && !strchr(s->models[0].out, '/');
            snprintf(path, sizeof path, "%s%s%.*s", here ? "" : d, here ? "" : "/", (int)base_len, e->d_name);
            if (!manifest_done_has(pending, path, 0)) continue;
            snprintf(path, sizeof path, "%s/%s", d, e->d_name);
            if (unlink(path) == 0 && !s->o->quiet) fprintf(stderr, "smalti: removed %s, left by a run cut short\n", path);
        }
        closedir(folder);
    }
    manifest_done_free(pending);
    manifest_done_free(dirs);
}

static int execute_list(many_model *models, int count, const many_options *o, char **keys)
{
    many_state s = {.models = models, .count = count, .o = o, .keys = keys, .manifest_fd = -1};
    atomic_init(&s.next, 0);
    atomic_init(&s.made, 0);
    atomic_init(&s.failed, 0);
    atomic_init(&s.limited, 0);
    atomic_init(&s.worst, EXIT_OK);
    atomic_init(&s.stop, false);
    atomic_init(&s.colours_said, false);
    pthread_mutex_init(&s.log, NULL);
    pthread_mutex_init(&s.tilesets.lock, NULL);
    for (int m = 0; m < count; m++) s.total += models[m].seeds.total;
    manifest_done *done = NULL;
    if (o->manifest) {
        int rc = manifest_open(o->manifest, o->resume, &s.manifest_fd, &done);
        if (rc != EXIT_OK) return rc;
        s.done = done;
    }
    int64_t pending = 0, in_shard = 0;
    for (int64_t g = 0; g < s.total; g++) {
        int m;
        int64_t k;
        int32_t seed;
        in_shard += shard_has(g, o->shard_k, o->shard_n);
        pending += is_pending(&s, g, &m, &k, &seed);
    }
    if (o->resume) remove_stale_temps(&s);
    long jobs = o->jobs > 0 ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1) jobs = 1;
    if (jobs > MANY_MAX_JOBS) jobs = MANY_MAX_JOBS;
    if (jobs > pending) jobs = pending > 0 ? (long)pending : 1;
    double start = now_seconds();
    many_progress progress;
    if (!o->quiet) many_progress_start(&progress);
    pthread_t threads[MANY_MAX_JOBS];
    int started = 0;
    atomic_init(&s.threads_running, 0);
    if (pending > 0) {
        for (long t = 0; t < jobs; t++) {
            atomic_fetch_add(&s.threads_running, 1);
            if (pthread_create(&threads[started], NULL, worker, &s) != 0) {
                atomic_fetch_sub(&s.threads_running, 1);
                break;
            }
            started++;
        }
        if (started == 0) worker(&s); /* no thread could be made: run them here */
        while (atomic_load(&s.threads_running) > 0) {
            nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
            if (!o->quiet) many_progress_show(&progress, atomic_load(&s.made) + atomic_load(&s.failed), pending, false);
        }
        for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    }
    int64_t made = atomic_load(&s.made), failed = atomic_load(&s.failed), limited = atomic_load(&s.limited);
    if (!o->quiet) many_progress_show(&progress, made + failed, pending, true);
    if (!o->quiet || failed) {
        double t = now_seconds() - start;
        fprintf(stderr, "smalti: %lld %s made", (long long)made, plural((long)made, "run", "runs"));
        if (o->shard_n > 1) fprintf(stderr, " (shard %ld/%ld: %lld of %lld)", o->shard_k, o->shard_n, (long long)in_shard, (long long)s.total);
        if (in_shard > pending) fprintf(stderr, ", %lld done before (--resume)", (long long)(in_shard - pending));
        if (failed) fprintf(stderr, ", %lld failed", (long long)failed);
        if (limited) fprintf(stderr, ", %lld stopped at the step limit (--steps)", (long long)limited);
        fprintf(stderr, "; %.1f s%s", t, made > 0 && t > 0 ? "" : "\n");
        if (made > 0 && t > 0) fprintf(stderr, ", %.1f runs/s\n", made / t);
    }
    manifest_done_free(done);
    if (s.manifest_fd >= 0 && close(s.manifest_fd) != 0) {
        fprintf(stderr, "%s: error: %s\n", o->manifest, strerror(errno));
        if (atomic_load(&s.worst) == EXIT_OK) return EXIT_IO;
    }
    pthread_mutex_destroy(&s.log);
    for (int i = 0; i < s.tilesets.count; i++) free(s.tilesets.path[i]);
    pthread_mutex_destroy(&s.tilesets.lock);
    return atomic_load(&s.worst);
}

static void free_keys(char **keys, int count)
{
    for (int m = 0; keys && m < count; m++) free(keys[m]);
    free(keys);
}

/* Each model's manifest key (its template was checked by many_check_template). */
static int prepare_keys(const many_model *models, int count, char ***keys)
{
    if (!(*keys = calloc((size_t)count, sizeof **keys))) return EXIT_MEMORY;
    for (int m = 0; m < count; m++) {
        const job *j = models[m].job;
        char key[8192];
        if (!manifest_key(j->name, j->model, key, sizeof key)) {
            fprintf(stderr, "%s: error: the model's parameters are too long for a manifest line\n", j->label);
            return EXIT_USAGE;
        }
        if (!((*keys)[m] = strdup(key))) return EXIT_MEMORY;
    }
    return EXIT_OK;
}

int many_execute(many_model *models, int count, const many_options *o)
{
    char **keys = NULL;
    int rc = prepare_keys(models, count, &keys);
    if (rc == EXIT_OK) rc = execute_list(models, count, o, keys);
    free_keys(keys, count);
    return rc;
}
