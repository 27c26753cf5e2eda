/* wfc_node.h — the `wfc` node: wave function collapse on the node's grid, then its children run on the grid it makes. */
#ifndef SMALTI_WFC_NODE_H
#define SMALTI_WFC_NODE_H
#include "branch.h"
#include "../wfc/wfc.h"

typedef struct wfc_node wfc_node;
struct wfc_node {
    branch b;                 /* children, run once the new grid is made */
    grid_def newgrid;
    wfc_problem pb;
    int tries;
    /* allowed[v] for the input grid's allowed_values values: the patterns a cell of value v may take;
       NULL (the row or the whole table, made at the first <rule>): no restriction. */
    bool **allowed;
    int allowed_values;
    /* Write the new grid from a fully observed wave (data[i*P + t]). */
    void (*update_state)(const wfc_node *w, const uint8_t *data, uint8_t *cells);
    /* Overlap model: P patterns of N*N values. */
    uint8_t *patterns;
    /* Tile model: P tiles of S*S*SZ values, placed every S-overlap cells. */
    uint8_t *tiles;
    int S, SZ, overlap, overlapz;
    /* For a density picture: density_per_pattern densities d in [0, 1] (0.5 neutral) for each pattern. */
    double *density;
    int density_per_pattern;
};

/* Allocate a wfc node and register it (its id comes before its children's). */
wfc_node *wfc_node_new(loader *ld, const xmlNode *el);
/* After a model has set P, D, N, weights, the propagator and the rules:
   read the engine's attributes and load the children onto the new grid. */
bool wfc_finish_load(loader *ld, wfc_node *w, const xmlNode *el, symmetry_set parent_symmetry);
/* The winning value among a cell's votes. The reference breaks ties with an
   unseeded generator (they only occur on a contradicted wave); here the
   lowest value wins. */
uint8_t wfc_vote_winner(const int32_t *votes, int c);
/* The <rule in out> children: for each, `parse` turns `out` into the patterns allowed where the node's grid holds `in`.
   `parse` marks the patterns named by `text`, the value of the element's attribute `attr` ("out", or a <density>'s key). */
typedef bool (*wfc_rule_fn)(loader *ld, wfc_node *w, const xmlNode *rule_el, const char *attr, const char *text, bool *allowed,
                            void *ctx);
bool wfc_load_rules(loader *ld, wfc_node *w, const xmlNode *el, const grid_def *grid, wfc_rule_fn parse, void *ctx);
/* The <density KEY="..." d="..."/> children: density[u] = d for each of the `units` (tile variants, or values)
   that `parse` selects from KEY ("tile" or "value"); later children win. False after an error. */
bool wfc_read_density_children(loader *ld, wfc_node *w, const xmlNode *el, const char *key, int units, wfc_rule_fn parse,
                               void *ctx, double *density);
/* With density="NAME" (samples/NAME.png under the resource roots) and densityPower (default 2): the problem's
   per-cell weights from the picture and w->density, which the model has set. False after an error. */
bool wfc_load_density(loader *ld, wfc_node *w, const xmlNode *el);

node *wfc_overlap_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
node *wfc_tile_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
void wfc_free(node *n);

extern const char *const wfc_attrs[];
#endif
