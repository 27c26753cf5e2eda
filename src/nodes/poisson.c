/* poisson.c — the `poisson` node: Poisson-disk scattering of a value over the
   cells matching `on` (Bridson's algorithm, reseeded until no free cell is left
   by default, or run once from one seed with method="bridson"), with one radius
   or a radius per value (`radii`) or per grey level of a picture (`radiuspicture`). */
#include "gen.h"
#include "nodes.h"
#include "poisson_radii.h"
#include "../core/xmlutil.h"
#include "../engine/run.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>

/* Largest bounding box of the annulus whose offsets are listed in a table (with radii: of all the tables). */
#define POISSON_MAX_TABLE (1 << 20)

typedef struct poisson {
    node base;
    int value;
    wave_bits on;
    double radius;
    int k;                          /* candidates tried around an active point before it retires */
    int method;                     /* POISSON_MAXIMAL or POISSON_BRIDSON */
    bool per_value;                 /* `radii` given: a point's radius is radius_of its cell's value */
    double radius_of[GRID_MAX_VALUES];
    grey_picture picture;           /* `radiuspicture`: radius at black, white_radius at white */
    double white_radius;
} poisson;

/* A shape per grey level at most: more than the values. */
#define POISSON_MAX_SHAPES 256

/* maximal: reseed until no cell can take a point; bridson: one seed, stop when no point is active. */
enum { POISSON_MAXIMAL, POISSON_BRIDSON };
static const char *const poisson_methods[] = {"maximal", "bridson", NULL};

typedef struct poisson_state {
    bool done;
} poisson_state;

static const char *const poisson_attrs[] = {"value", "on", "radius", "k", "method", "radii", "radiuspicture", "whiteradius", "steps", NULL};

static void poisson_free(node *n)
{
    mem_free(((poisson *)n)->picture.grey);
    mem_free(n);
}

static node *poisson_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    poisson *p = node_new(ld, sizeof *p, &node_kind_poisson, el);
    if (!p) return NULL;
    xml_check_attrs(d, el, poisson_attrs);
    int steps;
    if (!gen_value(d, el, ld->grid, "value", true, &p->value) || !gen_wave(d, el, ld->grid, "on", &p->on) ||
        !xml_get_int_range(d, el, "k", 30, 1, 10000, &p->k) || !xml_get_int_range(d, el, "steps", 0, 0, 1 << 30, &steps) ||
        !gen_get_choice(d, el, "method", poisson_methods, POISSON_MAXIMAL, &p->method))
        return NULL;
    if (!xml_attr(el, "radius")) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<poisson> needs a radius attribute");
        return NULL;
    }
    if (!xml_get_double(d, el, "radius", 0, &p->radius)) return NULL;
    if (!(p->radius > 0 && p->radius <= POISSON_MAX_RADIUS)) {
        diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "radius=\"%s\" of <poisson> must be above 0 and at most %g", xml_attr(el, "radius"),
                   POISSON_MAX_RADIUS);
        return NULL;
    }
    if (!poisson_load_radii(d, el, ld->grid, p->on, p->radius, p->radius_of, &p->per_value) ||
        !poisson_load_picture(d, el, ld->res, p->per_value, &p->picture, &p->white_radius))
        return NULL;
    return &p->base;
}

static void *poisson_state_new(const node *n, const grid_def *g)
{
    (void)n;
    (void)g;
    return mem_calloc(1, sizeof(poisson_state));
}

static void poisson_state_free(void *state) { mem_free(state); }

static void poisson_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    ((poisson_state *)state)->done = false;
}

/* floor(sqrt(n)) for n >= 0, exactly. */
static int64_t isqrt64(int64_t n)
{
    int64_t s = (int64_t)sqrt((double)n);
    while (s * s > n) s--;
    while ((s + 1) * (s + 1) <= n) s++;
    return s;
}

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }

/* The working set of one scattering. A cell is free when it matches `on` and
   no point lies nearer than the radius; free cells sit in `list` (any order)
   and pos[cell] is the cell's place there, or -1 once it is not free. */
typedef struct ring_offset {
    int32_t dx, dy, dz;
    int64_t flat;                   /* dx + dy*mx + dz*mx*my */
} ring_offset;

/* Where candidates around a point of one radius are drawn: min_d2 <= d2 < ring_d2, |offsets| <= ring_r. */
typedef struct annulus {
    ring_offset *ring;              /* the annulus's offsets, or NULL when too many */
    int32_t ring_count;
    int64_t ring_r, min_d2, ring_d2;
} annulus;

typedef struct scatter {
    run_state *r;
    uint8_t value;
    int32_t *pos, *list, *active;
    int32_t free_count, active_count;
    int64_t plane;
    int32_t span_ry, span_rz;       /* half extents of the disc table (clipped to the grid) */
    int32_t *span;                  /* half width in x of the disc's row (dy, dz), -1 when empty */
    annulus shapes[POISSON_MAX_SHAPES]; /* one radius: shapes[0]; else one per distinct radius */
    int shape_count;
    uint8_t *shape_of;              /* with radii or a picture: each cell's shape (from its value before the step, or
                                       its grey level); else NULL */
    int32_t reach;                  /* with shape_of: the largest disc's half extent */
    bool d3;
    bool changed;
} scatter;

static void take_off(scatter *s, int32_t *slot)
{
    int32_t q = *slot;
    int32_t last = s->list[--s->free_count];
    s->list[q] = last;
    s->pos[last] = q;
    *slot = -1;
}

/* With radii or a picture, the point at c (at px, py, pz) and a free cell q keep max(r_c, r_q) apart: q
   leaves the free list when d2 < max(min_d2 of c, min_d2 of q). */
static void take_discs(scatter *s, int32_t c, int32_t px, int32_t py, int32_t pz)
{
    run_state *r = s->r;
    int64_t own = s->shapes[s->shape_of[c]].min_d2;
    int32_t z0 = max32(pz - s->reach, 0), z1 = min32(pz + s->reach, r->mz - 1);
    int32_t y0 = max32(py - s->reach, 0), y1 = min32(py + s->reach, r->my - 1);
    int32_t x0 = max32(px - s->reach, 0), x1 = min32(px + s->reach, r->mx - 1);
    for (int32_t z = z0; z <= z1; z++) {
        int64_t dz = z - pz;
        for (int32_t y = y0; y <= y1; y++) {
            int64_t dy = y - py, row = z * s->plane + (int64_t)y * r->mx;
            for (int32_t x = x0; x <= x1; x++) {
                int64_t dx = x - px;
                if (s->pos[row + x] < 0) continue;
                int64_t d2 = dx * dx + dy * dy + dz * dz, theirs = s->shapes[s->shape_of[row + x]].min_d2;
                if (d2 < (own > theirs ? own : theirs)) take_off(s, &s->pos[row + x]);
            }
        }
    }
}

/* A point at cell c: paint it, and take every cell of its disc (squared
   distance below min_d2) off the free list. */
static void place(scatter *s, int32_t c)
{
    run_state *r = s->r;
    if (r->state[c] != s->value) {
        r->state[c] = s->value;
        run_change(r, c);
        s->changed = true;
    }
    s->active[s->active_count++] = c;
    int32_t px = c % r->mx, py = c / r->mx % r->my, pz = (int32_t)(c / s->plane);
    if (s->shape_of) {
        take_discs(s, c, px, py, pz);
        return;
    }
    int32_t width_y = 2 * s->span_ry + 1;
    for (int32_t dz = -s->span_rz; dz <= s->span_rz; dz++) {
        int32_t z = pz + dz;
        if (z < 0 || z >= r->mz) continue;
        for (int32_t dy = -s->span_ry; dy <= s->span_ry; dy++) {
            int32_t y = py + dy;
            int32_t w = s->span[(dz + s->span_rz) * width_y + dy + s->span_ry];
            if (y < 0 || y >= r->my || w < 0) continue;
            int32_t x0 = px - w < 0 ? 0 : px - w, x1 = px + w >= r->mx ? r->mx - 1 : px + w;
            int32_t *row = s->pos + z * s->plane + (int64_t)y * r->mx;
            for (int32_t x = x0; x <= x1; x++) {
                if (row[x] >= 0) take_off(s, &row[x]);
            }
        }
    }
}

/* The offsets (dx, dy, dz) with min_d2 <= d2 < ring_d2, in scanline order. */
static bool ring_table(const scatter *s, annulus *a)
{
    int64_t ring_r = a->ring_r, side = 2 * ring_r + 1, zr = s->d3 ? ring_r : 0;
    a->ring = mem_malloc((size_t)(side * side * (2 * zr + 1)) * sizeof *a->ring);
    if (!a->ring) return false;
    for (int64_t dz = -zr; dz <= zr; dz++)
        for (int64_t dy = -ring_r; dy <= ring_r; dy++)
            for (int64_t dx = -ring_r; dx <= ring_r; dx++) {
                int64_t d2 = dx * dx + dy * dy + dz * dz;
                if (d2 >= a->min_d2 && d2 < a->ring_d2)
                    a->ring[a->ring_count++] = (ring_offset){(int32_t)dx, (int32_t)dy, (int32_t)dz, dx + dy * s->r->mx + dz * s->plane};
            }
    return true;
}

/* The annulus of a radius: "at least radius apart" is d2 >= r*r with r*r the double product,
   i.e. d2 >= min_d2 = ceil(r*r) (at least 1: two points never share a cell). Candidates come
   from min_d2 <= d2 < ring_d2 = ceil((2r)*(2r)), never empty. */
static annulus annulus_of(double radius)
{
    double r2 = radius * radius, two = 2.0 * radius;
    int64_t min_d2 = (int64_t)ceil(r2);
    if (min_d2 < 1) min_d2 = 1;
    int64_t ring_d2 = (int64_t)ceil(two * two);
    if (ring_d2 <= min_d2) ring_d2 = min_d2 + 1;
    return (annulus){.ring_r = isqrt64(ring_d2 - 1), .min_d2 = min_d2, .ring_d2 = ring_d2};
}

/* Offsets of the annulus's bounding box. */
static int64_t box_of(const scatter *s, const annulus *a)
{
    int64_t side = 2 * a->ring_r + 1;
    return s->d3 ? side * side * side : side * side;
}

/* Up to k candidates around the point at c; true when one became a point. */
static bool try_candidates(scatter *s, int32_t c, int k)
{
    run_state *r = s->r;
    int32_t px = c % r->mx, py = c / r->mx % r->my, pz = (int32_t)(c / s->plane);
    const annulus *a = &s->shapes[s->shape_of ? s->shape_of[c] : 0];
    int64_t rr = a->ring_r, side = 2 * rr + 1;
    /* Far enough from the faces, every offset lands inside: no bounds to check. */
    bool inside = px >= rr && py >= rr && px + rr < r->mx && py + rr < r->my && (!s->d3 || (pz >= rr && pz + rr < r->mz));
    for (int attempt = 0; attempt < k; attempt++) {
        int64_t dx, dy, dz;
        if (a->ring) {
            const ring_offset *o = &a->ring[rng_next_max(&r->random, a->ring_count)];
            if (inside) {
                int32_t cell = (int32_t)(c + o->flat);
                if (s->pos[cell] < 0) continue;
                place(s, cell);
                return true;
            }
            dx = o->dx, dy = o->dy, dz = o->dz;
        } else {
            int64_t d2;
            do {
                dx = rng_next_max(&r->random, (int32_t)side) - rr;
                dy = rng_next_max(&r->random, (int32_t)side) - rr;
                dz = s->d3 ? rng_next_max(&r->random, (int32_t)side) - rr : 0;
                d2 = dx * dx + dy * dy + dz * dz;
            } while (d2 < a->min_d2 || d2 >= a->ring_d2);
        }
        int64_t x = px + dx, y = py + dy, z = pz + dz;
        if (x < 0 || y < 0 || z < 0 || x >= r->mx || y >= r->my || z >= r->mz) continue;
        int32_t cell = (int32_t)(x + y * r->mx + z * s->plane);
        if (s->pos[cell] < 0) continue;
        place(s, cell);
        return true;
    }
    return false;
}

/* The index of the annulus of `radius` among s->shapes, added when new: radii that give the same
   cells share one. */
static uint8_t shape_for(scatter *s, double radius)
{
    annulus own = annulus_of(radius);
    int i = 0;
    while (i < s->shape_count && (s->shapes[i].min_d2 != own.min_d2 || s->shapes[i].ring_d2 != own.ring_d2)) i++;
    if (i == s->shape_count) s->shapes[s->shape_count++] = own;
    return (uint8_t)i;
}

/* With radii or a picture: each cell's shape, from its value now (a point keeps the radius of the
   value it replaced) or from the grey under it (radius at black to white_radius at white, linearly),
   and the reach of the widest disc. */
static bool cell_shapes(scatter *s, const poisson *p)
{
    run_state *r = s->r;
    uint8_t shape_of_key[POISSON_MAX_SHAPES] = {0};
    if (p->per_value) {
        for (int v = 0; v < GRID_MAX_VALUES; v++)
            if (gen_in_wave(p->on, (uint8_t)v)) shape_of_key[v] = shape_for(s, p->radius_of[v]);
    } else {
        for (int g = 0; g < POISSON_MAX_SHAPES; g++) shape_of_key[g] = shape_for(s, p->radius + (p->white_radius - p->radius) * (g / 255.0));
    }
    int64_t widest = 1;
    for (int i = 0; i < s->shape_count; i++) widest = s->shapes[i].min_d2 > widest ? s->shapes[i].min_d2 : widest;
    s->reach = (int32_t)isqrt64(widest - 1);
    s->shape_of = mem_malloc((size_t)r->cells);
    if (!s->shape_of) return false;
    for (int32_t i = 0; i < r->cells; i++) {
        uint8_t key = p->per_value ? (r->state[i] < GRID_MAX_VALUES ? r->state[i] : 0)
                                   : grey_at(&p->picture, i % r->mx, i / r->mx % r->my, r->mx, r->my);
        s->shape_of[i] = shape_of_key[key];
    }
    return true;
}

static bool poisson_go(run_state *r, const node *n, void *state)
{
    const poisson *p = (const poisson *)n;
    poisson_state *st = state;
    if (st->done) return false;
    st->done = true;

    scatter s = {.r = r, .value = (uint8_t)p->value, .plane = (int64_t)r->mx * r->my, .d3 = r->mz > 1, .shape_count = 1};
    s.shapes[0] = annulus_of(p->radius);
    int64_t min_d2 = s.shapes[0].min_d2;
    bool per_cell = p->per_value || p->picture.grey;
    if (min_d2 == 1 && p->method == POISSON_MAXIMAL && !per_cell) { /* radius <= 1: every cell matching `on` takes a point, whatever the draws */
        for (int32_t i = 0; i < r->cells; i++)
            if (gen_in_wave(p->on, r->state[i]) && r->state[i] != s.value) {
                r->state[i] = s.value;
                run_change(r, i);
                s.changed = true;
            }
        if (s.changed) r->acting_node = n->id;
        return s.changed;
    }
    s.pos = mem_malloc((size_t)r->cells * sizeof *s.pos);
    bool ok = s.pos != NULL;
    if (!ok) goto done;
    if (per_cell) {
        if (!(ok = cell_shapes(&s, p))) goto done;
    } else {
        int64_t disc_r = isqrt64(min_d2 - 1);
        s.span_ry = (int32_t)min64(disc_r, r->my - 1);
        s.span_rz = (int32_t)min64(disc_r, r->mz - 1);
        size_t span_count = (size_t)(2 * s.span_ry + 1) * (size_t)(2 * s.span_rz + 1);
        s.span = mem_malloc(span_count * sizeof *s.span);
        if (!(ok = s.span != NULL)) goto done;
        for (int32_t dz = -s.span_rz, k = 0; dz <= s.span_rz; dz++)
            for (int32_t dy = -s.span_ry; dy <= s.span_ry; dy++, k++) {
                int64_t rest = min_d2 - 1 - (int64_t)dy * dy - (int64_t)dz * dz;
                s.span[k] = rest < 0 ? -1 : (int32_t)min64(isqrt64(rest), r->mx - 1);
            }
    }
    int32_t on_count = 0;
    for (int32_t i = 0; i < r->cells; i++) on_count += gen_in_wave(p->on, r->state[i]);
    s.list = mem_malloc((size_t)(on_count ? on_count : 1) * sizeof *s.list);
    s.active = mem_malloc((size_t)(on_count ? on_count : 1) * sizeof *s.active);
    if (!(ok = s.list && s.active)) goto done;
    for (int32_t i = 0; i < r->cells; i++) {
        if (gen_in_wave(p->on, r->state[i])) {
            s.pos[i] = s.free_count;
            s.list[s.free_count++] = i;
        } else {
            s.pos[i] = -1;
        }
    }

    /* Candidates are cells drawn uniformly among the annulus's offsets: one
       draw into a table of them when it is small enough (up to
       POISSON_MAX_TABLE offsets in all), else one draw per axis over the
       bounding box, redrawn until the offset falls in the annulus. */
    int64_t table_budget = POISSON_MAX_TABLE;
    for (int i = 0; i < s.shape_count; i++) {
        int64_t box = box_of(&s, &s.shapes[i]);
        if (box > table_budget) continue;
        table_budget -= box;
        if (!(ok = ring_table(&s, &s.shapes[i]))) goto done;
    }
    while (s.free_count > 0) {
        place(&s, s.list[rng_next_max(&r->random, s.free_count)]);
        while (s.active_count > 0 && s.free_count > 0) {
            if (stop_requested(&r->stop)) goto done; /* the run stops; its grid is not an output */
            int32_t a = rng_next_max(&r->random, s.active_count);
            if (!try_candidates(&s, s.active[a], p->k)) s.active[a] = s.active[--s.active_count];
        }
        s.active_count = 0;
        if (p->method == POISSON_BRIDSON) break; /* Bridson's one seed: what it could not reach stays free */
    }
done:
    mem_free(s.span);
    mem_free(s.pos);
    mem_free(s.list);
    mem_free(s.active);
    mem_free(s.shape_of);
    for (int i = 0; i < s.shape_count; i++) mem_free(s.shapes[i].ring);
    if (!ok) r->out_of_memory = true;
    if (s.changed) r->acting_node = n->id;
    return s.changed;
}

const node_kind node_kind_poisson = {
    .name = "poisson",
    .beyond_reference = true,
    .is_branch = false,
    .writes_named_values = true,
    .reads_no_children = true,
    .load = poisson_load,
    .free = poisson_free,
    .state_new = poisson_state_new,
    .state_free = poisson_state_free,
    .reset = poisson_reset,
    .go = poisson_go,
};
