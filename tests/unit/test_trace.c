/* test_trace.c — trace recording and replay: varints, node summaries, grid switches,
   keyframes, atomic files, and damaged traces refused without a crash. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/engine/run.h"
#include "../../src/trace/format.h"
#include "../../src/trace/trace.h"

static const char growth_xml[] = "<markov values=\"BWA\" origin=\"True\">\n"
                                 "  <one in=\"WBB\" out=\"WAW\"/>\n"
                                 "  <one in=\"AW\" out=\"WW\"/>\n"
                                 "</markov>\n";

/* A recorded run, with what the run itself reported at every step. */
#define MAX_STEPS 50000
typedef struct recording {
    smalti_model *model;
    smalti_run *run;
    trace_writer *writer;
    long steps;
    int nodes[MAX_STEPS + 1];
    size_t changed[MAX_STEPS + 1];  /* distinct cells per step */
    unsigned char *grids[MAX_STEPS + 1]; /* the grid after each step (and 0) */
    size_t sizes[MAX_STEPS + 1];
} recording;

static void keep_grid(recording *rec, long step)
{
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(rec->run, &mx, &my, &mz);
    rec->sizes[step] = (size_t)(mx * my * mz);
    rec->grids[step] = malloc(rec->sizes[step]);
    memcpy(rec->grids[step], g, rec->sizes[step]);
}

static void watch(void *ud, const smalti_step_event *ev)
{
    recording *rec = ud;
    trace_observe(rec->writer, ev);
    assert_true(ev->step <= MAX_STEPS);
    rec->nodes[ev->step] = ev->node_id;
    size_t n = 0;
    for (size_t k = 0; k < ev->changed_count; k++) {
        size_t j = 0;
        while (j < k && ev->changed[j] != ev->changed[k]) j++;
        n += j == k;
    }
    rec->changed[ev->step] = n;
    keep_grid(rec, ev->step);
}

/* Record `xml` into memory, up to `limit` steps (<= 0: to its end), with resources under `resource_root`. */
static recording *record_in(const char *xml, int mx, int my, int mz, int seed, long limit, const char *resource_root)
{
    recording *rec = calloc(1, sizeof *rec);
    rec->model = unit_load(xml, "trace.xml", mx, my, mz, resource_root);
    rec->run = smalti_run_new(rec->model, seed, NULL);
    palette pal;
    palette_default(&pal);
    trace_meta meta = {.model_path = "models/trace.xml", .source = xml, .source_len = strlen(xml), .seed = seed};
    smalti_error err;
    rec->writer = trace_writer_new(NULL, rec->run, rec->model, &meta, &pal, NULL, &err);
    assert_non_null(rec->writer);
    keep_grid(rec, 0);
    smalti_run_set_observer(rec->run, watch, rec);
    rec->steps = smalti_run_to_end(rec->run, limit);
    assert_true(trace_writer_finish(rec->writer, &err));
    return rec;
}

static recording *record(const char *xml, int mx, int my, int mz, int seed, long limit)
{
    return record_in(xml, mx, my, mz, seed, limit, NULL);
}

static trace_reader *read_back(recording *rec)
{
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(rec->writer, &len);
    smalti_error err;
    trace_reader *r = trace_read_memory(bytes, len, "mem.trace", &err);
    if (!r) fail_msg("%s", err.message);
    return r;
}

/* The reader's grid is the run's after `step`. */
static void assert_at(trace_reader *r, recording *rec, long step)
{
    int mx, my, mz;
    const uint8_t *g = trace_grid(r, &mx, &my, &mz);
    assert_int_equal(trace_position(r), step);
    assert_int_equal((size_t)(mx * my * mz), rec->sizes[step]);
    assert_memory_equal(g, rec->grids[step], rec->sizes[step]);
}

static void done(recording *rec)
{
    for (long i = 0; i <= rec->steps; i++) free(rec->grids[i]);
    trace_writer_free(rec->writer);
    smalti_run_free(rec->run);
    smalti_model_free(rec->model);
    free(rec);
}

static void varints_and_zigzag_round_trip(void **state)
{
    (void)state;
    const uint64_t values[] = {0, 1, 127, 128, 300, 16383, 16384, (1ull << 35) + 7, UINT64_MAX};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        uint8_t buf[TRACE_VARINT_MAX];
        size_t n = trace_put_varint(buf, values[i]);
        assert_true(n <= TRACE_VARINT_MAX);
        const uint8_t *p = buf;
        uint64_t back;
        assert_true(trace_get_varint(&p, buf + n, &back));
        assert_true(back == values[i]);
        assert_ptr_equal(p, buf + n);
        p = buf;
        if (n > 1) assert_false(trace_get_varint(&p, buf + n - 1, &back)); /* cut short */
    }
    assert_int_equal(trace_zigzag(0), 0);
    assert_int_equal(trace_zigzag(-1), 1);
    assert_int_equal(trace_zigzag(1), 2);
    for (int64_t v = -70000; v <= 70000; v += 997) assert_true(trace_unzigzag(trace_zigzag(v)) == v);
}

static void node_info_summarises_the_element(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<sequence values=\"BW\">\n"
                            "  <one in=\"B\" out=\"W\" steps=\"3\"/>\n"
                            "  <all><rule in=\"W\" out=\"B\"/><rule in=\"BW\" out=\"WW\" p=\"0.5\"/></all>\n"
                            "</sequence>",
                            "summary.xml", 4, 4, 1, NULL);
    smalti_node_info info;
    assert_true(smalti_model_node_info(m, 0, &info));
    assert_string_equal(info.kind, "sequence");
    assert_string_equal(info.attributes, "values=\"BW\"");
    assert_true(smalti_model_node_info(m, 1, &info));
    assert_string_equal(info.kind, "one");
    assert_int_equal(info.line, 2);
    assert_string_equal(info.attributes, "in=\"B\" out=\"W\" steps=\"3\"");
    assert_true(smalti_model_node_info(m, 2, &info));
    assert_string_equal(info.attributes, "rule in=\"W\" out=\"B\"; rule in=\"BW\" out=\"WW\" p=\"0.5\"");
    smalti_model_free(m);
}

/* Every step comes back with the run's node and distinct changed cells, and
   stepping from 0 reaches the run's grids. */
static void replay_gives_the_runs_steps(void **state)
{
    (void)state;
    recording *rec = record(growth_xml, 17, 17, 1, 3, 0);
    trace_reader *r = read_back(rec);
    const trace_info *info = trace_reader_info(r);
    assert_int_equal(info->steps, rec->steps);
    assert_int_equal(info->end, TRACE_END_FINISHED);
    assert_int_equal(info->seed, 3);
    assert_string_equal(info->model_path, "models/trace.xml");
    assert_string_equal(info->source, growth_xml);
    assert_int_equal(info->node_count, 3);
    assert_string_equal(info->nodes[1].kind, "one");
    assert_string_equal(info->nodes[1].attributes, "in=\"WBB\" out=\"WAW\"");
    assert_int_equal(info->nodes[1].parent, 0);
    assert_int_equal(info->nodes[2].line, 3);
    const uint8_t *g = trace_grid(r, NULL, NULL, NULL);
    assert_int_equal(g[8 + 8 * 17], 1); /* the origin */
    trace_step st;
    smalti_error err;
    long seen = 0;
    while (trace_next(r, &st, &err)) {
        seen++;
        assert_int_equal(st.step, seen);
        assert_int_equal(st.node, rec->nodes[seen]);
        assert_int_equal(st.count, rec->changed[seen]);
        for (size_t k = 0; k < st.count; k++) assert_int_equal(g[st.cells[k]], st.values[k]);
        assert_at(r, rec, seen);
    }
    assert_int_equal(err.status, SMALTI_OK);
    assert_int_equal(seen, rec->steps);
    assert_memory_equal(g, smalti_run_grid(rec->run, NULL, NULL, NULL), 17 * 17);
    trace_reader_free(r);
    done(rec);
}

/* A grid of 64 values (smalti's limit) records and replays: cells past value 31 ride in the change
   varints like any other, and the legend carries all 64 symbols. */
static void sixty_four_values_round_trip(void **state)
{
    (void)state;
    static const char xml[] = "<sequence values=\"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#+\">\n"
                              "  <voronoi sites=\"30\" values=\"6789#+\"/>\n"
                              "  <one in=\"+\" out=\"#\" steps=\"40\"/>\n"
                              "  <one in=\"#\" out=\"0\" steps=\"40\"/>\n"
                              "</sequence>\n";
    recording *rec = record(xml, 20, 20, 1, 9, 0);
    trace_reader *r = read_back(rec);
    assert_int_equal(strlen(trace_legend(r)), 64);
    trace_step st;
    smalti_error err;
    long seen = 0;
    bool high = false;
    while (trace_next(r, &st, &err)) {
        seen++;
        for (size_t k = 0; k < st.count; k++) high |= st.values[k] >= 32;
        assert_at(r, rec, seen);
    }
    assert_int_equal(err.status, SMALTI_OK);
    assert_int_equal(seen, rec->steps);
    assert_true(high);
    trace_reader_free(r);
    done(rec);
}

/* Many changes on a small grid make keyframes; seeks in any order land on the run's grids. */
static void seeks_use_keyframes_in_any_order(void **state)
{
    (void)state;
    /* One cell changes per step, 40000 times: keyframes every 16384 changes. */
    recording *rec = record("<markov values=\"BW\"><one in=\"B\" out=\"W\"/><one in=\"W\" out=\"B\"/></markov>", 8, 8,
                            1, 1, 40000);
    assert_int_equal(rec->steps, 40000);
    trace_reader *r = read_back(rec);
    assert_int_equal(trace_reader_info(r)->end, TRACE_END_LIMIT);
    assert_int_equal(trace_reader_info(r)->changes, 40000);
    smalti_error err;
    const long probes[] = {40000, 0, 16384, 16383, 16385, 39999, 1, 32768, 20000, 7, 32769, 40000};
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
        assert_true(trace_seek(r, probes[i], &err));
        assert_at(r, rec, probes[i]);
    }
    uint32_t x = 12345;
    for (int i = 0; i < 200; i++) {
        x = x * 1103515245u + 12345u;
        long step = (long)(x >> 8) % 40001;
        assert_true(trace_seek(r, step, &err));
        assert_at(r, rec, step);
    }
    assert_false(trace_seek(r, 40001, &err));
    assert_int_equal(err.status, SMALTI_ERR_USAGE);
    assert_false(trace_seek(r, -1, &err));
    /* Small as promised: well under 8 bytes per change, keyframes included. */
    size_t len;
    trace_writer_bytes(rec->writer, &len);
    assert_true(len < 40000 * 8);
    trace_reader_free(r);
    done(rec);
}

static void grid_switch_of_a_map_is_replayed(void **state)
{
    (void)state;
    recording *rec = record("<sequence values=\"BW\">\n"
                            "  <one in=\"B\" out=\"W\" steps=\"5\"/>\n"
                            "  <map scale=\"2 2 1\" values=\"BWR\">\n"
                            "    <rule in=\"B\" out=\"BB/BB\"/><rule in=\"W\" out=\"WW/RR\"/>\n"
                            "    <one in=\"B\" out=\"R\" steps=\"3\"/>\n"
                            "  </map>\n"
                            "</sequence>",
                            6, 6, 1, 2, 0);
    trace_reader *r = read_back(rec);
    smalti_error err;
    trace_step st;
    bool switched = false;
    while (trace_next(r, &st, &err)) {
        int mx, my, mz;
        trace_grid(r, &mx, &my, &mz);
        if (st.new_grid) {
            switched = true;
            assert_int_equal(mx, 12);
            assert_string_equal(trace_legend(r), "BWR");
        }
        assert_int_equal(st.node, rec->nodes[st.step]);
        assert_at(r, rec, st.step);
    }
    assert_true(switched);
    int mx, my, mz;
    const unsigned char *run_grid = smalti_run_grid(rec->run, &mx, &my, &mz);
    assert_int_equal(mx * my * mz, 144);
    assert_memory_equal(trace_grid(r, NULL, NULL, NULL), run_grid, 144);
    /* Back across the switch and forward again. */
    assert_true(trace_seek(r, 2, &err));
    trace_grid(r, &mx, NULL, NULL);
    assert_int_equal(mx, 6);
    assert_string_equal(trace_legend(r), "BW");
    assert_true(trace_seek(r, rec->steps, &err));
    assert_memory_equal(trace_grid(r, NULL, NULL, NULL), run_grid, 144);
    assert_true(trace_verify(r, &err));
    trace_reader_free(r);
    done(rec);
}

/* A trace file appears whole under its name, or not at all. */
static void trace_files_are_written_atomically(void **state)
{
    (void)state;
    char dir[] = "/tmp/smalti-trace-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], bad[256];
    snprintf(path, sizeof path, "%s/run.trace", dir);
    snprintf(bad, sizeof bad, "%s/missing/run.trace", dir);
    smalti_model *m = unit_load(growth_xml, "trace.xml", 9, 9, 1, NULL);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    palette pal;
    palette_default(&pal);
    smalti_error err;
    assert_null(trace_writer_new(bad, run, m, NULL, &pal, NULL, &err));
    assert_int_equal(err.status, SMALTI_ERR_IO);
    trace_writer *w = trace_writer_new(path, run, m, NULL, &pal, NULL, &err);
    assert_non_null(w);
    smalti_run_set_observer(run, trace_observe, w);
    smalti_run_step(run);
    assert_int_equal(access(path, F_OK), -1); /* not there until finished */
    smalti_run_to_end(run, 0);
    assert_true(trace_writer_finish(w, &err));
    trace_writer_free(w);
    trace_reader *r = trace_read_file(path, &err);
    assert_non_null(r);
    assert_true(trace_verify(r, &err));
    assert_int_equal(trace_reader_info(r)->steps, smalti_run_counter(run));
    trace_reader_free(r);
    /* A writer freed before finishing leaves nothing behind. */
    smalti_run_reset(run, 2);
    w = trace_writer_new(path, run, m, NULL, &pal, NULL, &err);
    smalti_run_set_observer(run, trace_observe, w);
    smalti_run_step(run);
    smalti_run_set_observer(run, NULL, NULL);
    trace_writer_free(w);
    /* A recorder must start before the first step. */
    assert_null(trace_writer_new(path, run, m, NULL, &pal, NULL, &err));
    assert_int_equal(err.status, SMALTI_ERR_USAGE);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) = 1", dir);
    assert_int_equal(system(cmd), 0);
    unlink(path);
    rmdir(dir);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Cut, flipped or foreign bytes give an error, never a crash (ASan watches). */
static void damaged_traces_are_refused(void **state)
{
    (void)state;
    recording *rec = record(growth_xml, 9, 9, 1, 1, 0);
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(rec->writer, &len);
    uint8_t *copy = malloc(len);
    smalti_error err;
    memcpy(copy, bytes, len);
    copy[0] = 'X';
    assert_null(trace_read_memory(copy, len, "bad.trace", &err));
    assert_non_null(strstr(err.message, "no trace header"));
    memcpy(copy, bytes, len);
    copy[8] = 9;
    assert_null(trace_read_memory(copy, len, "bad.trace", &err));
    assert_non_null(strstr(err.message, "version 9"));
    assert_null(trace_read_memory(bytes, len - 5, "cut.trace", &err));
    assert_non_null(strstr(err.message, "cut short"));
    int refused = 0, accepted = 0;
    for (size_t i = 12; i < len; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(copy, bytes, len);
            copy[i] ^= (uint8_t)(1u << bit);
            trace_reader *r = trace_read_memory(copy, len, "flip.trace", &err);
            bool ok = r && trace_verify(r, &err);
            if (r) {
                trace_seek(r, rec->steps / 2, &err);
                trace_reader_free(r);
            }
            if (ok) accepted++;
            else {
                refused++;
                assert_non_null(strstr(err.message, "trace"));
            }
        }
    /* Flips in cell values or text can still make a well-formed trace; most are caught. */
    assert_true(refused > accepted);
    free(copy);
    done(rec);
}

/* `bytes` with a copy of its first chunk tagged `tag` put just before the INDX chunk (the footer moved to
   match), in *out (malloc'd); false when the trace has no such chunk. */
static bool with_chunk_twice(const uint8_t *bytes, size_t len, const char *tag, uint8_t **out, size_t *out_len)
{
    size_t index_at = (size_t)trace_get_u32(bytes + len - 12), at = 12, found = 0, found_len = 0;
    while (at < len - 12) {
        size_t chunk_len = 8 + (size_t)trace_get_u32(bytes + at + 4);
        if (!found_len && memcmp(bytes + at, tag, 4) == 0) {
            found = at;
            found_len = chunk_len;
        }
        at += chunk_len;
    }
    if (!found_len) return false;
    uint8_t *b = malloc(len + found_len);
    assert_non_null(b);
    memcpy(b, bytes, index_at);
    memcpy(b + index_at, bytes + found, found_len);
    memcpy(b + index_at + found_len, bytes + index_at, len - index_at);
    uint32_t moved = (uint32_t)(index_at + found_len);
    uint8_t *footer = b + len + found_len - 12;
    for (int k = 0; k < 4; k++) footer[k] = (uint8_t)(moved >> (8 * k));
    *out = b;
    *out_len = len + found_len;
    return true;
}

/* A second INFO, SRC, TREE, ENDS or INDX chunk is refused; it once replaced the first (leaking it). */
static void repeated_chunks_are_refused(void **state)
{
    (void)state;
    recording *rec = record(growth_xml, 9, 9, 1, 1, 0);
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(rec->writer, &len);
    smalti_error err;
    trace_reader *r = trace_read_memory(bytes, len, "whole.trace", &err);
    assert_non_null(r);
    trace_reader_free(r);
    static const char *const tags[][2] = {{"INFO", "a second INFO chunk"}, {"SRC ", "a second SRC chunk"},
                                          {"TREE", "a second TREE chunk"}, {"ENDS", "a second ENDS chunk"},
                                          {"INDX", "a second INDX chunk"}};
    for (size_t k = 0; k < sizeof tags / sizeof *tags; k++) {
        uint8_t *twice = NULL;
        size_t twice_len = 0;
        if (!with_chunk_twice(bytes, len, tags[k][0], &twice, &twice_len)) fail_msg("the trace has no %s chunk", tags[k][0]);
        memset(&err, 0, sizeof err);
        r = trace_read_memory(twice, twice_len, "twice.trace", &err);
        if (r) {
            trace_reader_free(r);
            fail_msg("a trace with two %s chunks was read", tags[k][0]);
        }
        assert_int_equal(err.status, SMALTI_ERR_IO);
        if (!strstr(err.message, tags[k][1])) fail_msg("\"%s\" does not say \"%s\"", err.message, tags[k][1]);
        free(twice);
    }
    done(rec);
}

/* A run with a growgrid lattice writes it in a LATT chunk that reads back bit for bit as smalti_run_geometry
   gives it; a run without one has none; a second LATT chunk, or a cut one, is refused. */
static void lattice_round_trips(void **state)
{
    (void)state;
    const char *xml = "<sequence values=\"BW\">\n  <growgrid shape=\"Disc\" block=\"4\"/>\n"
                      "  <all in=\"B\" out=\"W\"/>\n</sequence>\n";
    recording *rec = record_in(xml, 24, 12, 1, 7, 0, "models/resources");
    const double *px, *py;
    int nx, ny;
    assert_int_equal(smalti_run_geometry(rec->run, &px, &py, &nx, &ny), 1);
    trace_reader *r = read_back(rec);
    const trace_info *info = trace_reader_info(r);
    assert_int_equal(info->lattice_x, nx);
    assert_int_equal(info->lattice_y, ny);
    assert_non_null(info->lattice);
    for (int i = 0; i < nx * ny; i++) {
        assert_memory_equal(&info->lattice[2 * i], &px[i], sizeof *px);
        assert_memory_equal(&info->lattice[2 * i + 1], &py[i], sizeof *py);
    }
    assert_true(trace_verify(r, NULL));
    trace_reader_free(r);

    size_t len;
    const uint8_t *bytes = trace_writer_bytes(rec->writer, &len);
    smalti_error err;
    uint8_t *twice = NULL;
    size_t twice_len = 0;
    assert_true(with_chunk_twice(bytes, len, "LATT", &twice, &twice_len));
    memset(&err, 0, sizeof err);
    assert_null(trace_read_memory(twice, twice_len, "twice.trace", &err));
    assert_non_null(strstr(err.message, "a second LATT chunk"));
    free(twice);
    /* a LATT claiming one point more than it holds */
    uint8_t *copy = malloc(len);
    memcpy(copy, bytes, len);
    size_t at = TRACE_HEADER_LEN;
    while (memcmp(copy + at, "LATT", 4) != 0) at += TRACE_CHUNK_HEAD + trace_get_u32(copy + at + 4);
    copy[at + TRACE_CHUNK_HEAD]++;
    memset(&err, 0, sizeof err);
    assert_null(trace_read_memory(copy, len, "cut.trace", &err));
    assert_non_null(strstr(err.message, "bad LATT chunk"));
    free(copy);
    done(rec);

    rec = record(growth_xml, 9, 9, 1, 1, 0);
    r = read_back(rec);
    info = trace_reader_info(r);
    assert_null(info->lattice);
    assert_int_equal(info->lattice_x, 0);
    trace_reader_free(r);
    done(rec);
}

/* A step in which no node acted is a hand-over: the current branch found nothing left to do and
   ended. Readers (the viewer's per-node counts) tell which branch from the steps before it, by the
   rule in docs/trace-format.md: after a step of node n the current branch is n if n is a branch (a
   map or wfc that made its grid), else n's parent; after a hand-over, the ended branch's parent if it
   is a markov or sequence, else none. Here the rule must name the run's own current branch. */
typedef struct handover_check {
    smalti_run *run;
    const smalti_model *model;
    int before;     /* the run's current branch before the step (after the last one) */
    int inferred;   /* the rule's */
    long handovers, wrong;
} handover_check;

static bool kind_is(const smalti_model *m, int id, const char *a, const char *b)
{
    smalti_node_info info;
    smalti_model_node_info(m, id, &info);
    return !strcmp(info.kind, a) || !strcmp(info.kind, b);
}

static void watch_handovers(void *ud, const smalti_step_event *ev)
{
    handover_check *c = ud;
    smalti_node_info info;
    if (ev->node_id >= 0) {
        smalti_model_node_info(c->model, ev->node_id, &info);
        bool branch = kind_is(c->model, ev->node_id, "markov", "sequence") || kind_is(c->model, ev->node_id, "map", "wfc");
        c->inferred = branch ? ev->node_id : info.parent;
    } else {
        c->handovers++;
        if (c->inferred != c->before) c->wrong++;
        int ended = c->inferred >= 0 ? c->inferred : 0;
        smalti_model_node_info(c->model, ended, &info);
        c->inferred = kind_is(c->model, ended, "markov", "sequence") ? info.parent : -1;
    }
    c->before = c->run->rs.current;
}

static void hand_overs_name_the_branch_that_ended(void **state)
{
    (void)state;
    static const char *const models[] = {
        /* The sequence ends at every other step. */
        "<markov values=\"BW\"><sequence><one in=\"B\" out=\"W\" steps=\"1\"/></sequence></markov>",
        /* Branches in branches: an inner sequence ends into a markov, which ends into the root. */
        "<sequence values=\"BWR\">\n"
        "  <markov>\n"
        "    <sequence><one in=\"B\" out=\"W\" steps=\"2\"/><markov><one in=\"W\" out=\"R\" steps=\"1\"/></markov></sequence>\n"
        "  </markov>\n"
        "  <sequence><one in=\"R\" out=\"B\" steps=\"3\"/></sequence>\n"
        "</sequence>",
        /* A map: its grid is made in a step of its own, its children go on in it, and its end ends the run. */
        "<sequence values=\"BW\">\n"
        "  <one in=\"B\" out=\"W\" steps=\"5\"/>\n"
        "  <map scale=\"2 2 1\" values=\"BWR\">\n"
        "    <rule in=\"B\" out=\"BB/BB\"/><rule in=\"W\" out=\"WW/RR\"/>\n"
        "    <sequence><one in=\"B\" out=\"R\" steps=\"3\"/></sequence>\n"
        "    <one in=\"W\" out=\"R\" steps=\"2\"/>\n"
        "  </map>\n"
        "</sequence>",
    };
    static const long at_least[] = {30, 3, 2};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        smalti_model *m = unit_load(models[i], "handover.xml", 6, 6, 1, NULL);
        smalti_run *run = smalti_run_new(m, 1, NULL);
        handover_check c = {.run = run, .model = m, .before = run->rs.current, .inferred = 0};
        assert_int_equal(c.before, 0);
        smalti_run_set_observer(run, watch_handovers, &c);
        smalti_run_to_end(run, 10000);
        assert_true(smalti_run_finished(run));
        assert_true(c.handovers >= at_least[i]);
        assert_int_equal(c.wrong, 0);
        assert_int_equal(c.inferred, -1); /* the last hand-over ended the run */
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

/* A run-time warning (a <wfc> whose rules contradict the grid before any try) reaches the run's
   channel once, with the node's line and the step, is counted, and is kept in the trace's WARN
   chunk; the grid stays as it was; a reset clears the count; a run without one has no WARN chunk. */
typedef struct warned {
    trace_writer *writer;
    smalti_run *run;
    int count, line;
    long step;
    char message[512];
} warned;

static void keep_warning(void *ud, const char *file, int line, const char *message)
{
    warned *w = ud;
    assert_string_equal(file, "trace.xml");
    w->count++;
    w->line = line;
    w->step = smalti_run_counter(w->run) + 1;
    snprintf(w->message, sizeof w->message, "%s", message);
    trace_writer_warn(w->writer, w->step, line, message);
}

static void wfc_failure_is_warned_and_traced(void **state)
{
    (void)state;
    const char *xml = "<sequence values=\"BW\">\n"
                      "  <one in=\"B\" out=\"W\" steps=\"2\"/>\n"
                      "  <wfc sample=\"Bricks\" values=\"ABCD\" n=\"3\">\n"
                      "    <rule in=\"B\" out=\"A\"/>\n"
                      "  </wfc>\n"
                      "  <one in=\"B\" out=\"W\"/>\n"
                      "</sequence>\n";
    smalti_model *m = unit_load(xml, "trace.xml", 8, 8, 1, "models/resources");
    smalti_run *run = smalti_run_new(m, 3, NULL);
    palette pal;
    palette_default(&pal);
    trace_meta meta = {.model_path = "trace.xml", .seed = 3};
    smalti_error err;
    warned w = {.run = run};
    w.writer = trace_writer_new(NULL, run, m, &meta, &pal, NULL, &err);
    assert_non_null(w.writer);
    smalti_run_set_observer(run, trace_observe, w.writer);
    smalti_run_set_warn(run, keep_warning, &w);
    /* Two steps of <one>, then the wfc fails at step 3 and, tried again, at every step after
       (the reference's sequence keeps to it): said once. */
    assert_int_equal(smalti_run_to_end(run, 10), 10);
    assert_int_equal(w.count, 1);
    assert_int_equal(smalti_run_warning_count(run), 1);
    assert_int_equal(w.line, 3);
    assert_int_equal(w.step, 3);
    assert_non_null(strstr(w.message, "<wfc> found no solution"));
    assert_non_null(strstr(w.message, "at step 3; the grid is as it was before the node"));
    int mx, my, mz;
    smalti_run_grid(run, &mx, &my, &mz);
    assert_int_equal(mx * my * mz, 64); /* the start grid, not the wfc's */
    assert_string_equal(smalti_run_legend(run), "BW");
    assert_true(trace_writer_finish(w.writer, &err));
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(w.writer, &len);
    trace_reader *r = trace_read_memory(bytes, len, "warn.trace", &err);
    assert_non_null(r);
    const trace_info *info = trace_reader_info(r);
    assert_int_equal(info->warning_count, 1);
    assert_int_equal(info->warnings[0].step, 3);
    assert_int_equal(info->warnings[0].line, 3);
    assert_string_equal(info->warnings[0].message, w.message);
    assert_true(trace_verify(r, NULL));
    trace_reader_free(r);
    uint8_t *twice = NULL;
    size_t twice_len = 0;
    assert_true(with_chunk_twice(bytes, len, "WARN", &twice, &twice_len));
    memset(&err, 0, sizeof err);
    assert_null(trace_read_memory(twice, twice_len, "twice.trace", &err));
    assert_non_null(strstr(err.message, "a second WARN chunk"));
    free(twice);
    trace_writer_free(w.writer);

    /* A reset clears the count and keeps the channel, which hears the failure again. */
    smalti_run_set_observer(run, NULL, NULL);
    w.writer = NULL;
    smalti_run_set_warn(run, NULL, NULL);
    smalti_run_reset(run, 4);
    assert_int_equal(smalti_run_warning_count(run), 0);
    smalti_run_to_end(run, 5);
    assert_int_equal(smalti_run_warning_count(run), 1); /* counted without a channel too */
    assert_int_equal(w.count, 1);
    smalti_run_free(run);
    smalti_model_free(m);

    /* A wfc that solves: no warning, and its trace has no WARN chunk. */
    recording *rec = record_in("<sequence values=\"BW\">\n  <wfc sample=\"Bricks\" values=\"DNna\" n=\"3\" periodic=\"True\"/>\n</sequence>\n",
                               24, 24, 1, 7, 0, "models/resources");
    assert_int_equal(smalti_run_warning_count(rec->run), 0);
    r = read_back(rec);
    assert_int_equal(trace_reader_info(r)->warning_count, 0);
    assert_null(trace_reader_info(r)->warnings);
    trace_reader_free(r);
    done(rec);
}

int run_trace_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varints_and_zigzag_round_trip),
        cmocka_unit_test(node_info_summarises_the_element),
        cmocka_unit_test(replay_gives_the_runs_steps),
        cmocka_unit_test(sixty_four_values_round_trip),
        cmocka_unit_test(seeks_use_keyframes_in_any_order),
        cmocka_unit_test(grid_switch_of_a_map_is_replayed),
        cmocka_unit_test(trace_files_are_written_atomically),
        cmocka_unit_test(damaged_traces_are_refused),
        cmocka_unit_test(repeated_chunks_are_refused),
        cmocka_unit_test(lattice_round_trips),
        cmocka_unit_test(hand_overs_name_the_branch_that_ended),
        cmocka_unit_test(wfc_failure_is_warned_and_traced),
    };
    return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
