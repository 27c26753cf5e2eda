/* runner.c — the `runner` node: tile runners (worms, drunkard walks) that wander over a 2-D grid and carve it with a brush. */
#include "nodes.h"
#include "gen.h"
#include "runner.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Positions and headings are doubles, and a seed must give the same grid on
   every machine. So this file uses only correctly rounded IEEE operations
   (+ - * /, floor, conversions) and its own sine, never libm's sin/cos, and
   no a*b+c may be fused into one FMA (which rounds once instead of twice):
   gcc leaves contraction off in ISO C mode (-std=c11), clang needs the
   pragma, and the Makefile adds -ffp-contract=off for this file as well. */
#if defined(__FAST_MATH__)
#error "runner.c needs exact IEEE arithmetic: build it without -ffast-math"
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define RUNNER_MAX_STRENGTH 256   /* a brush radius of at most 128 cells */
#define RUNNER_MAX_COUNT (1 << 20)
#define RUNNER_MAX_LIFE 100000000
#define RUNNER_MAX_WIND 100
#define RUNNER_MAX_CHILDREN 64
#define RUNNER_MAX_MARGIN 4096        /* keeps a wanderer's cell well inside an int */

enum { BRUSH_CIRCLE, BRUSH_DIAMOND, BRUSH_SQUARE, BRUSH_OCTAGON, BRUSH_ELLIPSE, BRUSH_PICTURE };
static const char *const brush_names[] = {"circle", "diamond", "square", "octagon", "ellipse", "picture", NULL};
#define RUNNER_MAX_PICTURE 257        /* a brush picture's side: offsets within +-128, as the shaped brushes' */
#define RUNNER_MAX_ASPECT 8.0
enum { OFFGRID_DIE, OFFGRID_WANDER };
static const char *const offgrid_names[] = {"die", "wander", NULL};
static const char *const jitter_per_names[] = {"stamp", "cell", NULL};
enum { FIT_CENTRED, FIT_TUTORIAL };
static const char *const fit_names[] = {"centred", "tutorial", NULL};
/* The octagon's corner cut: max(|u|, |v|, cut x (|u| + |v|)). fit="centred"
   keeps 3/4; fit="tutorial" cuts where a regular octagon does (its slanted
   sides as far from the centre as its straight ones), which at strength 10
   gives 88 cells, the count nearest the tutorial's 87 that a brush symmetric
   about its centre can have (see docs/language.md, `fit`). */
#define OCTAGON_CUT_CENTRED 0.75
#define OCTAGON_CUT_REGULAR 0.70710678118654752440   /* 1/sqrt 2, as a constant: the same bits everywhere */

typedef struct brush_cell {
    int16_t dx, dy;
} brush_cell;

/* Every offset the widest stamp can reach, nearest first by the brush's
   metric (ties by row, then column). A stamp of radius R covers the prefix
   whose keys are at most brush_limit(R) (fit="centred") or below it
   (fit="tutorial"). */
typedef struct brush_table {
    brush_cell *cells;
    double *keys;
    int *reach;                        /* reach[k]: largest |dx| or |dy| among the first k cells */
    int count;
} brush_table;

/* Where a stamp is centred: on the runner's cell, or (fit="tutorial", an even
   diameter) on the top-left corner of that cell, so the brush's width equals
   its diameter. */
enum { CENTRE_ON_CELL, CENTRE_ON_CORNER, CENTRE_KINDS };

typedef struct runner_node {
    node base;
    int value;
    wave_bits on, start;
    bool at_xy;                        /* x and y given: runners start there */
    gen_range x, y, count, strength, life;
    gen_range children;                /* runners a runner starts where it dies of age */
    int generations;                   /* how deep those chains go */
    bool wander;                       /* offgrid="wander": runners live on outside the grid */
    int margin;                        /* ... as far as this many cells outside it */
    bool jitter_per_cell;              /* jitterPer="cell": each brush cell draws its own radius */
    bool has_heading;                  /* heading given: runners start on it, else on a uniform angle */
    gen_range heading;
    int brush;
    double aspect;                     /* the ellipse's y radius over its x radius */
    bool tutorial_fit;                 /* fit="tutorial": strict edges, corner-centred even diameters, regular octagon */
    double octagon_cut;
    double turn, turn_chance, wind_x, wind_y, branch, jitter, reverse;
    double extend_chance, extend_steps;  /* extend="chance,steps": a step may lengthen the runner's life */
    double grow_chance, grow_strength;   /* grow="chance,strength": a step may change the runner's strength */
    double strength_cap;                 /* the largest strength a runner reaches: the brush is built for it */
    double wave_amplitude, wave_revolutions;
    bool taper;
    int max_runners, steps;
    brush_table tables[CENTRE_KINDS];  /* the corner table is built for fit="tutorial" only */
    double max_radius;
} runner_node;

/* One runner. The cell it stands on is (floor x, floor y); y grows downwards. */
typedef struct walker {
    double x, y;
    double base, swing;                /* heading in degrees = base (turns) + swing (wave); 0 = +x, 90 = toward row 0 */
    double step_x, step_y;             /* one cell along the heading, in grid coordinates */
    double strength, strength0;
    int life, life0;
    int generation;                    /* 0 for the first runners, parent's + 1 for a child started at its death */
    uint32_t serial;                   /* spawn number (wraps after 2^32 spawns) */
} walker;

typedef struct runner_state {
    walker *walkers;                   /* in spawn order; dead ones are dropped after each step */
    int count, alive, cap;
    uint32_t serials;
    bool started;
    int counter;
    int mx, my;
    int32_t *offsets[CENTRE_KINDS];    /* each table's cells as flat offsets in this grid */
    double last_limit;                 /* the last stamp's table, limit and prefix length */
    int last_centre, last_count;
    runner_stamp_fn hook;
    void *hook_userdata;
} runner_state;

static const char *const runner_attrs[] = {"value", "on", "count", "strength", "life", "brush", "turn", "turnChance", "wind",
                                           "taper", "branch", "maxRunners", "wave", "jitter", "x", "y", "start", "steps",
                                           "heading", "offgrid", "margin", "jitterPer", "aspect", "reverse", "children",
                                           "generations", "extend", "grow", "fit", "picture", NULL};

/* ---- sine and cosine, the same bits everywhere ---- */

/* Taylor coefficients; the compiler folds each quotient with correct rounding. */
static const double S3 = -1.0 / 6.0, S5 = 1.0 / 120.0, S7 = -1.0 / 5040.0, S9 = 1.0 / 362880.0, S11 = -1.0 / 39916800.0,
                    S13 = 1.0 / 6227020800.0;
static const double C2 = -1.0 / 2.0, C4 = 1.0 / 24.0, C6 = -1.0 / 720.0, C8 = 1.0 / 40320.0, C10 = -1.0 / 3628800.0,
                    C12 = 1.0 / 479001600.0, C14 = -1.0 / 87178291200.0;
static const double RADIANS_PER_DEGREE = 3.14159265358979323846 / 180.0;

/* The angle is brought to [-45, 45] degrees around the nearest multiple of
   90 (floor and exact products), and there Taylor polynomials to the 13th
   and 14th power err by under 1e-14. The quadrant then swaps and negates. */
void runner_sincos_deg(double degrees, double *sine, double *cosine)
{
    double quarter = floor(degrees / 90.0 + 0.5);
    double x = (degrees - quarter * 90.0) * RADIANS_PER_DEGREE;
    double x2 = x * x;
    double s = x * (1.0 + x2 * (S3 + x2 * (S5 + x2 * (S7 + x2 * (S9 + x2 * (S11 + x2 * S13))))));
    double c = 1.0 + x2 * (C2 + x2 * (C4 + x2 * (C6 + x2 * (C8 + x2 * (C10 + x2 * (C12 + x2 * C14))))));
    switch ((int)(quarter - 4.0 * floor(quarter / 4.0))) {
    case 0: *sine = s; *cosine = c; break;
    case 1: *sine = c; *cosine = -s; break;
    case 2: *sine = -s; *cosine = -c; break;
    default: *sine = -c; *cosine = s; break;
    }
}

/* ---- the brush ---- */

/* The brush's distance of a cell's centre (u, v) from the stamp's centre,
   as the key the prefix is cut on. u and v are whole (centred on a cell) or
   halves (on a corner), so the circle's squared Euclidean distance is exact;
   the ellipse squares u and v / aspect, so radius r reaches r along x and
   r x aspect along y; the octagon is max(|u|, |v|, cut x (|u| + |v|)), a
   square with its corners cut. */
static double brush_key(int brush, double aspect, double octagon_cut, double u, double v)
{
    double au = fabs(u), av = fabs(v), chebyshev = au > av ? au : av;
    switch (brush) {
    case BRUSH_CIRCLE: return au * au + av * av;
    case BRUSH_ELLIPSE: {
        double stretched = av / aspect;
        return au * au + stretched * stretched;
    }
    case BRUSH_DIAMOND: return au + av;
    case BRUSH_SQUARE: return chebyshev;
    default: {
        double cut = (au + av) * octagon_cut;
        return cut > chebyshev ? cut : chebyshev;
    }
    }
}

static double brush_limit(int brush, double radius)
{
    if (brush == BRUSH_PICTURE) return INFINITY; /* a picture is stamped whole, at its own size */
    return brush == BRUSH_CIRCLE || brush == BRUSH_ELLIPSE ? radius * radius : radius;
}

typedef struct keyed_cell {
    double key;
    brush_cell cell;
} keyed_cell;

static int compare_keyed(const void *a, const void *b)
{
    const keyed_cell *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    if (p->cell.dy != q->cell.dy) return p->cell.dy < q->cell.dy ? -1 : 1;
    return (p->cell.dx > q->cell.dx) - (p->cell.dx < q->cell.dx);
}

/* Sorts the n keyed cells into the table (nearest first) and frees them. */
static bool table_from_cells(keyed_cell *all, int n, brush_table *table)
{
    qsort(all, (size_t)n, sizeof *all, compare_keyed);
    table->cells = mem_malloc((size_t)(n ? n : 1) * sizeof *table->cells);
    table->keys = mem_malloc((size_t)(n ? n : 1) * sizeof *table->keys);
    table->reach = mem_malloc((size_t)(n + 1) * sizeof *table->reach);
    if (!table->cells || !table->keys || !table->reach) { mem_free(all); return false; }
    table->count = n;
    table->reach[0] = 0;
    for (int k = 0; k < n; k++) {
        table->cells[k] = all[k].cell;
        table->keys[k] = all[k].key;
        int far = abs(all[k].cell.dx) > abs(all[k].cell.dy) ? abs(all[k].cell.dx) : abs(all[k].cell.dy);
        table->reach[k + 1] = far > table->reach[k] ? far : table->reach[k];
    }
    mem_free(all);
    return true;
}

/* One table: the offsets whose keys are at most the widest stamp's limit.
   Centred on a corner, offset (dx, dy) has its centre at (dx + 0.5, dy + 0.5)
   from the corner, so dx runs one further on the negative side. */
static bool build_table(const runner_node *rn, int centre, brush_table *table)
{
    double shift = centre == CENTRE_ON_CORNER ? 0.5 : 0;
    int extent_x = (int)rn->max_radius + 1, extent_y = (int)(rn->max_radius * rn->aspect) + 1;
    if (extent_y < extent_x) extent_y = extent_x;  /* the other brushes reach max_radius along y */
    int low_x = -extent_x - (centre == CENTRE_ON_CORNER), low_y = -extent_y - (centre == CENTRE_ON_CORNER);
    double limit = brush_limit(rn->brush, rn->max_radius);
    size_t side_x = (size_t)(extent_x - low_x + 1), side_y = (size_t)(extent_y - low_y + 1);
    keyed_cell *all = mem_malloc(side_x * side_y * sizeof *all);
    if (!all) return false;
    int n = 0;
    for (int dy = low_y; dy <= extent_y; dy++)
        for (int dx = low_x; dx <= extent_x; dx++) {
            double key = brush_key(rn->brush, rn->aspect, rn->octagon_cut, dx + shift, dy + shift);
            if (key <= limit) all[n++] = (keyed_cell){key, {(int16_t)dx, (int16_t)dy}};
        }
    return table_from_cells(all, n, table);
}

/* The picture brush's table: every pixel that is not black (and not transparent), as an offset from the
   picture's centre pixel (w / 2, h / 2), nearest first as the circle orders them. */
static bool build_picture_table(const uint32_t *argb, int w, int h, brush_table *table)
{
    keyed_cell *all = mem_malloc((size_t)w * (size_t)h * sizeof *all);
    if (!all) return false;
    int n = 0;
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            uint32_t c = argb[(size_t)py * (size_t)w + (size_t)px];
            if ((c >> 24) == 0 || (c & 0xffffffu) == 0) continue;
            int dx = px - w / 2, dy = py - h / 2;
            all[n++] = (keyed_cell){(double)dx * dx + (double)dy * dy, {(int16_t)dx, (int16_t)dy}};
        }
    return table_from_cells(all, n, table);
}

/* brush="picture": picture="NAME" names brushes/NAME.png under the resource roots. Attributes that size or
   shape a stamp have no meaning for it and are errors, so that a model does not say what it does not get. */
static bool load_picture_brush(loader *ld, const xmlNode *el, runner_node *rn)
{
    diag *d = ld->d;
    int line = xml_line(el);
    static const char *const sizing[] = {"strength", "taper", "grow", "jitter", "jitterPer", "fit", "aspect", NULL};
    for (int k = 0; sizing[k]; k++)
        if (xml_attr(el, sizing[k]))
            return diag_error(d, SMALTI_ERR_MODEL, line, "%s of <runner> does not apply to brush=\"picture\" (a picture is stamped at its own size)",
                              sizing[k]);
    const char *name = xml_attr(el, "picture");
    if (!name) return diag_error(d, SMALTI_ERR_MODEL, line, "brush=\"picture\" of <runner> needs picture=\"NAME\": a picture under brushes/");
    char *path = resource_find(ld->res, d, line, "brush picture", "brushes", name, ".png");
    if (!path) return false;
    int w, h;
    uint32_t *argb = resource_load_image(ld->res, d, line, path, &w, &h);
    if (!argb) {
        mem_free(path);
        return false;
    }
    bool ok = false;
    if (w > RUNNER_MAX_PICTURE || h > RUNNER_MAX_PICTURE)
        diag_error(d, SMALTI_ERR_MODEL, line, "brush picture %s is %dx%d: at most %dx%d pixels", path, w, h, RUNNER_MAX_PICTURE,
                   RUNNER_MAX_PICTURE);
    else if (!build_picture_table(argb, w, h, &rn->tables[CENTRE_ON_CELL]))
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    else if (rn->tables[CENTRE_ON_CELL].count == 0)
        diag_error(d, SMALTI_ERR_MODEL, line, "brush picture %s is black all over: a brush needs some lit pixels", path);
    else
        ok = true;
    rn->max_radius = RUNNER_MAX_STRENGTH * 0.5;
    mem_free(argb);
    mem_free(path);
    return ok;
}

static bool build_brush(runner_node *rn)
{
    rn->max_radius = rn->strength_cap * 0.5;
    return build_table(rn, CENTRE_ON_CELL, &rn->tables[CENTRE_ON_CELL]) &&
           (!rn->tutorial_fit || build_table(rn, CENTRE_ON_CORNER, &rn->tables[CENTRE_ON_CORNER]));
}

/* Whether a cell with this key lies outside a stamp whose limit is `limit`:
   fit="centred" keeps the edge, fit="tutorial" (as the tutorial's
   point_distance < strength/2) drops it. */
static bool beyond(const runner_node *rn, double key, double limit)
{
    return rn->tutorial_fit ? key >= limit : key > limit;
}

/* How many cells of the table lie within `limit` (keys ascend). */
static int brush_prefix(const runner_node *rn, const brush_table *table, double limit)
{
    int lo = 0, hi = table->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (!beyond(rn, table->keys[mid], limit)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ---- loading ---- */

/* "a,b": two numbers, each with |value| <= bound. */
static bool parse_pair(diag *d, const xmlNode *el, const char *name, const char *form, double bound, double *a, double *b)
{
    const char *text = xml_attr(el, name);
    if (!text) return true;
    char *end;
    errno = 0;
    double first = strtod(text, &end);
    if (end == text || *end != ',') goto bad;
    const char *second_text = end + 1;
    double second = strtod(second_text, &end);
    if (end == second_text || *end || errno == ERANGE || first != first || second != second) goto bad;
    if (fabs(first) > bound || fabs(second) > bound)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <runner>: each number must lie between %g and %g", name, text,
                          -bound, bound);
    *a = first;
    *b = second;
    return true;
bad:
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <runner> must be two numbers \"%s\"", name, text, form);
}

/* Compass names for `heading`, in degrees as runners count them (0 = +x, 90 = toward row 0). */
static const struct {
    const char *name;
    double degrees;
} compass[] = {{"E", 0}, {"NE", 45}, {"N", 90}, {"NW", 135}, {"W", 180}, {"SW", 225}, {"S", 270}, {"SE", 315}};

/* `heading`: a compass name, or degrees as a number or range a..b. */
static bool get_heading(diag *d, const xmlNode *el, runner_node *rn)
{
    const char *text = xml_attr(el, "heading");
    rn->has_heading = text != NULL;
    if (!text) return true;
    for (size_t k = 0; k < sizeof compass / sizeof *compass; k++)
        if (strcmp(text, compass[k].name) == 0) {
            rn->heading = (gen_range){compass[k].degrees, compass[k].degrees};
            return true;
        }
    if ((*text >= 'A' && *text <= 'Z') || (*text >= 'a' && *text <= 'z'))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                          "heading=\"%s\" of <runner>: the compass names are N, NE, E, SE, S, SW, W and NW", text);
    return gen_get_range(d, el, "heading", 0, -360, 360, &rn->heading);
}

/* A range of whole numbers. */
static bool get_int_range(diag *d, const xmlNode *el, const char *name, double dflt, double min, double max, gen_range *out)
{
    if (!gen_get_range(d, el, name, dflt, min, max, out)) return false;
    if (out->lo != floor(out->lo) || out->hi != floor(out->hi))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <runner> must be whole numbers", name, xml_attr(el, name));
    return true;
}

static void runner_free(node *n)
{
    runner_node *rn = (runner_node *)n;
    for (int c = 0; c < CENTRE_KINDS; c++) {
        mem_free(rn->tables[c].cells);
        mem_free(rn->tables[c].keys);
        mem_free(rn->tables[c].reach);
    }
    mem_free(rn);
}

static node *runner_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    runner_node *rn = node_new(ld, sizeof *rn, &node_kind_runner, el);
    if (!rn) return NULL;
    int offgrid, jitter_per, fit;
    xml_check_attrs(d, el, runner_attrs);
    if (g->mz != 1) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<runner> works on 2-D grids only (this one is %dx%dx%d)", g->mx, g->my, g->mz);
        return NULL;
    }
    if (!gen_value(d, el, g, "value", true, &rn->value) || !gen_wave(d, el, g, "on", &rn->on) ||
        !gen_wave(d, el, g, "start", &rn->start) || !get_int_range(d, el, "count", 1, 0, RUNNER_MAX_COUNT, &rn->count) ||
        !gen_get_range(d, el, "strength", 1, 0, RUNNER_MAX_STRENGTH, &rn->strength) ||
        !get_int_range(d, el, "life", 100, 1, RUNNER_MAX_LIFE, &rn->life) ||
        !gen_get_choice(d, el, "brush", brush_names, BRUSH_CIRCLE, &rn->brush) ||
        !gen_get_double(d, el, "turn", 45, 0, 360, &rn->turn) ||
        !gen_get_double(d, el, "turnChance", 1.0 / 6.0, 0, 1, &rn->turn_chance) ||
        !parse_pair(d, el, "wind", "dx,dy", RUNNER_MAX_WIND, &rn->wind_x, &rn->wind_y) ||
        !xml_get_bool(d, el, "taper", false, &rn->taper) || !gen_get_double(d, el, "branch", 0, 0, 1, &rn->branch) ||
        !xml_get_int_range(d, el, "maxRunners", 4096, 1, RUNNER_MAX_COUNT, &rn->max_runners) ||
        !parse_pair(d, el, "wave", "amplitude,revolutions", 1e6, &rn->wave_amplitude, &rn->wave_revolutions) ||
        !xml_get_double(d, el, "jitter", 0, &rn->jitter) || !xml_get_int_range(d, el, "steps", 0, 0, 0x7fffffff, &rn->steps) ||
        !get_int_range(d, el, "x", 0, 0, g->mx - 1, &rn->x) || !get_int_range(d, el, "y", 0, 0, g->my - 1, &rn->y) ||
        !get_heading(d, el, rn) || !gen_get_choice(d, el, "offgrid", offgrid_names, OFFGRID_DIE, &offgrid) ||
        !xml_get_int_range(d, el, "margin", 16, 0, RUNNER_MAX_MARGIN, &rn->margin) ||
        !gen_get_choice(d, el, "jitterPer", jitter_per_names, 0, &jitter_per))
        return NULL;
    rn->jitter_per_cell = jitter_per == 1;
    if (!gen_get_double(d, el, "aspect", 1, 1.0 / RUNNER_MAX_ASPECT, RUNNER_MAX_ASPECT, &rn->aspect) ||
        !gen_get_double(d, el, "reverse", 0, 0, 1, &rn->reverse) ||
        !parse_pair(d, el, "extend", "chance,steps", RUNNER_MAX_LIFE, &rn->extend_chance, &rn->extend_steps) ||
        !parse_pair(d, el, "grow", "chance,strength", RUNNER_MAX_STRENGTH, &rn->grow_chance, &rn->grow_strength) ||
        !get_int_range(d, el, "children", 0, 0, RUNNER_MAX_CHILDREN, &rn->children) ||
        !xml_get_int_range(d, el, "generations", 1, 1, 1000, &rn->generations) ||
        !gen_get_choice(d, el, "fit", fit_names, FIT_TUTORIAL, &fit))
        return NULL;
    rn->tutorial_fit = fit == FIT_TUTORIAL;
    rn->octagon_cut = rn->tutorial_fit ? OCTAGON_CUT_REGULAR : OCTAGON_CUT_CENTRED;
    if (!(rn->extend_chance >= 0 && rn->extend_chance <= 1) || !(rn->extend_steps >= 0) ||
        rn->extend_steps != floor(rn->extend_steps)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "extend=\"%s\" of <runner>: a chance from 0 to 1 and a whole number of steps",
                   xml_attr(el, "extend"));
        return NULL;
    }
    if (!(rn->grow_chance >= 0 && rn->grow_chance <= 1)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "grow=\"%s\" of <runner>: the chance must lie between 0 and 1", xml_attr(el, "grow"));
        return NULL;
    }
    /* a runner that may grow may reach the strength limit, so its brush is built that wide */
    rn->strength_cap = rn->grow_chance > 0 && rn->grow_strength > 0 ? RUNNER_MAX_STRENGTH : rn->strength.hi;
    if (xml_attr(el, "generations") && !xml_attr(el, "children")) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "generations of <runner> needs children");
        return NULL;
    }
    if (xml_attr(el, "aspect") && rn->brush != BRUSH_ELLIPSE) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "aspect of <runner> needs brush=\"ellipse\"");
        return NULL;
    }
    if (rn->strength_cap * 0.5 * rn->aspect > RUNNER_MAX_STRENGTH / 2) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                   "<runner>: the ellipse's y radius (strength/2 x aspect, where a runner that grows may reach strength 256) "
                   "may not exceed %d cells", RUNNER_MAX_STRENGTH / 2);
        return NULL;
    }
    rn->wander = offgrid == OFFGRID_WANDER;
    if (!rn->wander && xml_attr(el, "margin")) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "margin of <runner> needs offgrid=\"wander\"");
        return NULL;
    }
    if (!(rn->jitter >= 0 && rn->jitter < 1)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "jitter=\"%s\" of <runner> must be at least 0 and below 1", xml_attr(el, "jitter"));
        return NULL;
    }
    bool has_x = xml_attr(el, "x") != NULL, has_y = xml_attr(el, "y") != NULL;
    if (has_x != has_y) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<runner> takes x and y together");
        return NULL;
    }
    if (has_x && xml_attr(el, "start")) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<runner> starts either at x,y or on a start wave, not both");
        return NULL;
    }
    rn->at_xy = has_x;
    if (rn->brush == BRUSH_PICTURE) {
        if (!load_picture_brush(ld, el, rn)) return NULL;
    } else if (xml_attr(el, "picture")) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "picture of <runner> needs brush=\"picture\"");
        return NULL;
    } else if (!build_brush(rn)) {
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    return &rn->base;
}

/* ---- running ---- */

static void *runner_state_new(const node *n, const grid_def *g)
{
    const runner_node *rn = (const runner_node *)n;
    runner_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    st->mx = g->mx;
    st->my = g->my;
    for (int c = 0; c < CENTRE_KINDS; c++) {
        const brush_table *table = &rn->tables[c];
        st->offsets[c] = mem_malloc((size_t)(table->count ? table->count : 1) * sizeof *st->offsets[c]);
        if (!st->offsets[c]) {
            for (int f = 0; f < c; f++) mem_free(st->offsets[f]);
            mem_free(st);
            return NULL;
        }
        for (int k = 0; k < table->count; k++) st->offsets[c][k] = table->cells[k].dx + (int32_t)table->cells[k].dy * g->mx;
    }
    return st;
}

static void runner_state_free(void *state)
{
    runner_state *st = state;
    if (st) {
        mem_free(st->walkers);
        for (int c = 0; c < CENTRE_KINDS; c++) mem_free(st->offsets[c]);
    }
    mem_free(st);
}

static void runner_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    runner_state *st = state;
    st->count = st->alive = st->serials = st->counter = 0;
    st->started = false;
    st->last_limit = -1;
}

bool runner_set_stamp_hook(smalti_run *run, int node_id, runner_stamp_fn fn, void *userdata)
{
    run_state *r = &run->rs;
    if (node_id < 0 || node_id >= r->model->node_count || r->model->nodes[node_id]->kind != &node_kind_runner) return false;
    runner_state *st = r->node_states[node_id];
    st->hook = fn;
    st->hook_userdata = userdata;
    return true;
}

static bool reserve(run_state *r, runner_state *st, int need)
{
    if (need <= st->cap) return true;
    int cap = st->cap ? st->cap : 64;
    while (cap < need) cap *= 2;
    walker *bigger = mem_realloc(st->walkers, (size_t)cap * sizeof *bigger);
    if (!bigger) { r->out_of_memory = true; return false; }
    st->walkers = bigger;
    st->cap = cap;
    return true;
}

static void aim(walker *w)
{
    double s, c;
    runner_sincos_deg(w->base + w->swing, &s, &c);
    w->step_x = c;
    w->step_y = -s;
}

static void add_walker(runner_state *st, double x, double y, double heading, double strength, int life, int generation)
{
    walker *w = &st->walkers[st->count++];
    *w = (walker){.x = x, .y = y, .base = heading, .strength = strength, .strength0 = strength, .life = life, .life0 = life,
                  .generation = generation, .serial = st->serials++};
    aim(w);
    st->alive++;
}

/* The first step: `count` runners, each drawing its start (x then y, or a
   start cell), heading, strength and life, in that order. */
static bool spawn(run_state *r, const runner_node *rn, runner_state *st)
{
    rng *random = &r->random;
    int count = gen_range_draw_int(&rn->count, random);
    wave_bits every = wave_all(r->grid->c);
    int32_t *starts = NULL, start_count = r->cells;
    if (!rn->at_xy && (rn->start & every) != every) {
        start_count = 0;
        for (int32_t i = 0; i < r->cells; i++) start_count += gen_in_wave(rn->start, r->state[i]);
        if (start_count == 0) return true;  /* nowhere to start: no runner */
        starts = mem_malloc((size_t)start_count * sizeof *starts);
        if (!starts) { r->out_of_memory = true; return false; }
        start_count = 0;
        for (int32_t i = 0; i < r->cells; i++)
            if (gen_in_wave(rn->start, r->state[i])) starts[start_count++] = i;
    }
    if (!reserve(r, st, count)) { mem_free(starts); return false; }
    for (int k = 0; k < count; k++) {
        int cx, cy;
        if (rn->at_xy) {
            cx = gen_range_draw_int(&rn->x, random);
            cy = gen_range_draw_int(&rn->y, random);
        } else {
            int32_t pick = rng_next_max(random, start_count), cell = starts ? starts[pick] : pick;
            cx = cell % st->mx;
            cy = cell / st->mx;
        }
        /* One draw either way, so giving a heading keeps the later draws in place. */
        double heading = rn->has_heading ? gen_range_draw(&rn->heading, random) : 360.0 * rng_next_double(random);
        heading = heading - 360.0 * floor(heading / 360.0);
        double strength = gen_range_draw(&rn->strength, random);
        int life = gen_range_draw_int(&rn->life, random);
        add_walker(st, cx + 0.5, cy + 0.5, heading, strength, life, 0);
    }
    mem_free(starts);
    return true;
}

static void paint(run_state *r, wave_bits on, uint8_t value, int32_t i)
{
    if (gen_in_wave(on, r->state[i])) {
        r->state[i] = value;
        run_change(r, i);
    }
}

/* Cells of the brush around the walker's cell that match `on` take `value`.
   With fit="tutorial" a stamp whose diameter (2 x radius) has an even whole
   part is centred on the top-left corner of the walker's cell, so a brush is
   as many cells wide as that whole part. With jitterPer="cell" the cells
   farther than (1 - jitter) x radius draw, nearest first (the brush's order),
   whether inside the grid or not: each stays in if it lies within
   radius x (1 - jitter x u) of its own u. */
static void stamp(run_state *r, const runner_node *rn, runner_state *st, const walker *w, double radius)
{
    if (radius > rn->max_radius) radius = rn->max_radius;
    int cx = (int)floor(w->x), cy = (int)floor(w->y);  /* floor: a wanderer may stand left of or above the grid */
    if (st->hook) st->hook(st->hook_userdata, (int)w->serial, cx, cy, radius);
    double diameter = floor(radius * 2.0);
    int centre = rn->tutorial_fit && diameter - 2.0 * floor(diameter / 2.0) == 0 ? CENTRE_ON_CORNER : CENTRE_ON_CELL;
    const brush_table *table = &rn->tables[centre];
    double limit = brush_limit(rn->brush, radius);
    if (limit != st->last_limit || centre != st->last_centre) {
        st->last_limit = limit;
        st->last_centre = centre;
        st->last_count = brush_prefix(rn, table, limit);
    }
    int count = st->last_count, reach = table->reach[count];
    uint8_t value = (uint8_t)rn->value;
    wave_bits on = rn->on & ~wave_bit(value);
    if (rn->jitter_per_cell && rn->jitter > 0) {
        int sure = brush_prefix(rn, table, brush_limit(rn->brush, radius * (1.0 - rn->jitter)));
        for (int k = 0; k < count; k++) {
            if (k >= sure &&
                beyond(rn, table->keys[k], brush_limit(rn->brush, radius * (1.0 - rn->jitter * rng_next_double(&r->random)))))
                continue;
            int x = cx + table->cells[k].dx, y = cy + table->cells[k].dy;
            if (x >= 0 && y >= 0 && x < st->mx && y < st->my) paint(r, on, value, x + y * st->mx);
        }
        return;
    }
    if (cx >= reach && cy >= reach && cx + reach < st->mx && cy + reach < st->my) {
        int32_t origin = cx + cy * st->mx;
        for (int k = 0; k < count; k++) paint(r, on, value, origin + st->offsets[centre][k]);
        return;
    }
    for (int k = 0; k < count; k++) {
        int x = cx + table->cells[k].dx, y = cy + table->cells[k].dy;
        if (x >= 0 && y >= 0 && x < st->mx && y < st->my) paint(r, on, value, x + y * st->mx);
    }
}

/* Walker k died of age: it starts `children` runners where it stands, each
   drawing a heading, strength and life as a first runner does (the count
   first), unless its generation is the last or maxRunners live. */
static void start_children(run_state *r, const runner_node *rn, runner_state *st, int k)
{
    if (st->walkers[k].generation >= rn->generations) return;
    int n = gen_range_draw_int(&rn->children, &r->random);
    if (!reserve(r, st, st->count + n)) return;
    const walker parent = st->walkers[k];
    for (int c = 0; c < n; c++) {
        double heading = 360.0 * rng_next_double(&r->random);
        double strength = gen_range_draw(&rn->strength, &r->random);
        int life = gen_range_draw_int(&rn->life, &r->random);
        if (st->alive < rn->max_runners) add_walker(st, parent.x, parent.y, heading, strength, life, parent.generation + 1);
    }
}

/* One step of walker k: stamp, turn, maybe reverse, extend and grow, move,
   age; then, if it still lives, taper, branch and wave. Its draws, each only
   when its feature is on: jitter (one, or with jitterPer="cell" one per outer
   brush cell); turn chance, then the angle if it turns; reverse chance;
   extend chance; grow chance; branch chance, then the child's heading if it
   branches. */
static void walk(run_state *r, const runner_node *rn, runner_state *st, int k)
{
    rng *random = &r->random;
    walker *w = &st->walkers[k];
    double radius = w->strength * 0.5;
    if (rn->jitter > 0 && !rn->jitter_per_cell) radius = radius * (1.0 - rn->jitter * rng_next_double(random));
    stamp(r, rn, st, w, radius);

    if (rn->turn_chance > 0 && rn->turn > 0 && rng_next_double(random) < rn->turn_chance) {
        double base = w->base + rn->turn * (2.0 * rng_next_double(random) - 1.0);
        w->base = base - 360.0 * floor(base / 360.0);
        aim(w);
    }
    if (rn->reverse > 0 && rng_next_double(random) < rn->reverse) {
        double base = w->base + 180.0;
        w->base = base - 360.0 * floor(base / 360.0);
        aim(w);
    }
    if (rn->extend_chance > 0 && rn->extend_steps > 0 && rng_next_double(random) < rn->extend_chance) {
        /* the full life grows too, so taper and wave stretch over the longer life */
        int more = (int)rn->extend_steps;
        if (more > RUNNER_MAX_LIFE - w->life0) more = RUNNER_MAX_LIFE - w->life0;
        w->life += more;
        w->life0 += more;
    }
    if (rn->grow_chance > 0 && rn->grow_strength != 0 && rng_next_double(random) < rn->grow_chance) {
        /* strength0 moves too, so taper keeps scaling the grown strength */
        w->strength = fmin(fmax(w->strength + rn->grow_strength, 0), RUNNER_MAX_STRENGTH);
        w->strength0 = fmin(fmax(w->strength0 + rn->grow_strength, 0), RUNNER_MAX_STRENGTH);
    }

    w->x = w->x + (w->step_x + rn->wind_x);
    w->y = w->y + (w->step_y + rn->wind_y);
    w->life--;
    double margin = rn->wander ? rn->margin : 0;
    bool of_age = w->life <= 0;
    if (of_age || !(w->x >= -margin && w->y >= -margin && w->x < st->mx + margin && w->y < st->my + margin)) {
        w->life = 0;
        st->alive--;
        if (of_age && rn->children.hi > 0) start_children(r, rn, st, k);
        return;
    }

    if (rn->taper) w->strength = w->strength0 * w->life / w->life0;

    if (rn->branch > 0 && rng_next_double(random) < rn->branch) {
        double heading = 360.0 * rng_next_double(random);
        if (w->life / 2 > 0 && st->alive < rn->max_runners && reserve(r, st, st->count + 1))
            add_walker(st, w->x, w->y, heading, w->strength, w->life / 2, w->generation);
        w = &st->walkers[k];  /* reserve may have moved the array */
    }

    if (rn->wave_amplitude != 0 && rn->wave_revolutions != 0) {
        double turns = 360.0 * rn->wave_revolutions * (w->life0 - w->life) / w->life0, s, c;
        runner_sincos_deg(turns, &s, &c);
        w->swing = rn->wave_amplitude * s;
        aim(w);
    }
}

static bool runner_go(run_state *r, const node *n, void *state)
{
    const runner_node *rn = (const runner_node *)n;
    runner_state *st = state;
    if (rn->steps > 0 && st->counter >= rn->steps) return false;
    if (!st->started) {
        st->started = true;
        if (!spawn(r, rn, st)) return false;
    }
    if (st->count == 0) return false;
    /* Children (branches and those started at a death) are appended and
       walk from the next step; walk() reserves room for them itself. */
    int walking = st->count;
    int64_t work = 0;
    for (int k = 0; k < walking; k++) {
        /* A walker's work is its brush: from one cell to some 50,000. */
        if (stop_requested_after(&r->stop, &work, 1 + st->last_count)) return false; /* the run stops; its grid is not an output */
        walk(r, rn, st, k);
    }
    int kept = 0;
    for (int k = 0; k < st->count; k++)
        if (st->walkers[k].life > 0) st->walkers[kept++] = st->walkers[k];
    st->count = kept;
    st->counter++;
    r->acting_node = n->id;
    return !r->out_of_memory;
}

const node_kind node_kind_runner = {
    .name = "runner",
    .beyond_reference = true,
    .is_branch = false,
    .reads_no_children = true,
    .load = runner_load,
    .free = runner_free,
    .state_new = runner_state_new,
    .state_free = runner_state_free,
    .reset = runner_reset,
    .go = runner_go,
};
