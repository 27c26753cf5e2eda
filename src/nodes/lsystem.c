/* lsystem.c — the `lsystem` node: a Lindenmayer system rewritten one generation
   per step, drawn by a turtle or laid over the grid in scanline order. */
#include "nodes.h"
#include "gen.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LSYS_MAX_LENGTH_CAP (1 << 28)
#define LSYS_DEFAULT_MAX_LENGTH (1 << 26)
#define LSYS_MAX_ITERATIONS 1000000
#define LSYS_MAX_WIDTH 64
#define LSYS_MAX_STEP 1024.0
#define LSYS_MAX_START 1048576.0
#define LSYS_MAX_DEPTH (1 << 20)  /* turtle brackets open at once (40 MB of saved turtles) */

/* The turtle works in fixed point so that a drawing is the same on every
   machine and closed figures close exactly: headings in 2^-20 degree,
   directions (sines and cosines) in 2^-30, steps in 2^-16 cells, positions in
   2^-24 cells. With the bounds above (2^28 symbols of at most 1024 cells, a
   start within 2^20 cells) positions stay below 2^63. */
#define DEG_SHIFT 20
#define DIR_SHIFT 30
#define STEP_SHIFT 16
#define POS_SHIFT 24
#define DEGREES(d) ((int64_t)(d) << DEG_SHIFT)
#define FULL_TURN DEGREES(360)
#define DIR_ONE ((int64_t)1 << DIR_SHIFT)
#define RAD_PER_DEG_2_40 INT64_C(19190098069) /* pi/180 * 2^40, rounded */
#define SQRT_HALF_2_30 INT64_C(759250125)     /* sqrt(1/2) * 2^30, rounded */
#define SQRT3_HALF_2_30 INT64_C(929887697)    /* sqrt(3)/2 * 2^30, rounded */

enum { MODE_TURTLE, MODE_SCAN };
enum { CMD_NONE, CMD_DRAW, CMD_MOVE, CMD_LEFT, CMD_RIGHT, CMD_BACK, CMD_PUSH, CMD_POP };

/* One alternative of a rule: its output (a slice of `outs`) and weight. */
typedef struct lsys_alt {
    int32_t out, len;
    double weight;
} lsys_alt;

typedef struct lsystem {
    node base;
    int mode;
    int scan;                /* scan mode: the order the string is laid in [smalti] */
    char *axiom;             /* NULL: a random axiom per run */
    int axiom_len, axiom_max;
    int iterations;          /* -1: (scan mode) until the string covers the cells */
    int max_length;
    int steps;               /* 0: no cap */
    wave_bits on;
    char *outs;              /* every rule's output, one after another */
    lsys_alt *alts;          /* grouped by input symbol, in file order within a group */
    int alt_first[256], alt_count[256];
    double total[256];       /* the weights of a symbol's alternatives, summed */
    bool can_grow[256];      /* rewriting the symbol can lengthen the string, now or later */
    char alphabet[256];      /* symbols with rules, in order of appearance: a random axiom's */
    int alphabet_len;
    int16_t paint[256];      /* the value a symbol paints, -1 for none */
    uint8_t command[256];    /* turtle mode: what a symbol does */
    int64_t turn, heading, step, x, y; /* fixed point, see above */
    int8_t (*brush)[2];      /* cell offsets of a `width` wide round brush */
    int brush_count, brush_reach;
} lsystem;

typedef struct turtle {
    int64_t x, y, heading, dx, dy;
} turtle;

typedef struct lsys_state {
    bool started;
    bool stuck;              /* the last generation left the string as it was */
    int generation, counter;
    char *cur, *next;
    int64_t len, cur_cap, next_cap;
    uint8_t *before;         /* the grid as it stood before the node began */
    uint8_t *canvas;
    int32_t *on_cells;       /* scan mode: the cells matching `on`, in the scan order */
    int32_t on_count;
    turtle *stack;
    int64_t stack_cap;
} lsys_state;

static const char *const lsys_attrs[] = {"axiom", "iterations", "angle", "step", "heading", "pen", "width", "x", "y",
                                         "mode", "scan", "on", "axiomLength", "maxLength", "steps", NULL};
static const char *const turtle_only[] = {"angle", "step", "heading", "pen", "width", "x", "y", NULL};
static const char *const rule_attrs[] = {"in", "out", "p", NULL};
static const char *const draw_attrs[] = {"symbol", "value", NULL};
static const char *const modes[] = {"turtle", "scan", NULL};
/* The orders scan mode lays the string in; "rows" is scanline order. */
enum { SCAN_ROWS, SCAN_ROWS_BOTTOM_UP, SCAN_COLUMNS, SCAN_COLUMNS_RIGHT_TO_LEFT, SCAN_SERPENTINE, SCAN_SERPENTINE_COLUMNS };
static const char *const scan_orders[] = {"rows", "rowsBottomUp", "columns", "columnsRightToLeft", "serpentine",
                                          "serpentineColumns", NULL};
static const char turtle_commands[] = "FGf+-|[]";

static void lsystem_free(node *n)
{
    lsystem *ls = (lsystem *)n;
    mem_free(ls->axiom);
    mem_free(ls->outs);
    mem_free(ls->alts);
    mem_free(ls->brush);
    mem_free(ls);
}

/* Symbols are printable ASCII characters other than the space. */
static bool check_symbols(diag *d, const xmlNode *el, const char *name, const char *text)
{
    for (const char *s = text; *s; s++)
        if (*s <= ' ' || *s > '~')
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                              "%s=\"%s\" of <%s>: symbols must be printable ASCII characters other than the space", name, text,
                              xml_name(el));
    return true;
}

static bool oom(diag *d) { return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); }

/* The <rule> children: count them, check them, and group them by input symbol. */
static bool load_rules(diag *d, const xmlNode *el, lsystem *ls)
{
    int count = 0;
    size_t out_total = 0;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (xml_is(x, "draw")) continue;
        if (!xml_is(x, "rule"))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "unknown element <%s> inside <lsystem>: use <rule> or <draw>", xml_name(x));
        xml_check_attrs(d, x, rule_attrs);
        const char *in = xml_attr(x, "in"), *out = xml_attr(x, "out");
        if (!in) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<rule> of <lsystem> needs an in attribute");
        if (strlen(in) != 1)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "in=\"%s\" of <rule> must be exactly one symbol", in);
        if (!check_symbols(d, x, "in", in)) return false;
        if (!out) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<rule> of <lsystem> needs an out attribute (out=\"\" erases)");
        if (!check_symbols(d, x, "out", out)) return false;
        if (strlen(out) > (size_t)ls->max_length)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "out of <rule> is longer than maxLength=%d", ls->max_length);
        double p;
        if (!gen_get_double(d, x, "p", 1.0, 0.0, 1e9, &p)) return false;
        if (!(p > 0)) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "p=\"%s\" of <rule> must be positive", xml_attr(x, "p"));
        count++;
        out_total += strlen(out);
    }
    ls->alts = mem_calloc((size_t)(count ? count : 1), sizeof *ls->alts);
    ls->outs = mem_malloc(out_total + 1);
    if (!ls->alts || !ls->outs) return oom(d);

    /* Group by input symbol: counts, then first indices, then fill in file order. */
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x))
        if (xml_is(x, "rule")) {
            unsigned char c = (unsigned char)xml_attr(x, "in")[0];
            if (ls->alt_count[c]++ == 0) ls->alphabet[ls->alphabet_len++] = (char)c;
        }
    int next = 0;
    for (int c = 0; c < 256; c++) {
        ls->alt_first[c] = next;
        next += ls->alt_count[c];
    }
    int filled[256] = {0};
    int32_t out_pos = 0;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "rule")) continue;
        unsigned char c = (unsigned char)xml_attr(x, "in")[0];
        const char *out = xml_attr(x, "out");
        lsys_alt *a = &ls->alts[ls->alt_first[c] + filled[c]++];
        a->out = out_pos;
        a->len = (int32_t)strlen(out);
        gen_get_double(d, x, "p", 1.0, 0.0, 1e9, &a->weight);
        ls->total[c] += a->weight;
        memcpy(ls->outs + out_pos, out, (size_t)a->len);
        out_pos += a->len;
    }

    /* A symbol can grow if one of its alternatives is longer than one symbol,
       or is one symbol that can grow; iterate to the fixed point. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int c = 0; c < 256; c++) {
            if (ls->can_grow[c]) continue;
            for (int k = 0; k < ls->alt_count[c]; k++) {
                const lsys_alt *a = &ls->alts[ls->alt_first[c] + k];
                if (a->len > 1 || (a->len == 1 && ls->can_grow[(unsigned char)ls->outs[a->out]])) {
                    ls->can_grow[c] = changed = true;
                    break;
                }
            }
        }
    }
    return true;
}

/* The <draw> children and what each symbol paints or does. */
static bool load_drawing(diag *d, const xmlNode *el, const grid_def *g, lsystem *ls, int pen)
{
    int16_t bound[256];
    for (int c = 0; c < 256; c++) bound[c] = -1;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "draw")) continue;
        xml_check_attrs(d, x, draw_attrs);
        const char *symbol = xml_attr(x, "symbol");
        if (!symbol || strlen(symbol) != 1)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "<draw> needs a symbol attribute of exactly one symbol");
        if (!check_symbols(d, x, "symbol", symbol)) return false;
        unsigned char c = (unsigned char)symbol[0];
        if (ls->mode == MODE_TURTLE && strchr(turtle_commands, c))
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(x),
                              "symbol=\"%c\" of <draw> is a turtle command (F G f + - | [ ]); bind another symbol", c);
        if (bound[c] >= 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "symbol=\"%c\" of <draw> is bound twice", c);
        int value;
        if (!gen_value(d, x, g, "value", true, &value)) return false;
        bound[c] = (int16_t)value;
    }
    for (int c = 0; c < 256; c++) {
        ls->paint[c] = bound[c];
        if (ls->mode == MODE_SCAN) {
            if (bound[c] < 0 && g->value_of[c] >= 0) ls->paint[c] = g->value_of[c];
            continue;
        }
        ls->command[c] = bound[c] >= 0 ? CMD_DRAW : CMD_NONE;
    }
    if (ls->mode == MODE_TURTLE) {
        ls->command['F'] = ls->command['G'] = CMD_DRAW;
        ls->paint['F'] = ls->paint['G'] = (int16_t)pen;
        ls->command['f'] = CMD_MOVE;
        ls->command['+'] = CMD_LEFT;
        ls->command['-'] = CMD_RIGHT;
        ls->command['|'] = CMD_BACK;
        ls->command['['] = CMD_PUSH;
        ls->command[']'] = CMD_POP;
    }
    return true;
}

/* A round brush `width` cells across: offsets whose cell centre lies within
   width/2 of the brush centre (which, for even widths, sits on a corner). */
static bool make_brush(diag *d, lsystem *ls, int width)
{
    ls->brush = mem_malloc((size_t)width * width * sizeof *ls->brush);
    if (!ls->brush) return oom(d);
    int lo = -(width - 1) / 2, hi = width / 2, even = width % 2 == 0;
    for (int dy = lo; dy <= hi; dy++)
        for (int dx = lo; dx <= hi; dx++) {
            int ex = 2 * dx - even, ey = 2 * dy - even;
            if (ex * ex + ey * ey > width * width) continue;
            ls->brush[ls->brush_count][0] = (int8_t)dx;
            ls->brush[ls->brush_count][1] = (int8_t)dy;
            ls->brush_count++;
        }
    ls->brush_reach = hi > -lo ? hi : -lo;
    return true;
}

static bool load_turtle(diag *d, const xmlNode *el, const grid_def *g, lsystem *ls)
{
    double angle, step, heading, x, y;
    int width;
    if (!gen_get_double(d, el, "angle", 90, -360, 360, &angle) || !gen_get_double(d, el, "step", 1, 1.0 / 64, LSYS_MAX_STEP, &step) ||
        !gen_get_double(d, el, "heading", 90, -360, 360, &heading) ||
        !gen_get_double(d, el, "x", g->mx / 2, -LSYS_MAX_START, LSYS_MAX_START, &x) ||
        !gen_get_double(d, el, "y", g->my / 2, -LSYS_MAX_START, LSYS_MAX_START, &y) ||
        !xml_get_int_range(d, el, "width", 1, 1, LSYS_MAX_WIDTH, &width))
        return false;
    /* Multiplying by a power of two is exact; llround rounds the same everywhere. */
    ls->turn = llround(angle * (double)DEGREES(1));
    ls->heading = llround(heading * (double)DEGREES(1)) % FULL_TURN;
    if (ls->heading < 0) ls->heading += FULL_TURN;
    ls->step = llround(step * (double)(1 << STEP_SHIFT));
    ls->x = llround(x * (double)(1 << POS_SHIFT));
    ls->y = llround(y * (double)(1 << POS_SHIFT));
    return make_brush(d, ls, width);
}

static node *lsystem_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    lsystem *ls = node_new(ld, sizeof *ls, &node_kind_lsystem, el);
    if (!ls) return NULL;
    xml_check_attrs(d, el, lsys_attrs);

    if (g->mz != 1) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<lsystem> works on 2-D grids only, and this grid is %dx%dx%d", g->mx, g->my, g->mz);
        return NULL;
    }
    if (!gen_get_choice(d, el, "mode", modes, MODE_TURTLE, &ls->mode) ||
        !gen_get_choice(d, el, "scan", scan_orders, SCAN_ROWS, &ls->scan) ||
        !xml_get_int_range(d, el, "maxLength", LSYS_DEFAULT_MAX_LENGTH, 1, LSYS_MAX_LENGTH_CAP, &ls->max_length) ||
        !xml_get_int_range(d, el, "axiomLength", ls->max_length < 10 ? ls->max_length : 10, 1, ls->max_length, &ls->axiom_max) ||
        !xml_get_int_range(d, el, "iterations", 0, 0, LSYS_MAX_ITERATIONS, &ls->iterations) ||
        !xml_get_int_range(d, el, "steps", 0, 0, INT_MAX, &ls->steps) || !gen_wave(d, el, g, "on", &ls->on))
        return NULL;
    if (!xml_attr(el, "iterations")) ls->iterations = -1;
    if (ls->mode == MODE_TURTLE && ls->iterations < 0) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<lsystem> in turtle mode needs an iterations attribute");
        return NULL;
    }
    if (ls->mode == MODE_SCAN)
        for (const char *const *a = turtle_only; *a; a++)
            if (xml_attr(el, *a)) diag_warn(d, xml_line(el), "%s has no effect in scan mode", *a);
    if (ls->mode == MODE_TURTLE && xml_attr(el, "scan")) diag_warn(d, xml_line(el), "scan has no effect in turtle mode");

    const char *axiom = xml_attr(el, "axiom");
    if (axiom) {
        if (!*axiom) {
            diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "axiom=\"\" of <lsystem> is empty; leave it out for a random axiom");
            return NULL;
        }
        if (!check_symbols(d, el, "axiom", axiom)) return NULL;
        if (strlen(axiom) > (size_t)ls->max_length) {
            diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "axiom of <lsystem> is longer than maxLength=%d", ls->max_length);
            return NULL;
        }
        ls->axiom = mem_strdup(axiom);
        if (!ls->axiom) { oom(d); return NULL; }
        ls->axiom_len = (int)strlen(axiom);
    }
    if (!load_rules(d, el, ls)) return NULL;
    if (!axiom && ls->alphabet_len == 0) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<lsystem> needs an axiom, or rules to draw a random one from");
        return NULL;
    }
    int pen = -1;
    if (ls->mode == MODE_TURTLE) {
        if (!gen_value(d, el, g, "pen", false, &pen)) return NULL;
        if (pen < 0) pen = g->c > 1 ? 1 : 0;
        if (!load_turtle(d, el, g, ls)) return NULL;
    }
    if (!load_drawing(d, el, g, ls, pen)) return NULL;
    return &ls->base;
}

static void *lsystem_state_new(const node *n, const grid_def *g)
{
    (void)n;
    lsys_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    size_t cells = (size_t)g->mx * g->my * g->mz;
    st->before = mem_malloc(cells);
    st->canvas = mem_malloc(cells);
    st->on_cells = mem_malloc(cells * sizeof *st->on_cells);
    if (!st->before || !st->canvas || !st->on_cells) {
        mem_free(st->before);
        mem_free(st->canvas);
        mem_free(st->on_cells);
        mem_free(st);
        return NULL;
    }
    return st;
}

static void lsystem_state_free(void *state)
{
    lsys_state *st = state;
    if (!st) return;
    mem_free(st->cur);
    mem_free(st->next);
    mem_free(st->before);
    mem_free(st->canvas);
    mem_free(st->on_cells);
    mem_free(st->stack);
    mem_free(st);
}

static void lsystem_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    lsys_state *st = state;
    st->started = st->stuck = false;
    st->generation = st->counter = 0;
    st->len = 0;
}

/* Make room for `need` symbols in a string buffer; false when memory runs out. */
static bool reserve(run_state *r, char **buf, int64_t *cap, int64_t need, int64_t limit)
{
    if (need <= *cap) return true;
    int64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    if (c > limit) c = limit;
    char *bigger = mem_realloc(*buf, (size_t)c);
    if (!bigger) {
        r->out_of_memory = true;
        return false;
    }
    *buf = bigger;
    *cap = c;
    return true;
}

/* Generation 0: the given axiom, or a random one of 1..axiomLength symbols
   drawn from the symbols that have rules (one draw for the length, one per symbol). */
static bool make_axiom(run_state *r, const lsystem *ls, lsys_state *st)
{
    int64_t len = ls->axiom ? ls->axiom_len : 1 + rng_next_max(&r->random, ls->axiom_max);
    if (!reserve(r, &st->cur, &st->cur_cap, len, ls->max_length)) return false;
    if (ls->axiom) memcpy(st->cur, ls->axiom, (size_t)len);
    else
        for (int64_t i = 0; i < len; i++) {
            if (stop_requested_at(&r->stop, i)) return false;
            st->cur[i] = ls->alphabet[rng_next_max(&r->random, ls->alphabet_len)];
        }
    st->len = len;
    return true;
}

/* One generation: every symbol at once. A symbol with several alternatives
   takes one draw from the run's stream, in string order; the first
   alternative whose running weight sum exceeds draw * total wins. */
static bool rewrite(run_state *r, const lsystem *ls, lsys_state *st)
{
    int64_t n = 0;
    for (int64_t i = 0; i < st->len; i++) {
        if (stop_requested_at(&r->stop, i)) return false; /* the run stops; this generation is lost */
        unsigned char c = (unsigned char)st->cur[i];
        const char *out = &st->cur[i];
        int64_t olen = 1;
        int count = ls->alt_count[c];
        if (count > 0) {
            const lsys_alt *a = &ls->alts[ls->alt_first[c]];
            if (count > 1) {
                double u = rng_next_double(&r->random) * ls->total[c], sum = 0;
                int k = 0;
                for (; k < count - 1; k++) {
                    sum += a[k].weight;
                    if (u < sum) break;
                }
                a += k;
            }
            out = ls->outs + a->out;
            olen = a->len;
        }
        if (n + olen > ls->max_length) {
            run_fail(r, ls->base.line, "<lsystem>: generation %d would be longer than maxLength=%d symbols", st->generation + 1,
                     ls->max_length);
            return false;
        }
        if (olen == 0) continue;
        if (!reserve(r, &st->next, &st->next_cap, n + olen, ls->max_length)) return false;
        if (olen == 1) st->next[n] = *out;
        else memcpy(st->next + n, out, (size_t)olen);
        n += olen;
    }
    st->stuck = n == st->len && (n == 0 || memcmp(st->cur, st->next, (size_t)n) == 0);
    char *t = st->cur;
    int64_t tc = st->cur_cap;
    st->cur = st->next;
    st->cur_cap = st->next_cap;
    st->next = t;
    st->next_cap = tc;
    st->len = n;
    st->generation++;
    return true;
}

/* v >> s rounded to nearest, halves away from zero, so that mirrored moves stay mirrored. */
static int64_t round_shift(int64_t v, int s)
{
    int64_t half = (int64_t)1 << (s - 1);
    return v >= 0 ? (v + half) >> s : -((-v + half) >> s);
}

/* The cell holding a position: the nearest cell centre, halves upward. */
static int64_t cell_of(int64_t p)
{
    int64_t q = p + ((int64_t)1 << (POS_SHIFT - 1));
    return q >= 0 ? q >> POS_SHIFT : -((-q + ((int64_t)1 << POS_SHIFT) - 1) >> POS_SHIFT);
}

/* Sine and cosine of t in [0, 45] degrees (fixed point) by Taylor series in
   integers: exact everywhere, within a few units of 2^-30. */
static void sin_cos(int64_t t, int64_t *s, int64_t *c)
{
    if (t == DEGREES(45)) { *s = *c = SQRT_HALF_2_30; return; }
    if (t == DEGREES(30)) { *s = DIR_ONE / 2; *c = SQRT3_HALF_2_30; return; }
    int64_t x = round_shift(t * RAD_PER_DEG_2_40, 30); /* radians, 2^-30 */
    int64_t x2 = round_shift(x * x, DIR_SHIFT);
    int64_t term = x, sum = x;
    for (int k = 1; k <= 7; k++) {
        term = round_shift(term * x2, DIR_SHIFT) / ((2 * k) * (2 * k + 1));
        sum += k % 2 ? -term : term;
    }
    *s = sum;
    term = DIR_ONE;
    sum = DIR_ONE;
    for (int k = 1; k <= 7; k++) {
        term = round_shift(term * x2, DIR_SHIFT) / ((2 * k - 1) * (2 * k));
        sum += k % 2 ? -term : term;
    }
    *c = sum;
}

/* The unit step of a heading, y pointing down the rows (90 degrees is toward
   row 0). Quarter turns are exact, and the other angles are folded onto
   [0, 45] degrees so that symmetric headings get mirrored steps. */
static void direction(turtle *t)
{
    int64_t quarter = DEGREES(90);
    int64_t q = t->heading / quarter, rest = t->heading % quarter, c, s;
    if (rest == 0) { c = DIR_ONE; s = 0; }
    else if (rest <= DEGREES(45)) sin_cos(rest, &s, &c);
    else sin_cos(quarter - rest, &c, &s);
    int64_t ux = q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s;
    int64_t uy = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
    t->dx = ux;
    t->dy = -uy;
}

static void turn_by(turtle *t, int64_t by)
{
    t->heading = (t->heading + by) % FULL_TURN;
    if (t->heading < 0) t->heading += FULL_TURN;
    direction(t);
}

static void stamp(const run_state *r, const lsystem *ls, lsys_state *st, int64_t cx, int64_t cy, uint8_t value)
{
    for (int k = 0; k < ls->brush_count; k++) {
        int64_t x = cx + ls->brush[k][0], y = cy + ls->brush[k][1];
        if (x < 0 || y < 0 || x >= r->mx || y >= r->my) continue;
        int32_t i = (int32_t)(x + y * r->mx);
        if (gen_in_wave(ls->on, st->before[i])) st->canvas[i] = value;
    }
}

/* A Bresenham line between the cells that hold the segment's ends, each cell
   stamped with the brush. Segments wholly off the grid are skipped. Returns
   the number of cells stamped with the brush. */
static int64_t draw_segment(const run_state *r, const lsystem *ls, lsys_state *st, const turtle *from, const turtle *to, uint8_t value)
{
    int64_t x0 = cell_of(from->x), y0 = cell_of(from->y), x1 = cell_of(to->x), y1 = cell_of(to->y);
    int64_t reach = ls->brush_reach;
    if ((x0 < -reach && x1 < -reach) || (y0 < -reach && y1 < -reach) || (x0 >= r->mx + reach && x1 >= r->mx + reach) ||
        (y0 >= r->my + reach && y1 >= r->my + reach))
        return 0;
    int64_t ax = x1 > x0 ? x1 - x0 : x0 - x1, ay = y1 > y0 ? y1 - y0 : y0 - y1;
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int64_t err = ax - ay, stamps = 0;
    for (;; stamps++) {
        stamp(r, ls, st, x0, y0, value);
        if (x0 == x1 && y0 == y1) break;
        int64_t e2 = 2 * err;
        if (e2 > -ay) { err -= ay; x0 += sx; }
        if (e2 < ax) { err += ax; y0 += sy; }
    }
    return stamps + 1;
}

static bool push(run_state *r, const lsystem *ls, lsys_state *st, int64_t depth, const turtle *t)
{
    if (depth == LSYS_MAX_DEPTH) {
        run_fail(r, ls->base.line, "<lsystem>: generation %d opens more than %d brackets [ at once", st->generation, LSYS_MAX_DEPTH);
        return false;
    }
    if (depth == st->stack_cap) {
        int64_t cap = st->stack_cap ? 2 * st->stack_cap : 64;
        turtle *bigger = mem_realloc(st->stack, (size_t)cap * sizeof *bigger);
        if (!bigger) {
            r->out_of_memory = true;
            return false;
        }
        st->stack = bigger;
        st->stack_cap = cap;
    }
    st->stack[depth] = *t;
    return true;
}

/* Walk the string with the turtle, painting the canvas. A `]` without its `[` is ignored. */
static bool draw_turtle(run_state *r, const lsystem *ls, lsys_state *st)
{
    turtle t = {ls->x, ls->y, ls->heading, 0, 0};
    direction(&t);
    int64_t depth = 0, work = 0;
    for (int64_t i = 0; i < st->len; i++) {
        if (stop_requested_after(&r->stop, &work, 1)) return false;
        unsigned char c = (unsigned char)st->cur[i];
        switch (ls->command[c]) {
        case CMD_DRAW:
        case CMD_MOVE: {
            turtle from = t;
            t.x += round_shift(t.dx * ls->step, DIR_SHIFT + STEP_SHIFT - POS_SHIFT);
            t.y += round_shift(t.dy * ls->step, DIR_SHIFT + STEP_SHIFT - POS_SHIFT);
            /* A segment can stamp a wide brush over a thousand cells: it counts as that much work. */
            if (ls->command[c] == CMD_DRAW)
                work += draw_segment(r, ls, st, &from, &t, (uint8_t)ls->paint[c]) * ls->brush_count;
            break;
        }
        case CMD_LEFT: turn_by(&t, ls->turn); break;
        case CMD_RIGHT: turn_by(&t, -ls->turn); break;
        case CMD_BACK: turn_by(&t, DEGREES(180)); break;
        case CMD_PUSH:
            if (!push(r, ls, st, depth, &t)) return false;
            depth++;
            break;
        case CMD_POP:
            if (depth > 0) t = st->stack[--depth];
            break;
        default: break;
        }
    }
    return true;
}

/* Paint the current string over the grid as it stood before the node began,
   and log the cells whose value this changes. */
static bool paint(run_state *r, const lsystem *ls, lsys_state *st)
{
    memcpy(st->canvas, st->before, (size_t)r->cells);
    if (ls->mode == MODE_SCAN) {
        int64_t n = st->len < st->on_count ? st->len : st->on_count;
        for (int64_t k = 0; k < n; k++) {
            int v = ls->paint[(unsigned char)st->cur[k]];
            if (v >= 0) st->canvas[st->on_cells[k]] = (uint8_t)v;
        }
    } else if (!draw_turtle(r, ls, st)) return false;
    for (int32_t i = 0; i < r->cells; i++)
        if (st->canvas[i] != r->state[i]) {
            r->state[i] = st->canvas[i];
            run_change(r, i);
        }
    return !r->out_of_memory;
}

/* Without iterations (scan mode) the node rewrites until the string covers
   the cells, stops changing, or holds no symbol that could ever lengthen it. */
static bool finished(const lsystem *ls, const lsys_state *st)
{
    if (ls->iterations >= 0) return st->generation >= ls->iterations;
    if (st->len >= st->on_count || st->stuck) return true;
    for (int64_t i = 0; i < st->len; i++)
        if (ls->can_grow[(unsigned char)st->cur[i]]) return false;
    return true;
}

/* The cell laid at position p (0 .. mx*my) of a scan order. */
static int32_t scan_cell(int order, int32_t p, int32_t mx, int32_t my)
{
    int32_t row = p / mx, along_row = p % mx, column = p / my, along_column = p % my;
    switch (order) {
    case SCAN_ROWS_BOTTOM_UP: return (my - 1 - row) * mx + along_row;
    case SCAN_COLUMNS: return along_column * mx + column;
    case SCAN_COLUMNS_RIGHT_TO_LEFT: return along_column * mx + (mx - 1 - column);
    case SCAN_SERPENTINE: return row * mx + (row % 2 ? mx - 1 - along_row : along_row);
    case SCAN_SERPENTINE_COLUMNS: return (column % 2 ? my - 1 - along_column : along_column) * mx + column;
    default: return p;
    }
}

static bool lsystem_go(run_state *r, const node *n, void *state)
{
    const lsystem *ls = (const lsystem *)n;
    lsys_state *st = state;
    if (ls->steps > 0 && st->counter >= ls->steps) return false;
    if (!st->started) {
        memcpy(st->before, r->state, (size_t)r->cells);
        st->on_count = 0;
        for (int32_t p = 0; p < r->cells; p++) {
            int32_t i = scan_cell(ls->scan, p, r->mx, r->my);
            if (gen_in_wave(ls->on, st->before[i])) st->on_cells[st->on_count++] = i;
        }
        if (!make_axiom(r, ls, st)) return false;
        st->started = true;
    } else {
        if (finished(ls, st)) return false;
        if (!rewrite(r, ls, st)) return false;
    }
    if (!paint(r, ls, st)) return false;
    st->counter++;
    r->acting_node = n->id;
    return true;
}

const node_kind node_kind_lsystem = {
    .name = "lsystem",
    .beyond_reference = true,
    .is_branch = false,
    .load = lsystem_load,
    .free = lsystem_free,
    .state_new = lsystem_state_new,
    .state_free = lsystem_state_free,
    .reset = lsystem_reset,
    .go = lsystem_go,
};
