/* reader.c — read a trace (docs/trace-format.md): check its framing, read its index,
   and replay it to any step from the nearest keyframe. Every length is checked:
   a damaged file gives an error, never a crash. */
#include "trace.h"
#include "format.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "../core/diag.h"
#include "../core/file_read.h"

typedef struct entry {
    int kind;
    long step;
    size_t offset;
    int grid;          /* the GRID entry in force at this entry */
} entry;

struct trace_reader {
    uint8_t *data;
    size_t len;
    char name[512];
    trace_info info;
    entry *entries;
    int entry_count;
    /* The grid at the current position. */
    int grid_entry;    /* the entry of its GRID chunk, -1 before the first load */
    uint8_t *cells;
    size_t cells_cap;
    int mx, my, mz, values;
    int32_t count;
    char legend[257];
    uint32_t colors[256];
    long position;
    /* Replay cursor: the next chunk, and the rest of the open STEP block. */
    size_t next_chunk;
    const uint8_t *p, *end;
    long block_left;
    int prev_node;
    int64_t prev_index;
    int32_t *step_cells;
    uint8_t *step_values;
    size_t step_cap;
};

static bool corrupt(const trace_reader *r, smalti_error *err, const char *what)
{
    error_set(err, SMALTI_ERR_IO, r->name, 0, "not a valid trace: %s", what);
    return false;
}

typedef struct span {
    const uint8_t *p, *end;
} span;

static bool get_u(span *s, uint64_t max, uint64_t *out) { return trace_get_varint(&s->p, s->end, out) && *out <= max; }
static bool get_int(span *s, long max, long *out)
{
    uint64_t v;
    if (!get_u(s, (uint64_t)max, &v)) return false;
    *out = (long)v;
    return true;
}
static bool get_string(span *s, char **out, size_t *len_out)
{
    uint64_t n;
    if (!trace_get_varint(&s->p, s->end, &n) || n > (uint64_t)(s->end - s->p)) return false;
    char *str = malloc((size_t)n + 1);
    if (!str) return false;
    memcpy(str, s->p, (size_t)n);
    str[n] = 0;
    s->p += n;
    *out = str;
    if (len_out) *len_out = (size_t)n;
    return true;
}

/* The chunk at offset: its tag and payload. */
static bool chunk_at(const trace_reader *r, size_t offset, char tag[5], span *payload)
{
    size_t limit = r->len - TRACE_FOOTER_LEN;
    if (offset < TRACE_HEADER_LEN || offset > limit || limit - offset < TRACE_CHUNK_HEAD) return false;
    const uint8_t *c = r->data + offset;
    uint32_t len = trace_get_u32(c + 4);
    if (len > limit - offset - TRACE_CHUNK_HEAD) return false;
    memcpy(tag, c, 4);
    tag[4] = 0;
    payload->p = c + TRACE_CHUNK_HEAD;
    payload->end = payload->p + len;
    return true;
}

static bool read_info(trace_reader *r, span s)
{
    uint64_t seed, limit;
    if (!get_string(&s, &r->info.smalti_version, NULL) || !get_string(&s, &r->info.model_path, NULL) ||
        !trace_get_varint(&s.p, s.end, &seed) || !trace_get_varint(&s.p, s.end, &limit))
        return false;
    r->info.seed = (int32_t)trace_unzigzag(seed);
    r->info.step_limit = (long)trace_unzigzag(limit);
    return true;
}

static bool read_tree(trace_reader *r, span s)
{
    long count;
    if (!get_int(&s, 1 << 20, &count)) return false;
    r->info.nodes = calloc((size_t)count + 1, sizeof *r->info.nodes);
    if (!r->info.nodes) return false;
    for (long i = 0; i < count; i++) {
        trace_node *n = &r->info.nodes[i];
        long parent, depth, line;
        r->info.node_count = (int)i + 1; /* so that a half-read node is freed */
        if (!get_string(&s, &n->kind, NULL) || !get_int(&s, count, &parent) || !get_int(&s, 1 << 20, &depth) ||
            !get_int(&s, 1L << 30, &line) || !get_string(&s, &n->attributes, NULL))
            return false;
        n->parent = (int)parent - 1;
        n->depth = (int)depth;
        n->line = (int)line;
    }
    r->info.node_count = (int)count;
    return true;
}

/* LATT: points_x, points_y (2..257 each), then x and y of each point as f64; nothing after them. */
static bool read_lattice(trace_reader *r, span s)
{
    long nx, ny;
    if (!get_int(&s, TRACE_LATTICE_MAX, &nx) || !get_int(&s, TRACE_LATTICE_MAX, &ny) || nx < 2 || ny < 2 ||
        (size_t)(s.end - s.p) != (size_t)(nx * ny) * 16)
        return false;
    r->info.lattice = malloc((size_t)(nx * ny) * 2 * sizeof *r->info.lattice);
    if (!r->info.lattice) return false;
    for (long i = 0; i < 2 * nx * ny; i++) r->info.lattice[i] = trace_get_f64(s.p + 8 * i);
    r->info.lattice_x = (int)nx;
    r->info.lattice_y = (int)ny;
    return true;
}

/* WARN: count (1..TRACE_MAX_WARNINGS), then per warning its step, line and message; nothing after them. */
static bool read_warnings(trace_reader *r, span s)
{
    long count;
    if (!get_int(&s, TRACE_MAX_WARNINGS, &count) || count < 1) return false;
    r->info.warnings = calloc((size_t)count, sizeof *r->info.warnings);
    if (!r->info.warnings) return false;
    for (long i = 0; i < count; i++) {
        trace_warning *tw = &r->info.warnings[i];
        long line;
        r->info.warning_count = (int)i + 1; /* so that a half-read warning is freed */
        if (!get_int(&s, 1L << 62, &tw->step) || !get_int(&s, 1L << 30, &line) || !get_string(&s, &tw->message, NULL)) return false;
        tw->line = (int)line;
    }
    return s.p == s.end;
}

static bool read_ends(trace_reader *r, span s)
{
    long end;
    uint64_t changes;
    if (!get_int(&s, 1L << 62, &r->info.steps) || !trace_get_varint(&s.p, s.end, &changes) || !get_int(&s, 2, &end) ||
        !get_string(&s, &r->info.end_message, NULL))
        return false;
    r->info.changes = (int64_t)changes;
    r->info.end = (int)end;
    return true;
}

/* The INDX chunk: every GRID, KEYF and STEP chunk with its step, in file order. */
static bool read_index(trace_reader *r, span s, smalti_error *err)
{
    long count;
    if (!get_int(&s, (long)(r->len / TRACE_CHUNK_HEAD), &count)) return corrupt(r, err, "bad index");
    r->entries = calloc((size_t)count + 1, sizeof *r->entries);
    if (!r->entries) return corrupt(r, err, "out of memory");
    size_t offset = 0;
    int grid = -1;
    long last_step = 0;
    for (long i = 0; i < count; i++) {
        entry *e = &r->entries[i];
        long kind, step, delta;
        if (!get_int(&s, 2, &kind) || !get_int(&s, 1L << 62, &step) || !get_int(&s, (long)r->len, &delta))
            return corrupt(r, err, "bad index entry");
        offset += (size_t)delta;
        char tag[5];
        span payload;
        static const char *const tags[] = {"GRID", "KEYF", "STEP"};
        if ((i > 0 && delta == 0) || !chunk_at(r, offset, tag, &payload) || strcmp(tag, tags[kind]) != 0)
            return corrupt(r, err, "an index entry does not point at its chunk");
        if (step < last_step || step > r->info.steps) return corrupt(r, err, "index steps out of order");
        if (kind == TRACE_IDX_GRID) grid = (int)i;
        if (grid < 0) return corrupt(r, err, "no grid before the first step");
        *e = (entry){(int)kind, step, offset, grid};
        last_step = step;
    }
    r->entry_count = (int)count;
    if (count == 0 || r->entries[0].kind != TRACE_IDX_GRID || r->entries[0].step != 0)
        return corrupt(r, err, "the trace does not start with a grid");
    return true;
}

static trace_reader *open_bytes(trace_reader *r, smalti_error *err)
{
    if (r->len >= TRACE_MAGIC_LEN && memcmp(r->data, TRACE_OLD_MAGIC, TRACE_MAGIC_LEN) == 0) {
        error_set(err, SMALTI_ERR_IO, r->name, 0, "a trace recorded by tessera (smalti's old name); record it again");
        goto fail;
    }
    if (r->len < TRACE_HEADER_LEN + TRACE_FOOTER_LEN || memcmp(r->data, TRACE_MAGIC, TRACE_MAGIC_LEN) != 0) {
        corrupt(r, err, "no trace header");
        goto fail;
    }
    uint32_t version = trace_get_u32(r->data + TRACE_MAGIC_LEN);
    if (version != TRACE_VERSION) {
        error_set(err, SMALTI_ERR_IO, r->name, 0, "trace format version %u; this smalti reads version %d", version,
                     TRACE_VERSION);
        goto fail;
    }
    const uint8_t *footer = r->data + r->len - TRACE_FOOTER_LEN;
    if (memcmp(footer + 8, "TEND", 4) != 0) {
        corrupt(r, err, "the file is cut short (no end marker)");
        goto fail;
    }
    uint64_t index_at = trace_get_u32(footer) | (uint64_t)trace_get_u32(footer + 4) << 32;
    /* Walk every chunk once: the framing must tile the file exactly. */
    size_t at = TRACE_HEADER_LEN;
    bool have_info = false, have_tree = false, have_ends = false, have_index = false;
    span index_span = {0};
    /* The chunks about the whole run come at most once: a second one is not this run's (and reading it over
       the first would lose what the first holds). */
    static const char *const once[] = {"INFO", "SRC ", "TREE", "ENDS", "INDX", "LATT", "WARN"};
    unsigned seen = 0;
    while (at < r->len - TRACE_FOOTER_LEN) {
        char tag[5];
        span s;
        if (!chunk_at(r, at, tag, &s)) {
            corrupt(r, err, "a chunk runs past the end of the file");
            goto fail;
        }
        for (unsigned k = 0; k < sizeof once / sizeof *once; k++) {
            if (strcmp(tag, once[k]) != 0) continue;
            if (seen & 1u << k) {
                error_set(err, SMALTI_ERR_IO, r->name, 0, "not a valid trace: a second %.*s chunk", tag[3] == ' ' ? 3 : 4, tag);
                goto fail;
            }
            seen |= 1u << k;
        }
        bool ok = true;
        if (strcmp(tag, "INFO") == 0) ok = have_info = read_info(r, s);
        else if (strcmp(tag, "TREE") == 0) ok = have_tree = read_tree(r, s);
        else if (strcmp(tag, "ENDS") == 0) ok = have_ends = read_ends(r, s);
        else if (strcmp(tag, "LATT") == 0) ok = read_lattice(r, s);
        else if (strcmp(tag, "WARN") == 0) ok = read_warnings(r, s);
        else if (strcmp(tag, "SRC ") == 0) {
            r->info.source = malloc((size_t)(s.end - s.p) + 1);
            ok = r->info.source != NULL;
            if (ok) {
                memcpy(r->info.source, s.p, (size_t)(s.end - s.p));
                r->info.source[s.end - s.p] = 0;
                r->info.source_len = (size_t)(s.end - s.p);
            }
        } else if (strcmp(tag, "INDX") == 0) {
            have_index = at == index_at;
            index_span = s;
        }
        if (!ok) {
            error_set(err, SMALTI_ERR_IO, r->name, 0, "not a valid trace: bad %s chunk", tag);
            goto fail;
        }
        at = (size_t)(s.end - r->data);
    }
    if (!have_info || !have_tree || !have_ends || !have_index) {
        corrupt(r, err, !have_index ? "no index" : "a required chunk (INFO, TREE or ENDS) is missing");
        goto fail;
    }
    if (!r->info.source) r->info.source = calloc(1, 1);
    if (!r->info.source || !read_index(r, index_span, err)) goto fail;
    r->grid_entry = -1;
    if (!trace_seek(r, 0, err)) goto fail;
    return r;
fail:
    trace_reader_free(r);
    return NULL;
}

trace_reader *trace_read_memory(const uint8_t *data, size_t len, const char *name, smalti_error *err)
{
    trace_reader *r = calloc(1, sizeof *r);
    if (r) r->data = malloc(len ? len : 1);
    if (!r || !r->data) {
        free(r);
        error_set(err, SMALTI_ERR_RUNTIME, name, 0, "out of memory");
        return NULL;
    }
    memcpy(r->data, data, len);
    r->len = len;
    snprintf(r->name, sizeof r->name, "%s", name);
    return open_bytes(r, err);
}

/* The file is opened once and everything is asked of that descriptor: a regular file only (a
   device such as /dev/zero or a FIFO would be read without end), and its first bytes must be a
   trace's magic before the rest is read, so that any other file is refused at once. */
trace_reader *trace_read_file(const char *path, smalti_error *err)
{
    int fd = file_open_named(path);
    if (fd < 0) {
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot open the trace: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    uint8_t magic[TRACE_MAGIC_LEN];
    const char *refused = fstat(fd, &st) != 0           ? strerror(errno)
                          : S_ISDIR(st.st_mode)          ? "is a directory, not a trace"
                          : !S_ISREG(st.st_mode)         ? "not a trace: not a regular file (a device, FIFO or socket)"
                          : pread(fd, magic, sizeof magic, 0) != (ssize_t)sizeof magic ? "not a valid trace: no trace header"
                          : memcmp(magic, TRACE_OLD_MAGIC, TRACE_MAGIC_LEN) == 0
                              ? "a trace recorded by tessera (smalti's old name); record it again"
                          : memcmp(magic, TRACE_MAGIC, TRACE_MAGIC_LEN) != 0 ? "not a valid trace: no trace header"
                                                                             : NULL;
    trace_reader *r = NULL;
    smalti_status code = SMALTI_ERR_IO;
    if (!refused && !(r = calloc(1, sizeof *r))) refused = "out of memory", code = SMALTI_ERR_RUNTIME;
    file_read_status status;
    if (!refused && !(r->data = file_read_fd(fd, SIZE_MAX - 1, &r->len, &status))) {
        refused = file_read_status_text(status);
        if (status == FILE_READ_NO_MEMORY) code = SMALTI_ERR_RUNTIME;
    }
    close(fd);
    if (refused) {
        error_set(err, code, path, 0, "%s", refused);
        if (r) free(r->data);
        free(r);
        return NULL;
    }
    snprintf(r->name, sizeof r->name, "%s", path);
    return open_bytes(r, err);
}

void trace_reader_free(trace_reader *r)
{
    if (!r) return;
    for (int i = 0; i < r->info.node_count; i++) {
        free(r->info.nodes[i].kind);
        free(r->info.nodes[i].attributes);
    }
    free(r->info.nodes);
    free(r->info.smalti_version);
    free(r->info.model_path);
    free(r->info.source);
    free(r->info.end_message);
    free(r->info.lattice);
    for (int i = 0; i < r->info.warning_count; i++) free(r->info.warnings[i].message);
    free(r->info.warnings);
    free(r->entries);
    free(r->cells);
    free(r->step_cells);
    free(r->step_values);
    free(r->data);
    free(r);
}

const trace_info *trace_reader_info(const trace_reader *r) { return &r->info; }

/* Decode cell content (raw or zlib) of the current grid's size into dst. */
static bool decode_cells(trace_reader *r, span s, uint8_t *dst, smalti_error *err)
{
    long encoding;
    if (!get_int(&s, TRACE_ZLIB, &encoding)) return corrupt(r, err, "bad cell encoding");
    size_t n = (size_t)r->count, len = (size_t)(s.end - s.p);
    if (encoding == TRACE_RAW) {
        if (len != n) return corrupt(r, err, "a raw grid of the wrong size");
        memcpy(dst, s.p, n);
    } else {
        uLongf out = (uLongf)n;
        if (uncompress(dst, &out, s.p, (uLong)len) != Z_OK || out != n)
            return corrupt(r, err, "a compressed grid does not inflate to its size");
    }
    for (size_t i = 0; i < n; i++)
        if (dst[i] >= r->values) return corrupt(r, err, "a cell value outside the legend");
    return true;
}
static bool read_cells(trace_reader *r, span s, smalti_error *err) { return decode_cells(r, s, r->cells, err); }

/* Make the GRID chunk of `entry` the current grid's description; its cells
   are read when `with_cells`. */
static bool load_grid(trace_reader *r, int grid_entry, bool with_cells, int *node, smalti_error *err)
{
    char tag[5];
    span s;
    long step, node1, mx, my, mz;
    char *legend = NULL;
    size_t values = 0;
    if (!chunk_at(r, r->entries[grid_entry].offset, tag, &s) || !get_int(&s, 1L << 62, &step) ||
        !get_int(&s, r->info.node_count, &node1) || !get_int(&s, 1 << 28, &mx) || !get_int(&s, 1 << 28, &my) ||
        !get_int(&s, 1 << 28, &mz) || !get_string(&s, &legend, &values))
        return corrupt(r, err, "bad grid chunk");
    bool ok = mx > 0 && my > 0 && mz > 0 && mx * my <= (1L << 28) && mx * my * mz <= (1L << 28) && values > 0 &&
              values <= 256 && (size_t)(s.end - s.p) >= 3 * values;
    if (ok && (size_t)(mx * my * mz) > r->cells_cap) {
        uint8_t *bigger = realloc(r->cells, (size_t)(mx * my * mz));
        ok = bigger != NULL;
        if (bigger) {
            r->cells = bigger;
            r->cells_cap = (size_t)(mx * my * mz);
        }
    }
    if (!ok) {
        free(legend);
        return corrupt(r, err, "bad grid size or legend");
    }
    r->mx = (int)mx;
    r->my = (int)my;
    r->mz = (int)mz;
    r->count = (int32_t)(mx * my * mz);
    r->values = (int)values;
    memcpy(r->legend, legend, values);
    r->legend[values] = 0;
    free(legend);
    for (size_t v = 0; v < values; v++, s.p += 3) r->colors[v] = (uint32_t)s.p[0] << 16 | (uint32_t)s.p[1] << 8 | s.p[2];
    r->grid_entry = grid_entry;
    if (node) *node = (int)node1 - 1;
    return !with_cells || read_cells(r, s, err);
}

static size_t chunk_end(const trace_reader *r, size_t offset)
{
    return offset + TRACE_CHUNK_HEAD + trace_get_u32(r->data + offset + 4);
}

bool trace_seek(trace_reader *r, long step, smalti_error *err)
{
    if (step < 0 || step > r->info.steps) {
        error_set(err, SMALTI_ERR_USAGE, r->name, 0, "step %ld is outside the trace (0..%ld)", step, r->info.steps);
        return false;
    }
    /* The last restore point (GRID or KEYF) at or before step; entries are in file (and step) order. */
    int lo = 0, hi = r->entry_count - 1, best = 0;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (r->entries[mid].step <= step) { best = mid; lo = mid + 1; }
        else hi = mid - 1;
    }
    while (best > 0 && r->entries[best].kind == TRACE_IDX_STEP) best--;
    const entry *e = &r->entries[best];
    if (e->kind == TRACE_IDX_GRID) {
        if (!load_grid(r, best, true, NULL, err)) return false;
    } else {
        char tag[5];
        span s;
        long key_step;
        if (r->grid_entry != e->grid && !load_grid(r, e->grid, false, NULL, err)) return false;
        if (!chunk_at(r, e->offset, tag, &s) || !get_int(&s, 1L << 62, &key_step) || key_step != e->step)
            return corrupt(r, err, "bad keyframe");
        if (!read_cells(r, s, err)) return false;
    }
    r->position = e->step;
    r->next_chunk = chunk_end(r, e->offset);
    r->block_left = 0;
    trace_step st;
    while (r->position < step)
        if (!trace_next(r, &st, err)) return err && err->status != SMALTI_OK ? false : corrupt(r, err, "steps are missing");
    return true;
}

static bool grow_step(trace_reader *r, size_t n)
{
    if (n <= r->step_cap) return true;
    int32_t *cells = realloc(r->step_cells, n * sizeof *cells);
    if (cells) r->step_cells = cells;
    uint8_t *values = realloc(r->step_values, n);
    if (values) r->step_values = values;
    if (!cells || !values) return false;
    r->step_cap = n;
    return true;
}

/* One record of the open STEP block. */
static bool next_record(trace_reader *r, trace_step *out, smalti_error *err)
{
    span s = {r->p, r->end};
    uint64_t head, node1, e;
    if (!trace_get_varint(&s.p, s.end, &head)) return corrupt(r, err, "a step record runs past its block");
    uint64_t count = head >> 1;
    if (head & 1) {
        if (!trace_get_varint(&s.p, s.end, &node1) || node1 > (uint64_t)r->info.node_count)
            return corrupt(r, err, "a step names a node the tree lacks");
        r->prev_node = (int)node1 - 1;
    }
    if (count > (uint64_t)r->count || !grow_step(r, (size_t)count)) return corrupt(r, err, "a step changes too many cells");
    uint64_t values = (uint64_t)r->values;
    int64_t prev = r->prev_index;
    for (uint64_t i = 0; i < count; i++) {
        if (!trace_get_varint(&s.p, s.end, &e)) return corrupt(r, err, "a step record runs past its block");
        int64_t index = prev + trace_unzigzag(e / values);
        uint8_t v = (uint8_t)(e % values);
        if (index < 0 || index >= r->count) return corrupt(r, err, "a change outside the grid");
        r->cells[index] = v;
        r->step_cells[i] = (int32_t)index;
        r->step_values[i] = v;
        prev = index;
    }
    r->prev_index = prev;
    r->p = s.p;
    r->block_left--;
    r->position++;
    *out = (trace_step){.step = r->position, .node = r->prev_node, .count = (size_t)count,
                        .cells = r->step_cells, .values = r->step_values};
    if (r->block_left == 0 && r->p != r->end) return corrupt(r, err, "a step block is longer than its steps");
    return true;
}

bool trace_next(trace_reader *r, trace_step *out, smalti_error *err)
{
    if (err) err->status = SMALTI_OK;
    if (r->position >= r->info.steps) return false;
    while (r->block_left == 0) {
        char tag[5];
        span s;
        if (!chunk_at(r, r->next_chunk, tag, &s)) return corrupt(r, err, "the steps end early");
        size_t here = r->next_chunk;
        r->next_chunk = (size_t)(s.end - r->data);
        if (strcmp(tag, "STEP") == 0) {
            long first, count;
            uint64_t changes;
            if (!get_int(&s, 1L << 62, &first) || !get_int(&s, 1L << 62, &count) || !trace_get_varint(&s.p, s.end, &changes) ||
                first != r->position + 1 || count < 1)
                return corrupt(r, err, "a step block out of sequence");
            r->p = s.p;
            r->end = s.end;
            r->block_left = count;
            r->prev_node = -1;
            r->prev_index = 0;
        } else if (strcmp(tag, "GRID") == 0) {
            int g = -1;
            for (int i = r->grid_entry + 1; i < r->entry_count && g < 0; i++)
                if (r->entries[i].offset == here) g = i;
            int node;
            if (g < 0 || r->entries[g].step != r->position + 1 || !load_grid(r, g, true, &node, err))
                return err && err->status != SMALTI_OK ? false : corrupt(r, err, "a grid chunk out of sequence");
            r->position++;
            *out = (trace_step){.step = r->position, .node = node, .new_grid = true, .count = (size_t)r->count};
            return true;
        } else if (strcmp(tag, "KEYF") == 0 || strcmp(tag, "SRC ") == 0 || strcmp(tag, "INFO") == 0 ||
                   strcmp(tag, "TREE") == 0) {
            continue;
        } else if (strcmp(tag, "ENDS") == 0 || strcmp(tag, "INDX") == 0) {
            return corrupt(r, err, "the steps end early");
        }
        /* An unknown chunk: a later version's; skip it. */
    }
    return next_record(r, out, err);
}

bool trace_verify(trace_reader *r, smalti_error *err)
{
    if (!trace_seek(r, 0, err)) return false;
    uint8_t *key = NULL;
    bool ok = true;
    int k = 0;
    trace_step st;
    for (;;) {
        for (; ok && k < r->entry_count && r->entries[k].step <= r->position; k++) {
            const entry *e = &r->entries[k];
            if (e->kind != TRACE_IDX_KEYF || e->step != r->position) continue;
            char tag[5];
            span s;
            long step;
            uint8_t *bigger = realloc(key, (size_t)r->count);
            if (!bigger) { ok = corrupt(r, err, "out of memory"); break; }
            key = bigger;
            ok = e->grid == r->grid_entry && chunk_at(r, e->offset, tag, &s) && get_int(&s, 1L << 62, &step);
            ok = ok ? decode_cells(r, s, key, err) : corrupt(r, err, "bad keyframe");
            if (ok && memcmp(key, r->cells, (size_t)r->count) != 0) {
                error_set(err, SMALTI_ERR_IO, r->name, 0, "not a valid trace: the steps do not replay to the keyframe of step %ld",
                             e->step);
                ok = false;
            }
        }
        if (!ok || !trace_next(r, &st, err)) break;
    }
    free(key);
    if (ok && r->position != r->info.steps) ok = corrupt(r, err, "steps are missing");
    return ok && (!err || err->status == SMALTI_OK);
}

long trace_position(const trace_reader *r) { return r->position; }

const uint8_t *trace_grid(const trace_reader *r, int *mx, int *my, int *mz)
{
    if (mx) *mx = r->mx;
    if (my) *my = r->my;
    if (mz) *mz = r->mz;
    return r->cells;
}

const char *trace_legend(const trace_reader *r) { return r->legend; }
const uint32_t *trace_colors(const trace_reader *r) { return r->colors; }

const uint8_t *trace_reader_bytes(const trace_reader *r, size_t *len)
{
    *len = r->len;
    return r->data;
}
