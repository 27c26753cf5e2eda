/* wfc.h — the `wfc` node: wave function collapse on the node's grid, then its children run on the grid it makes. */
#ifndef TS_WFC_H
#define TS_WFC_H
#include "branch.h"

/* The six directions as the reference numbers them: +x, +y, -x, -y, +z, -z. */
extern const int wfc_dx[6], wfc_dy[6], wfc_dz[6];

typedef struct wfc_node wfc_node;
struct wfc_node {
    branch b;                 /* children, run once the new grid is made */
    grid_def newgrid;
    int mx, my, mz;           /* the grid the wave covers (the node's own grid) */
    int cells;
    int P;                    /* patterns (overlap) or tile variants (tile) */
    int N;                    /* pattern side; 1 for tiles */
    int D;                    /* directions: 4 (overlap) or 6 (tile) */
    bool periodic, shannon;
    int tries;
    /* propagator[d][t] = prop_data[prop_start[d*P+t] .. prop_start[d*P+t+1]) */
    int32_t *prop_start, *prop_data;
    int32_t *initial_compatible;  /* [t*D + d]: |propagator[opposite d][t]| */
    double *weights, *weight_log_weights;
    double sum_of_weights, sum_of_weight_log_weights, starting_entropy;
    /* allowed[v]: the patterns a cell of value v may take; NULL: no restriction. */
    bool *allowed[GRID_MAX_VALUES];
    /* Write the new grid from a fully observed wave (data[i*P + t]). */
    void (*update_state)(const wfc_node *w, const uint8_t *data, uint8_t *cells);
    /* Overlap model: P patterns of N*N values. */
    uint8_t *patterns;
    /* Tile model: P tiles of S*S*SZ values, placed every S-overlap cells. */
    uint8_t *tiles;
    int S, SZ, overlap, overlapz;
};

/* Allocate a wfc node and register it (its id comes before its children's). */
wfc_node *wfc_node_new(loader *ld, const xmlNode *el);
/* After a model has set P, D, N, weights, the propagator and the rules:
   read the engine's attributes and load the children onto the new grid. */
bool wfc_finish_load(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set parent_symmetry);
/* Build the flat propagator from dense[d][t1*P + t2] (t2 may neighbour t1 in direction d); false when out of memory. */
bool wfc_set_propagator(wfc_node *w, bool *const *dense);
/* The winning value among a cell's votes. The reference breaks ties with an
   unseeded generator (they only occur on a contradicted wave); here the
   lowest value wins. */
uint8_t wfc_vote_winner(const int32_t *votes, int c);
/* The <rule in out> children: for each, `parse` turns `out` into the patterns allowed where the node's grid holds `in`. */
typedef bool (*wfc_rule_fn)(loader *ld, wfc_node *w, const xmlNode *rule_el, const char *out, bool *allowed, void *ctx);
bool wfc_load_rules(loader *ld, wfc_node *w, const xmlNode *el, const grid_def *grid, wfc_rule_fn parse, void *ctx);

node *wfc_overlap_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
node *wfc_tile_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
void wfc_free(node *n);

extern const char *const wfc_attrs[];
#endif
