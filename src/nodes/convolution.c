/* convolution.c — the `convolution` node: a cellular automaton step over the
   whole grid, each rule turning a value into another by a neighbourhood count. */
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include "../core/suggest.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CONV_MAX_SUM 27 /* 26 neighbours in 3-D */
#define CONV_MAX_CELLS 27 /* room for the most cells a kernel counts (Moore2 with self: 25) */

typedef struct conv_rule {
    uint8_t input, output;
    bool has_sums;
    bool sums[CONV_MAX_SUM + 1];       /* the neighbour counts that let the rule fire */
    double p;
    /* How often each value appears in `values`: a row of convolution.weights, out of the rule so
       that a rule stays 48 bytes, which the step finds by a cheap multiply. */
    const uint8_t *weight;
} conv_rule;

typedef struct convolution {
    node base;
    conv_rule *rules;
    uint8_t (*weights)[GRID_MAX_VALUES]; /* per rule */
    int rule_count;
    int steps;
    bool periodic;
    int radius;                        /* 1, or 2 for the 5x5 kernels [smalti] */
    int8_t (*neighbours)[3];           /* kernel cells of weight 1 */
    int neighbour_count;
} convolution;

/* The fast step works layer by layer (z-planes in 3-D, rows in 2-D): per rule
   with sums, each neighbour's weight is looked up once per cell into a layer
   padded by one cell (wrapped or zero), and a row's sums are then whole-row
   additions of shifted layer rows, one per neighbour. Three layers are kept
   (the one before, this one, the next), plus the first layer as it was
   (periodic grids wrap back to it after it changed) and the layer before the
   first (periodic: the last layer as it was; otherwise zeros). */
enum { CONV_RING = 3, CONV_FIRST = 3, CONV_BEFORE = 4, CONV_SLOTS = 5, CONV_VECTOR = 16 };

typedef struct conv_state {
    int counter;
    uint8_t *before;                   /* the slow step only: the grid as the step began */
    int32_t offsets[CONV_MAX_CELLS];               /* the neighbours as flat offsets in this grid */
    /* The fast step (before == NULL): */
    int layers, layer_size, px;        /* layer count, padded layer size, padded row length */
    int8_t layer_of[CONV_MAX_CELLS];               /* a neighbour's layer: -1, 0 or 1 */
    int32_t in_layer[CONV_MAX_CELLS];              /* its offset within a padded layer */
    int slot_stride;                   /* layer_size and slack for whole vectors read past a row */
    uint8_t *slots;                    /* rule_count * CONV_SLOTS padded layers */
    int sum_stride;                    /* mx rounded up to whole vectors */
    uint8_t *sums;                     /* rule_count rows of sums */
    /* rule_order[rule_start[v] .. rule_start[v+1]): the rules, in order, that can turn value v into another. */
    int32_t rule_start[GRID_MAX_VALUES + 1];
    int32_t *rule_order;
} conv_state;

static const char *const conv_attrs[] = {"neighborhood", "periodic", "self", "steps", "in", "out", "p", "values", "sum", NULL};
static const char *const conv_rule_attrs[] = {"in", "out", "p", "values", "sum", NULL};

/* Kernels by name, as 3x3(x3) weight grids indexed dx+1 + (dy+1)*3 + (dz+1)*9,
   or 5x5 ones of radius 2 [smalti] indexed dx+2 + (dy+2)*5. */
static const char *const kernels2d[] = {"VonNeumann", "010101010", "Moore", "111101111",
                                        "VonNeumann2", "0010001110110110111000100",
                                        "Moore2", "1111111111110111111111111", NULL};
static const char *const kernels3d[] = {"VonNeumann", "000010000010101010000010000",
                                        "NoCorners", "010111010111101111010111010", NULL};

static void convolution_free(node *n)
{
    convolution *c = (convolution *)n;
    mem_free(c->rules);
    mem_free(c->weights);
    mem_free(c->neighbours);
    mem_free(c);
}

static bool parse_value(diag *d, const xmlNode *el, const grid_def *g, const char *name, uint8_t *out)
{
    char ch;
    bool present;
    if (!xml_get_char(d, el, name, &ch, &present)) return false;
    if (!present) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "convolution rule needs a %s attribute", name);
    if (g->value_of[(unsigned char)ch] < 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%c\" is not a value of the grid", name, ch);
    *out = (uint8_t)g->value_of[(unsigned char)ch];
    return true;
}

/* "5..8,12" -> sums[5..8] and sums[12]. */
static bool parse_sums(diag *d, const xmlNode *el, const char *text, bool *sums)
{
    const char *p = text;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) goto bad;
        p = end;
        if (p[0] == '.' && p[1] == '.') {
            hi = strtol(p + 2, &end, 10);
            if (end == p + 2) goto bad;
            p = end;
        }
        if (lo < 0 || hi > CONV_MAX_SUM || lo > hi) goto bad;
        for (long s = lo; s <= hi; s++) sums[s] = true;
        if (*p == ',') p++;
        else if (*p) goto bad;
    }
    return true;
bad:
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "sum=\"%s\" must be counts from 0 to %d such as \"5..8,12\"", text, CONV_MAX_SUM);
}

static bool load_rule(diag *d, const xmlNode *el, const grid_def *g, conv_rule *r, uint8_t *weight)
{
    memset(r, 0, sizeof *r);
    r->weight = weight;
    if (!parse_value(d, el, g, "in", &r->input) || !parse_value(d, el, g, "out", &r->output)) return false;
    if (!xml_get_double(d, el, "p", 1.0, &r->p)) return false;
    const char *values = xml_attr(el, "values"), *sum = xml_attr(el, "sum");
    if (values && !sum) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "missing \"sum\" attribute");
    if (sum && !values) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "missing \"values\" attribute");
    if (!values) return true;
    r->has_sums = true;
    for (const char *s = values; *s; s++) {
        int v = g->value_of[(unsigned char)*s];
        if (v < 0)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                              "values=\"%s\" of <rule>: '%c' is not a value of the grid (values are \"%s\"); list the values "
                              "to count one character each, with no spaces", values, *s, g->chars);
        weight[v]++;
    }
    return parse_sums(d, el, sum, r->sums);
}

static node *convolution_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    convolution *c = node_new(ld, sizeof *c, &node_kind_convolution, el);
    if (!c) return NULL;
    xml_check_attrs(d, el, conv_attrs);

    const char *name = xml_attr(el, "neighborhood");
    const char *const *kernels = g->mz == 1 ? kernels2d : kernels3d;
    const char *kernel = NULL;
    for (int k = 0; name && kernels[k]; k += 2)
        if (strcmp(kernels[k], name) == 0) kernel = kernels[k + 1];
    if (!kernel) {
        const char *const *other = g->mz == 1 ? kernels3d : kernels2d;
        bool other_dim = false;
        for (int k = 0; name && other[k]; k += 2) other_dim |= strcmp(other[k], name) == 0;
        /* The thesis names kernels by their cell count, the cell itself included. */
        const char *thesis = !name ? NULL
                           : strcmp(name, "VonNeumann5") == 0 ? " (for the 5 cells of the von Neumann cross with the cell itself, write neighborhood=\"VonNeumann\" self=\"True\")"
                           : strcmp(name, "Moore9") == 0 ? " (for the 9 cells of the 3x3 square with the cell itself, write neighborhood=\"Moore\" self=\"True\")"
                           : NULL;
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s neighborhood \"%s\": use %s%s", name ? "unknown" : "missing",
                   name ? name : "", g->mz == 1 ? "VonNeumann, Moore, VonNeumann2 or Moore2" : "VonNeumann or NoCorners",
                   thesis ? thesis
                   : !other_dim ? "" : g->mz == 1 ? " (it is a 3-D neighborhood: run the model with --dim 3)"
                                                : " (it is a 2-D neighborhood: run the model on a 2-D grid, without --dim 3)");
        return NULL;
    }
    bool self;
    if (!xml_get_int(d, el, "steps", -1, &c->steps) || !xml_get_bool(d, el, "periodic", false, &c->periodic) ||
        !xml_get_bool(d, el, "self", false, &self))
        return NULL;
    int cells = (int)strlen(kernel), side = cells == 25 ? 5 : 3;
    c->radius = side / 2;
    c->neighbours = mem_malloc((size_t)(cells + 1) * sizeof *c->neighbours);
    if (!c->neighbours) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    for (int k = 0; k < cells; k++)
        if (kernel[k] == '1') {
            c->neighbours[c->neighbour_count][0] = (int8_t)(k % side - c->radius);
            c->neighbours[c->neighbour_count][1] = (int8_t)(k / side % side - c->radius);
            c->neighbours[c->neighbour_count][2] = (int8_t)(cells == 27 ? k / 9 - 1 : 0);
            c->neighbour_count++;
        }
    if (self) { /* the cell counts itself, as one more neighbour at offset 0 */
        memset(c->neighbours[c->neighbour_count], 0, sizeof c->neighbours[0]);
        c->neighbour_count++;
    }

    int count = 0;
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        if (!xml_is(x, "rule")) {
            char hint[96];
            diag_error(d, SMALTI_ERR_MODEL, xml_line(x), "unknown element <%s> inside <convolution>%s", xml_name(x),
                       suggest_phrase(hint, sizeof hint, xml_name(x), (const char *const[]){"rule", NULL}));
            return NULL;
        }
        count++;
    }
    c->rules = mem_calloc((size_t)(count ? count : 1), sizeof *c->rules);
    c->weights = mem_calloc((size_t)(count ? count : 1), sizeof *c->weights);
    if (!c->rules || !c->weights) { diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    if (count == 0) {
        if (!load_rule(d, el, g, &c->rules[0], c->weights[0])) return NULL;
        c->rule_count = 1;
    }
    for (xmlNode *x = xml_first_child(el); x; x = xml_next(x)) {
        xml_check_attrs(d, x, conv_rule_attrs);
        if (!load_rule(d, x, g, &c->rules[c->rule_count], c->weights[c->rule_count])) return NULL;
        c->rule_count++;
    }
    return &c->base;
}

static void convolution_state_free(void *state)
{
    conv_state *st = state;
    if (st) {
        mem_free(st->before);
        mem_free(st->slots);
        mem_free(st->sums);
        mem_free(st->rule_order);
    }
    mem_free(st);
}

/* The fast step's sums fit a byte: every rule's heaviest value times the neighbour count. */
static bool conv_sums_fit_bytes(const convolution *c)
{
    for (int k = 0; k < c->rule_count; k++)
        for (int v = 0; v < GRID_MAX_VALUES; v++)
            if (c->rules[k].weight[v] * c->neighbour_count > 255) return false;
    return true;
}

static void *convolution_state_new(const node *n, const grid_def *g)
{
    const convolution *c = (const convolution *)n;
    conv_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    for (int k = 0; k < c->neighbour_count; k++)
        st->offsets[k] = c->neighbours[k][0] + c->neighbours[k][1] * g->mx + c->neighbours[k][2] * g->mx * g->my;
    /* The row sums pad layers by one cell: wider kernels count cell by cell. */
    if (c->radius > 1 || !conv_sums_fit_bytes(c)) {
        st->before = mem_malloc((size_t)g->mx * g->my * g->mz);
        if (!st->before) { mem_free(st); return NULL; }
        return st;
    }
    bool flat = g->mz == 1; /* 2-D: layers are rows */
    st->px = g->mx + 2;
    st->layers = flat ? g->my : g->mz;
    st->layer_size = flat ? st->px : st->px * (g->my + 2);
    for (int k = 0; k < c->neighbour_count; k++) {
        st->layer_of[k] = flat ? c->neighbours[k][1] : c->neighbours[k][2];
        st->in_layer[k] = c->neighbours[k][0] + (flat ? 0 : c->neighbours[k][1] * st->px);
    }
    st->slot_stride = st->layer_size + 2 * CONV_VECTOR;
    st->sum_stride = (g->mx + CONV_VECTOR - 1) / CONV_VECTOR * CONV_VECTOR;
    st->slots = mem_calloc((size_t)c->rule_count * CONV_SLOTS, (size_t)st->slot_stride);
    st->sums = mem_malloc((size_t)c->rule_count * st->sum_stride);
    st->rule_order = mem_malloc((size_t)c->rule_count * sizeof *st->rule_order);
    if (!st->slots || !st->sums || !st->rule_order) {
        convolution_state_free(st);
        return NULL;
    }
    int32_t next = 0;
    for (int v = 0; v < GRID_MAX_VALUES; v++) {
        st->rule_start[v] = next;
        for (int k = 0; k < c->rule_count; k++)
            if (c->rules[k].input == v && c->rules[k].output != v) st->rule_order[next++] = k;
    }
    st->rule_start[GRID_MAX_VALUES] = next;
    return st;
}

static void convolution_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    ((conv_state *)state)->counter = 0;
}

/* The weighted count of a cell's neighbours, read from the grid as it was. */
static int neighbour_sum(const run_state *r, const convolution *c, const conv_state *st, const conv_rule *cr,
                         int x, int y, int z)
{
    const uint8_t *before = st->before;
    int sum = 0;
    const int R = c->radius;
    bool inside = x >= R && y >= R && x < r->mx - R && y < r->my - R && (r->mz == 1 || (z >= R && z < r->mz - R));
    if (inside) { /* no wrapping or clipping: the common case, by offsets */
        const uint8_t *at = before + x + y * r->mx + z * r->mx * r->my;
        for (int k = 0; k < c->neighbour_count; k++) sum += cr->weight[at[st->offsets[k]]];
        return sum;
    }
    for (int k = 0; k < c->neighbour_count; k++) {
        int sx = x + c->neighbours[k][0], sy = y + c->neighbours[k][1], sz = z + c->neighbours[k][2];
        if (c->periodic) { /* a radius can be wider than the grid: wrap as often as needed */
            sx = (sx % r->mx + r->mx) % r->mx;
            sy = (sy % r->my + r->my) % r->my;
            sz = (sz % r->mz + r->mz) % r->mz;
        } else if (sx < 0 || sy < 0 || sz < 0 || sx >= r->mx || sy >= r->my || sz >= r->mz) continue;
        sum += cr->weight[before[sx + sy * r->mx + sz * r->mx * r->my]];
    }
    return sum;
}

/* The slow step (weights too heavy for byte sums): neighbours read one by one. */
static bool convolution_go_cells(run_state *r, const convolution *c, conv_state *st, bool *change)
{
    memcpy(st->before, r->state, (size_t)r->cells);
    int32_t i = 0;
    for (int z = 0; z < r->mz; z++)
        for (int y = 0; y < r->my; y++) {
            if (stop_check(&r->stop, r->mx)) return false; /* a row's work: its cells. The run stops; its grid is not an output */
            for (int x = 0; x < r->mx; x++, i++) {
                uint8_t input = r->state[i];
                for (int k = 0; k < c->rule_count; k++) {
                    const conv_rule *cr = &c->rules[k];
                    if (input != cr->input || cr->output == r->state[i]) continue;
                    /* The draw happens before the count is looked at, as in the reference. */
                    if (cr->p != 1.0 && !(rng_next(&r->random) < cr->p * INT_MAX)) continue;
                    if (cr->has_sums) {
                        int sum = neighbour_sum(r, c, st, cr, x, y, z);
                        if (sum > CONV_MAX_SUM || !cr->sums[sum]) continue;
                    }
                    r->state[i] = cr->output;
                    run_change_unlogged(r, i);
                    *change = true;
                    break;
                }
            }
        }
    return true;
}

/* Layer l of the grid as it is now, weighted by `weight`, into padded layer b. */
static void conv_build_layer(const run_state *r, const convolution *c, const conv_state *st, const uint8_t *weight, int l,
                             uint8_t *b)
{
    const int MX = r->mx, px = st->px;
    const bool flat = r->mz == 1;
    const int rows = flat ? 1 : r->my;
    const uint8_t *cells = r->state + (int64_t)l * (flat ? MX : MX * r->my);
    for (int y = 0; y < rows; y++) {
        uint8_t *row = b + (flat ? 0 : (y + 1) * px);
        const uint8_t *src = cells + (int64_t)y * MX;
        for (int x = 0; x < MX; x++) row[x + 1] = weight[src[x]];
        row[0] = c->periodic ? row[MX] : 0;
        row[MX + 1] = c->periodic ? row[1] : 0;
    }
    if (!flat) {
        if (c->periodic) {
            memcpy(b, b + r->my * px, (size_t)px);
            memcpy(b + (r->my + 1) * px, b + px, (size_t)px);
        } else {
            memset(b, 0, (size_t)px);
            memset(b + (r->my + 1) * px, 0, (size_t)px);
        }
    }
}

typedef uint8_t conv_v16 __attribute__((vector_size(CONV_VECTOR)));

/* sum[0 .. n) += add[0 .. n), n a multiple of CONV_VECTOR (the sums past the
   row are never read, and the layers have slack for the bytes read past it). */
static inline void conv_add_row(uint8_t *sum, const uint8_t *add, int n)
{
    for (int x = 0; x < n; x += CONV_VECTOR) {
        conv_v16 a, b;
        memcpy(&a, sum + x, sizeof a);
        memcpy(&b, add + x, sizeof b);
        a += b;
        memcpy(sum + x, &a, sizeof a);
    }
}

/* The fast step: the same cells, rules and draws in the same order as the
   slow one, with each row's neighbour sums computed before its cells change
   (the layers hold the grid as the step began). */
static bool convolution_go_layers(run_state *r, const convolution *c, conv_state *st, bool *change)
{
    const int MX = r->mx, L = st->layers, LS = st->slot_stride, R = c->rule_count, SW = st->sum_stride;
    const bool flat = r->mz == 1;
    const int rows = flat ? 1 : r->my;
    for (int k = 0; k < R; k++) {
        if (!c->rules[k].has_sums) continue;
        uint8_t *slot = st->slots + (size_t)k * CONV_SLOTS * LS;
        conv_build_layer(r, c, st, c->rules[k].weight, 0, slot);
        if (c->periodic) {
            memcpy(slot + CONV_FIRST * LS, slot, (size_t)st->layer_size);
            conv_build_layer(r, c, st, c->rules[k].weight, L - 1, slot + CONV_BEFORE * LS);
        } /* else CONV_BEFORE stays zero */
    }
    for (int l = 0; l < L; l++) {
        for (int k = 0; k < R; k++) {
            if (!c->rules[k].has_sums) continue;
            uint8_t *slot = st->slots + (size_t)k * CONV_SLOTS * LS;
            /* The next layer, while it is still as the step began. */
            if (l + 1 < L) conv_build_layer(r, c, st, c->rules[k].weight, l + 1, slot + (size_t)((l + 1) % CONV_RING) * LS);
        }
        for (int y = 0; y < rows; y++) {
            if (stop_check(&r->stop, r->mx)) return false; /* a row's work: its cells. The run stops; its grid is not an output */
            const int base = 1 + (flat ? 0 : (y + 1) * st->px);
            for (int k = 0; k < R; k++) {
                if (!c->rules[k].has_sums) continue;
                const uint8_t *slot = st->slots + (size_t)k * CONV_SLOTS * LS;
                const uint8_t *layer_at[3] = {
                    slot + (size_t)(l == 0 ? CONV_BEFORE : (l - 1) % CONV_RING) * LS,
                    slot + (size_t)(l % CONV_RING) * LS,
                    slot + (size_t)(l + 1 < L ? (l + 1) % CONV_RING : c->periodic ? CONV_FIRST : CONV_BEFORE) * LS,
                };
                uint8_t *sum = st->sums + (size_t)k * SW;
                memset(sum, 0, (size_t)SW);
                for (int n = 0; n < c->neighbour_count; n++)
                    conv_add_row(sum, layer_at[st->layer_of[n] + 1] + base + st->in_layer[n], SW);
            }
            const int32_t row_start = flat ? l * MX : (l * r->my + y) * MX;
            for (int x = 0; x < MX; x++) {
                const int32_t i = row_start + x;
                const uint8_t input = r->state[i];
                for (int j = st->rule_start[input], end = st->rule_start[input + 1]; j < end; j++) {
                    const int k = st->rule_order[j];
                    const conv_rule *cr = &c->rules[k];
                    /* The draw happens before the count is looked at, as in the reference. */
                    if (cr->p != 1.0 && !(rng_next(&r->random) < cr->p * INT_MAX)) continue;
                    if (cr->has_sums) {
                        int sum = st->sums[(size_t)k * SW + x];
                        if (sum > CONV_MAX_SUM || !cr->sums[sum]) continue;
                    }
                    r->state[i] = cr->output;
                    run_change_unlogged(r, i);
                    *change = true;
                    break;
                }
            }
        }
    }
    return true;
}

static bool convolution_go(run_state *r, const node *n, void *state)
{
    const convolution *c = (const convolution *)n;
    conv_state *st = state;
    if (c->steps > 0 && st->counter >= c->steps) return false;
    bool change = false;
    if (!(st->before ? convolution_go_cells(r, c, st, &change) : convolution_go_layers(r, c, st, &change))) return false;
    st->counter++;
    if (change) r->acting_node = n->id;
    return change;
}

const node_kind node_kind_convolution = {
    .name = "convolution",
    .is_branch = false,
    .writes_named_values = true,
    .load = convolution_load,
    .free = convolution_free,
    .state_new = convolution_state_new,
    .state_free = convolution_state_free,
    .reset = convolution_reset,
    .go = convolution_go,
};
