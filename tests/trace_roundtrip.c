/* trace_roundtrip.c — record corpus runs into in-memory traces and replay them:
   the replay must reach the run's final grid exactly, name the same acting node at
   every step, and seek to chosen steps (through the keyframes) to the grids the run
   had there. Usage: trace_roundtrip [--tier T]... [--max-cells N] [--jobs N] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../src/trace/trace.h"

typedef struct row {
    char model[128], tier[16], file[256];
    int mx, my, mz, seed;
    long limit, steps;
    int status; /* 0 to run, 1 pass, 2 fail */
    char detail[1024];
} row;

typedef struct job {
    row *rows;
    int count, next;
    const char *corpus;
    pthread_mutex_t lock;
} job;

#define PROBES 3

/* What the run did, seen beside the recorder. */
typedef struct watch {
    smalti_run *run;
    trace_writer *writer;
    int *nodes;          /* acting node of each step, [1..] */
    long count, cap;
    long probe_step[PROBES];
    unsigned char *probe_grid[PROBES];
    size_t probe_cells[PROBES];
    bool oom;
} watch;

static void on_step(void *ud, const smalti_step_event *ev)
{
    watch *wt = ud;
    trace_observe(wt->writer, ev);
    if (wt->count + 1 >= wt->cap) {
        long cap = wt->cap ? 2 * wt->cap : 4096;
        int *bigger = realloc(wt->nodes, (size_t)cap * sizeof *bigger);
        if (!bigger) { wt->oom = true; return; }
        wt->nodes = bigger;
        wt->cap = cap;
    }
    wt->nodes[++wt->count] = ev->node_id;
    for (int p = 0; p < PROBES; p++)
        if (ev->step == wt->probe_step[p] && wt->probe_grid[p]) {
            int mx, my, mz;
            smalti_run_grid(wt->run, &mx, &my, &mz);
            if ((size_t)mx * my * mz == wt->probe_cells[p]) memcpy(wt->probe_grid[p], ev->grid, wt->probe_cells[p]);
            else { free(wt->probe_grid[p]); wt->probe_grid[p] = NULL; } /* a map switched the grid */
        }
}

static void run_row(const char *corpus, row *w)
{
    char path[1024], resources[1024];
    snprintf(path, sizeof path, "%s/models/%s.xml", corpus, w->model);
    snprintf(resources, sizeof resources, "%s/resources", corpus);
    const char *dirs[1] = {resources};
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = w->mx; opt.my = w->my; opt.mz = w->mz;
    opt.quiet = 1;
    opt.resource_dirs = dirs;
    opt.resource_dir_count = 1;
    smalti_error err;
    smalti_model *model = smalti_model_load(path, &opt, &err);
    w->status = 2;
    if (!model) {
        snprintf(w->detail, sizeof w->detail, "load failed: %s", err.message);
        return;
    }
    smalti_run *run = smalti_run_new(model, w->seed, &err);
    palette pal;
    palette_default(&pal);
    trace_meta meta = {.model_path = path, .seed = w->seed, .step_limit = w->limit};
    watch wt = {.run = run};
    trace_reader *r = NULL;
    if (!run || !(wt.writer = trace_writer_new(NULL, run, model, &meta, &pal, NULL, &err))) {
        snprintf(w->detail, sizeof w->detail, "cannot start: %s", err.message);
        goto done;
    }
    /* Probes at a third and two thirds of the run (the grid keeps its size
       there unless a map switches it; such probes are dropped below). */
    size_t cells = (size_t)w->mx * w->my * w->mz;
    for (int p = 0; p < PROBES; p++) {
        wt.probe_step[p] = w->steps * (p + 1) / (PROBES + 1);
        wt.probe_cells[p] = cells;
        wt.probe_grid[p] = wt.probe_step[p] > 0 ? malloc(cells) : NULL;
    }
    unsigned char *start = malloc(cells);
    memcpy(start, smalti_run_grid(run, NULL, NULL, NULL), cells);
    smalti_run_set_observer(run, on_step, &wt);
    long steps = smalti_run_to_end(run, w->limit);
    if (!trace_writer_finish(wt.writer, &err) || wt.oom) {
        snprintf(w->detail, sizeof w->detail, "recording failed: %s", err.message);
        free(start);
        goto done;
    }
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(wt.writer, &len);
    r = trace_read_memory(bytes, len, w->model, &err);
    if (!r || !trace_verify(r, &err)) {
        snprintf(w->detail, sizeof w->detail, "replay failed: %s", err.message);
        free(start);
        goto done;
    }
    int mx, my, mz, fx, fy, fz;
    const unsigned char *final = smalti_run_grid(run, &mx, &my, &mz);
    const uint8_t *replayed = trace_grid(r, &fx, &fy, &fz);
    const trace_info *info = trace_reader_info(r);
    if (info->steps != steps || trace_position(r) != steps) {
        snprintf(w->detail, sizeof w->detail, "trace has %ld steps, the run made %ld", info->steps, steps);
    } else if (mx != fx || my != fy || mz != fz || strcmp(trace_legend(r), smalti_run_legend(run)) != 0 ||
               memcmp(final, replayed, (size_t)mx * my * mz) != 0) {
        snprintf(w->detail, sizeof w->detail, "the replayed final grid differs from the run's");
    } else if (info->node_count != smalti_model_node_count(model)) {
        snprintf(w->detail, sizeof w->detail, "the trace's tree has %d nodes, the model %d", info->node_count,
                 smalti_model_node_count(model));
    } else {
        /* Every step's acting node, from step 0 on. */
        trace_step st;
        w->status = trace_seek(r, 0, &err) ? 1 : 2;
        if (w->status == 2) snprintf(w->detail, sizeof w->detail, "seek 0: %s", err.message);
        else if (memcmp(trace_grid(r, NULL, NULL, NULL), start, cells) != 0) {
            w->status = 2;
            snprintf(w->detail, sizeof w->detail, "step 0 differs from the run's start grid");
        }
        while (w->status == 1 && trace_next(r, &st, &err))
            if (st.node != wt.nodes[st.step]) {
                w->status = 2;
                snprintf(w->detail, sizeof w->detail, "step %ld: trace names node %d, the run %d", st.step, st.node,
                         wt.nodes[st.step]);
            }
        if (w->status == 1 && trace_position(r) != steps) {
            w->status = 2;
            snprintf(w->detail, sizeof w->detail, "stepping stopped at %ld: %s", trace_position(r), err.message);
        }
        /* Seeks go backwards too: last probe first. */
        for (int p = PROBES - 1; p >= 0 && w->status == 1; p--) {
            if (!wt.probe_grid[p] || wt.probe_step[p] > steps) continue;
            int px, py, pz;
            if (!trace_seek(r, wt.probe_step[p], &err)) {
                w->status = 2;
                snprintf(w->detail, sizeof w->detail, "seek %ld: %s", wt.probe_step[p], err.message);
            } else if (trace_grid(r, &px, &py, &pz), (size_t)px * py * pz != cells) {
                continue; /* a map changed the grid before this probe */
            } else if (memcmp(trace_grid(r, NULL, NULL, NULL), wt.probe_grid[p], cells) != 0) {
                w->status = 2;
                snprintf(w->detail, sizeof w->detail, "seek %ld: the grid differs from the run's", wt.probe_step[p]);
            }
        }
    }
    free(start);
done:
    for (int p = 0; p < PROBES; p++) free(wt.probe_grid[p]);
    free(wt.nodes);
    trace_reader_free(r);
    trace_writer_free(wt.writer);
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
        run_row(j->corpus, &j->rows[k]);
    }
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("SMALTI_MJ_CORPUS");
    if (!corpus || !*corpus) corpus = "../shared/mj";
    const char *tiers[8];
    int tier_count = 0, jobs = 2;
    long max_cells = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tier") == 0 && i + 1 < argc && tier_count < 8) tiers[tier_count++] = argv[++i];
        else if (strcmp(argv[i], "--max-cells") == 0 && i + 1 < argc) max_cells = atol(argv[++i]);
        else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) jobs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: trace_roundtrip [--tier T]... [--max-cells N] [--jobs N]\n");
            return 2;
        }
    }
    if (tier_count == 0) tiers[tier_count++] = "core";
    char path[1024];
    snprintf(path, sizeof path, "%s/expected/manifest.tsv", corpus);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("trace round trip: skipped: corpus not found at %s (set SMALTI_MJ_CORPUS)\n", corpus);
        printf("0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    row *rows = NULL;
    int count = 0, cap = 0;
    char line[2048], features[128];
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    while (fgets(line, sizeof line, f)) {
        if (count == cap) {
            cap = cap ? 2 * cap : 256;
            row *bigger = realloc(rows, (size_t)cap * sizeof *rows);
            if (!bigger) return 4;
            rows = bigger;
        }
        row *w = &rows[count];
        memset(w, 0, sizeof *w);
        if (sscanf(line, "%127s %d %d %d %d %ld %ld %15s %127s %255s", w->model, &w->mx, &w->my, &w->mz, &w->seed,
                   &w->limit, &w->steps, w->tier, features, w->file) != 10 || w->seed != 1)
            continue;
        bool wanted = false;
        for (int t = 0; t < tier_count; t++) wanted |= strcmp(tiers[t], w->tier) == 0;
        if (!wanted || (max_cells > 0 && (long)w->mx * w->my * w->mz > max_cells)) continue;
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
    int passed = 0, failed = 0;
    for (int k = 0; k < count; k++) {
        if (rows[k].status == 1) passed++;
        else {
            failed++;
            printf("TRACE MISMATCH %s %dx%dx%d seed %d: %s\n", rows[k].model, rows[k].mx, rows[k].my, rows[k].mz,
                   rows[k].seed, rows[k].detail);
        }
    }
    printf("trace round trip (");
    for (int t = 0; t < tier_count; t++) printf("%s%s", t ? ", " : "", tiers[t]);
    if (max_cells > 0) printf(" up to %ld cells", max_cells);
    printf("): %d of %d models replay to the run's grids and nodes\n", passed, count);
    printf("%d passed, %d failed\n", passed, failed);
    free(rows);
    return failed ? 1 : 0;
}
