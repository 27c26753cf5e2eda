/* convchain.c — the `convchain` node: Metropolis sampling of a two-valued
   texture whose NxN patterns follow those of a sample image. */
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The pattern table has 2^(n*n) entries; 4 keeps it at 512 KiB. */
#define CONVCHAIN_MAX_N 4
/* Cells around a candidate that its windows can touch: 3n-2 per side. */
#define CONVCHAIN_SPAN (3 * CONVCHAIN_MAX_N - 2)

typedef struct convchain {
    node base;
    int n;
    int steps;              /* <= 0: no limit */
    double temperature;
    uint8_t black, white, on;
    double *weights;        /* by pattern index: bit dx + dy*n set where the cell is white */
} convchain;

typedef struct convchain_state {
    int counter;            /* steps made since the last reset, the filling one included */
    uint8_t *substrate;     /* cells that were `on` when the node first ran */
} convchain_state;

static const char *const convchain_attrs[] = {"sample", "n", "steps", "temperature", "black", "white", "on", NULL};

static void convchain_free(node *n)
{
    convchain *c = (convchain *)n;
    mem_free(c->weights);
    mem_free(c);
}

static bool parse_value(diag *d, const xmlNode *el, const grid_def *g, const char *name, uint8_t *out)
{
    char ch;
    bool present;
    if (!xml_get_char(d, el, name, &ch, &present)) return false;
    if (!present) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "convchain needs a %s attribute", name);
    if (g->value_of[(unsigned char)ch] < 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%c\" is not a value of the grid", name, ch);
    *out = (uint8_t)g->value_of[(unsigned char)ch];
    return true;
}

/* The eight square symmetries as position maps: image k of a pattern p has
   p[perm[k][i]] at position i. Built in the reference's order (e, b, a, ba,
   a2, ba2, a3, ba3); a is the rotation, b the reflection. */
static void square_permutations(int n, int perm[8][CONVCHAIN_MAX_N * CONVCHAIN_MAX_N])
{
    int cells = n * n, rotate[CONVCHAIN_MAX_N * CONVCHAIN_MAX_N], reflect[CONVCHAIN_MAX_N * CONVCHAIN_MAX_N];
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            rotate[x + y * n] = n - 1 - y + x * n;
            reflect[x + y * n] = n - 1 - x + y * n;
        }
    for (int i = 0; i < cells; i++) perm[0][i] = i;
    static const signed char recipe[8][2] = {{-1, 0}, {0, 0}, {0, 1}, {2, 0}, {2, 1}, {4, 0}, {4, 1}, {6, 0}};
    for (int k = 1; k < 8; k++) {
        const int *op = recipe[k][1] ? rotate : reflect;
        for (int i = 0; i < cells; i++) perm[k][i] = perm[(int)recipe[k][0]][op[i]];
    }
}

/* Count every NxN pattern of the (wrapping) sample under the symmetries in
   `symmetry`; patterns never seen get 0.1 so that no ratio divides by zero. */
static bool compute_weights(convchain *c, const bool *sample, int smx, int smy, symmetry_set symmetry)
{
    int n = c->n, cells = n * n;
    size_t count = (size_t)1 << cells;
    c->weights = mem_calloc(count, sizeof *c->weights);
    if (!c->weights) return false;
    int perm[8][CONVCHAIN_MAX_N * CONVCHAIN_MAX_N];
    square_permutations(n, perm);
    bool pattern[CONVCHAIN_MAX_N * CONVCHAIN_MAX_N];
    for (int y = 0; y < smy; y++)
        for (int x = 0; x < smx; x++) {
            for (int dy = 0; dy < n; dy++)
                for (int dx = 0; dx < n; dx++) pattern[dx + dy * n] = sample[(x + dx) % smx + (y + dy) % smy * smx];
            for (int k = 0; k < 8; k++) {
                if (!((symmetry >> k) & 1)) continue;
                size_t index = 0;
                for (int i = 0; i < cells; i++)
                    if (pattern[perm[k][i]]) index |= (size_t)1 << i;
                c->weights[index] += 1;
            }
        }
    for (size_t k = 0; k < count; k++)
        if (c->weights[k] <= 0) c->weights[k] = 0.1;
    return true;
}

static node *convchain_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    convchain *c = node_new(ld, sizeof *c, &node_kind_convchain, el);
    if (!c) return NULL;
    xml_check_attrs(d, el, convchain_attrs);
    int line = xml_line(el);

    if (g->mz != 1) {
        diag_error(d, SMALTI_ERR_MODEL, line, "convchain works only on 2-D grids (this one is %dx%dx%d)", g->mx, g->my, g->mz);
        return NULL;
    }
    const char *name = xml_attr(el, "sample");
    if (!name) {
        diag_error(d, SMALTI_ERR_MODEL, line, "convchain needs a sample attribute (an image in samples/)");
        return NULL;
    }
    if (!xml_get_int(d, el, "n", 3, &c->n) || !xml_get_int(d, el, "steps", -1, &c->steps) ||
        !xml_get_double(d, el, "temperature", 1.0, &c->temperature))
        return NULL;
    if (c->n < 1 || c->n > CONVCHAIN_MAX_N) {
        diag_error(d, SMALTI_ERR_MODEL, line, "n=\"%d\": the pattern size must be from 1 to %d", c->n, CONVCHAIN_MAX_N);
        return NULL;
    }
    if (!parse_value(d, el, g, "black", &c->black) || !parse_value(d, el, g, "white", &c->white) ||
        !parse_value(d, el, g, "on", &c->on))
        return NULL;

    char *path = resource_find(ld->res, d, line, "sample", "samples", name, ".png");
    if (!path) return NULL;
    int smx, smy;
    uint32_t *argb = resource_load_image(ld->res, d, line, path, &smx, &smy);
    mem_free(path);
    if (!argb) return NULL;
    bool *sample = mem_malloc((size_t)smx * smy * sizeof *sample);
    if (!sample) {
        mem_free(argb);
        diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
        return NULL;
    }
    /* Opaque white pixels are the `white` value; every other colour is `black`. */
    for (long i = 0; i < (long)smx * smy; i++) sample[i] = argb[i] == 0xFFFFFFFFu;
    mem_free(argb);
    bool ok = compute_weights(c, sample, smx, smy, parent_symmetry);
    mem_free(sample);
    if (!ok) { diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory"); return NULL; }
    return &c->base;
}

static void *convchain_state_new(const node *n, const grid_def *g)
{
    (void)n;
    convchain_state *st = mem_calloc(1, sizeof *st);
    if (!st) return NULL;
    st->substrate = mem_calloc((size_t)g->mx * g->my * g->mz, 1);
    if (!st->substrate) { mem_free(st); return NULL; }
    return st;
}

static void convchain_state_free(void *state)
{
    convchain_state *st = state;
    if (st) mem_free(st->substrate);
    mem_free(st);
}

static void convchain_reset(run_state *r, const node *n, void *state)
{
    (void)n;
    convchain_state *st = state;
    memset(st->substrate, 0, (size_t)r->cells);
    st->counter = 0;
}

/* A coordinate wrapped once, as the reference does: enough unless the grid is
   smaller than the windows. */
static int wrap_once(int v, int size)
{
    if (v < 0) return v + size;
    if (v >= size) return v - size;
    return v;
}

/* The Metropolis ratio of toggling cell (x, y): the product over the windows
   around it of weight(after) / weight(before), multiplied in window order. */
static double toggle_ratio(const run_state *r, const convchain *c, int x, int y)
{
    int n = c->n, span = 3 * n - 2, mx = r->mx, my = r->my;
    bool white[CONVCHAIN_SPAN * CONVCHAIN_SPAN], centre[CONVCHAIN_SPAN * CONVCHAIN_SPAN];
    /* Window cell (dx, dy) of the window at (sx, sy) depends only on sx + dx
       and sy + dy, so read that square once. */
    for (int v = 0; v < span; v++) {
        int yy = wrap_once(y - n + 1 + v, my);
        for (int u = 0; u < span; u++) {
            int xx = wrap_once(x - n + 1 + u, mx);
            long at = (long)xx + (long)yy * mx;
            /* The reference reads that flat index even when one wrap left a
               coordinate outside (tiny grids); past the array it fails, and
               there the true periodic cell stands in. */
            if (at < 0 || at >= r->cells) at = ((xx % mx + mx) % mx) + (long)((yy % my + my) % my) * mx;
            white[u + v * span] = r->state[at] == c->white;
            centre[u + v * span] = xx == x && yy == y;
        }
    }
    double q = 1;
    for (int sy = 0; sy < 2 * n - 1; sy++)
        for (int sx = 0; sx < 2 * n - 1; sx++) {
            int index = 0, difference = 0;
            for (int dy = 0; dy < n; dy++)
                for (int dx = 0; dx < n; dx++) {
                    int k = sx + dx + (sy + dy) * span, power = 1 << (dy * n + dx);
                    if (white[k]) index += power;
                    if (centre[k]) difference = white[k] ? power : -power;
                }
            q *= c->weights[index - difference] / c->weights[index];
        }
    return q;
}

static void toggle(run_state *r, const convchain *c, int32_t i)
{
    r->state[i] = r->state[i] == c->black ? c->white : c->black;
    run_change_unlogged(r, i);
}

static bool convchain_go(run_state *r, const node *n, void *state)
{
    const convchain *c = (const convchain *)n;
    convchain_state *st = state;
    if (c->steps > 0 && st->counter >= c->steps) return false;

    /* The first step colours the `on` cells at random and remembers them.
       Its counter advances even when there were none, so a later call goes
       on to the sampling steps. */
    if (st->counter == 0) {
        bool any = false;
        for (int32_t i = 0; i < r->cells; i++) {
            if (stop_requested_at(&r->stop, i)) return false;
            if (r->state[i] == c->on) {
                r->state[i] = rng_next_max(&r->random, 2) == 0 ? c->black : c->white;
                run_change_unlogged(r, i);
                st->substrate[i] = 1;
                any = true;
            }
        }
        st->counter++;
        if (any) r->acting_node = n->id;
        return any;
    }

    /* A sampling step: as many random draws as cells; each one that hits the
       substrate toggles with the Metropolis probability. The writes go
       straight to the grid, outside the change log, as in the reference. */
    for (int32_t k = 0; k < r->cells; k++) {
        if (stop_requested_at(&r->stop, k)) return false; /* the run stops; its grid is not an output */
        int32_t i = rng_next_max(&r->random, r->cells);
        if (!st->substrate[i]) continue;
        double q = toggle_ratio(r, c, i % r->mx, i / r->mx);
        if (q >= 1) { toggle(r, c, i); continue; }
        if (c->temperature != 1) q = pow(q, 1.0 / c->temperature);
        if (q > rng_next_double(&r->random)) toggle(r, c, i);
    }
    st->counter++;
    r->acting_node = n->id;
    return true;
}

const node_kind node_kind_convchain = {
    .name = "convchain",
    .is_branch = false,
    .writes_named_values = true,
    .reads_no_children = true,
    .load = convchain_load,
    .free = convchain_free,
    .state_new = convchain_state_new,
    .state_free = convchain_state_free,
    .reset = convchain_reset,
    .go = convchain_go,
};
