/* studio.c — `smalti studio MODEL.xml`: runs the model, re-runs it when its file or a
   resource file changes (inotify) or the page asks, and hands each run (its trace) or its error to the web server. */
#define _GNU_SOURCE
#include "studio.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../../core/file_read.h"
#include "../../core/resource.h"
#include "../../io/escape.h"
#include "../../nodes/params.h"
#include "../../nodes/settings.h"
#include "../common/cli.h"
#include "../job/job.h"
#include "httplib.h"

#define STUDIO_DEFAULT_TIMEOUT 10.0
/* A model edited in the page is untrusted input, as a shared one is: a run (with its load and trace)
   holds at most this much unless --max-memory says otherwise. */
#define STUDIO_DEFAULT_MAX_MEMORY ((size_t)2 << 30)
/* Cell changes a run may record: the page holds them all (about 10 bytes each in the browser), so a
   run that rewrites a big grid at every step is stopped before it fills the memory of both. */
#define STUDIO_MAX_CHANGES 10000000

/* The cells a run has changed, counted after the trace records them (job_observers.extra). */
typedef struct studio_recorder {
    smalti_run *run;
    long long changes;
    bool over;
} studio_recorder;

static void studio_observe(void *userdata, const smalti_step_event *event)
{
    studio_recorder *r = userdata;
    r->changes += (long long)event->changed_count;
    if (!r->over && r->changes > STUDIO_MAX_CHANGES) {
        r->over = true;
        smalti_run_cancel(r->run);
    }
}

/* Set by the handler on the main thread, read by the file watcher's thread too: an atomic, which a
   signal handler may store to (lock-free), where volatile sig_atomic_t is only safe within one thread. */
static atomic_int studio_signalled;
static void on_signal(int sig) { atomic_store(&studio_signalled, sig); }

void studio_request_run(studio *s)
{
    s->requested++;
    if (s->running) smalti_run_cancel(s->running); /* a new edit makes the run going on moot */
    pthread_cond_broadcast(&s->changed);
}

void studio_event_release(studio *s, studio_event *e)
{
    (void)s;
    if (e && --e->refs == 0) {
        free(e->text);
        free(e);
    }
}

/* The model's text for the page. Read from the descriptor that opened it, a regular file only and
   at most STUDIO_MAX_SOURCE bytes: the file is edited while studio runs, and whatever replaces it
   (a FIFO, a link to /dev/zero) must not hang or swell the server. */
#define STUDIO_MAX_SOURCE (64u << 20)
char *studio_read_model(const studio *s, size_t *len)
{
    int fd = file_open_named(s->model_path);
    if (fd < 0) return NULL;
    file_read_status status;
    char *text = (char *)file_read_fd(fd, STUDIO_MAX_SOURCE, len, &status);
    close(fd);
    return text;
}

static void put_error_text(FILE *f, const smalti_error *err)
{
    char text[1200];
    if (err->file[0] && err->line > 0) snprintf(text, sizeof text, "%s:%d: error: %s", err->file, err->line, err->message);
    else if (err->file[0]) snprintf(text, sizeof text, "%s: error: %s", err->file, err->message);
    else snprintf(text, sizeof text, "smalti: error: %s", err->message);
    json_write_string(f, text, strlen(text));
}

/* An event "failed": the model does not load; the page keeps the last run and marks the line. */
static studio_event *error_event(const studio *s, const smalti_error *err)
{
    studio_event *e = calloc(1, sizeof *e);
    FILE *f = e ? open_memstream(&e->text, &e->len) : NULL;
    if (!f) {
        free(e);
        return NULL;
    }
    fputs("event: failed\ndata: {\"message\":", f);
    put_error_text(f, err);
    fprintf(f, ",\"file\":");
    json_write_string(f, err->file, strlen(err->file));
    fprintf(f, ",\"line\":%d,\"source\":", err->line);
    size_t len = 0;
    char *source = studio_read_model(s, &len);
    json_write_string(f, source ? source : "", source ? len : 0);
    free(source);
    fputs("}\n\n", f);
    if (fclose(f) != 0) {
        free(e->text);
        free(e);
        return NULL;
    }
    return e;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The run, made: kept where a newer request can cancel it (job_run_spec.started). */
typedef struct studio_start {
    studio *s;
    long request;
    studio_recorder *rec;
} studio_start;
static void studio_started(void *userdata, smalti_run *run)
{
    studio_start *st = userdata;
    st->rec->run = run;
    pthread_mutex_lock(&st->s->lock);
    st->s->running = run;
    if (st->s->requested != st->request) smalti_run_cancel(run); /* asked for again before it was cancellable */
    pthread_mutex_unlock(&st->s->lock);
}

/* The --set texts of p as the pointers smalti_load_options.params takes, in sets. */
static void studio_params_list(const studio_params *p, const char **sets)
{
    for (int i = 0; i < p->set_count; i++) sets[i] = p->sets[i];
}

bool studio_params_add_set(studio_params *p, const char *text, size_t len)
{
    const char *eq = memchr(text, '=', len);
    if (!eq || !param_name_valid(text, (size_t)(eq - text)) || memchr(text, '\n', len) || len >= STUDIO_SET_TEXT) return false;
    int at = 0;
    while (at < p->set_count && strncmp(p->sets[at], text, (size_t)(eq - text) + 1) != 0) at++;
    if (at == STUDIO_MAX_SETS) return false;
    memcpy(p->sets[at], text, len);
    p->sets[at][len] = 0;
    if (at == p->set_count) p->set_count++;
    return true;
}

/* "params":[{"name":"rooms","value":"12","default":"8"},...]: the model's parameters for the page's fields. */
static void put_params(FILE *f, const smalti_model *model)
{
    fputs(",\"params\":[", f);
    for (int i = 0; i < smalti_model_param_count(model); i++) {
        smalti_param_info p;
        if (!smalti_model_param(model, i, &p)) continue;
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        json_write_string(f, p.name, strlen(p.name));
        fputs(",\"value\":", f);
        json_write_string(f, p.value, strlen(p.value));
        fputs(",\"default\":", f);
        json_write_string(f, p.default_value, strlen(p.default_value));
        fputs("}", f);
    }
    fputs("]", f);
}

/* The event "run": its end, note, caps and trace, for the page. NULL when out of memory. */
static studio_event *run_event(const job *j, const smalti_run *run, const studio_params *p, const studio_recorder *rec,
                               const job_result *res, trace_writer *tw, double t0)
{
    studio_event *e = calloc(1, sizeof *e);
    FILE *f = e ? open_memstream(&e->text, &e->len) : NULL;
    if (!f) {
        free(e);
        return NULL;
    }
    const bool failed = res->error.status != SMALTI_OK;
    const char *end = "finished";
    char note[1600 + sizeof j->label] = "";
    if (rec->over) {
        end = "changecap";
        snprintf(note, sizeof note, "stopped after %d cell changes, more than the page holds; lower the step cap", STUDIO_MAX_CHANGES);
    } else if (failed && res->error.status == SMALTI_ERR_TIMEOUT) {
        end = "timecap";
        snprintf(note, sizeof note, "stopped by the time cap (%g s)", p->timeout);
    } else if (failed) end = "error";
    else if (res->limited) {
        end = "stepcap";
        job_step_limit_text(j, run, false, note, sizeof note); /* the one wording of every command */
    }
    if (!failed && res->warnings > 0) { /* a <wfc> that found no solution: the page says so, with the step-limit note if any */
        size_t at = strlen(note);
        snprintf(note + at, sizeof note - at, "%swarning: %s%s", at ? "; " : "", res->warning,
                 res->warnings > 1 ? " (and more warnings)" : "");
    }
    fprintf(f, "event: run\ndata: {\"seed\":%ld,\"size\":[%d,%d,%d],\"steps\":%ld,\"end\":\"%s\",\"note\":", p->seed, res->mx,
            res->my, res->mz, res->steps, end);
    if (failed && !note[0]) put_error_text(f, &res->error);
    else json_write_string(f, note, strlen(note));
    char attempts[400];
    job_attempts_text(run, attempts, sizeof attempts);
    fprintf(f, ",\"attempts\":%d,\"attempts_note\":", res->attempts);
    json_write_string(f, attempts, strlen(attempts));
    fprintf(f, ",\"warnings\":%d,\"stepcap\":%ld,\"timecap\":%g,\"ms\":%.1f", res->warnings, p->steps, p->timeout, now_ms() - t0);
    put_params(f, j->model);
    fputs(",\"trace\":\"", f);
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(tw, &len);
    put_base64(f, bytes, len);
    fputs("\"}\n\n", f);
    if (fclose(f) != 0) {
        free(e->text);
        free(e);
        return NULL;
    }
    return e;
}

/* Run the model once with p, through the pipeline of every command (job/); NULL when the run was
   cancelled (a newer one is asked for). */
static studio_event *run_once(studio *s, const studio_params *p, long request)
{
    double t0 = now_ms();
    /* The load and the run each get the time cap, as in `pack check`; both count against the memory cap. */
    const char *sets[STUDIO_MAX_SETS];
    studio_params_list(p, sets);
    const job_request req = {.model = s->model_path, .grid = {.size = (int)p->size}, .seed_given = true, .seed = (int32_t)p->seed,
                             .steps_given = true, .steps = p->steps, .steps_from = STEPS_PAGE, .iso = -1,
                             .params = sets, .param_count = p->set_count,
                             .timeout = p->timeout, .max_memory = s->max_memory, .keep_errors = true};
    job j;
    if (job_open(&j, &req) != EXIT_OK) return error_event(s, &j.error);
    studio_recorder rec = {0};
    studio_start st = {s, request, &rec};
    const job_observers obs = {.trace_in_memory = true, .no_progress = true, .extra = studio_observe, .extra_userdata = &rec};
    smalti_error err = {0};
    job_run_spec spec = {.seed = j.seed, .observers = &obs, .no_note = true, .keep_errors = true, .report = job_keep_error,
                         .report_userdata = &err, .started = studio_started, .started_userdata = &st};
    smalti_run *run = NULL;
    job_result res;
    job_run(&j, &run, &spec, &res);
    pthread_mutex_lock(&s->lock);
    s->running = NULL;
    pthread_mutex_unlock(&s->lock);
    studio_event *e = NULL;
    if (!run || !res.trace) e = error_event(s, &err); /* the run or its trace could not be made */
    else if (res.error.status != SMALTI_ERR_CANCELLED || rec.over) e = run_event(&j, run, p, &rec, &res, res.trace, t0);
    trace_writer_free(res.trace);
    smalti_run_free(run);
    job_close(&j);
    return e;
}

/* The folders watched for resources: wd -> path, to add watches under a folder made later. */
#define STUDIO_MAX_WATCHES 4096
#define STUDIO_RESOURCE_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
typedef struct studio_watches {
    int fd, model_wd, count;
    int wd[STUDIO_MAX_WATCHES];
    char *path[STUDIO_MAX_WATCHES];
} studio_watches;

/* Watch dir and every folder under it (rules/, samples/, tilesets/ and each tileset's tiles):
   a run reads its rule images, samples and tiles from there. A missing folder is skipped. */
static void watch_tree(studio_watches *w, const char *dir, int depth)
{
    if (depth > 8 || w->count >= STUDIO_MAX_WATCHES) return;
    int wd = inotify_add_watch(w->fd, dir, STUDIO_RESOURCE_EVENTS | IN_ONLYDIR | IN_MASK_ADD);
    if (wd < 0) return;
    for (int i = 0; i < w->count; i++)
        if (w->wd[i] == wd) return; /* the same folder by another name (./resources and MODEL_DIR/resources) */
    char *copy = strdup(dir);
    if (!copy) return;
    w->wd[w->count] = wd;
    w->path[w->count++] = copy;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))) continue;
        char sub[PATH_MAX];
        if (snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub) continue;
        struct stat sb;
        if (e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN && stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode))) watch_tree(w, sub, depth + 1);
    }
    closedir(d);
}

/* The default resource roots, as src/nodes/model.c builds them for a model loaded without --resources. */
static void watch_resources(studio_watches *w, const studio *s)
{
    char root[sizeof s->model_dir + 16];
    watch_tree(w, "resources", 0);
    snprintf(root, sizeof root, "%s/resources", s->model_dir);
    watch_tree(w, root, 0);
    snprintf(root, sizeof root, "%s/../resources", s->model_dir);
    watch_tree(w, root, 0);
}

/* Whether this event changes what a run reads; a folder made under a watched one is watched too. */
static bool studio_event_matters(studio_watches *w, const studio *s, const struct inotify_event *ev)
{
    if (ev->wd == w->model_wd) {
        if (ev->len && (ev->mask & IN_ISDIR) && strcmp(ev->name, "resources") == 0) watch_resources(w, s);
        return ev->len && strcmp(ev->name, s->model_name) == 0 && (ev->mask & (IN_CLOSE_WRITE | IN_MOVED_TO));
    }
    if ((ev->mask & IN_CREATE) && !(ev->mask & IN_ISDIR)) return false; /* its IN_CLOSE_WRITE follows */
    if (ev->len && (ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
        for (int i = 0; i < w->count; i++)
            if (w->wd[i] == ev->wd) {
                char sub[PATH_MAX];
                if (snprintf(sub, sizeof sub, "%s/%s", w->path[i], ev->name) < (int)sizeof sub) watch_tree(w, sub, 1);
                break;
            }
    }
    return (ev->mask & STUDIO_RESOURCE_EVENTS) != 0;
}

/* The watcher: the model's directory (editors often save by renaming a new file over the old)
   and the resource folders the model reads from. */
static void *watch_files(void *arg)
{
    studio *s = arg;
    studio_watches *w = calloc(1, sizeof *w);
    int fd = w ? inotify_init1(IN_CLOEXEC | IN_NONBLOCK) : -1;
    if (w) w->fd = fd;
    if (fd < 0 || (w->model_wd = inotify_add_watch(fd, s->model_dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ONLYDIR)) < 0) {
        fprintf(stderr, "smalti: warning: cannot watch %s (%s); use the page's re-run button\n", s->model_dir, strerror(errno));
        if (fd >= 0) close(fd);
        free(w);
        return NULL;
    }
    watch_resources(w, s);
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    while (!s->quit) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ready = poll(&pfd, 1, 200);
        if (studio_signalled) { /* Ctrl-C: the run going on stops now, not at its caps */
            pthread_mutex_lock(&s->lock);
            if (s->running) smalti_run_cancel(s->running);
            pthread_mutex_unlock(&s->lock);
        }
        if (ready <= 0) continue;
        ssize_t n = read(fd, buf, sizeof buf);
        bool ours = false;
        for (char *p = buf; n > 0 && p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            if (studio_event_matters(w, s, ev)) ours = true;
            p += sizeof *ev + ev->len;
        }
        if (ours) {
            pthread_mutex_lock(&s->lock);
            studio_request_run(s);
            pthread_mutex_unlock(&s->lock);
        }
    }
    close(fd);
    for (int i = 0; i < w->count; i++) free(w->path[i]);
    free(w);
    return NULL;
}

static int studio_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "smalti: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nUsage: smalti studio MODEL.xml [--size N] [--seed S] [--steps N] [--set NAME=VALUE]... [--timeout SECONDS] "
                    "[--max-memory SIZE] [--port P]\n");
    return EXIT_USAGE;
}

typedef struct studio_args {
    const char *model_path;
    studio_params params;
    size_t max_memory;
    long port;
    bool seed_given, steps_given; /* else the model's own, if it has them */
} studio_args;

static bool takes_value(const char *arg)
{
    static const char *const valued[] = {"--size", "--seed", "--port", "--steps", "--timeout", "--max-memory", "--set"};
    for (size_t i = 0; i < sizeof valued / sizeof *valued; i++)
        if (strcmp(arg, valued[i]) == 0) return true;
    return false;
}

/* One option with its value val (NULL: none left): the arguments it took (2), or -1 after a usage error. */
static int parse_studio_option(void *args, const char *arg, const char *val)
{
    studio_args *a = args;
    if (!takes_value(arg)) return unknown_option("studio", arg), -1;
    if (!val) return studio_usage("%s needs a value", arg), -1;
    studio_params *p = &a->params;
    if (strcmp(arg, "--size") == 0) {
        if (!parse_int_arg(val, 1, 4096, &p->size)) return studio_usage("--size: a whole number from 1 to 4096, not %s", val), -1;
    } else if (strcmp(arg, "--seed") == 0) {
        if (!parse_int_arg(val, INT32_MIN, INT32_MAX, &p->seed)) return studio_usage("--seed: a whole number, not %s", val), -1;
        a->seed_given = true;
    } else if (strcmp(arg, "--port") == 0) {
        if (!parse_int_arg(val, 1, 65535, &a->port)) return studio_usage("--port: 1 to 65535, not %s", val), -1;
    } else if (strcmp(arg, "--steps") == 0) {
        if (!parse_int_arg(val, 1, 1000000000, &p->steps)) return studio_usage("--steps: 1 to 1000000000, not %s", val), -1;
        a->steps_given = true;
    } else if (strcmp(arg, "--timeout") == 0) {
        char *end;
        p->timeout = strtod(val, &end);
        if (*end || !(p->timeout > 0 && p->timeout <= 3600))
            return studio_usage("--timeout: seconds, over 0, at most 3600, not %s", val), -1;
    } else if (strcmp(arg, "--set") == 0) {
        if (strchr(val, ',') || !studio_params_add_set(p, val, strlen(val)))
            return studio_usage("--set %s: expected NAME=VALUE, one value (NAME of letters, digits and '_')", val), -1;
    } else if (!parse_max_memory(val, &a->max_memory)) return -1;
    return 2;
}

static int parse_studio_args(int argc, char **argv, studio_args *a)
{
    *a = (studio_args){.params = {.seed = 1, .size = 0, .steps = SMALTI_DEFAULT_STEPS, .timeout = STUDIO_DEFAULT_TIMEOUT},
                       .max_memory = STUDIO_DEFAULT_MAX_MEMORY};
    int rc = cli_parse_args(argc, argv, parse_studio_option, a, &a->model_path, studio_usage);
    if (rc != EXIT_OK) return rc;
    if (!a->model_path) return studio_usage("%s", "missing MODEL.xml");
    return EXIT_OK;
}

/* The web server's library and the model's file are there; EXIT_OK or the error, told. */
static int check_can_serve(const char *model_path)
{
    char why_lib[600];
    if (!httplib_get(why_lib, sizeof why_lib)) {
        fprintf(stderr, "smalti: error: %s\n", why_lib);
        return EXIT_RUNTIME;
    }
    /* A model that is not there (or a folder) is an error now; a broken one is shown in the page. */
    int why_not = input_file_error(model_path);
    if (why_not) {
        fprintf(stderr, "%s: error: cannot read: %s\n", model_path, strerror(why_not));
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* The model's own seed and step limit, unless given here. */
static void take_model_settings(studio_args *a)
{
    smalti_settings st;
    smalti_error err;
    const char *sets[STUDIO_MAX_SETS];
    studio_params_list(&a->params, sets);
    smalti_load_options with_params = smalti_load_defaults();
    with_params.params = sets;
    with_params.param_count = a->params.set_count;
    if (settings_read_file(a->model_path, &with_params, &st, &err)) {
        if (!a->seed_given && st.has_seed) a->params.seed = st.seed;
        if (!a->steps_given && st.has_steps && st.steps > 0) a->params.steps = st.steps;
    }
}

/* The model's file name and its folder, as the page shows and the watcher watches them. */
static void name_model(studio *s)
{
    const char *slash = strrchr(s->model_path, '/');
    snprintf(s->model_name, sizeof s->model_name, "%s", slash ? slash + 1 : s->model_path);
    if (slash) snprintf(s->model_dir, sizeof s->model_dir, "%.*s", (int)(slash - s->model_path) ? (int)(slash - s->model_path) : 1, s->model_path);
    else snprintf(s->model_dir, sizeof s->model_dir, ".");
}

/* Waits under s->lock for a run asked for, at most 200 ms, so that a signal is seen soon. */
static void wait_for_request(studio *s)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 200 * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->changed, &s->lock, &until);
}

/* Runs the model each time a run is asked for, publishing each run's event, until a signal comes. */
static void serve_runs(studio *s)
{
    pthread_mutex_lock(&s->lock);
    while (!studio_signalled) {
        if (s->requested == s->started) {
            wait_for_request(s);
            continue;
        }
        long request = s->started = s->requested;
        studio_params now = s->params;
        pthread_mutex_unlock(&s->lock);
        /* --max-memory bounds the run with what is drawn and recorded around it, as in `run`. */
        mem_budget whole = {.limit = s->max_memory};
        mem_budget *outer = mem_enter_whole(&whole);
        studio_event *e = run_once(s, &now, request);
        mem_enter_whole(outer);
        pthread_mutex_lock(&s->lock);
        if (e) {
            e->refs = 1;
            e->gen = ++s->gen;
            studio_event_release(s, s->latest);
            s->latest = e;
            pthread_cond_broadcast(&s->changed);
        }
    }
    s->quit = 1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
}

int cmd_studio(int argc, char **argv)
{
    studio_args a;
    int rc = parse_studio_args(argc, argv, &a);
    if (rc == EXIT_OK) rc = check_can_serve(a.model_path);
    if (rc != EXIT_OK) return rc;
    take_model_settings(&a);
    studio s = {.model_path = a.model_path, .max_memory = a.max_memory, .params = a.params};
    name_model(&s);
    s.requested = 1; /* the first run */
    pthread_mutex_init(&s.lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&s.changed, &ca);
    char why[300];
    /* Before the server's threads start: a client that hangs up mid-reply must not end the studio. */
    signal(SIGPIPE, SIG_IGN);
    if (!studio_http_start(&s, (unsigned)a.port, why, sizeof why)) {
        fprintf(stderr, "smalti: error: %s\n", why);
        return EXIT_IO;
    }
    printf("http://127.0.0.1:%u/%s/\n", atomic_load(&s.port), s.token);
    fflush(stdout);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    pthread_t watcher;
    bool watching = pthread_create(&watcher, NULL, watch_files, &s) == 0;
    serve_runs(&s);
    if (watching) pthread_join(watcher, NULL);
    studio_http_stop(&s);
    pthread_mutex_lock(&s.lock);
    studio_event_release(&s, s.latest);
    pthread_mutex_unlock(&s.lock);
    return EXIT_OK;
}
