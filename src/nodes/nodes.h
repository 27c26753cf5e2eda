/* nodes.h — the node kinds, the registry that finds them by element name, and the loading of a node tree. */
#ifndef SMALTI_NODES_H
#define SMALTI_NODES_H
#include "../engine/node.h"

/* Registry: element name -> kind. NULL if the name is not a node. */
const node_kind *node_kind_find(const char *name);
/* The i-th kind of the registry, NULL past the last: for checks over every kind. */
const node_kind *node_kind_at(size_t i);
/* Names of node kinds that a later version adds; loading them says so. */
bool node_is_planned(const char *name);
/* Whether the element is a node whose <union> children belong to its grid (node_kind.holds_unions):
   what grid_load asks. */
bool node_holds_unions(const xmlNode *el);
/* The most values a grid of the model under root may have: GRID_MAX_VALUES when an element of it
   is a kind beyond the reference (node_kind.beyond_reference), else the reference's
   GRID_REFERENCE_MAX_VALUES, so that a MarkovJunior model keeps the reference's limit. */
int node_model_max_values(const xmlNode *root);
/* Whether `element` is among the child elements the kind reads itself (node_kind.own_children). */
bool node_kind_reads_child(const node_kind *kind, const char *element);

/* Load any node element; registers it and its subtree in the loader. */
node *node_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry);
/* The opening of a kind's load function: `size` zeroed bytes that start with the
   node (a kind's struct whose first member is its node, or a branch that is),
   of `kind`, registered for el (NULL: an implicit node) so that it gets the next
   id. NULL, with the error reported, when out of memory. */
void *node_new(loader *ld, size_t size, const node_kind *kind, const xmlNode *el);
/* Create the implicit markov around a non-branch root. */
node *branch_wrap_markov(loader *ld, node *child);

/* smalti_model_load_string with every resource file (rule images, samples, tilesets, tiles)
   read through `reader` instead of the file system: for tests and fuzzers, not exported. */
/* The same from len bytes, which may hold a NUL (refused, with its line): files and pack entries. */
smalti_model *model_load_bytes_from(const char *xml, size_t len, const char *name, const smalti_load_options *opt,
                                    const resource_reader *reader, smalti_error *err);
smalti_model *model_load_string_from(const char *xml, const char *name, const smalti_load_options *opt,
                                     const resource_reader *reader, smalti_error *err);

/* Node kinds. */
extern const node_kind node_kind_markov, node_kind_sequence, node_kind_one, node_kind_all, node_kind_prl,
    node_kind_convolution, node_kind_map, node_kind_path, node_kind_convchain, node_kind_wfc;
extern const node_kind node_kind_runner;
/* Steps in a row of a markov node whose children are all plain `one` nodes, made in one loop
   (one.c); -1 when the children are not such nodes or the loop does not apply yet. */
long one_markov_repeat(run_state *r, const node *const *children, int count, long max_steps);
/* Once the model is loaded: which plain `one` nodes find each match at most once while it is
   listed (rulenode_finds_once), so that their fast loop does without the match mask. */
void one_plan_masks(node *const *nodes, int count);
extern const node_kind node_kind_lsystem;
extern const node_kind node_kind_noise;
extern const node_kind node_kind_voronoi, node_kind_poisson;
extern const node_kind node_kind_growgrid;
extern const node_kind node_kind_chisel;
extern const node_kind node_kind_require; /* require.c */
#endif
