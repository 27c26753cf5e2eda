/* test_runner.c — the `runner` node: brush footprints, carving along the path, `on`, branching caps, determinism. */
#include "unit.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/runner.h"
#include "../../src/io/output.h"
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_STAMPS = 200000 };

/* Every stamp a run made, as the hook reports it. */
typedef struct stamp_log {
    int count;
    struct stamp_entry {
        int runner, x, y;
        double radius;
        long step;
    } *at;
    const smalti_run *run;
} stamp_log;

static void record_stamp(void *userdata, int runner, int x, int y, double radius)
{
    stamp_log *log = userdata;
    assert_true(log->count < MAX_STAMPS);
    log->at[log->count++] = (struct stamp_entry){runner, x, y, radius, smalti_run_counter(log->run)};
}

static int runner_node_id(const smalti_model *m)
{
    for (int i = 0; i < smalti_model_node_count(m); i++) {
        smalti_node_info info;
        smalti_model_node_info(m, i, &info);
        if (strcmp(info.kind, "runner") == 0) return i;
    }
    fail_msg("no runner node");
    return -1;
}

/* The brush metrics as docs/language.md documents them (the `runner` node), written out again here. */
static bool in_brush(const char *brush, int dx, int dy, double radius)
{
    double ax = abs(dx), ay = abs(dy), chebyshev = ax > ay ? ax : ay;
    if (strcmp(brush, "circle") == 0) return ax * ax + ay * ay <= radius * radius;
    if (strcmp(brush, "diamond") == 0) return ax + ay <= radius;
    if (strcmp(brush, "square") == 0) return chebyshev <= radius;
    double cut = (ax + ay) * 0.75;
    return (cut > chebyshev ? cut : chebyshev) <= radius;
}

static char *grid_text(const smalti_run *run)
{
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    const char *legend = smalti_run_legend(run);
    char *text = malloc((size_t)(mx * my * mz) + 1);
    for (int i = 0; i < mx * my * mz; i++) text[i] = legend[g[i]];
    text[mx * my * mz] = 0;
    return text;
}

static char *run_model(const char *xml, int mx, int my, int32_t seed)
{
    smalti_model *m = unit_load(xml, "runner.xml", mx, my, 1, NULL);
    smalti_run *run = smalti_run_new(m, seed, NULL);
    assert_non_null(run);
    smalti_run_to_end(run, 0);
    assert_false(smalti_run_error(run, NULL));
    char *text = grid_text(run);
    smalti_run_free(run);
    smalti_model_free(m);
    return text;
}

/* One runner living one step at the centre of a 9x9 grid stamps exactly its brush. */
static void each_brush_has_its_footprint(void **state)
{
    (void)state;
    static const struct {
        const char *brush, *strength, *picture;
    } cases[] = {
        {"circle", "6", "........." "....B...." "..BBBBB.." "..BBBBB.." ".BBBBBBB." "..BBBBB.." "..BBBBB.." "....B...." "........."},
        {"circle", "5", "........." "........." "...BBB..." "..BBBBB.." "..BBBBB.." "..BBBBB.." "...BBB..." "........." "........."},
        {"diamond", "6", "........." "....B...." "...BBB..." "..BBBBB.." ".BBBBBBB." "..BBBBB.." "...BBB..." "....B...." "........."},
        {"square", "6", "........." ".BBBBBBB." ".BBBBBBB." ".BBBBBBB." ".BBBBBBB." ".BBBBBBB." ".BBBBBBB." ".BBBBBBB." "........."},
        {"octagon", "6", "........." "...BBB..." "..BBBBB.." ".BBBBBBB." ".BBBBBBB." ".BBBBBBB." "..BBBBB.." "...BBB..." "........."},
        {"octagon", "8", "...BBB..." "..BBBBB.." ".BBBBBBB." "BBBBBBBBB" "BBBBBBBBB" "BBBBBBBBB" ".BBBBBBB." "..BBBBB.." "...BBB..."},
        {"square", "0", "........." "........." "........." "........." "....B...." "........." "........." "........." "........."},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<runner fit=\"centred\" values=\".B\" value=\"B\" x=\"4\" y=\"4\" life=\"1\" brush=\"%s\" strength=\"%s\"/>",
                 cases[k].brush, cases[k].strength);
        char *got = run_model(xml, 9, 9, 7);
        if (strcmp(got, cases[k].picture) != 0) fail_msg("%s strength %s:\n got %s\nwant %s", cases[k].brush, cases[k].strength, got,
                                                         cases[k].picture);
        free(got);
    }
}

/* With every feature on, the carved cells are exactly the union of the
   brushes stamped along the recorded paths (clipped to the grid), limited to
   the cells that matched `on` before the runner began; every other cell is
   as it was. Each runner's path moves at most one cell plus the wind a step. */
static void carving_follows_the_paths(void **state)
{
    (void)state;
    static const char *const brushes[] = {"circle", "diamond", "square", "octagon"};
    for (int b = 0; b < 4; b++) {
        char xml[512];
        snprintf(xml, sizeof xml,
                 "<sequence values=\"WRB\">"
                 "<prl in=\"W\" out=\"R\" p=\"0.3\" steps=\"1\"/>"
                 "<runner fit=\"centred\" value=\"B\" on=\"W\" count=\"3..6\" strength=\"1..7\" life=\"10..60\" brush=\"%s\" turn=\"60\" "
                 "turnChance=\"0.5\" wind=\"0.25,-0.5\" taper=\"True\" branch=\"0.05\" wave=\"30,2\" jitter=\"0.4\"/>"
                 "</sequence>", brushes[b]);
        smalti_model *m = unit_load(xml, "runner.xml", 48, 40, 1, NULL);
        for (int32_t seed = 1; seed <= 5; seed++) {
            smalti_run *run = smalti_run_new(m, seed, NULL);
            stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
            assert_true(runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log));
            assert_int_equal(smalti_run_step(run), 1); /* the prl */
            char *before = grid_text(run);
            smalti_run_to_end(run, 0);
            char *after = grid_text(run);
            assert_true(log.count > 0);
            char *expected = strdup(before);
            for (int s = 0; s < log.count; s++) {
                const struct stamp_entry *e = &log.at[s];
                assert_true(e->x >= 0 && e->x < 48 && e->y >= 0 && e->y < 40);
                assert_true(e->radius >= 0 && e->radius <= 3.5);
                for (int y = 0; y < 40; y++)
                    for (int x = 0; x < 48; x++)
                        if (before[x + y * 48] == 'W' && in_brush(brushes[b], x - e->x, y - e->y, e->radius)) expected[x + y * 48] = 'B';
                for (int p = s - 1; p >= 0; p--)
                    if (log.at[p].runner == e->runner) {
                        assert_int_equal(log.at[p].step + 1, e->step);
                        assert_true(abs(log.at[p].x - e->x) <= 2 && abs(log.at[p].y - e->y) <= 2);
                        break;
                    }
            }
            if (strcmp(expected, after) != 0) fail_msg("%s, seed %d: the carving is not the union of the stamps", brushes[b], seed);
            free(expected);
            free(before);
            free(after);
            free(log.at);
            smalti_run_free(run);
        }
        smalti_model_free(m);
    }
}

/* Without turns or wind a runner walks a straight line from its start: every
   carved cell lies within the brush radius (1.5), plus the rounding of the
   position to a cell (0.71) and slack for estimating the direction from the
   carved cells' centroid, of that line; and the walk is `life` cells long. */
static void a_runner_without_turns_walks_straight(void **state)
{
    (void)state;
    enum { SIDE = 101, LIFE = 40 };
    for (int32_t seed = 1; seed <= 20; seed++) {
        char *g = run_model("<runner values=\".B\" value=\"B\" x=\"50\" y=\"50\" life=\"40\" strength=\"3\" turnChance=\"0\"/>",
                            SIDE, SIDE, seed);
        double sx = 50.5, sy = 50.5, mean_x = 0, mean_y = 0, far = 0;
        int carved = 0;
        for (int i = 0; i < SIDE * SIDE; i++) {
            if (g[i] != 'B') continue;
            double x = i % SIDE + 0.5 - sx, y = i / SIDE + 0.5 - sy;
            mean_x += x;
            mean_y += y;
            carved++;
            far = fmax(far, hypot(x, y));
        }
        assert_true(carved > 3 * LIFE);
        assert_true(far >= LIFE - 1 && far <= LIFE + 2);
        double length = hypot(mean_x, mean_y), ux = mean_x / length, uy = mean_y / length;
        for (int i = 0; i < SIDE * SIDE; i++) {
            if (g[i] != 'B') continue;
            double x = i % SIDE + 0.5 - sx, y = i / SIDE + 0.5 - sy;
            double along = x * ux + y * uy, across = fabs(x * uy - y * ux);
            assert_true(along >= -2.25);
            if (across > 3.0) fail_msg("seed %d: a carved cell %.2f off the line", seed, across);
        }
        free(g);
    }
}

/* Each runner stamps exactly `life` times (on a grid it cannot leave), and
   the node is done once the last one dies. */
static void runners_live_their_life(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<runner values=\".B\" value=\"B\" count=\"4\" x=\"30\" y=\"30\" life=\"5..9\"/>", "runner.xml", 61, 61, 1,
                            NULL);
    smalti_run *run = smalti_run_new(m, 3, NULL);
    stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
    runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log);
    smalti_run_to_end(run, 0);
    assert_true(smalti_run_finished(run));
    int stamps[4] = {0}, longest = 0;
    for (int s = 0; s < log.count; s++) {
        assert_true(log.at[s].runner >= 0 && log.at[s].runner < 4);
        stamps[log.at[s].runner]++;
    }
    for (int k = 0; k < 4; k++) {
        assert_true(stamps[k] >= 5 && stamps[k] <= 9);
        if (stamps[k] > longest) longest = stamps[k];
    }
    /* The last stamp came in the step `longest`; the next step found nobody. */
    assert_int_equal(log.at[log.count - 1].step, longest - 1);
    free(log.at);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* With taper the radius shrinks with the life left: strength * life / life0. */
static void taper_shrinks_the_brush(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<runner values=\".B\" value=\"B\" x=\"40\" y=\"40\" life=\"10\" strength=\"8\" taper=\"True\"/>", "runner.xml",
                            81, 81, 1, NULL);
    smalti_run *run = smalti_run_new(m, 5, NULL);
    stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
    runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log);
    smalti_run_to_end(run, 0);
    assert_int_equal(log.count, 10);
    for (int s = 0; s < 10; s++) assert_true(fabs(log.at[s].radius - 4.0 * (10 - s) / 10) < 1e-12);
    free(log.at);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Branching never makes more live runners than maxRunners, and with branch="1" it reaches the cap. */
static void branching_respects_max_runners(void **state)
{
    (void)state;
    smalti_model *m = unit_load("<runner values=\".B\" value=\"B\" x=\"100\" y=\"100\" life=\"200\" branch=\"1\" maxRunners=\"10\" "
                            "wind=\"0,0\" turnChance=\"0\"/>", "runner.xml", 201, 201, 1, NULL);
    smalti_run *run = smalti_run_new(m, 11, NULL);
    stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
    runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log);
    smalti_run_to_end(run, 0);
    int most = 0, serials = 0;
    for (int s = 0; s < log.count;) {
        int t = s;
        while (t < log.count && log.at[t].step == log.at[s].step) t++;
        if (t - s > most) most = t - s;
        s = t;
    }
    for (int s = 0; s < log.count; s++)
        if (log.at[s].runner + 1 > serials) serials = log.at[s].runner + 1;
    assert_int_equal(most, 10);
    assert_true(serials > 10); /* runners died at the edge and children took their place */
    free(log.at);
    smalti_run_free(run);
    smalti_model_free(m);
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static const char *const busy_model =
    "<sequence values=\"DBR\">"
    "<runner fit=\"centred\" value=\"B\" on=\"D\" count=\"20\" strength=\"2..6\" life=\"30..90\" brush=\"octagon\" branch=\"0.02\" "
    "wave=\"40,1.5\" wind=\"0.1,0.05\" jitter=\"0.3\" taper=\"True\" turnChance=\"0.33\"/>"
    "<runner fit=\"centred\" value=\"R\" on=\"D\" start=\"B\" count=\"5\" strength=\"3\" life=\"50\" turnChance=\"0.33\"/>"
    "</sequence>";

/* A seed fixes the grid; another seed gives another. The hash pins the
   bits across machines and compilers: if it changes, the maths is not
   portable (or the documented draw order changed). */
static void a_seed_fixes_the_grid(void **state)
{
    (void)state;
    char *a = run_model(busy_model, 120, 90, 42), *b = run_model(busy_model, 120, 90, 42), *c = run_model(busy_model, 120, 90, 43);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    assert_non_null(strchr(a, 'R')); /* the second node started on carved cells */
    uint64_t hash = fnv1a(a);
    if (hash != 0x8f233bb4fe292f03ull) fail_msg("grid hash %#llx", (unsigned long long)hash);
    free(a);
    free(b);
    free(c);
}

/* The sine is within 1e-13 of libm's, and exact at the quadrants. */
static void the_portable_sine_is_accurate(void **state)
{
    (void)state;
    double worst = 0;
    for (int k = -72000; k <= 72000; k++) {
        double deg = k * 0.0137, s, c;
        runner_sincos_deg(deg, &s, &c);
        double rad = deg * (3.14159265358979323846 / 180.0);
        worst = fmax(worst, fmax(fabs(s - sin(rad)), fabs(c - cos(rad))));
    }
    assert_true(worst < 1e-13);
    for (int q = -8; q <= 8; q++) {
        double s, c;
        runner_sincos_deg(90.0 * q, &s, &c);
        assert_true(fabs(s) == (q % 2 ? 1.0 : 0.0) && fabs(c) == (q % 2 ? 0.0 : 1.0));
    }
}

/* A heading fixes the start direction: a runner of strength 1 that never
   turns carves exactly the `life` cells from its start that way. */
static void heading_sets_the_start_direction(void **state)
{
    (void)state;
    static const struct {
        const char *heading;
        int dx, dy;
    } cases[] = {{"E", 1, 0}, {"N", 0, -1}, {"W", -1, 0}, {"S", 0, 1}, {"0", 1, 0}, {"90", 0, -1}, {"-90", 0, 1}, {"180..180", -1, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        for (int32_t seed = 1; seed <= 3; seed++) {
            char xml[256];
            snprintf(xml, sizeof xml, "<runner values=\".B\" value=\"B\" x=\"7\" y=\"7\" life=\"5\" turnChance=\"0\" heading=\"%s\"/>",
                     cases[k].heading);
            char *got = run_model(xml, 15, 15, seed);
            char want[15 * 15 + 1];
            memset(want, '.', 15 * 15);
            want[15 * 15] = 0;
            for (int s = 0; s < 5; s++) want[7 + s * cases[k].dx + (7 + s * cases[k].dy) * 15] = 'B';
            if (strcmp(got, want) != 0) fail_msg("heading %s, seed %d:\n got %s\nwant %s", cases[k].heading, seed, got, want);
            free(got);
        }
}

/* A runner that heads west from near the left edge and swings round east
   (the wave turns it by up to 180 degrees): by default it dies at the edge;
   with offgrid="wander" it walks on outside the grid (its stamps there reach
   in only where the brush overlaps the grid), comes back and carves further
   east; with a margin of 1 it never stands more than one cell outside, so
   this walk dies out there. */
static void wanderers_leave_the_grid_and_come_back(void **state)
{
    (void)state;
    enum { SIDE = 40 };
    static const char *const modes[] = {"", "offgrid=\"die\"", "offgrid=\"wander\"", "offgrid=\"wander\" margin=\"1\""};
    for (int mode = 0; mode < 4; mode++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<runner values=\".B\" value=\"B\" x=\"2\" y=\"5\" life=\"40\" strength=\"3\" turnChance=\"0\" "
                 "heading=\"W\" wave=\"180,0.5\" %s/>", modes[mode]);
        smalti_model *m = unit_load(xml, "runner.xml", SIDE, SIDE, 1, NULL);
        smalti_run *run = smalti_run_new(m, 1, NULL);
        stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
        assert_true(runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log));
        smalti_run_to_end(run, 0);
        char *g = grid_text(run);
        int outside = 0, back = -1, westmost = SIDE;
        for (int s = 0; s < log.count; s++) {
            if (log.at[s].x < westmost) westmost = log.at[s].x;
            if (log.at[s].x < 0) outside++;
            else if (outside && back < 0) back = s;
        }
        int east = 0;
        for (int i = 0; i < SIDE * SIDE; i++) east += g[i] == 'B' && i % SIDE >= 5;
        if (mode < 2) {
            assert_int_equal(outside, 0);
            assert_int_equal(east, 0);
            assert_true(log.count < 40);
        } else if (mode == 2) {
            assert_true(outside > 1);
            assert_true(back > 0);
            assert_true(east > 10);
            assert_int_equal(log.count, 40); /* it lived its whole life */
            assert_true(westmost < -1);
            /* a stamp left of the grid still carves the cells its brush reaches inside */
            for (int s = 0; s < log.count; s++)
                if (log.at[s].x == -1) assert_int_equal(g[log.at[s].y * SIDE], 'B');
        } else {
            /* the same walk goes two cells out: past the margin, so it dies there */
            assert_int_equal(westmost, -1);
            assert_int_equal(east, 0);
            assert_true(log.count < 40);
        }
        free(g);
        free(log.at);
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

/* One stamp of radius 10 with jitter 0.5: per stamp it is an exact disc
   (every carved cell nearer than every uncarved one); with jitterPer="cell"
   every cell within 5 is carved, none beyond 10, and the edge is ragged:
   some carved cell lies farther out than some uncarved one. */
static void jitter_per_cell_makes_ragged_edges(void **state)
{
    (void)state;
    enum { SIDE = 25, C = 12 };
    for (int per_cell = 0; per_cell < 2; per_cell++)
        for (int32_t seed = 1; seed <= 5; seed++) {
            char xml[256];
            snprintf(xml, sizeof xml, "<runner fit=\"centred\" values=\".B\" value=\"B\" x=\"12\" y=\"12\" life=\"1\" strength=\"20\" jitter=\"0.5\" %s/>",
                     per_cell ? "jitterPer=\"cell\"" : "");
            char *g = run_model(xml, SIDE, SIDE, seed);
            int nearest_uncarved = 1 << 30, farthest_carved = -1, carved = 0;
            for (int i = 0; i < SIDE * SIDE; i++) {
                int dx = i % SIDE - C, dy = i / SIDE - C, d2 = dx * dx + dy * dy;
                if (g[i] == 'B') {
                    carved++;
                    if (d2 > farthest_carved) farthest_carved = d2;
                } else if (d2 < nearest_uncarved) nearest_uncarved = d2;
            }
            if (per_cell) {
                assert_true(nearest_uncarved > 25);
                assert_true(farthest_carved <= 100);
                if (!(farthest_carved > nearest_uncarved)) fail_msg("seed %d: the edge is a clean disc", seed);
            } else {
                assert_true(carved > 1);
                assert_true(farthest_carved < nearest_uncarved);
            }
            free(g);
        }
}

/* One ellipse stamp of strength 10 (x radius 5) and aspect 0.5 (y radius
   2.5) covers the 43 cells with dx^2 + (2 dy)^2 <= 25: rows of 11, 9, 9, 7
   and 7 cells, 11 wide and 5 tall; strength 5 with aspect 2 (radii 2.5
   and 5) stands the same shape upright. */
static void an_ellipse_stamp_has_its_cells(void **state)
{
    (void)state;
    enum { SIDE = 15 };
    char *flat = run_model("<runner fit=\"centred\" values=\".B\" value=\"B\" x=\"7\" y=\"7\" life=\"1\" strength=\"10\" brush=\"ellipse\" aspect=\"0.5\"/>",
                           SIDE, SIDE, 3);
    char *tall = run_model("<runner fit=\"centred\" values=\".B\" value=\"B\" x=\"7\" y=\"7\" life=\"1\" strength=\"5\" brush=\"ellipse\" aspect=\"2\"/>",
                           SIDE, SIDE, 3);
    int carved = 0, width = 0, height = 0;
    for (int y = 0; y < SIDE; y++) {
        int in_row = 0;
        for (int x = 0; x < SIDE; x++) {
            int dx = x - 7, dy = y - 7;
            bool want = dx * dx + 4 * dy * dy <= 25;
            assert_int_equal(flat[x + y * SIDE] == 'B', want);
            assert_int_equal(tall[y + x * SIDE], flat[x + y * SIDE]); /* the transpose */
            carved += want;
            in_row += want;
        }
        if (in_row > width) width = in_row;
        height += in_row > 0;
    }
    assert_int_equal(carved, 43);
    assert_int_equal(width, 11);
    assert_int_equal(height, 5);
    free(flat);
    free(tall);
}

/* reverse="1" turns a runner round every step, so it paces between its
   start and the cell behind it: exactly two cells carved whatever its life;
   reverse="0.5" sends some runners further. */
static void reverse_turns_runners_round(void **state)
{
    (void)state;
    for (int32_t seed = 1; seed <= 3; seed++) {
        char *g = run_model("<runner values=\".B\" value=\"B\" x=\"7\" y=\"7\" life=\"9\" turnChance=\"0\" heading=\"E\" reverse=\"1\"/>",
                            15, 15, seed);
        char want[15 * 15 + 1];
        memset(want, '.', 15 * 15);
        want[15 * 15] = 0;
        want[7 + 7 * 15] = want[6 + 7 * 15] = 'B';
        assert_string_equal(g, want);
        free(g);
    }
    int longest = 0;
    for (int32_t seed = 1; seed <= 10; seed++) {
        char *g = run_model("<runner values=\".B\" value=\"B\" x=\"7\" y=\"7\" life=\"6\" turnChance=\"0\" heading=\"E\" reverse=\"0.5\"/>",
                            15, 15, seed);
        int carved = 0;
        for (int i = 0; i < 15 * 15; i++) carved += g[i] == 'B';
        if (carved > longest) longest = carved;
        free(g);
    }
    assert_true(longest > 2);
}

/* children="2" generations="2": a runner dying of age starts two, each of
   which starts two more: 7 runners of 5 stamps each. A child's first stamp
   comes the step after its parent's last, at most a cell from it. */
static void runners_start_children_where_they_die(void **state)
{
    (void)state;
    static const char *const xml[] = {
        "<runner values=\".B\" value=\"B\" x=\"30\" y=\"30\" life=\"5\" children=\"2\" generations=\"2\"/>",
        "<runner values=\".B\" value=\"B\" x=\"30\" y=\"30\" life=\"5\" children=\"2\"/>",
        "<runner values=\".B\" value=\"B\" x=\"30\" y=\"30\" life=\"5\" children=\"2\" generations=\"2\" maxRunners=\"2\"/>",
    };
    /* with maxRunners="2" the two children each start one grandchild: a dying
       runner no longer counts, so one more fits beside its live sibling */
    static const int runners[] = {7, 3, 5};
    for (int c = 0; c < 3; c++)
        for (int32_t seed = 1; seed <= 3; seed++) {
            smalti_model *m = unit_load(xml[c], "runner.xml", 61, 61, 1, NULL);
            smalti_run *run = smalti_run_new(m, seed, NULL);
            stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
            assert_true(runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log));
            smalti_run_to_end(run, 0);
            int stamps[16] = {0}, serials = 0;
            for (int s = 0; s < log.count; s++) {
                assert_true(log.at[s].runner < 16);
                stamps[log.at[s].runner]++;
                if (log.at[s].runner + 1 > serials) serials = log.at[s].runner + 1;
            }
            assert_int_equal(serials, runners[c]);
            for (int k = 0; k < serials; k++) assert_int_equal(stamps[k], 5);
            /* runner 1 is runner 0's child: it starts by runner 0's last stamp, a step later */
            int last0 = -1, first1 = -1;
            for (int s = 0; s < log.count; s++) {
                if (log.at[s].runner == 0) last0 = s;
                if (log.at[s].runner == 1 && first1 < 0) first1 = s;
            }
            assert_int_equal(log.at[first1].step, log.at[last0].step + 1);
            assert_true(abs(log.at[first1].x - log.at[last0].x) <= 1 && abs(log.at[first1].y - log.at[last0].y) <= 1);
            free(log.at);
            smalti_run_free(run);
            smalti_model_free(m);
        }
}

/* extend="1,1" gives back every step's life: a runner of life 3 heading
   east from the left edge walks until it leaves the grid, 20 stamps; with
   extend="0.25,2" it outlives its 3 steps on some seed. */
static void extend_lengthens_a_life(void **state)
{
    (void)state;
    for (int32_t seed = 1; seed <= 3; seed++) {
        smalti_model *m = unit_load("<runner values=\".B\" value=\"B\" x=\"0\" y=\"2\" life=\"3\" turnChance=\"0\" heading=\"E\" "
                                    "extend=\"1,1\"/>", "runner.xml", 20, 5, 1, NULL);
        smalti_run *run = smalti_run_new(m, seed, NULL);
        stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
        assert_true(runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log));
        smalti_run_to_end(run, 0);
        assert_int_equal(log.count, 20);
        free(log.at);
        smalti_run_free(run);
        smalti_model_free(m);
    }
    int longest = 0;
    for (int32_t seed = 1; seed <= 10; seed++) {
        char *g = run_model("<runner values=\".B\" value=\"B\" x=\"0\" y=\"2\" life=\"3\" turnChance=\"0\" heading=\"E\" "
                            "extend=\"0.25,2\"/>", 40, 5, seed);
        int carved = 0;
        for (int i = 0; i < 40 * 5; i++) carved += g[i] == 'B';
        if (carved > longest) longest = carved;
        free(g);
    }
    assert_true(longest > 3);
}

/* grow="1,2" adds 2 to the strength after every stamp: radii 0.5, 1.5, 2.5,
   3.5; grow="1,-1" shrinks to nothing and stays there; from 250 by 10 it
   stops at the limit, 256 (radius 128). */
static void grow_changes_the_strength(void **state)
{
    (void)state;
    static const struct {
        const char *attrs;
        double radii[4];
    } cases[] = {{"strength=\"1\" grow=\"1,2\"", {0.5, 1.5, 2.5, 3.5}},
                 {"strength=\"2\" grow=\"1,-1\"", {1, 0.5, 0, 0}},
                 {"strength=\"250\" grow=\"1,10\"", {125, 128, 128, 128}}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<runner values=\".B\" value=\"B\" x=\"20\" y=\"20\" life=\"4\" %s/>", cases[c].attrs);
        smalti_model *m = unit_load(xml, "runner.xml", 41, 41, 1, NULL);
        smalti_run *run = smalti_run_new(m, 1, NULL);
        stamp_log log = {.at = malloc(MAX_STAMPS * sizeof *log.at), .run = run};
        assert_true(runner_set_stamp_hook(run, runner_node_id(m), record_stamp, &log));
        smalti_run_to_end(run, 0);
        assert_int_equal(log.count, 4);
        for (int s = 0; s < 4; s++)
            if (log.at[s].radius != cases[c].radii[s]) fail_msg("%s: stamp %d radius %g", cases[c].attrs, s, log.at[s].radius);
        free(log.at);
        smalti_run_free(run);
        smalti_model_free(m);
    }
}

/* Bad values of the new attributes are load errors on the runner's line. */
static void bad_runner_options_are_load_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {"heading=\"up\"", "heading=\"400\"", "offgrid=\"bounce\"", "margin=\"3\"",
                                      "offgrid=\"wander\" margin=\"-1\"", "jitterPer=\"step\"", "aspect=\"2\"",
                                      "brush=\"ellipse\" aspect=\"0\"", "brush=\"ellipse\" aspect=\"9\"",
                                      "brush=\"ellipse\" strength=\"256\" aspect=\"2\"", "reverse=\"1.5\"", "generations=\"2\"",
                                      "children=\"65\"", "children=\"1.5\"", "extend=\"2,1\"", "extend=\"0.5,1.5\"", "extend=\"0.5\"",
                                      "grow=\"-0.5,2\"", "grow=\"0.5,300\"", "fit=\"tight\"",
                                      "brush=\"ellipse\" aspect=\"2\" grow=\"0.1,1\""};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<sequence values=\"DB\">\n  <runner value=\"B\" %s/>\n</sequence>", bad[k]);
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = opt.my = 16;
        opt.mz = 1;
        opt.quiet = 1;
        smalti_error err;
        smalti_model *m = smalti_model_load_string(xml, "bad.xml", &opt, &err);
        if (m) fail_msg("%s loaded", bad[k]);
        assert_int_equal(err.line, 2);
    }
}

/* A 7x5 brush picture, asymmetric so that a flip or a shift shows: '#' lit (white or red), '.' black. */
static const char *const splat[5] = {"..#....", ".###..#", "#####..", ".##.#..", "..#...."};

/* A resource root in a fresh temporary folder holding brushes/Splat.png (the picture above) and brushes/Dark.png
   (black all over). */
static char *brush_root(void)
{
    char *dir = malloc(64);
    assert_non_null(dir);
    snprintf(dir, 64, "/tmp/smalti-brush-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/brushes", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    uint32_t px[35], dark[4] = {0, 0, 0, 0};
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 7; x++) px[x + 7 * y] = splat[y][x] == '#' ? (x % 2 ? 0xff0000u : 0xffffffu) : 0;
    smalti_error err;
    snprintf(path, sizeof path, "%s/brushes/Splat.png", dir);
    if (!save_png_rgb(path, px, 7, 5, NULL, &err)) fail_msg("%s", err.message);
    snprintf(path, sizeof path, "%s/brushes/Dark.png", dir);
    if (!save_png_rgb(path, dark, 2, 2, NULL, &err)) fail_msg("%s", err.message);
    return dir;
}

static void remove_brush_root(char *dir)
{
    char path[128];
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
    free(dir);
}

/* brush="picture": one stamp paints the picture's lit pixels, its centre pixel (3, 2) on the runner's cell,
   clipped at the grid's edge; the sizing attributes and a dark picture are load errors at the node's line. */
static void a_picture_brush_stamps_its_picture(void **state)
{
    (void)state;
    char *dir = brush_root();
    const int at[][2] = {{6, 5}, {1, 0}};
    for (int c = 0; c < 2; c++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<runner values=\".B\" value=\"B\" x=\"%d\" y=\"%d\" life=\"1\" brush=\"picture\" picture=\"Splat\"/>",
                 at[c][0], at[c][1]);
        smalti_model *m = unit_load(xml, "runner.xml", 13, 11, 1, dir);
        smalti_run *run = smalti_run_new(m, 1, NULL);
        smalti_run_to_end(run, 0);
        assert_false(smalti_run_error(run, NULL));
        char *got = grid_text(run);
        for (int y = 0; y < 11; y++)
            for (int x = 0; x < 13; x++) {
                int px = x - at[c][0] + 3, py = y - at[c][1] + 2;
                bool lit = px >= 0 && py >= 0 && px < 7 && py < 5 && splat[py][px] == '#';
                if ((got[x + 13 * y] == 'B') != lit) fail_msg("stamp at (%d,%d): cell (%d,%d) is %c", at[c][0], at[c][1], x, y, got[x + 13 * y]);
            }
        free(got);
        smalti_run_free(run);
        smalti_model_free(m);
    }
    static const char *const bad[] = {"brush=\"picture\"", "brush=\"picture\" picture=\"Dark\"", "brush=\"picture\" picture=\"Nowhere\"",
                                      "brush=\"picture\" picture=\"Splat\" strength=\"3\"",
                                      "brush=\"picture\" picture=\"Splat\" jitter=\"0.5\"", "picture=\"Splat\""};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char xml[256];
        snprintf(xml, sizeof xml, "<sequence values=\"DB\">\n  <runner value=\"B\" %s/>\n</sequence>", bad[k]);
        const char *roots[] = {dir};
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = opt.my = 16;
        opt.mz = 1;
        opt.quiet = 1;
        opt.resource_dirs = roots;
        opt.resource_dir_count = 1;
        smalti_error err;
        smalti_model *m = smalti_model_load_string(xml, "bad.xml", &opt, &err);
        if (m) fail_msg("%s loaded", bad[k]);
        assert_int_equal(err.line, 2);
    }
    remove_brush_root(dir);
}

/* One stamp of `brush` at `strength` in the middle of a 31x31 grid: how
   many cells it paints and how wide (columns) and tall (rows) it is. */
static void measure_stamp(const char *brush, int strength, const char *fit, int *cells, int *width, int *height)
{
    char xml[256];
    snprintf(xml, sizeof xml, "<runner values=\".B\" value=\"B\" x=\"15\" y=\"15\" life=\"1\" brush=\"%s\" strength=\"%d\" fit=\"%s\"/>",
             brush, strength, fit);
    char *got = run_model(xml, 31, 31, 3);
    int left = 31, right = -1, top = 31, bottom = -1;
    *cells = 0;
    for (int i = 0; i < 31 * 31; i++)
        if (got[i] == 'B') {
            int x = i % 31, y = i / 31;
            ++*cells;
            if (x < left) left = x;
            if (x > right) right = x;
            if (y < top) top = y;
            if (y > bottom) bottom = y;
        }
    *width = right - left + 1;
    *height = bottom - top + 1;
    free(got);
}

/* fit="tutorial": a brush is as wide and tall as its strength, even strengths
   centred on a cell corner; the regular octagon gives 88 cells at strength
   10 (the tutorial's 87 is out of reach of a symmetric brush: see
   docs/language.md). Counts from the rule docs/language.md gives, worked out
   apart from smalti. */
static void tutorial_fit_brushes_are_as_wide_as_their_strength(void **state)
{
    (void)state;
    static const int circle[12] = {1, 4, 9, 12, 21, 32, 37, 52, 69, 80, 97, 112};
    static const int octagon[12] = {1, 4, 9, 12, 21, 32, 37, 52, 69, 88, 97, 120};
    for (int strength = 1; strength <= 12; strength++) {
        int cells, width, height;
        measure_stamp("circle", strength, "tutorial", &cells, &width, &height);
        if (cells != circle[strength - 1] || width != strength || height != strength)
            fail_msg("circle %d: %d cells, %dx%d", strength, cells, width, height);
        measure_stamp("octagon", strength, "tutorial", &cells, &width, &height);
        if (cells != octagon[strength - 1] || width != strength || height != strength)
            fail_msg("octagon %d: %d cells, %dx%d", strength, cells, width, height);
    }
    /* strength 10's octagon: 10x10 less three cells at each corner */
    char *got = run_model("<runner values=\".B\" value=\"B\" x=\"6\" y=\"6\" life=\"1\" brush=\"octagon\" strength=\"10\" fit=\"tutorial\"/>",
                          12, 12, 1);
    assert_string_equal(got, "............"
                             "...BBBBBB..."
                             "..BBBBBBBB.."
                             ".BBBBBBBBBB."
                             ".BBBBBBBBBB."
                             ".BBBBBBBBBB."
                             ".BBBBBBBBBB."
                             ".BBBBBBBBBB."
                             ".BBBBBBBBBB."
                             "..BBBBBBBB.."
                             "...BBBBBB..."
                             "............");
    free(got);
    /* below strength 1 the tutorial's strict edge leaves nothing */
    got = run_model("<runner values=\".B\" value=\"B\" x=\"2\" y=\"2\" life=\"1\" strength=\"0.9\" fit=\"tutorial\"/>", 5, 5, 1);
    assert_null(strchr(got, 'B'));
    free(got);
}

/* fit="centred" (the default) keeps the brushes smalti had before `fit`:
   reaching strength/2 from the cell's centre, edge included, octagon cut at 3/4. */
static void centred_fit_keeps_the_old_brushes(void **state)
{
    (void)state;
    static const int circle[12] = {1, 5, 9, 13, 21, 29, 37, 49, 69, 81, 97, 113};
    static const int octagon[12] = {1, 5, 9, 13, 21, 37, 37, 57, 69, 81, 97, 129};
    for (int strength = 1; strength <= 12; strength++) {
        int cells, width, height;
        measure_stamp("circle", strength, "centred", &cells, &width, &height);
        if (cells != circle[strength - 1] || width != (strength | 1)) fail_msg("circle %d: %d cells, %d wide", strength, cells, width);
        measure_stamp("octagon", strength, "centred", &cells, &width, &height);
        if (cells != octagon[strength - 1] || width != (strength | 1)) fail_msg("octagon %d: %d cells, %d wide", strength, cells, width);
    }
}

/* Without turnChance a runner turns with chance 1/6, the tutorial's !random(3):
   the same grid as turnChance="0.16666666666666666" (1/6 to the last bit) and
   not the grid of the old default 0.33. */
static void the_default_turn_chance_is_one_in_six(void **state)
{
    (void)state;
    const char *form = "<runner values=\".B\" value=\"B\" count=\"6\" strength=\"2\" life=\"60\" %s/>";
    char plain[256], sixth[256], old[256];
    snprintf(plain, sizeof plain, form, "");
    snprintf(sixth, sizeof sixth, form, "turnChance=\"0.16666666666666666\"");
    snprintf(old, sizeof old, form, "turnChance=\"0.33\"");
    char *a = run_model(plain, 64, 64, 5), *b = run_model(sixth, 64, 64, 5), *c = run_model(old, 64, 64, 5);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
}

static void three_d_grids_are_refused(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = opt.mz = 8;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string("<sequence values=\"DB\">\n  <runner value=\"B\"/>\n</sequence>", "r3.xml", &opt, &err);
    assert_null(m);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "2-D grids only"));
}

int run_runner_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_brush_has_its_footprint),
        cmocka_unit_test(carving_follows_the_paths),
        cmocka_unit_test(a_runner_without_turns_walks_straight),
        cmocka_unit_test(runners_live_their_life),
        cmocka_unit_test(taper_shrinks_the_brush),
        cmocka_unit_test(branching_respects_max_runners),
        cmocka_unit_test(a_seed_fixes_the_grid),
        cmocka_unit_test(the_portable_sine_is_accurate),
        cmocka_unit_test(three_d_grids_are_refused),
        cmocka_unit_test(heading_sets_the_start_direction),
        cmocka_unit_test(wanderers_leave_the_grid_and_come_back),
        cmocka_unit_test(jitter_per_cell_makes_ragged_edges),
        cmocka_unit_test(an_ellipse_stamp_has_its_cells),
        cmocka_unit_test(reverse_turns_runners_round),
        cmocka_unit_test(runners_start_children_where_they_die),
        cmocka_unit_test(extend_lengthens_a_life),
        cmocka_unit_test(grow_changes_the_strength),
        cmocka_unit_test(bad_runner_options_are_load_errors),
        cmocka_unit_test(tutorial_fit_brushes_are_as_wide_as_their_strength),
        cmocka_unit_test(centred_fit_keeps_the_old_brushes),
        cmocka_unit_test(the_default_turn_chance_is_one_in_six),
        cmocka_unit_test(a_picture_brush_stamps_its_picture),
    };
    return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
