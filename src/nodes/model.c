/* model.c — load a model file: parse the XML, define the grid, build and compile the node tree. */
#include "nodes.h"
#include "settings.h"
#include "params.h"
#include "lint.h"
#include "../engine/run.h"
#include "../core/resource.h"
#include "../core/xmlutil.h"
#include "../core/mem.h"
#include <errno.h>
#include <limits.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>

smalti_load_options smalti_load_defaults(void)
{
    smalti_load_options o;
    memset(&o, 0, sizeof o);
    o.mx = o.my = 16;
    o.mz = 1;
    return o;
}

void smalti_model_free(smalti_model *m)
{
    if (!m) return;
    for (int i = 0; i < m->node_count; i++)
        if (m->nodes[i]) {
            mem_free(m->nodes[i]->summary);
            m->nodes[i]->kind->free(m->nodes[i]);
        }
    mem_free(m->nodes);
    params_free(&m->params);
    grid_free(&m->grid);
    mem_free(m->file);
    mem_free(m);
}

static bool check_size(diag *d, const smalti_load_options *o)
{
    if (o->mx < 1 || o->my < 1 || o->mz < 1)
        return diag_error(d, SMALTI_ERR_USAGE, 0, "grid size %dx%dx%d: every dimension must be at least 1", o->mx, o->my, o->mz);
    int64_t cells;
    if (!grid_cells_within_cap(o->mx, o->my, o->mz, &cells))
        return diag_error(d, SMALTI_ERR_USAGE, 0, "grid size %dx%dx%d is absurd: more than %ld cells", o->mx, o->my, o->mz,
                          (long)GRID_MAX_CELLS);
    return true;
}

/* The load's deadline, counted from `started_ns` (the parse's start), or none. */
static run_stop *load_deadline(run_stop *s, const smalti_load_options *opt, int64_t started_ns)
{
    if (!(opt->timeout_seconds > 0)) return NULL;
    stop_rearm(s, 0);
    s->deadline_ns = started_ns + (opt->timeout_seconds < 1e9 ? (int64_t)(opt->timeout_seconds * 1e9) + 1 : (int64_t)1e18);
    return s;
}

static smalti_model *model_build_within(xmlDoc *doc, const char *name, const smalti_load_options *opt,
                                        const resource_reader *reader, int64_t started_ns, smalti_error *err)
{
    diag d = {.file = name, .err = err, .warn = opt->warn, .warn_userdata = opt->warn_userdata, .quiet = opt->quiet};
    run_stop deadline;
    d.stop = load_deadline(&deadline, opt, started_ns);
    smalti_model *m = mem_calloc(1, sizeof *m);
    if (!m || !(m->file = mem_strdup(name))) {
        mem_free(m);
        error_set(err, SMALTI_ERR_RUNTIME, name, 0, "out of memory");
        return NULL;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    /* Default roots: ./resources, then a pack's layout (resources/ beside the model), then the
       corpus layout (models/X.xml beside resources/). */
    char in_model_dir[4096], beside_model[4096];
    const char *slash = strrchr(name, '/');
    int dir_len = slash ? (int)(slash - name) : 0;
    snprintf(in_model_dir, sizeof in_model_dir, "%.*s%sresources", dir_len, name, slash ? "/" : "");
    snprintf(beside_model, sizeof beside_model, "%.*s%sresources", dir_len, name, slash ? "/../" : "../");
    const char *default_roots[] = {"resources", in_model_dir, beside_model};
    int default_count = slash ? 3 : 2; /* without a folder, the model's own is ./ */
    if (!slash) default_roots[1] = beside_model;
    resources res = {.roots = opt->resource_dir_count > 0 ? opt->resource_dirs : default_roots,
                     .root_count = opt->resource_dir_count > 0 ? opt->resource_dir_count : default_count,
                     .allow_any_path = opt->allow_any_path != 0,
                     .reader = reader};
    loader ld = {.d = &d, .grid = &m->grid, .res = &res};
    bool ok = root != NULL;
    if (!ok) diag_error(&d, SMALTI_ERR_MODEL, 1, "the document has no root element");
    /* The parameters first: any attribute may name one, the settings' own included. */
    if (ok && (opt->param_count < 0 || (opt->param_count > 0 && !opt->params)))
        ok = diag_error(&d, SMALTI_ERR_USAGE, 0, "param_count %d without as many params", opt->param_count);
    ok = ok && params_resolve(&d, root, opt->params, opt->param_count, &m->params);
    /* The settings are read here and then taken out of the tree, so that no node kind
       (a branch, a rule node, a generator at the root) ever sees them as a child. */
    ok = ok && settings_parse(&d, root, &m->settings);
    if (ok) {
        xmlNode *settings = settings_element(root);
        if (settings) {
            xmlUnlinkNode(settings);
            xmlFreeNode(settings);
        }
    }
    smalti_load_options sized = *opt;
    if (opt->mx == 0 && opt->my == 0 && opt->mz == 0)
        settings_grid(&m->settings, &(grid_request){0}, SMALTI_DEFAULT_SIDE_2D, SMALTI_DEFAULT_SIDE_3D, &sized.mx, &sized.my, &sized.mz);
    if (ok) ld.max_values = node_model_max_values(root);
    ok = ok && check_size(&d, &sized) &&
         grid_load(&d, root, sized.mx, sized.my, sized.mz, ld.max_values, node_holds_unions, &m->grid);
    ok = ok && xml_get_bool(&d, root, "origin", false, &m->origin);
    node *top = NULL;
    if (ok) {
        bool d2 = m->grid.mz == 1;
        symmetry_set symmetry = symmetry_all(d2);
        const char *sym = xml_attr(root, "symmetry");
        if (sym && !symmetry_lookup(d2, sym, &symmetry))
            ok = diag_error(&d, SMALTI_ERR_MODEL, xml_line(root), "unknown symmetry %s (use one of %s)%s", sym, symmetry_names(d2),
                   symmetry_dim_hint(d2, sym));
        if (ok) top = node_load(&ld, root, symmetry);
        if (top && !top->kind->is_branch) top = branch_wrap_markov(&ld, top);
        ok = top != NULL && !d.failed;
    }
    m->nodes = ld.nodes;
    m->node_count = ld.node_count;
    if (!ok) {
        if (!d.failed) error_set(err, SMALTI_ERR_MODEL, name, 0, "failed to load the model");
        smalti_model_free(m);
        return NULL;
    }
    m->root = top->id;
    /* The passes over the whole model each look at the deadline once, and inside where they
       visit every rule. */
    if (!diag_stopped(&d)) one_plan_masks(m->nodes, m->node_count);
    if (!diag_stopped(&d) && !opt->quiet) lint_model(&d, root, m);
    if (d.failed) { /* stopped by the deadline */
        smalti_model_free(m);
        return NULL;
    }
    return m;
}

static smalti_model *load_doc(xmlParserCtxt *ctx, xmlDoc *doc, const char *name, const smalti_load_options *opt,
                              const resource_reader *reader, int64_t started_ns, smalti_error *err)
{
    xml_first_error *fe = ctx->_private;
    if (!doc || fe->set) {
        if (fe->set) error_set(err, SMALTI_ERR_MODEL, name, fe->line, "%s", fe->message);
        else error_set(err, SMALTI_ERR_MODEL, name, 0, "malformed XML");
        xmlFreeDoc(doc);
        return NULL;
    }
    smalti_model *m = model_build_within(doc, name, opt, reader, started_ns, err);
    xmlFreeDoc(doc);
    return m;
}

/* Model files are untrusted: no network, no entity expansion, no DTD loading. */
#define SMALTI_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING)

/* Parse the text `xml` of `len` bytes and build the model. */
static smalti_model *parse_and_build(const char *xml, int len, const char *name, const smalti_load_options *opt,
                                     const resource_reader *reader, int64_t started_ns, smalti_error *err)
{
    xml_first_error fe;
    xmlParserCtxt *ctx = xml_parser_new(&fe);
    if (!ctx) {
        error_set(err, SMALTI_ERR_RUNTIME, name, 0, "out of memory");
        return NULL;
    }
    xmlDoc *doc = xmlCtxtReadMemory(ctx, xml, len, name, NULL, SMALTI_XML_OPTIONS);
    smalti_model *m = load_doc(ctx, doc, name, opt, reader, started_ns, err);
    xmlFreeParserCtxt(ctx);
    return m;
}

/* Load within the load's memory budget, if it has one: an image that decodes to more than the
   budget fails as out of memory, and so does the XML tree when libxml2 allocates through the
   library (smalti_count_xml_memory); the error says which budget was spent. */
static smalti_model *load_within_budget(const char *xml, int len, const char *name, const smalti_load_options *opt,
                                        const resource_reader *reader, int64_t started_ns, smalti_error *err)
{
    if (!opt->max_memory) return parse_and_build(xml, len, name, opt, reader, started_ns, err);
    mem_budget budget = {.limit = opt->max_memory};
    mem_budget *caller = mem_enter(&budget);
    /* A refused allocation inside libxml2 is also told to its generic handler (this thread's), on
       stderr and without file:line; the parser's first error says it already. */
    xml_generic_handler generic = xml_generic_errors_off();
    smalti_model *m = parse_and_build(xml, len, name, opt, reader, started_ns, err);
    xml_generic_errors_restore(generic);
    mem_enter(caller);
    if (!m && budget.spent && err) {
        /* A parse cut short by the budget is not malformed: say only what ran out. */
        bool parse = strncmp(err->message, "malformed XML", 13) == 0;
        char what[sizeof err->message];
        snprintf(what, sizeof what, "%s", parse ? "" : err->message);
        error_set(err, SMALTI_ERR_MEMORY, name, err->line, "%s%sloading the model needed more than its memory budget of %.1f MiB",
                  what, parse ? "" : ": ", (double)budget.limit / (1 << 20));
    }
    return m;
}

/* The model in the text `xml` of `len` bytes, its deadline counted from started_ns. */
static smalti_model *load_bytes(const char *xml, size_t len, const char *name, const smalti_load_options *opt,
                                const resource_reader *reader, int64_t started_ns, smalti_error *err)
{
    const char *nul = memchr(xml, 0, len);
    if (nul) { /* libxml2 reading a file stopped at one after the root, silently; in memory it did not */
        int line = 1;
        for (const char *c = xml; c < nul; c++) line += *c == '\n';
        error_set(err, SMALTI_ERR_MODEL, name, line, "the model holds a NUL byte: not an XML file");
        return NULL;
    }
    if (len > INT_MAX) {
        error_set(err, SMALTI_ERR_MODEL, name, 0, "the model is larger than 2 GiB");
        return NULL;
    }
    return load_within_budget(xml, (int)len, name, opt, reader, started_ns, err);
}

smalti_model *smalti_model_load(const char *path, const smalti_load_options *opt, smalti_error *err)
{
    smalti_load_options dflt = smalti_load_defaults();
    if (!opt) opt = &dflt;
    const int64_t started_ns = stop_now_ns(); /* the deadline counts the read and the parse, though it cannot stop them */
    int e = input_file_error(path);
    if (e) {
        if (e == EISDIR) error_set(err, SMALTI_ERR_IO, path, 0, "is a directory, not a model file");
        else error_set(err, SMALTI_ERR_IO, path, 0, "cannot open the model: %s", strerror(e));
        return NULL;
    }
    /* Read whole, so that a file and a pack's entry are judged alike (a NUL byte, for one); read as
       bounded bytes from a regular file, so that no path reaches libxml2. */
    size_t size;
    unsigned char *xml = xml_file_bytes(path, "model", &size, err);
    if (!xml) return NULL;
    smalti_model *m = NULL;
    if (opt->max_memory && size > opt->max_memory)
        error_set(err, SMALTI_ERR_MEMORY, path, 0, "the model's file alone (%zu bytes) is larger than its memory budget of %.1f MiB",
                  size, (double)opt->max_memory / (1 << 20));
    else m = load_bytes((const char *)xml, size, path, opt, NULL, started_ns, err);
    mem_free(xml);
    return m;
}

smalti_model *model_load_string_from(const char *xml, const char *name, const smalti_load_options *opt,
                                     const resource_reader *reader, smalti_error *err)
{
    return model_load_bytes_from(xml, strlen(xml), name, opt, reader, err);
}

smalti_model *model_load_bytes_from(const char *xml, size_t len, const char *name, const smalti_load_options *opt,
                                    const resource_reader *reader, smalti_error *err)
{
    smalti_load_options dflt = smalti_load_defaults();
    return load_bytes(xml, len, name, opt ? opt : &dflt, reader, stop_now_ns(), err);
}

smalti_model *smalti_model_load_string(const char *xml, const char *name, const smalti_load_options *opt, smalti_error *err)
{
    return model_load_string_from(xml, name, opt, NULL, err);
}

int smalti_model_node_count(const smalti_model *m) { return m->node_count; }

int smalti_model_node_info(const smalti_model *m, int id, smalti_node_info *info)
{
    if (id < 0 || id >= m->node_count) return 0;
    const node *n = m->nodes[id];
    info->kind = n->kind->name;
    info->line = n->line;
    info->parent = n->parent;
    info->depth = n->depth;
    info->attributes = n->summary ? n->summary : "";
    return 1;
}

const char *smalti_model_legend(const smalti_model *m) { return m->grid.chars; }

void smalti_model_grid_size(const smalti_model *m, int *mx, int *my, int *mz)
{
    *mx = m->grid.mx;
    *my = m->grid.my;
    *mz = m->grid.mz;
}

void smalti_model_settings(const smalti_model *m, smalti_settings *out) { *out = m->settings; }

int smalti_model_param_count(const smalti_model *m) { return m->params.count; }

int smalti_model_param(const smalti_model *m, int i, smalti_param_info *info)
{
    if (i < 0 || i >= m->params.count) return 0;
    const model_param *p = &m->params.items[i];
    info->name = p->name;
    info->default_value = p->default_value;
    info->value = p->value;
    info->overridden = p->overridden;
    info->line = p->line;
    return 1;
}
