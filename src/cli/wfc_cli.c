/* wfc_cli.c — `smalti wfc SAMPLES.xml`: the standalone WaveFunctionCollapse project's sample list
   (overlapping and simple tiled models) on the engine of the `wfc` node, written as PNGs. */
#include "cli.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../core/xmlutil.h"
#include "../wfc/classic.h"

#define MAX_NAMES 1024

typedef struct wfc_args {
    const char *list, *root, *out_dir;
    long seed, runs, tries;
    long backtrack;            /* -1: each entry's own */
    bool quiet;
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
    double t0 = now_seconds();
    wfc_classic *m = wfc_classic_load(d, a->root, &e);
    if (!m) {
        print_error(d->err);
        d->failed = 0;
        return exit_code_for(d->err->status);
    }
    double load_ms = 1e3 * (now_seconds() - t0);
    char base[300];
    if (e.overlapping) snprintf(base, sizeof base, "%s N%d", e.name, e.N);
    else if (e.subset[0]) snprintf(base, sizeof base, "%s %s", e.name, e.subset);
    else snprintf(base, sizeof base, "%s", e.name);
    int outputs = a->runs >= 0 ? (int)a->runs : e.screenshots;
    long first_seed = e.seed >= 0 ? e.seed : a->seed;
    int rc = EXIT_OK;
    for (int k = 0; k < outputs; k++) {
        double start = now_seconds();
        wfc_result r = WFC_CONTRADICTION;
        int attempt = 0;
        int32_t seed = 0;
        for (; attempt < a->tries && r == WFC_CONTRADICTION; attempt++) {
            seed = (int32_t)(first_seed + (long)k * a->tries + attempt);
            r = wfc_classic_run(m, seed, e.limit);
        }
        double ms = 1e3 * (now_seconds() - start);
        if (r == WFC_NO_MEMORY) {
            fprintf(stderr, "%s:%d: error: out of memory while solving %s\n", a->list, e.line, base);
            rc = EXIT_RUNTIME;
            break;
        }
        char path[4096] = "";
        if (r != WFC_CONTRADICTION) snprintf(path, sizeof path, "%s/%s %d.png", a->out_dir, base, next_index(nc, base));
        const char *outcome = r == WFC_DONE ? "done" : r == WFC_LIMIT ? "stopped at the limit" : "contradiction";
        if (r != WFC_CONTRADICTION) {
            smalti_error err;
            int width, height;
            uint32_t *px = wfc_classic_render(m, &width, &height);
            bool ok = px && save_png_rgb(path, px, width, height, temp_files_hook(), &err);
            free(px);
            if (ok && e.text_output) {
                char *text = wfc_classic_text(m);
                char tpath[4096];
                snprintf(tpath, sizeof tpath, "%.*s.txt", (int)(strlen(path) - 4), path);
                ok = text && write_text_file(tpath, text, &err);
                free(text);
            }
            if (!ok) {
                if (!px) error_set(&err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
                print_error(&err);
                rc = exit_code_for(err.status);
                break;
            }
        }
        if (!a->quiet) {
            printf("%-40s seed %-8d %9.1f ms  %s%s (%d %s before", r == WFC_CONTRADICTION ? base : path + strlen(a->out_dir) + 1,
                   seed, ms + (k == 0 ? load_ms : 0), outcome, r == WFC_CONTRADICTION ? ", nothing written" : "", attempt - 1,
                   plural(attempt - 1, "seed contradicted", "contradicted"));
            if (m->solver.backtracks || m->solver.repairs)
                printf("; last try: %ld %s taken back, %ld %s solved again", m->solver.backtracks,
                       plural(m->solver.backtracks, "decision", "decisions"), m->solver.repairs, plural(m->solver.repairs, "area", "areas"));
            printf(")\n");
        }
    }
    wfc_classic_free(m);
    return rc;
}

int cmd_wfc(int argc, char **argv)
{
    wfc_args a = {.out_dir = "output", .seed = 1, .runs = -1, .tries = 10, .backtrack = -1};
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
        if (strcmp(arg, "--seed") == 0) { target = &a.seed; min = 0; max = INT32_MAX; }
        else if (strcmp(arg, "--runs") == 0) target = &a.runs;
        else if (strcmp(arg, "--tries") == 0) { target = &a.tries; min = 1; }
        else if (strcmp(arg, "--backtrack") == 0) { target = &a.backtrack; max = WFC_MAX_BACKTRACK; }
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
    }
    free(nc);
    xmlFreeDoc(doc);
    fflush(stdout);
    if (!a.quiet || failures) fprintf(stderr, "wfc: %d %s, %d failed\n", entries, plural(entries, "entry", "entries"), failures);
    return worst;
}
