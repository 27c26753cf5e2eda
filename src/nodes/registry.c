/* registry.c — element name to node kind, and the generic part of loading a node. */
#include "node.h"
#include "../core/xmlutil.h"
#include <stdlib.h>
#include <string.h>

static const node_kind *const kinds[] = {
    &node_kind_one, &node_kind_all, &node_kind_prl, &node_kind_markov, &node_kind_sequence, &node_kind_convolution,
    &node_kind_map, &node_kind_path, &node_kind_convchain, &node_kind_wfc,
    &node_kind_voronoi, &node_kind_poisson,
};

static const char *const planned[] = {NULL};

const node_kind *node_kind_find(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kinds[i]->name, name) == 0) return kinds[i];
    return NULL;
}

bool node_is_planned(const char *name)
{
    for (const char *const *p = planned; *p; p++)
        if (strcmp(*p, name) == 0) return true;
    return false;
}

bool loader_register(loader *ld, node *n, const xmlNode *el)
{
    if (ld->node_count == ld->node_cap) {
        int cap = ld->node_cap ? 2 * ld->node_cap : 16;
        node **bigger = realloc(ld->nodes, (size_t)cap * sizeof *bigger);
        if (!bigger) return diag_error(ld->d, TS_ERR_RUNTIME, 0, "out of memory");
        ld->nodes = bigger;
        ld->node_cap = cap;
    }
    n->id = ld->node_count;
    n->line = el ? xml_line(el) : 0;
    n->parent = -1;
    n->depth = ld->depth;
    n->return_to = -1;
    n->grid = ld->grid;
    ld->nodes[ld->node_count++] = n;
    return true;
}

node *node_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    const char *name = xml_name(el);
    const node_kind *kind = node_kind_find(name);
    if (!kind) {
        if (node_is_planned(name))
            diag_error(ld->d, TS_ERR_MODEL, xml_line(el), "<%s> is not supported yet", name);
        else
            diag_error(ld->d, TS_ERR_MODEL, xml_line(el), "unknown node type <%s>", name);
        return NULL;
    }
    return kind->load(ld, el, parent_symmetry);
}
