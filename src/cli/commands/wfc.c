/* wfc.c — `smalti wfc SAMPLES.xml`: the standalone WaveFunctionCollapse project's sample list
   (overlapping and simple tiled models) on the engine of the `wfc` node, written as PNGs. */
#include "../common/cli.h"
#include <libxml/parser.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../core/xmlutil.h"
#include "../../wfc/classic.h"

#define MAX_NAMES 1024
/* Threads at most for one entry's outputs (each holds a solver). */
#define WFC_MAX_JOBS 256

typedef struct wfc_args {
    const char *list, *root, *out_dir;
    long seed, runs, tries;
    long backtrack;            /* -1: each entry's own */
    long blocks;               /* -1: each entry's own; 0: none (blocks.h) */
    int sets;                  /* --propagation: -1 each entry's own, 0 counts, 1 sets */
    long jobs;                 /* outputs of an entry solved at once, on threads */
    bool jobs_given;           /* -j said so; else one per core, as memory allows */
    bool quiet;
    double timeout;            /* --timeout: seconds for the whole command; 0: none */
    int64_t deadline_ns;       /* when it ends (stop.h's clock); 0: none */
    size_t max_memory;         /* --max-memory: bytes the command holds (and each -j thread adds); 0: none */
} wfc_args;

/* How many outputs each base name already has, so repeated entries (Chess N2 twice) do not overwrite each other. */
typedef struct name_counts {
    char names[MAX_NAMES][300];
    int counts[MAX_NAMES];
    int used;
} name_counts;

static int next_index(name_counts *nc, const char *base)
{
    for (int k = 0; k < nc->used; k++)
        if (strcmp(nc->names[k], base) == 0) return nc->counts[k]++;
    if (nc->used == MAX_NAMES) return 0;
    snprintf(nc->names[nc->used], sizeof nc->names[0], "%s", base);
    nc->counts[nc->used] = 1;
    nc->used++;
    return 0;
}

static bool write_text_file(const char *path, const char *text, smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, path, temp_files_hook(), err)) return false;
    fputs(text, af.f);
    return atomic_commit(&af, err);
}

/* Whether a list's element is an entry (the others are skipped with a warning). */
static bool is_entry(const xmlNode *el) { return xml_is(el, "overlapping") || xml_is(el, "simpletiled"); }

/* One output: its attempts (seeds tried until one does not contradict, at most --tries), made on
   some thread, and its picture and text, which commit_output writes in output order. */
typedef struct wfc_output {
    wfc_result r;
    int32_t seed;
    int attempts;
    double ms;
    char *png;                 /* on threads: the picture as PNG bytes, made on the thread that solved
                                  it (NULL: with one thread, drawn from the solver into the file) */
    size_t png_size;
    smalti_error png_err;      /* why png is NULL on threads */
    char *text;                /* a tiled entry's tile names when asked for (text_output) */
    long backtracks, repairs;  /* of the last attempt */
    bool ready;                /* made, waiting to be written */
} wfc_output;

/* What the outputs of one entry share. */
typedef struct wfc_entry_run {
    const wfc_args *a;
    const wfc_classic_entry *e;
    wfc_classic *m;
    const char *base;          /* "Flowers N3": file names and lines */
    name_counts *nc;
    long first_seed;
    int outputs;
    double load_ms;
} wfc_entry_run;

/* Output k on a worker's solver (NULL: the model's own), stopping at the command's deadline. */
static void solve_output(const wfc_entry_run *er, wfc_classic_worker *w, int k, wfc_output *o)
{
    const wfc_args *a = er->a;
    double start = now_seconds();
    run_stop stop = {0}; /* one per solver: a check writes to it */
    stop_rearm(&stop, 0);
    stop.deadline_ns = a->deadline_ns;
    wfc_solver *solver = w ? &w->solver : &er->m->solver;
    solver->stop = &stop;
    o->r = WFC_CONTRADICTION;
    o->attempts = 0;
    for (; o->attempts < a->tries && o->r == WFC_CONTRADICTION; o->attempts++) {
        o->seed = (int32_t)(er->first_seed + (long)k * a->tries + o->attempts);
        o->r = w ? wfc_classic_worker_run(er->m, w, o->seed, er->e->limit) : wfc_classic_run(er->m, o->seed, er->e->limit);
    }
    solver->stop = NULL;
    o->ms = 1e3 * (now_seconds() - start);
    o->backtracks = solver->backtracks;
    o->repairs = solver->repairs;
    o->png = NULL;
    o->text = NULL;
    if (o->r == WFC_CONTRADICTION || o->r == WFC_NO_MEMORY || o->r == WFC_STOPPED) return;
    if (er->e->text_output) o->text = w ? wfc_classic_worker_text(er->m, w) : wfc_classic_text(er->m);
}

/* The picture of a solver's last run, drawn a row at a time into the PNG writer. */
typedef struct picture_source {
    const wfc_classic *m;
    const wfc_classic_worker *w; /* NULL: the model's own solver */
} picture_source;

static void picture_row(const void *ctx, int y, uint32_t *row)
{
    const picture_source *ps = ctx;
    wfc_classic_render_row(ps->m, ps->w, y, row);
}

/* On a thread, while its solver still holds the output: the picture as PNG bytes, so that writing
   it in order (commit_output, one at a time) is only a copy; a big tiled picture takes longer to
   compress than to solve. */
static void encode_output(const wfc_entry_run *er, const wfc_classic_worker *w, wfc_output *o)
{
    if (o->r == WFC_CONTRADICTION || o->r == WFC_NO_MEMORY || o->r == WFC_STOPPED) return;
    picture_source ps = {er->m, w};
    int width, height;
    wfc_classic_picture_size(er->m, &width, &height);
    char *bytes = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&bytes, &size);
    if (!f) {
        error_set(&o->png_err, SMALTI_ERR_RUNTIME, "<png>", 0, "out of memory");
        return;
    }
    bool ok = png_write_rows(f, width, height, picture_row, &ps, &o->png_err);
    if (fclose(f) != 0 && ok) {
        ok = false;
        error_set(&o->png_err, SMALTI_ERR_RUNTIME, "<png>", 0, "out of memory");
    }
    if (!ok) {
        free(bytes);
        return;
    }
    o->png = bytes;
    o->png_size = size;
}

static bool write_bytes_file(const char *path, const char *bytes, size_t size, smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, path, temp_files_hook(), err)) return false;
    fwrite(bytes, 1, size, af.f);
    return atomic_commit(&af, err);
}

/* Write output k (made by solve_output, and by encode_output on threads; with one thread the
   picture is drawn from the model's own solver) and say so; frees its bytes; returns an exit code. */
static int commit_output(const wfc_entry_run *er, int k, wfc_output *o, bool threaded)
{
    const wfc_args *a = er->a;
    int rc = EXIT_OK;
    if (o->r == WFC_NO_MEMORY && a->max_memory) {
        fprintf(stderr, "%s:%d: error: solving %s needed more than the memory budget of %.1f MiB (--max-memory)\n", a->list,
                er->e->line, er->base, (double)a->max_memory / (1 << 20));
        return EXIT_MEMORY;
    }
    if (o->r == WFC_NO_MEMORY) {
        fprintf(stderr, "%s:%d: error: out of memory while solving %s\n", a->list, er->e->line, er->base);
        return EXIT_RUNTIME;
    }
    if (o->r == WFC_STOPPED) {
        fprintf(stderr, "%s:%d: error: stopped solving %s: the command took longer than its timeout of %g s\n", a->list,
                er->e->line, er->base, a->timeout);
        return EXIT_TIMEOUT;
    }
    char path[4096] = "";
    if (o->r != WFC_CONTRADICTION) {
        snprintf(path, sizeof path, "%s/%s %d.png", a->out_dir, er->base, next_index(er->nc, er->base));
        smalti_error err;
        bool ok;
        if (threaded) {
            ok = o->png && write_bytes_file(path, o->png, o->png_size, &err);
            if (!o->png) {
                /* Name the file the bytes were for (encode_output knew no path). */
                err = o->png_err;
                snprintf(err.file, sizeof err.file, "%.*s", (int)sizeof err.file - 1, path); /* a longer path is cut */
            }
        } else {
            picture_source ps = {er->m, NULL};
            int width, height;
            wfc_classic_picture_size(er->m, &width, &height);
            ok = save_png_rows(path, width, height, picture_row, &ps, temp_files_hook(), &err);
        }
        if (ok && er->e->text_output) {
            char tpath[4096];
            snprintf(tpath, sizeof tpath, "%.*s.txt", (int)(strlen(path) - 4), path);
            ok = o->text && write_text_file(tpath, o->text, &err);
            if (!o->text) error_set(&err, SMALTI_ERR_RUNTIME, tpath, 0, "out of memory");
        }
        if (!ok) {
            print_error(&err);
            rc = exit_code_for(err.status);
        }
    }
    free(o->png);
    free(o->text);
    o->png = NULL;
    o->text = NULL;
    if (rc != EXIT_OK) return rc;
    if (!a->quiet) {
        const char *outcome = o->r == WFC_DONE ? "done" : o->r == WFC_LIMIT ? "stopped at the limit" : "contradiction";
        printf("%-40s seed %-8d %9.1f ms  %s%s (%d %s before", o->r == WFC_CONTRADICTION ? er->base : path + strlen(a->out_dir) + 1,
               o->seed, o->ms + (k == 0 ? er->load_ms : 0), outcome, o->r == WFC_CONTRADICTION ? ", nothing written" : "", o->attempts - 1,
               plural(o->attempts - 1, "seed contradicted", "contradicted"));
        if (o->backtracks || o->repairs)
            printf("; last try: %ld %s taken back, %ld %s solved again", o->backtracks, plural(o->backtracks, "decision", "decisions"),
                   o->repairs, plural(o->repairs, "area", "areas"));
        printf(")\n");
    }
    return EXIT_OK;
}

/* The outputs of an entry on several threads. Each output depends on its seeds alone, so they are
   solved (and their pictures compressed) in any order and written in output order (file numbers,
   lines), each as soon as those before it are; a thread takes no output `window` (2 * threads) or
   more ahead of the next to be written, so few pictures wait, and output k waits in slot
   k % window. The first error stops the entry, as with one thread. */
typedef struct wfc_pool {
    const wfc_entry_run *er;
    wfc_output *slots;         /* [window] */
    pthread_mutex_t lock;
    pthread_cond_t moved;      /* an output was taken or written, or the entry stopped */
    int next_take, next_write, window;
    int rc;                    /* the first error's exit code; EXIT_OK */
} wfc_pool;

typedef struct wfc_thread {
    wfc_pool *pool;
    wfc_classic_worker *worker; /* NULL: the model's own solver */
    pthread_t id;
} wfc_thread;

static void *pool_work(void *arg)
{
    wfc_thread *t = arg;
    wfc_pool *p = t->pool;
    /* A worker thread's own budget (a budget counts one thread's allocations); the first thread
       keeps the command's. */
    mem_budget own = {.limit = p->er->a->max_memory};
    mem_budget *outer = t->worker && own.limit ? mem_enter_whole(&own) : NULL;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->rc == EXIT_OK && p->next_take < p->er->outputs && p->next_take >= p->next_write + p->window)
            pthread_cond_wait(&p->moved, &p->lock);
        if (p->rc != EXIT_OK || p->next_take >= p->er->outputs) break;
        int k = p->next_take++;
        pthread_mutex_unlock(&p->lock);
        wfc_output *o = &p->slots[k % p->window];
        solve_output(p->er, t->worker, k, o);
        encode_output(p->er, t->worker, o);
        pthread_mutex_lock(&p->lock);
        o->ready = true;
        while (p->rc == EXIT_OK && p->next_write < p->er->outputs && p->slots[p->next_write % p->window].ready) {
            wfc_output *next = &p->slots[p->next_write % p->window];
            p->rc = commit_output(p->er, p->next_write, next, true);
            next->ready = false;
            p->next_write++;
        }
        pthread_cond_broadcast(&p->moved);
    }
    pthread_mutex_unlock(&p->lock);
    if (t->worker && own.limit) mem_enter_whole(outer);
    return NULL;
}

/* The entry's outputs on up to `threads` threads (the model's own solver and threads - 1 workers:
   fewer when memory for a worker runs out); returns an exit code. */
static int run_outputs_threaded(const wfc_entry_run *er, int threads)
{
    wfc_output *slots = calloc(2 * (size_t)threads, sizeof *slots);
    wfc_thread *ts = calloc((size_t)threads, sizeof *ts);
    if (!slots || !ts) {
        free(slots);
        free(ts);
        fprintf(stderr, "smalti: error: out of memory\n");
        return EXIT_RUNTIME;
    }
    wfc_pool p = {.er = er, .slots = slots, .window = 2 * threads, .rc = EXIT_OK};
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.moved, NULL);
    int started = 0;
    const wfc_args *a = er->a;
    for (int k = 0; k < threads; k++) {
        ts[k].pool = &p;
        /* A solver is made only before the deadline: past it, its making and freeing (hundreds of
           MB for a big output) would be all the thread does. */
        if (k > 0 && a->deadline_ns && stop_now_ns() >= a->deadline_ns) break;
        if (k > 0 && !(ts[k].worker = wfc_classic_worker_new(er->m))) {
            if (a->max_memory && !a->quiet)
                fprintf(stderr, "%s:%d: note: %s on %d %s instead of %d: another solver would pass the memory budget of %.1f MiB (--max-memory)\n",
                        a->list, er->e->line, er->base, k, plural(k, "thread", "threads"), threads, (double)a->max_memory / (1 << 20));
            break;
        }
        if (k > 0 && pthread_create(&ts[k].id, NULL, pool_work, &ts[k]) != 0) {
            wfc_classic_worker_free(ts[k].worker);
            ts[k].worker = NULL;
            break;
        }
        started = k + 1;
    }
    pool_work(&ts[0]); /* this thread is the first, on the model's own solver */
    for (int k = 1; k < started; k++) pthread_join(ts[k].id, NULL);
    for (int k = 1; k < started; k++) wfc_classic_worker_free(ts[k].worker);
    for (int k = 0; k < p.window; k++) { /* outputs solved after an error, never written */
        free(slots[k].png);
        free(slots[k].text);
    }
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.moved);
    free(slots);
    free(ts);
    return p.rc;
}

/* Run one entry's outputs; returns an exit code. */
static int run_entry(const wfc_args *a, diag *d, const xmlNode *el, name_counts *nc)
{
    wfc_classic_entry e;
    if (!wfc_classic_read_entry(d, el, &e)) {
        print_error(d->err);
        d->failed = 0;
        return EXIT_MODEL;
    }
    if (a->backtrack >= 0) e.backtrack = (int)a->backtrack;
    if (a->blocks >= 0) e.blocks = (int)a->blocks;
    if (a->sets >= 0) e.sets = a->sets;
    char base[300];
    if (e.overlapping) snprintf(base, sizeof base, "%s N%d", e.name, e.N);
    else if (e.subset[0]) snprintf(base, sizeof base, "%s %s", e.name, e.subset);
    else snprintf(base, sizeof base, "%s", e.name);
    double t0 = now_seconds();
    run_stop load_stop = {0}; /* the load's checks of the deadline (reading the sample to the start wave) */
    stop_rearm(&load_stop, 0);
    load_stop.deadline_ns = a->deadline_ns;
    e.stop = &load_stop;
    wfc_classic *m = wfc_classic_load(d, a->root, &e);
    if (!m && d->err->status == SMALTI_ERR_TIMEOUT) {
        fprintf(stderr, "%s:%d: error: stopped loading %s: the command took longer than its timeout of %g s\n", a->list, e.line, base,
                a->timeout);
        d->failed = 0;
        return EXIT_TIMEOUT;
    }
    if (!m) {
        print_error(d->err);
        d->failed = 0;
        return exit_code_for(d->err->status);
    }
    wfc_entry_run er = {.a = a, .e = &e, .m = m, .base = base, .nc = nc, .load_ms = 1e3 * (now_seconds() - t0)};
    er.outputs = a->runs >= 0 ? (int)a->runs : e.screenshots;
    er.first_seed = e.seed >= 0 ? e.seed : a->seed;
    int threads = a->jobs < er.outputs ? (int)a->jobs : er.outputs, rc = EXIT_OK;
    if (!a->jobs_given && threads > 1) {
        /* One solver per thread: by default no more of them than half the machine's memory
           holds (a wave of up to 2 GiB each), so that all the cores do not mean swapping. */
        const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        threads = wfc_classic_threads(m, threads, pages > 0 && page > 0 ? (int64_t)pages * page : 0);
        /* Under --max-memory, one thread: the budget then bounds the whole command. */
        if (a->max_memory) threads = 1;
    }
    if (threads > 1) rc = run_outputs_threaded(&er, threads);
    else
        for (int k = 0; k < er.outputs && rc == EXIT_OK; k++) {
            wfc_output o;
            solve_output(&er, NULL, k, &o);
            rc = commit_output(&er, k, &o, false);
        }
    wfc_classic_free(m);
    return rc;
}

static int wfc_command(wfc_args *argp);

int cmd_wfc(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    wfc_args a = {.out_dir = "output", .seed = 1, .runs = -1, .tries = 10, .backtrack = -1, .blocks = -1, .sets = -1, .jobs = cores > 0 ? cores : 1};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long *target = NULL, min = 0, max = 1L << 20;
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) { a.quiet = true; continue; }
        if (strcmp(arg, "--samples") == 0 || strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (!val) { fprintf(stderr, "smalti: %s needs a value\n", arg); return EXIT_USAGE; }
            if (arg[1] == '-' && arg[2] == 's') a.root = val;
            else a.out_dir = val;
            i++;
            continue;
        }
        if (strcmp(arg, "--propagation") == 0) {
            if (!val || (strcmp(val, "counts") != 0 && strcmp(val, "sets") != 0)) {
                fprintf(stderr, "smalti: --propagation %s: expected counts or sets\n", val ? val : "");
                return EXIT_USAGE;
            }
            a.sets = strcmp(val, "sets") == 0;
            i++;
            continue;
        }
        if (strcmp(arg, "--seed") == 0) { target = &a.seed; min = 0; max = INT32_MAX; }
        else if (strcmp(arg, "--runs") == 0) { target = &a.runs; max = WFC_MAX_OUTPUTS; }
        else if (strcmp(arg, "--tries") == 0) { target = &a.tries; min = 1; }
        else if (strcmp(arg, "--backtrack") == 0) { target = &a.backtrack; max = WFC_MAX_BACKTRACK; }
        else if (strcmp(arg, "--blocks") == 0) { target = &a.blocks; max = WFC_BLOCKS_MAX; }
        else if (strcmp(arg, "-j") == 0 || strcmp(arg, "--jobs") == 0) { target = &a.jobs; min = 1; max = WFC_MAX_JOBS; a.jobs_given = true; }
        else if (strcmp(arg, "--timeout") == 0 || strcmp(arg, "--max-memory") == 0) {
            if (arg[2] == 't' ? !parse_timeout(val, &a.timeout) : !parse_max_memory(val, &a.max_memory)) return EXIT_USAGE;
            i++;
            continue;
        }
        else if (arg[0] == '-' && arg[1]) return unknown_option("wfc", arg);
        else if (a.list) { fprintf(stderr, "smalti: unexpected argument %s\n", arg); return EXIT_USAGE; }
        else { a.list = arg; continue; }
        if (!val || !parse_int_arg(val, min, max, target)) {
            fprintf(stderr, "smalti: %s %s: expected an integer from %ld to %ld\n", arg, val ? val : "", min, max);
            return EXIT_USAGE;
        }
        i++;
    }
    if (!a.list) { fprintf(stderr, "smalti: wfc needs SAMPLES.xml\n"); return EXIT_USAGE; }
    if (a.blocks > 0 && a.blocks < WFC_BLOCKS_MIN) {
        fprintf(stderr, "smalti: --blocks %ld: expected 0 (none) or an integer from %d to %d\n", a.blocks, WFC_BLOCKS_MIN, WFC_BLOCKS_MAX);
        return EXIT_USAGE;
    }
    if (a.timeout > 0) a.deadline_ns = stop_now_ns() + (int64_t)(a.timeout * 1e9);
    mem_budget whole = {.limit = a.max_memory};
    mem_budget *outer = mem_enter_whole(a.max_memory ? &whole : NULL);
    int rc = wfc_command(&a);
    mem_enter_whole(outer);
    return memory_verdict(&whole, rc, a.list);
}

/* The list's entries in turn; the first timeout ends the command. */
static int wfc_command(wfc_args *argp)
{
    wfc_args a = *argp;
    char root[4096];
    if (!a.root) {
        const char *slash = strrchr(a.list, '/');
        if (slash) snprintf(root, sizeof root, "%.*s", (int)(slash - a.list), a.list);
        else snprintf(root, sizeof root, ".");
        a.root = root;
    }
    xmlDoc *doc;
    int read = read_list_file(a.list, "sample list", &doc);
    if (read != EXIT_OK) return read;
    /* A list is <samples> (any root, as the reference reads it) with entries inside; a file that
       is one entry alone runs as a list of that entry. A list with none is an error, before the
       output folder is made. */
    const xmlNode *list_root = xmlDocGetRootElement(doc);
    bool single = is_entry(list_root);
    const xmlNode *first = single ? list_root : xml_first_child(list_root);
    bool any = single;
    for (const xmlNode *el = first; el && !any; el = xml_next(el)) any = is_entry(el);
    if (!any) {
        for (const xmlNode *el = first; el && !a.quiet; el = xml_next(el))
            fprintf(stderr, "%s:%d: warning: unknown element <%s> (entries are <overlapping> and <simpletiled>)\n", a.list, xml_line(el),
                    xml_name(el));
        fprintf(stderr, "%s:%d: error: no <overlapping> or <simpletiled> entry in <%s> (a sample list is <samples> with those inside)\n",
                a.list, xml_line(list_root), xml_name(list_root));
        xmlFreeDoc(doc);
        return EXIT_MODEL;
    }
    if (!make_output_dir(a.out_dir)) {
        xmlFreeDoc(doc);
        return EXIT_IO;
    }
    name_counts *nc = calloc(1, sizeof *nc);
    if (!nc) { xmlFreeDoc(doc); fprintf(stderr, "smalti: error: out of memory\n"); return EXIT_RUNTIME; }
    smalti_error err;
    diag d = {.file = a.list, .err = &err, .warn = print_warning, .quiet = a.quiet};
    int worst = EXIT_OK, failures = 0, entries = 0;
    for (const xmlNode *el = first; el; el = single ? NULL : xml_next(el)) {
        /* The reference skips other elements; a typo should be seen, but it does not stop the others. */
        if (!is_entry(el)) {
            diag_warn(&d, xml_line(el), "unknown element <%s> skipped (entries are <overlapping> and <simpletiled>)", xml_name(el));
            continue;
        }
        entries++;
        int rc = run_entry(&a, &d, el, nc);
        if (rc != EXIT_OK) { failures++; worst = rc; }
        if (rc == EXIT_TIMEOUT) break;
    }
    free(nc);
    xmlFreeDoc(doc);
    fflush(stdout);
    if (!a.quiet || failures) fprintf(stderr, "wfc: %d %s, %d failed\n", entries, plural(entries, "entry", "entries"), failures);
    return worst;
}
