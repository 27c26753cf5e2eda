/* writer.c — record a run, step by step from its observer, into the trace format
   (docs/trace-format.md): delta-coded step records, zlib keyframes and an index. */
#include "trace.h"
#include "format.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../core/diag.h"

typedef struct bytes {
    uint8_t *p;
    size_t len, cap;
} bytes;

typedef struct index_entry {
    int kind;
    long step;
    uint64_t offset;
} index_entry;

/* Pending output is written to the file once it passes this size. */
#define FLUSH_AT (1u << 20)
/* A step block is closed past this size, so the writer's memory stays small. */
#define BLOCK_MAX (1u << 20)
/* A keyframe follows once this many cell changes (or the grid's cell count,
   if larger) have been recorded since the last one: keyframes then cost at
   most about a byte per change, and a seek replays at most that many changes. */
#define KEY_MIN_CHANGES 16384
/* Steps with up to this many changed cells are deduplicated by comparison. */
#define SMALL_STEP 16

struct trace_writer {
    smalti_run *run;
    palette pal;
    bool to_file, finished, failed;
    smalti_error err;
    atomic_file af;
    bytes out;                 /* pending output; all of it in memory mode */
    uint64_t flushed;          /* bytes already in the file */
    bytes block;               /* records of the open STEP block */
    long block_first, block_steps;
    int64_t block_changes;
    int prev_node;
    int32_t prev_index;
    index_entry *index;
    size_t index_len, index_cap;
    /* The grid being recorded. */
    const unsigned char *grid;
    const char *legend;
    int mx, my, mz, values;
    int32_t cells;
    /* Distinct cells of the current step: stamp[i] == stamp_gen marks a cell seen. */
    uint32_t *stamp, stamp_gen;
    int32_t *unique;
    size_t unique_cap;
    int64_t since_key, key_interval;
    long last_restore;         /* step of the last GRID or KEYF chunk */
    long steps;
    int64_t changes;
    /* The attempts a requirement threw away (the ATMP chunk's records), and those seen so far. */
    const smalti_model *model;
    int32_t seed;
    bytes attempts;
    int attempts_seen, restarts;
    uint8_t *zbuf;
    size_t zcap;
    bytes warnings;            /* the WARN chunk's entries */
    long warning_count;
};

static void fail(trace_writer *w, smalti_status status, const char *fmt, const char *detail)
{
    if (w->failed) return;
    w->failed = true;
    error_set(&w->err, status, w->af.path, 0, fmt, detail);
}

static bool reserve(trace_writer *w, bytes *b, size_t extra)
{
    if (b->len + extra <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    uint8_t *bigger = realloc(b->p, cap);
    if (!bigger) {
        fail(w, SMALTI_ERR_RUNTIME, "%s", "out of memory recording the trace");
        return false;
    }
    b->p = bigger;
    b->cap = cap;
    return true;
}

static void put_bytes(trace_writer *w, bytes *b, const void *data, size_t n)
{
    if (!reserve(w, b, n)) return;
    memcpy(b->p + b->len, data, n);
    b->len += n;
}
static void put_varint(trace_writer *w, bytes *b, uint64_t v)
{
    if (reserve(w, b, TRACE_VARINT_MAX)) b->len += trace_put_varint(b->p + b->len, v);
}
static void put_string(trace_writer *w, bytes *b, const char *s, size_t n)
{
    put_varint(w, b, n);
    put_bytes(w, b, s, n);
}

static uint64_t out_offset(const trace_writer *w) { return w->flushed + w->out.len; }

static void flush(trace_writer *w, bool all)
{
    if (!w->to_file || w->failed || (!all && w->out.len < FLUSH_AT)) return;
    if (w->out.len && fwrite(w->out.p, 1, w->out.len, w->af.f) != w->out.len) {
        fail(w, SMALTI_ERR_IO, "cannot write the trace: %s", strerror(errno ? errno : EIO));
        return;
    }
    w->flushed += w->out.len;
    w->out.len = 0;
}

static void add_index(trace_writer *w, int kind, long step, uint64_t offset)
{
    if (w->index_len == w->index_cap) {
        size_t cap = w->index_cap ? 2 * w->index_cap : 64;
        index_entry *bigger = realloc(w->index, cap * sizeof *bigger);
        if (!bigger) { fail(w, SMALTI_ERR_RUNTIME, "%s", "out of memory recording the trace"); return; }
        w->index = bigger;
        w->index_cap = cap;
    }
    w->index[w->index_len++] = (index_entry){kind, step, offset};
}

/* Append a chunk whose payload is head (small) followed by body. */
static void put_chunk(trace_writer *w, const char *tag, const bytes *head, const uint8_t *body, size_t body_len)
{
    size_t len = (head ? head->len : 0) + body_len;
    if (len > UINT32_MAX) { fail(w, SMALTI_ERR_RUNTIME, "%s", "a trace chunk is over 4 GB"); return; }
    if (!reserve(w, &w->out, TRACE_CHUNK_HEAD + len)) return;
    uint8_t *p = w->out.p + w->out.len;
    memcpy(p, tag, 4);
    trace_put_u32(p + 4, (uint32_t)len);
    if (head && head->len) memcpy(p + TRACE_CHUNK_HEAD, head->p, head->len);
    if (body_len) memcpy(p + TRACE_CHUNK_HEAD + (head ? head->len : 0), body, body_len);
    w->out.len += TRACE_CHUNK_HEAD + len;
    flush(w, false);
}

/* The grid's cells, zlib-compressed when that is smaller: appends the
   encoding to head and returns the body. */
static const uint8_t *encode_cells(trace_writer *w, bytes *head, size_t *body_len)
{
    size_t n = (size_t)w->cells;
    uLongf bound = compressBound((uLong)n);
    if (bound > w->zcap) {
        uint8_t *bigger = realloc(w->zbuf, bound);
        if (!bigger) { fail(w, SMALTI_ERR_RUNTIME, "%s", "out of memory recording the trace"); return NULL; }
        w->zbuf = bigger;
        w->zcap = bound;
    }
    uLongf zlen = bound;
    if (n >= 64 && compress2(w->zbuf, &zlen, w->grid, (uLong)n, Z_BEST_SPEED) == Z_OK && zlen < n) {
        put_varint(w, head, TRACE_ZLIB);
        *body_len = zlen;
        return w->zbuf;
    }
    put_varint(w, head, TRACE_RAW);
    *body_len = n;
    return w->grid;
}

static void close_block(trace_writer *w)
{
    if (w->block_steps == 0) return;
    uint8_t headp[3 * TRACE_VARINT_MAX];
    bytes head = {headp, 0, sizeof headp};
    head.len += trace_put_varint(headp + head.len, (uint64_t)w->block_first);
    head.len += trace_put_varint(headp + head.len, (uint64_t)w->block_steps);
    head.len += trace_put_varint(headp + head.len, (uint64_t)w->block_changes);
    add_index(w, TRACE_IDX_STEP, w->block_first, out_offset(w));
    put_chunk(w, "STEP", &head, w->block.p, w->block.len);
    w->block.len = 0;
    w->block_steps = 0;
    w->block_changes = 0;
    w->prev_node = -1;
    w->prev_index = 0;
}

static void put_keyframe(trace_writer *w, long step)
{
    close_block(w);
    uint8_t headp[2 * TRACE_VARINT_MAX];
    bytes head = {headp, 0, sizeof headp};
    head.len += trace_put_varint(headp, (uint64_t)step);
    size_t body_len = 0;
    const uint8_t *body = encode_cells(w, &head, &body_len);
    if (!body) return;
    add_index(w, TRACE_IDX_KEYF, step, out_offset(w));
    put_chunk(w, "KEYF", &head, body, body_len);
    w->since_key = 0;
    w->last_restore = step;
}

/* Take the run's current grid as the one being recorded (sizes, legend, buffers). */
static bool adopt_grid(trace_writer *w)
{
    w->grid = smalti_run_grid(w->run, &w->mx, &w->my, &w->mz);
    w->legend = smalti_run_legend(w->run);
    w->values = (int)strlen(w->legend);
    w->cells = w->mx * w->my * w->mz;
    free(w->stamp);
    w->stamp = NULL; /* made when a step first changes many cells */
    w->stamp_gen = 0;
    w->key_interval = w->cells > KEY_MIN_CHANGES ? w->cells : KEY_MIN_CHANGES;
    return true;
}

/* A GRID chunk: the grid the run now works on, as it is after `step`. */
static void put_grid(trace_writer *w, long step, int node)
{
    close_block(w);
    bytes head = {0};
    put_varint(w, &head, (uint64_t)step);
    put_varint(w, &head, (uint64_t)(node + 1));
    put_varint(w, &head, (uint64_t)w->mx);
    put_varint(w, &head, (uint64_t)w->my);
    put_varint(w, &head, (uint64_t)w->mz);
    put_string(w, &head, w->legend, (size_t)w->values);
    uint32_t colors[GRID_COLORS_MAX];
    palette_colors(&w->pal, w->legend, colors, NULL, 0);
    for (int v = 0; v < w->values; v++) {
        uint8_t rgb[3] = {(uint8_t)(colors[v] >> 16), (uint8_t)(colors[v] >> 8), (uint8_t)colors[v]};
        put_bytes(w, &head, rgb, 3);
    }
    size_t body_len = 0;
    const uint8_t *body = encode_cells(w, &head, &body_len);
    if (body && !w->failed) {
        add_index(w, TRACE_IDX_GRID, step, out_offset(w));
        put_chunk(w, "GRID", &head, body, body_len);
    }
    free(head.p);
    w->since_key = 0;
    w->last_restore = step;
}

static void put_prologue(trace_writer *w, const smalti_model *model, const trace_meta *meta)
{
    uint8_t header[TRACE_HEADER_LEN];
    memcpy(header, TRACE_MAGIC, TRACE_MAGIC_LEN);
    trace_put_u32(header + TRACE_MAGIC_LEN, TRACE_VERSION);
    put_bytes(w, &w->out, header, sizeof header);

    bytes b = {0};
    const char *path = meta && meta->model_path ? meta->model_path : "";
    put_string(w, &b, SMALTI_VERSION, strlen(SMALTI_VERSION));
    put_string(w, &b, path, strlen(path));
    put_varint(w, &b, trace_zigzag(meta ? meta->seed : 0));
    put_varint(w, &b, trace_zigzag(meta && meta->step_limit > 0 ? meta->step_limit : 0));
    put_chunk(w, "INFO", &b, NULL, 0);
    if (meta && meta->source) put_chunk(w, "SRC ", NULL, (const uint8_t *)meta->source, meta->source_len);

    b.len = 0;
    int count = smalti_model_node_count(model);
    put_varint(w, &b, (uint64_t)count);
    for (int id = 0; id < count; id++) {
        smalti_node_info info;
        smalti_model_node_info(model, id, &info);
        put_string(w, &b, info.kind, strlen(info.kind));
        put_varint(w, &b, (uint64_t)(info.parent + 1));
        put_varint(w, &b, (uint64_t)info.depth);
        put_varint(w, &b, (uint64_t)info.line);
        put_string(w, &b, info.attributes, strlen(info.attributes));
    }
    put_chunk(w, "TREE", &b, NULL, 0);
    free(b.p);
}

trace_writer *trace_writer_new(const char *path, smalti_run *run, const smalti_model *model, const trace_meta *meta,
                               const palette *pal, const temp_hook *temps, smalti_error *err)
{
    if (smalti_run_counter(run) != 0) {
        error_set(err, SMALTI_ERR_USAGE, path ? path : "", 0, "a trace must start before the run's first step");
        return NULL;
    }
    trace_writer *w = calloc(1, sizeof *w);
    if (!w) {
        error_set(err, SMALTI_ERR_RUNTIME, path ? path : "", 0, "out of memory");
        return NULL;
    }
    w->run = run;
    w->pal = *pal;
    w->prev_node = -1;
    w->model = model;
    w->seed = meta ? meta->seed : 0;
    w->attempts_seen = 1;
    if (path && !atomic_open(&w->af, path, temps, err)) {
        free(w);
        return NULL;
    }
    w->to_file = path != NULL;
    put_prologue(w, model, meta);
    if (adopt_grid(w)) put_grid(w, 0, -1);
    if (w->failed) {
        if (err) *err = w->err;
        trace_writer_free(w);
        return NULL;
    }
    return w;
}

/* The run switched to another grid during this step (a map or wfc node). */
static void switch_grid(trace_writer *w, const smalti_step_event *ev)
{
    close_block(w);
    if (!adopt_grid(w)) return;
    put_grid(w, ev->step, ev->node_id);
    w->steps = ev->step;
    w->changes += w->cells;
}

/* A step in which a requirement failed and the run started again: its record for the ATMP chunk
   (the step, the attempt it begins, that attempt's seed, the requirement, what failed). */
static void note_restart(trace_writer *w, const smalti_step_event *ev, int attempts)
{
    smalti_node_info info;
    const char *what = "";
    int line, failures;
    const char *message;
    if (smalti_model_node_info(w->model, ev->node_id, &info))
        for (int i = 0; smalti_run_requirement(w->run, i, &line, &failures, &message); i++)
            if (line == info.line) what = message;
    put_varint(w, &w->attempts, (uint64_t)ev->step);
    put_varint(w, &w->attempts, (uint64_t)attempts);
    put_varint(w, &w->attempts, trace_zigzag(smalti_attempt_seed(w->seed, attempts - 1)));
    put_varint(w, &w->attempts, (uint64_t)(ev->node_id + 1));
    put_string(w, &w->attempts, what, strlen(what));
    w->restarts++;
    w->attempts_seen = attempts;
}

void trace_observe(void *userdata, const smalti_step_event *ev)
{
    trace_writer *w = userdata;
    if (w->failed || w->finished) return;
    if (ev->step != w->steps + 1) {
        fail(w, SMALTI_ERR_USAGE, "%s", "the trace missed a step (was the observer replaced?)");
        return;
    }
    const int attempts = smalti_run_attempts(w->run);
    if (attempts > w->attempts_seen) note_restart(w, ev, attempts);
    if (ev->grid != w->grid || smalti_run_legend(w->run) != w->legend) {
        switch_grid(w, ev);
        return;
    }
    /* The step's distinct cells (an observer may hear of a cell twice). */
    size_t n = ev->changed_count;
    if (n > w->unique_cap) {
        int32_t *bigger = realloc(w->unique, n * sizeof *bigger);
        if (!bigger) { fail(w, SMALTI_ERR_RUNTIME, "%s", "out of memory recording the trace"); return; }
        w->unique = bigger;
        w->unique_cap = n;
    }
    int32_t *unique = w->unique;
    size_t k = 0;
    if (n <= SMALL_STEP) {
        /* A few cells: comparing them is cheaper than touching the stamp array. */
        for (size_t i = 0; i < n; i++) {
            int32_t c = ev->changed[i];
            size_t j = 0;
            while (j < k && unique[j] != c) j++;
            if (j == k) unique[k++] = c;
        }
    } else {
        if (!w->stamp && !(w->stamp = calloc((size_t)w->cells, sizeof *w->stamp))) {
            fail(w, SMALTI_ERR_RUNTIME, "%s", "out of memory recording the trace");
            return;
        }
        if (++w->stamp_gen == 0) {
            memset(w->stamp, 0, (size_t)w->cells * sizeof *w->stamp);
            w->stamp_gen = 1;
        }
        uint32_t gen = w->stamp_gen, *stamp = w->stamp;
        for (size_t i = 0; i < n; i++) {
            int32_t c = ev->changed[i];
            if (stamp[c] != gen) {
                stamp[c] = gen;
                unique[k++] = c;
            }
        }
    }
    if (!reserve(w, &w->block, 2 * TRACE_VARINT_MAX + k * TRACE_VARINT_MAX)) return;
    if (w->block_steps == 0) w->block_first = ev->step;
    uint8_t *p = w->block.p + w->block.len;
    bool new_node = ev->node_id != w->prev_node;
    p += trace_put_varint(p, (uint64_t)k << 1 | new_node);
    if (new_node) {
        p += trace_put_varint(p, (uint64_t)(ev->node_id + 1));
        w->prev_node = ev->node_id;
    }
    const unsigned char *grid = w->grid;
    uint64_t values = (uint64_t)w->values;
    int32_t prev = w->prev_index;
    for (size_t i = 0; i < k; i++) {
        int32_t c = unique[i];
        p += trace_put_varint(p, trace_zigzag((int64_t)c - prev) * values + grid[c]);
        prev = c;
    }
    w->prev_index = prev;
    w->block.len = (size_t)(p - w->block.p);
    w->block_steps++;
    w->block_changes += (int64_t)k;
    w->steps = ev->step;
    w->changes += (int64_t)k;
    w->since_key += (int64_t)k;
    if (w->since_key >= w->key_interval) put_keyframe(w, ev->step);
    else if (w->block.len >= BLOCK_MAX) close_block(w);
}

void trace_writer_warn(trace_writer *w, long step, int line, const char *message)
{
    if (w->finished || w->warning_count >= TRACE_MAX_WARNINGS) return;
    put_varint(w, &w->warnings, (uint64_t)(step > 0 ? step : 0));
    put_varint(w, &w->warnings, (uint64_t)(line > 0 ? line : 0));
    put_string(w, &w->warnings, message, strlen(message));
    w->warning_count++;
}

bool trace_writer_finish(trace_writer *w, smalti_error *err)
{
    if (!w->finished && !w->failed) {
        w->finished = true;
        close_block(w);
        /* No keyframe of the final grid unless many changes came after the last
           one: a seek replays at most the keyframe interval anyway, and
           compressing the grid would cost a short run as much as its steps. */
        if (w->since_key >= w->key_interval / 2 && w->last_restore != w->steps) put_keyframe(w, w->steps);
        smalti_error run_err;
        int end = TRACE_END_LIMIT;
        const char *message = "";
        if (smalti_run_error(w->run, &run_err)) {
            end = TRACE_END_ERROR;
            message = run_err.message;
        } else if (smalti_run_finished(w->run)) end = TRACE_END_FINISHED;
        bytes b = {0};
        /* The lattice the run ends with, so that viewers can draw the twisted map too. */
        const double *px, *py;
        int nx, ny;
        if (smalti_run_geometry(w->run, &px, &py, &nx, &ny)) {
            put_varint(w, &b, (uint64_t)nx);
            put_varint(w, &b, (uint64_t)ny);
            for (int i = 0; i < nx * ny; i++) {
                uint8_t xy[16];
                trace_put_f64(xy, px[i]);
                trace_put_f64(xy + 8, py[i]);
                put_bytes(w, &b, xy, sizeof xy);
            }
            put_chunk(w, "LATT", &b, NULL, 0);
            b.len = 0;
        }
        if (w->restarts > 0) {
            put_varint(w, &b, (uint64_t)w->restarts);
            put_chunk(w, "ATMP", &b, w->attempts.p, w->attempts.len);
            b.len = 0;
        }
        if (w->warning_count > 0) {
            put_varint(w, &b, (uint64_t)w->warning_count);
            put_bytes(w, &b, w->warnings.p, w->warnings.len);
            put_chunk(w, "WARN", &b, NULL, 0);
            b.len = 0;
        }
        put_varint(w, &b, (uint64_t)w->steps);
        put_varint(w, &b, (uint64_t)w->changes);
        put_varint(w, &b, (uint64_t)end);
        put_string(w, &b, message, strlen(message));
        put_chunk(w, "ENDS", &b, NULL, 0);

        b.len = 0;
        uint64_t index_at = out_offset(w), prev = 0;
        put_varint(w, &b, w->index_len);
        for (size_t i = 0; i < w->index_len; i++) {
            put_varint(w, &b, (uint64_t)w->index[i].kind);
            put_varint(w, &b, (uint64_t)w->index[i].step);
            put_varint(w, &b, w->index[i].offset - prev);
            prev = w->index[i].offset;
        }
        put_chunk(w, "INDX", &b, NULL, 0);
        free(b.p);
        uint8_t footer[TRACE_FOOTER_LEN];
        trace_put_u32(footer, (uint32_t)index_at);
        trace_put_u32(footer + 4, (uint32_t)(index_at >> 32));
        memcpy(footer + 8, "TEND", 4);
        put_bytes(w, &w->out, footer, sizeof footer);
        flush(w, true);
        if (w->to_file && !w->failed && !atomic_commit(&w->af, &w->err)) w->failed = true;
        else if (w->to_file && !w->failed) w->to_file = false; /* committed: nothing to remove */
    }
    if (w->failed && err) *err = w->err;
    return !w->failed;
}

const uint8_t *trace_writer_bytes(const trace_writer *w, size_t *len)
{
    *len = w->out.len;
    return w->out.p;
}

void trace_writer_free(trace_writer *w)
{
    if (!w) return;
    if (w->to_file) atomic_abort(&w->af); /* unfinished, or its commit failed */
    free(w->out.p);
    free(w->block.p);
    free(w->index);
    free(w->stamp);
    free(w->unique);
    free(w->zbuf);
    free(w->attempts.p);
    free(w->warnings.p);
    free(w);
}
