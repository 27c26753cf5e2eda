/* growgrid.c — the `growgrid` node: one step fits a Growing Grid lattice to a shape picture and gives the
   run that geometry, one quad per block of cells (of each layer, in 3-D); the grid's values stay as they are. */
#include "nodes.h"
#include "gen.h"
#include "growgrid.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include "../engine/run.h"
#include <string.h>

/* Beyond this many points a fit takes minutes (the work grows with the cube of the side). */
#define GROWGRID_MAX_POINTS (257 * 257)

typedef struct growgrid_node {
    node base;
    growgrid_params params;
    uint8_t *weight; /* the shape's density, w*h */
    int w, h;
    int64_t total;
} growgrid_node;

typedef struct growgrid_state {
    bool done;
} growgrid_state;

static const char *const growgrid_attrs[] = {"shape", "block", "epoch", "rate", "rateEnd", "sigma", "sigmaEnd", "intervals", "points", NULL};

static void growgrid_free(node *n)
{
    growgrid_node *gn = (growgrid_node *)n;
    mem_free(gn->weight);
    mem_free(gn);
}

static bool load_shape(loader *ld, growgrid_node *gn, const xmlNode *el, int intervals)
{
    diag *d = ld->d;
    int line = xml_line(el);
    const char *name = xml_attr(el, "shape");
    if (!name) return diag_error(d, SMALTI_ERR_MODEL, line, "<growgrid> needs a shape attribute: a grey-level picture under shapes/");
    char *path = resource_find(ld->res, d, line, "shape picture", "shapes", name, ".png");
    if (!path) return false;
    uint32_t *argb = resource_load_image(ld->res, d, line, path, &gn->w, &gn->h);
    if (!argb) {
        mem_free(path);
        return false;
    }
    gn->weight = growgrid_density(argb, gn->w, gn->h, intervals, &gn->total);
    mem_free(argb);
    if (!gn->weight) {
        mem_free(path);
        return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    if (gn->total == 0) {
        diag_error(d, SMALTI_ERR_MODEL, line, "shape picture %s is black all over: a growing grid needs some brighter pixels", path);
        mem_free(path);
        return false;
    }
    mem_free(path);
    return true;
}

static node *growgrid_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    diag *d = ld->d;
    const grid_def *g = ld->grid;
    int line = xml_line(el);
    growgrid_node *gn = node_new(ld, sizeof *gn, &node_kind_growgrid, el);
    if (!gn) return NULL;
    xml_check_attrs(d, el, growgrid_attrs);
    /* In a 3-D grid the lattice spans the xy plane, the floor plan every layer shares. */
    growgrid_params *p = &gn->params;
    int block, intervals;
    int side = g->mx < g->my ? g->mx : g->my;
    if (!xml_get_int_range(d, el, "block", 1, 1, side, &block) || !gen_get_double(d, el, "epoch", 5, 0.01, 1000, &p->epoch) ||
        !gen_get_double(d, el, "rate", 0.1, 0.0001, 1, &p->rate_start) ||
        !gen_get_double(d, el, "rateEnd", 0.01, 0.0001, 1, &p->rate_end) ||
        !gen_get_double(d, el, "sigma", 0.7, 0.05, 16, &p->sigma_start) ||
        !gen_get_double(d, el, "sigmaEnd", 0.35, 0.05, 16, &p->sigma_end) || !xml_get_int_range(d, el, "intervals", 4, 1, 255, &intervals))
        return NULL;
    if (xml_attr(el, "points")) {
        /* free growth: the lattice's proportions follow the shape, its quads still tile the grid */
        if (xml_attr(el, "block"))
            return diag_error(d, SMALTI_ERR_MODEL, line, "<growgrid> takes block or points, not both: points lets the lattice choose its rows and columns"),
                   NULL;
        if (!xml_get_int_range(d, el, "points", 0, 4, GROWGRID_MAX_POINTS, &p->points)) return NULL;
        p->divide_x = g->mx;
        p->divide_y = g->my;
        if (!load_shape(ld, gn, el, intervals)) return NULL;
        return &gn->base;
    }
    if (g->mx % block || g->my % block) {
        diag_error(d, SMALTI_ERR_MODEL, line, "block=\"%d\" of <growgrid> must divide the grid's sides, %dx%d, so that blocks tile it", block,
                   g->mx, g->my);
        return NULL;
    }
    p->nx = g->mx / block + 1;
    p->ny = g->my / block + 1;
    if ((long)p->nx * p->ny > GROWGRID_MAX_POINTS) {
        diag_error(d, SMALTI_ERR_MODEL, line, "<growgrid> would fit %dx%d points; at most %d are allowed: take a larger block", p->nx, p->ny,
                   GROWGRID_MAX_POINTS);
        return NULL;
    }
    if (!load_shape(ld, gn, el, intervals)) return NULL;
    return &gn->base;
}

static void *growgrid_state_new(const node *n, const grid_def *g)
{
    (void)n;
    (void)g;
    return mem_calloc(1, sizeof(growgrid_state));
}

static void growgrid_state_free(void *state) { mem_free(state); }

static void growgrid_reset(run_state *r, const node *n, void *state)
{
    (void)r;
    (void)n;
    ((growgrid_state *)state)->done = false;
}

static bool growgrid_go(run_state *r, const node *n, void *state)
{
    const growgrid_node *gn = (const growgrid_node *)n;
    growgrid_state *st = state;
    if (st->done) return false;
    st->done = true;
    /* free growth fills as many points as it grows, at most `points` */
    geometry *geo = gn->params.points ? geometry_new(gn->params.points, 1) : geometry_new(gn->params.nx, gn->params.ny);
    if (!geo) {
        r->out_of_memory = true;
        return false;
    }
    if (!growgrid_fit(&gn->params, gn->weight, gn->w, gn->h, gn->total, &r->random, &r->stop, geo)) {
        if (!stop_requested(&r->stop)) r->out_of_memory = true;
        geometry_free(geo);
        return false;
    }
    run_set_geometry(r, geo);
    r->acting_node = n->id;
    return true;
}

const node_kind node_kind_growgrid = {
    .name = "growgrid",
    .beyond_reference = true,
    .is_branch = false,
    .load = growgrid_load,
    .free = growgrid_free,
    .state_new = growgrid_state_new,
    .state_free = growgrid_state_free,
    .reset = growgrid_reset,
    .go = growgrid_go,
};
