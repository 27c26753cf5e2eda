/* registry.c — element name to node kind, and the generic part of loading a node. */
#include "nodes.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include "../core/suggest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const node_kind *const kinds[] = {
    &node_kind_one, &node_kind_all, &node_kind_prl, &node_kind_markov, &node_kind_sequence, &node_kind_convolution,
    &node_kind_map, &node_kind_path, &node_kind_convchain, &node_kind_wfc,
    &node_kind_runner,
    &node_kind_lsystem,
    &node_kind_noise,
    &node_kind_voronoi, &node_kind_poisson,
    &node_kind_growgrid,
    &node_kind_chisel,
    &node_kind_require,
};

static const char *const planned[] = {NULL};

const node_kind *node_kind_find(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kinds[i]->name, name) == 0) return kinds[i];
    return NULL;
}

const node_kind *node_kind_at(size_t i) { return i < sizeof kinds / sizeof *kinds ? kinds[i] : NULL; }

bool node_is_planned(const char *name)
{
    for (const char *const *p = planned; *p; p++)
        if (strcmp(*p, name) == 0) return true;
    return false;
}

bool node_holds_unions(const xmlNode *el)
{
    const node_kind *kind = node_kind_find(xml_name(el));
    return kind && kind->holds_unions;
}

int node_model_max_values(const xmlNode *root)
{
    /* Depth first without recursion: a hostile file may nest deeply. */
    for (const xmlNode *el = root; el;) {
        const node_kind *kind = node_kind_find(xml_name(el));
        if (kind && kind->beyond_reference) return GRID_MAX_VALUES;
        const xmlNode *next = xml_first_child(el);
        while (!next && el && el != root) {
            next = xml_next(el);
            if (!next) el = el->parent;
        }
        el = next;
    }
    return GRID_REFERENCE_MAX_VALUES;
}

bool node_kind_reads_child(const node_kind *kind, const char *element)
{
    for (const char *const *c = kind->own_children; c && *c; c++)
        if (strcmp(*c, element) == 0) return true;
    return false;
}

/* Append `name="value"` for each attribute of el to the summary in buf. */
#define SUMMARY_MAX 240
static void summary_add_attrs(char *buf, size_t *len, const xmlNode *el)
{
    for (const xmlAttr *a = el->properties; a; a = a->next) {
        const char *value = a->children && a->children->content ? (const char *)a->children->content : "";
        int n = snprintf(buf + *len, SUMMARY_MAX + 1 - *len, "%s%s=\"%s\"", *len ? " " : "", (const char *)a->name, value);
        if (n < 0 || (size_t)n >= SUMMARY_MAX + 1 - *len) { *len = SUMMARY_MAX; return; }
        *len += (size_t)n;
    }
}

/* The element in one line for viewers: its attributes, then its children that
   are not nodes themselves (rules, fields, observations). */
static char *node_summary(const xmlNode *el)
{
    char buf[SUMMARY_MAX + 4];
    size_t len = 0;
    buf[0] = 0;
    summary_add_attrs(buf, &len, el);
    for (const xmlNode *c = xml_first_child(el); c && len < SUMMARY_MAX; c = xml_next(c)) {
        if (node_kind_find(xml_name(c))) continue;
        int n = snprintf(buf + len, SUMMARY_MAX + 1 - len, "%s%s", len ? "; " : "", xml_name(c));
        if (n < 0 || (size_t)n >= SUMMARY_MAX + 1 - len) { len = SUMMARY_MAX; break; }
        len += (size_t)n;
        summary_add_attrs(buf, &len, c);
    }
    if (len >= SUMMARY_MAX) memcpy(buf + SUMMARY_MAX - 3, "...", 4);
    return mem_strdup(buf);
}

/* Register a node (assigns its id). */
static bool loader_register(loader *ld, node *n, const xmlNode *el)
{
    if (ld->node_count == ld->node_cap) {
        int cap = ld->node_cap ? 2 * ld->node_cap : 16;
        node **bigger = mem_realloc(ld->nodes, (size_t)cap * sizeof *bigger);
        if (!bigger) return diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        ld->nodes = bigger;
        ld->node_cap = cap;
    }
    n->id = ld->node_count;
    n->line = el ? xml_line(el) : 0;
    n->parent = -1;
    n->depth = ld->depth;
    n->return_to = -1;
    n->grid = ld->grid;
    n->summary = el ? node_summary(el) : NULL; /* NULL when out of memory too: only tooling reads it */
    ld->nodes[ld->node_count++] = n;
    return true;
}

void *node_new(loader *ld, size_t size, const node_kind *kind, const xmlNode *el)
{
    if (diag_stopped(ld->d)) return NULL;
    node *n = mem_calloc(1, size);
    if (!n) { diag_error(ld->d, SMALTI_ERR_RUNTIME, 0, "out of memory"); return NULL; }
    n->kind = kind;
    /* Once registered the loader owns the node; until then it is ours to free. */
    if (!loader_register(ld, n, el)) { mem_free(n); return NULL; }
    return n;
}

node *node_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    const char *name = xml_name(el);
    const node_kind *kind = node_kind_find(name);
    if (!kind) {
        if (strcmp(name, "smalti") == 0)
            diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el),
                       "<smalti> holds the model's settings and must be the first child of the root element (once)");
        else if (strcmp(name, "rule") == 0 || strcmp(name, "field") == 0 || strcmp(name, "observe") == 0)
            diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el),
                       "<%s> is not a node: it belongs inside a rule node (<one>, <all> or <prl>)%s", name,
                       strcmp(name, "rule") == 0 ? " or a <map>, <convolution> or <wfc>" : "");
        else if (node_is_planned(name))
            diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "<%s> is not supported yet", name);
        else {
            const char *names[sizeof kinds / sizeof *kinds + 1];
            for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) names[i] = kinds[i]->name;
            names[sizeof kinds / sizeof *kinds] = NULL;
            char hint[96];
            diag_error(ld->d, SMALTI_ERR_MODEL, xml_line(el), "unknown node type <%s>%s", name,
                       suggest_phrase(hint, sizeof hint, name, names));
        }
        return NULL;
    }
    return kind->load(ld, el, parent_symmetry);
}
