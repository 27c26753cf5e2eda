/* manifest.c — reading a pack's manifest: pack.xml, or a MarkovJunior models.xml read as one. */
#include "pack.h"
#include <ctype.h>
#include <libxml/parser.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "../core/grid.h"
#include "../core/resource.h"
#include "../core/xmlutil.h"
#include "../io/output.h"
#include "../nodes/settings.h"

#define MANIFEST_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

void pack_manifest_free(pack_manifest *m)
{
    if (!m) return;
    free(m->name), free(m->version), free(m->description), free(m->license), free(m->homepage), free(m->min_smalti);
    free(m->resources);
    for (int i = 0; i < m->author_count; i++) free(m->authors[i].name), free(m->authors[i].email);
    free(m->authors);
    for (int i = 0; i < m->model_count; i++) {
        pack_model *pm = &m->models[i];
        free(pm->name), free(pm->file), free(pm->title), free(pm->description), free(pm->thumbnail);
        for (int t = 0; t < pm->tag_count; t++) free(pm->tags[t]);
        free(pm->tags);
        for (int k = 0; k < pm->param_count; k++) free(pm->params[k]);
        free(pm->params);
        free(pm->seeds);
    }
    free(m->models);
    free(m);
}

static xmlDoc *read_doc(diag *d, const char *xml, size_t size)
{
    if (size > INT_MAX) return diag_error(d, SMALTI_ERR_MODEL, 0, "the manifest is larger than 2 GiB"), NULL;
    int line;
    char message[256];
    xmlDoc *doc = xml_read_memory_first_error(xml, (int)size, d->file, MANIFEST_XML_OPTIONS, &line, message, sizeof message);
    if (!doc) diag_error(d, SMALTI_ERR_MODEL, line, "malformed XML: %s", message);
    else if (!xmlDocGetRootElement(doc)) {
        xmlFreeDoc(doc);
        diag_error(d, SMALTI_ERR_MODEL, 1, "the manifest has no root element");
        return NULL;
    }
    return doc;
}

/* A pack name entry attribute (file, thumbnail, resources) that must stay inside the pack. */
static bool safe_name_attr(diag *d, const xmlNode *el, const char *attr, char **out)
{
    const char *v = xml_attr(el, attr), *why;
    if (!v) return true;
    if (!pack_name_is_safe(v, &why) || v[strlen(v) - 1] == '/')
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> %s=\"%s\" %s", xml_name(el), attr, v,
                          v[0] && v[strlen(v) - 1] == '/' && pack_name_is_safe(v, NULL) ? "ends in '/'" : why);
    return (*out = strdup(v)) != NULL || diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
}

/* The whole numbers of a space-separated list (seeds), each within int32_t. */
static bool parse_seeds(diag *d, const xmlNode *el, pack_model *pm)
{
    const char *text = xml_attr(el, "seeds");
    if (!text) return true;
    size_t cap = strlen(text) / 2 + 1;
    pm->seeds = malloc(cap * sizeof *pm->seeds);
    if (!pm->seeds) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
    for (const char *p = text;;) {
        while (isspace((unsigned char)*p) || *p == ',') p++;
        if (!*p) break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || (*end && !isspace((unsigned char)*end) && *end != ',') || v < INT32_MIN || v > INT32_MAX)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> seeds=\"%s\": expected whole numbers from %ld to %ld "
                              "separated by spaces", xml_name(el), text, (long)INT32_MIN, (long)INT32_MAX);
        if ((size_t)pm->seed_count < cap) pm->seeds[pm->seed_count++] = (int32_t)v;
        p = end;
    }
    return true;
}

static bool parse_tags(diag *d, const xmlNode *el, pack_model *pm)
{
    const char *text = xml_attr(el, "tags");
    if (!text) return true;
    pm->tags = calloc(strlen(text) / 2 + 1, sizeof *pm->tags);
    if (!pm->tags) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
    for (const char *p = text;;) {
        while (isspace((unsigned char)*p) || *p == ',') p++;
        if (!*p) break;
        size_t len = strcspn(p, " \t\r\n,");
        if (!(pm->tags[pm->tag_count] = strndup(p, len))) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
        pm->tag_count++;
        p += len;
    }
    return true;
}

static bool read_side(diag *d, const xmlNode *el, const char *name, int max, int *out)
{
    if (!xml_get_int(d, el, name, 0, out)) return false;
    if (xml_attr(el, name) && (*out < 1 || *out > max))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> %s=\"%s\": expected a whole number from 1 to %d", xml_name(el),
                          name, xml_attr(el, name), max);
    return true;
}

/* The attributes a pack.xml <model> and a models.xml <model> share: grid, seeds, steps, drawing;
   children named skip (NULL: none) are read by the caller. */
static bool parse_model_settings(diag *d, const xmlNode *el, const char *skip, pack_model *pm)
{
    pm->line = xml_line(el);
    int steps = 0;
    bool iso = false;
    if (!read_side(d, el, "size", SETTINGS_SIDE_MAX, &pm->size) || !read_side(d, el, "length", SETTINGS_SIDE_MAX, &pm->length) ||
        !read_side(d, el, "width", SETTINGS_SIDE_MAX, &pm->width) || !read_side(d, el, "height", SETTINGS_SIDE_MAX, &pm->height) ||
        !xml_get_int(d, el, "d", 0, &pm->dim) || !read_side(d, el, "pixelsize", 64, &pm->pixel_size) ||
        !xml_get_int(d, el, "steps", 0, &steps) || !xml_get_bool(d, el, "iso", false, &iso) || !parse_seeds(d, el, pm))
        return false;
    if (xml_attr(el, "d") && pm->dim != 2 && pm->dim != 3)
        return diag_error(d, SMALTI_ERR_MODEL, pm->line, "<model> d=\"%s\": the dimension must be 2 or 3", xml_attr(el, "d"));
    pm->has_steps = xml_attr(el, "steps") != NULL;
    pm->steps = steps;
    pm->iso = xml_attr(el, "iso") ? iso : -1;
    /* The grid this entry asks for, with the defaults for what it leaves out, within the cell cap. */
    smalti_settings none;
    settings_clear(&none);
    grid_request over = {pm->size, pm->length, pm->width, pm->height, pm->dim};
    int mx, my, mz;
    settings_grid(&none, &over, 1, 1, &mx, &my, &mz);
    int64_t cells;
    if (!grid_cells_within_cap(mx, my, mz, &cells))
        return diag_error(d, SMALTI_ERR_MODEL, pm->line, "<model> asks for a grid of %dx%dx%d cells, more than the cap of %ld",
                          mx, my, mz, (long)GRID_MAX_CELLS);
    return settings_read_colors(d, el, skip, pm->color_symbols, pm->color_rgb, &pm->color_count);
}

static pack_model *add_model(diag *d, pack_manifest *m, int line)
{
    pack_model *bigger = realloc(m->models, (size_t)(m->model_count + 1) * sizeof *bigger);
    if (!bigger) return diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory"), NULL;
    m->models = bigger;
    pack_model *pm = &m->models[m->model_count++];
    memset(pm, 0, sizeof *pm);
    pm->iso = -1;
    return pm;
}

/* "models/keep.xml" -> "keep" */
static char *name_of_file(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".xml") == 0) len -= 4;
    return strndup(base, len);
}

static bool valid_pack_name(const char *s) { return s && pack_name_is_valid(s); }

/* An SPDX licence expression: ids of letters, digits, '.', '-' and '+', joined by AND, OR, WITH and parentheses. */
static bool valid_license(const char *s)
{
    bool any = false;
    for (; *s; s++) {
        if (isalnum((unsigned char)*s) || strchr(".-+:() ", *s)) any = any || isalnum((unsigned char)*s);
        else return false;
    }
    return any;
}

static bool parse_pack_attrs(diag *d, const xmlNode *root, pack_manifest *m)
{
    static const char *const known[] = {"name", "version", "description", "license", "homepage", "smalti", "resources", NULL};
    xml_check_attrs(d, root, known);
    int line = xml_line(root);
    const char *name = xml_attr(root, "name"), *version = xml_attr(root, "version"), *desc = xml_attr(root, "description");
    if (!name) return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> needs a name=\"...\"");
    if (!valid_pack_name(name))
        return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> name=\"%s\": use letters, digits, '-', '_' and '.', starting with a "
                          "letter or digit (at most 64)", name);
    if (!version) return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> needs a version=\"MAJOR.MINOR.PATCH\"");
    long v[3];
    if (!pack_parse_version(version, v))
        return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> version=\"%s\": expected a semantic version such as 1.0.0", version);
    if (!desc || !*desc) return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> needs a one-line description=\"...\"");
    if (strpbrk(desc, "\r\n")) return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> description must be one line");
    const char *license = xml_attr(root, "license"), *home = xml_attr(root, "homepage"), *min = xml_attr(root, "smalti");
    if (license && !valid_license(license))
        return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> license=\"%s\": expected an SPDX licence id such as MIT or CC0-1.0",
                          license);
    if (home && strncmp(home, "https://", 8) != 0 && strncmp(home, "http://", 7) != 0)
        return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> homepage=\"%s\": expected an http:// or https:// address", home);
    if (min && !pack_parse_version(min, v))
        return diag_error(d, SMALTI_ERR_MODEL, line, "<pack> smalti=\"%s\": expected the oldest smalti version that runs the "
                          "pack, such as 0.1.0", min);
    if (min && pack_compare_versions(min, SMALTI_VERSION) > 0)
        return diag_error(d, SMALTI_ERR_MODEL, line, "the pack needs smalti %s or newer, and this is smalti %s", min,
                          SMALTI_VERSION);
    m->name = strdup(name), m->version = strdup(version), m->description = strdup(desc);
    m->license = dup_or_null(license), m->homepage = dup_or_null(home), m->min_smalti = dup_or_null(min);
    if (!m->name || !m->version || !m->description) return diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
    if (xml_attr(root, "resources")) return safe_name_attr(d, root, "resources", &m->resources);
    return (m->resources = strdup("resources")) != NULL;
}

static bool parse_author(diag *d, const xmlNode *el, pack_manifest *m)
{
    static const char *const known[] = {"name", "email", NULL};
    xml_check_attrs(d, el, known);
    const char *name = xml_attr(el, "name");
    if (!name || !*name) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<author> needs a name=\"...\"");
    pack_author *bigger = realloc(m->authors, (size_t)(m->author_count + 1) * sizeof *bigger);
    if (!bigger) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
    m->authors = bigger;
    m->authors[m->author_count].name = strdup(name);
    m->authors[m->author_count].email = dup_or_null(xml_attr(el, "email"));
    m->author_count++;
    return true;
}

static bool parse_pack_model(diag *d, const xmlNode *el, pack_manifest *m)
{
    static const char *const known[] = {"file", "name", "title", "description", "tags", "thumbnail", "size", "length", "width",
                                        "height", "d", "seeds", "steps", "pixelsize", "iso", NULL};
    xml_check_attrs(d, el, known);
    pack_model *pm = add_model(d, m, xml_line(el));
    if (!pm) return false;
    pm->line = xml_line(el);
    if (!xml_attr(el, "file")) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<model> needs a file=\"...\" (its XML in the pack)");
    if (!safe_name_attr(d, el, "file", &pm->file) || !safe_name_attr(d, el, "thumbnail", &pm->thumbnail)) return false;
    size_t len = strlen(pm->file);
    if (len < 5 || strcmp(pm->file + len - 4, ".xml") != 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<model> file=\"%s\": a model is an .xml file", pm->file);
    const char *name = xml_attr(el, "name"), *why;
    /* A model's name reaches paths ({model} in an output template). */
    if (name && !resource_name_is_plain(name, &why))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<model> name=\"%s\" %s: a model's name is one plain file name", name, why);
    pm->name = name ? strdup(name) : name_of_file(pm->file);
    pm->title = dup_or_null(xml_attr(el, "title"));
    pm->description = dup_or_null(xml_attr(el, "description"));
    if (!pm->name) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
    for (int i = 0; i < m->model_count - 1; i++) {
        if (strcmp(m->models[i].name, pm->name) == 0)
            return diag_error(d, SMALTI_ERR_MODEL, pm->line, "a second model named \"%s\" (the first is on line %d); give one a "
                              "name=\"...\"", pm->name, m->models[i].line);
        if (strcmp(m->models[i].file, pm->file) == 0)
            return diag_error(d, SMALTI_ERR_MODEL, pm->line, "file \"%s\" is listed twice (first on line %d)", pm->file,
                              m->models[i].line);
    }
    return parse_tags(d, el, pm) && pack_entry_read_params(d, el, pm) && parse_model_settings(d, el, "param", pm);
}

static diag make_diag(const char *label, const pack_options *opt, smalti_error *err)
{
    return (diag){.file = label, .err = err, .warn = opt ? opt->warn : NULL, .warn_userdata = opt ? opt->warn_userdata : NULL,
                  .quiet = opt && opt->quiet};
}

pack_manifest *pack_manifest_parse(const char *xml, size_t size, const char *label, const pack_options *opt, smalti_error *err)
{
    diag d = make_diag(label, opt, err);
    xmlDoc *doc = read_doc(&d, xml, size);
    if (!doc) return NULL;
    pack_manifest *m = calloc(1, sizeof *m);
    xmlNode *root = xmlDocGetRootElement(doc);
    bool ok = m != NULL || diag_error(&d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (ok && !xml_is(root, "pack")) ok = diag_error(&d, SMALTI_ERR_MODEL, xml_line(root), "the manifest's root is <%s>; expected <pack>", xml_name(root));
    if (ok) {
        m->file = "pack.xml";
        ok = parse_pack_attrs(&d, root, m);
    }
    for (const xmlNode *el = ok ? xml_first_child(root) : NULL; el && ok; el = xml_next(el)) {
        if (xml_is(el, "model")) ok = parse_pack_model(&d, el, m);
        else if (xml_is(el, "author")) ok = parse_author(&d, el, m);
        else ok = diag_error(&d, SMALTI_ERR_MODEL, xml_line(el), "unknown element <%s> in <pack> (it holds <author> and <model>)", xml_name(el));
    }
    if (ok && m->model_count == 0) ok = diag_error(&d, SMALTI_ERR_MODEL, xml_line(root), "the pack lists no <model>");
    xmlFreeDoc(doc);
    if (!ok) {
        pack_manifest_free(m);
        return NULL;
    }
    return m;
}

pack_manifest *pack_manifest_from_models_list(const char *xml, size_t size, const char *label, const char *pack_name,
                                              const pack_options *opt, smalti_error *err)
{
    static const char *const known[] = {"name", "size", "d", "length", "width", "height", "amount", "pixelsize",
                                        "seeds", "steps", "gif", "iso", "gui", NULL};
    diag d = make_diag(label, opt, err);
    xmlDoc *doc = read_doc(&d, xml, size);
    if (!doc) return NULL;
    pack_manifest *m = calloc(1, sizeof *m);
    xmlNode *root = xmlDocGetRootElement(doc);
    bool ok = m != NULL || diag_error(&d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    if (ok) {
        m->file = "models.xml";
        m->from_models_list = true;
        m->name = strdup(pack_name), m->version = strdup("0.0.0"), m->description = strdup(""), m->resources = strdup("resources");
        ok = (m->name && m->version && m->description && m->resources) || diag_error(&d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    for (const xmlNode *el = ok ? xml_first_child(root) : NULL; el && ok; el = xml_next(el)) {
        /* As `batch`: other elements are skipped, with a word. */
        if (!xml_is(el, "model")) {
            diag_warn(&d, xml_line(el), "unknown element <%s> skipped (entries are <model>)", xml_name(el));
            continue;
        }
        xml_check_attrs(&d, el, known);
        const char *name = xml_attr(el, "name"), *why;
        if (!resource_name_is_plain(name, &why)) {
            ok = diag_error(&d, SMALTI_ERR_MODEL, xml_line(el), "<model> name=\"%s\" %s: a model's name is one plain file name",
                            name ? name : "", why);
            break;
        }
        pack_model *pm = add_model(&d, m, xml_line(el));
        ok = pm != NULL;
        if (!ok) break;
        pm->name = strdup(name);
        size_t len = strlen(name) + 12;
        pm->file = malloc(len);
        if (!pm->name || !pm->file) {
            ok = diag_error(&d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
            break;
        }
        snprintf(pm->file, len, "models/%s.xml", name);
        ok = parse_model_settings(&d, el, NULL, pm);
    }
    if (ok && m->model_count == 0) ok = diag_error(&d, SMALTI_ERR_MODEL, xml_line(root), "the list has no <model> entry");
    xmlFreeDoc(doc);
    if (!ok) {
        pack_manifest_free(m);
        return NULL;
    }
    return m;
}
