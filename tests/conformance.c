/* conformance.c — run the reference corpus rows (expected/manifest.tsv) and compare the whole text
   output, header and final grid, byte for byte with the reference's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <libxml/parser.h>
#include "smalti.h"
#include "../src/io/output.h"

/* Features this build implements; a row runs when all of its features are here. */
static const char *const implemented[] = {"convchain", "convolution", "field", "map", "observe", "path", "rulefile", "wfc", NULL};

typedef struct row {
    char model[128], tier[16], features[128], file[256];
    int mx, my, mz, seed;
    long limit, steps;
    int status; /* 0 not run, 1 pass, 2 fail, 3 skipped */
    int steps_checked; /* --step-hashes: 1 when every hashed step matched */
    char detail[2048];
} row;

typedef struct job {
    row *rows;
    int count, next;
    const char *corpus;
    pthread_mutex_t lock;
} job;

static int feature_implemented(const char *features)
{
    if (strcmp(features, "-") == 0) return 1;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", features);
    for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (const char *const *p = implemented; *p; p++) found |= strcmp(*p, f) == 0;
        if (!found) return 0;
    }
    return 1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* FNV-1a over the cells, as the reference's step files hash them. */
static unsigned long long grid_hash(const unsigned char *cells, size_t n)
{
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) { h ^= cells[i]; h *= 0x100000001b3ULL; }
    return h;
}

typedef struct step_check {
    FILE *steps;
    const smalti_run *run; /* its current grid is hashed (a map or wfc node may switch grids) */
    long first_bad;
    long next_step;
    unsigned long long next_hash;
} step_check;

static void read_next_hash(step_check *sc)
{
    char word[64];
    sc->next_step = -1;
    while (fscanf(sc->steps, "%63s", word) == 1) {
        if (strcmp(word, "final") == 0) return;
        sc->next_step = atol(word);
        if (fscanf(sc->steps, "%llx", &sc->next_hash) != 1) sc->next_step = -1;
        return;
    }
}

static void on_step(void *ud, const smalti_step_event *ev)
{
    step_check *sc = ud;
    if (sc->first_bad >= 0 || sc->next_step < 0 || ev->step != sc->next_step) return;
    int mx, my, mz;
    smalti_run_grid(sc->run, &mx, &my, &mz);
    if (grid_hash(ev->grid, (size_t)mx * my * mz) != sc->next_hash) sc->first_bad = ev->step;
    read_next_hash(sc);
}

/* Rerun a failing row with the per-step hashes to name the first diverging step. */
static long first_divergence(const char *corpus, row *w, const smalti_model *model)
{
    char path[1024], base[256];
    snprintf(base, sizeof base, "%s", w->file);
    char *dot = strstr(base, ".txt");
    if (dot) *dot = 0;
    snprintf(path, sizeof path, "%s/expected/steps/%s.steps", corpus, base);
    step_check sc = {.steps = fopen(path, "r"), .first_bad = -1};
    if (!sc.steps) return -2;
    read_next_hash(&sc);
    smalti_run *run = smalti_run_new(model, w->seed, NULL);
    if (run) {
        sc.run = run;
        smalti_run_set_observer(run, on_step, &sc);
        smalti_run_to_end(run, w->limit);
        smalti_run_free(run);
    }
    fclose(sc.steps);
    /* A step the reference hashed that the run never reached diverges too. */
    if (sc.first_bad < 0 && sc.next_step >= 0) sc.first_bad = sc.next_step;
    return sc.first_bad;
}

/* --step-hashes: every seed-1 row whose grid matched is run again against the reference's hash
   of each step (each of the first 2000, then every 100th). */
static bool check_step_hashes;

static void run_row(const char *corpus, row *w)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s.xml", corpus, w->model);
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = w->mx; opt.my = w->my; opt.mz = w->mz;
    opt.quiet = 1;
    char resources[1024];
    snprintf(resources, sizeof resources, "%s/resources", corpus);
    const char *dirs[1] = {resources};
    opt.resource_dirs = dirs;
    opt.resource_dir_count = 1;
    smalti_error err;
    smalti_model *model = smalti_model_load(path, &opt, &err);
    if (!model) {
        w->status = 2;
        snprintf(w->detail, sizeof w->detail, "load failed: %s:%d: %s", err.file, err.line, err.message);
        return;
    }
    smalti_run *run = smalti_run_new(model, w->seed, &err);
    if (!run) {
        w->status = 2;
        snprintf(w->detail, sizeof w->detail, "%s", err.message);
        smalti_model_free(model);
        return;
    }
    long steps = smalti_run_to_end(run, w->limit);
    grid_view g = {.legend = smalti_run_legend(run)};
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    text_header h = {.model = w->model, .mx = w->mx, .my = w->my, .mz = w->mz, .seed = w->seed, .step_limit = w->limit,
                     .steps = steps};
    char *ours = NULL;
    size_t ours_len = 0;
    FILE *mem = open_memstream(&ours, &ours_len);
    bool written = mem && write_text_result(mem, &h, &g);
    if (mem) fclose(mem);
    snprintf(path, sizeof path, "%s/expected/%s", corpus, w->file);
    char *expected = read_file(path);
    w->status = 1;
    bool grid_differs = false;
    if (!expected || !written) {
        w->status = 2;
        snprintf(w->detail, sizeof w->detail, "cannot %s", !expected ? "read the expected file" : "write the text output");
    } else if (strcmp(ours, expected) != 0) {
        /* The first line that differs: a header line by its text, a grid line by its row. */
        w->status = 2;
        const char *p = ours, *q = expected;
        int line = 1;
        while (*p && *p == *q) {
            if (*p == '\n') line++;
            p++, q++;
        }
        while (p > ours && p[-1] != '\n') p--, q--;
        int n1 = (int)strcspn(p, "\n"), n2 = (int)strcspn(q, "\n");
        if (line <= 7)
            snprintf(w->detail, sizeof w->detail, "header line %d is \"%.*s\", expected \"%.*s\"", line, n1 > 200 ? 200 : n1, p,
                     n2 > 200 ? 200 : n2, q);
        else {
            grid_differs = true;
            snprintf(w->detail, sizeof w->detail, "grid row %d (y=%d z=%d) differs: \"%.*s\", expected \"%.*s\"", line - 8,
                     g.my > 0 ? (line - 8) % g.my : 0, g.my > 0 ? (line - 8) / g.my : 0, n1 > 200 ? 200 : n1, p, n2 > 200 ? 200 : n2, q);
        }
    }
    /* Where a grid differs, the per-step hashes tell at which step the run left the reference's. */
    if (w->status == 2 && grid_differs && w->seed == 1) {
        long bad = first_divergence(corpus, w, model);
        size_t n = strlen(w->detail);
        if (bad >= 0) snprintf(w->detail + n, sizeof w->detail - n, "; first diverging step %ld", bad);
    }
    if (check_step_hashes && w->status == 1 && w->seed == 1) {
        long bad = first_divergence(corpus, w, model);
        if (bad >= 0) {
            w->status = 2;
            snprintf(w->detail, sizeof w->detail, "the final grid matches, but the grid after step %ld differs", bad);
        }
        w->steps_checked = bad == -1;
    }
    free(expected);
    free(ours);
    smalti_run_free(run);
    smalti_model_free(model);
}

static void *worker(void *arg)
{
    job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        int k = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (k >= j->count) return NULL;
        if (j->rows[k].status == 0) run_row(j->corpus, &j->rows[k]);
    }
}

int main(int argc, char **argv)
{
    /* libxml2 sets up its global state on first use; do it before the
       worker threads so two of them cannot race to do it. */
    xmlInitParser();
    const char *corpus = getenv("SMALTI_MJ_CORPUS");
    if (!corpus || !*corpus) corpus = "../shared/mj";
    const char *only_tier = NULL, *only_model = NULL;
    long max_cells = 0;
    int jobs = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tier") == 0 && i + 1 < argc) only_tier = argv[++i];
        else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) only_model = argv[++i];
        else if (strcmp(argv[i], "--max-cells") == 0 && i + 1 < argc) max_cells = atol(argv[++i]);
        else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--step-hashes") == 0) check_step_hashes = true;
        else {
            fprintf(stderr, "usage: conformance [--tier T] [--model NAME] [--max-cells N] [--jobs N] [--step-hashes]\n");
            return 2;
        }
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/expected/manifest.tsv", corpus);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("conformance: skipped: corpus not found at %s (set SMALTI_MJ_CORPUS)\n", corpus);
        printf("0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    row *rows = NULL;
    int count = 0, cap = 0;
    char line[2048];
    if (!fgets(line, sizeof line, f)) line[0] = 0; /* header */
    while (fgets(line, sizeof line, f)) {
        if (count == cap) {
            cap = cap ? 2 * cap : 256;
            rows = realloc(rows, (size_t)cap * sizeof *rows);
            if (!rows) return 4;
        }
        row *w = &rows[count];
        memset(w, 0, sizeof *w);
        if (sscanf(line, "%127s %d %d %d %d %ld %ld %15s %127s %255s", w->model, &w->mx, &w->my, &w->mz, &w->seed,
                   &w->limit, &w->steps, w->tier, w->features, w->file) != 10)
            continue;
        if ((only_tier && strcmp(only_tier, w->tier) != 0) || (only_model && strcmp(only_model, w->model) != 0)) continue;
        if (!feature_implemented(w->features) || (max_cells > 0 && (long)w->mx * w->my * w->mz > max_cells))
            w->status = 3;
        count++;
    }
    fclose(f);
    job j = {.rows = rows, .count = count, .corpus = corpus};
    pthread_mutex_init(&j.lock, NULL);
    pthread_t threads[16];
    if (jobs < 1) jobs = 1;
    if (jobs > 16) jobs = 16;
    for (int t = 0; t < jobs; t++) pthread_create(&threads[t], NULL, worker, &j);
    for (int t = 0; t < jobs; t++) pthread_join(threads[t], NULL);

    const char *tiers[] = {"core", "adv", "wfc"};
    int passed = 0, failed = 0, skipped = 0;
    for (int k = 0; k < count; k++)
        if (rows[k].status == 2)
            printf("MISMATCH %s %dx%dx%d seed %d: %s\n", rows[k].model, rows[k].mx, rows[k].my, rows[k].mz, rows[k].seed,
                   rows[k].detail);
    for (int t = 0; t < 3; t++) {
        int p = 0, fl = 0, s = 0;
        for (int k = 0; k < count; k++) {
            if (strcmp(rows[k].tier, tiers[t]) != 0) continue;
            p += rows[k].status == 1;
            fl += rows[k].status == 2;
            s += rows[k].status == 3;
        }
        if (p + fl + s == 0) continue;
        printf("conformance %-4s: %d of %d rows match, %d differ, %d skipped (they use nodes this build lacks, or exceed --max-cells)\n",
               tiers[t], p, p + fl + s, fl, s);
        passed += p;
        failed += fl;
        skipped += s;
    }
    if (check_step_hashes) {
        int checked = 0;
        for (int k = 0; k < count; k++) checked += rows[k].steps_checked;
        printf("step hashes: %d seed-1 rows matched the reference after every hashed step\n", checked);
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    free(rows);
    return failed ? 1 : 0;
}
