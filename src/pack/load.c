/* load.c — a pack's models: their settings (entry, then the model's own, then defaults) and loading them with the pack's resources only. */
#include "pack.h"
#include "../core/mem.h"
#include <libxml/parser.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "../nodes/nodes.h"
#include "../nodes/params.h"

static bool model_defaults(const pack *p, const pack_model *m, const grid_request *over, const char *const *params, int param_count,
                           pack_defaults *out, smalti_error *err);

/* The entry's values (setting 0), then the caller's params: the load's overrides, in *out (free it). */
static bool with_entry_params(const pack_model *m, const char *const *params, int count, const char ***out, int *total,
                              smalti_error *err)
{
    *out = NULL;
    *total = 0;
    if (count < 0 || (count > 0 && !params)) count = 0;
    if (!m->param_count && !count) return true;
    if (!(*out = malloc((size_t)(m->param_count + count) * sizeof **out))) {
        error_set(err, SMALTI_ERR_RUNTIME, m->file, 0, "out of memory");
        return false;
    }
    *total = pack_model_setting(m, 0, *out);
    for (int i = 0; i < count; i++) (*out)[(*total)++] = params[i];
    return true;
}

bool pack_model_defaults(const pack *p, const pack_model *m, const grid_request *over, const char *const *caller_params,
                         int caller_count, pack_defaults *out, smalti_error *err)
{
    const char **params;
    int param_count;
    if (!with_entry_params(m, caller_params, caller_count, &params, &param_count, err)) return false;
    bool ok = model_defaults(p, m, over, params, param_count, out, err);
    free(params);
    return ok;
}

/* pack_model_defaults with the overrides in full. */
static bool model_defaults(const pack *p, const pack_model *m, const grid_request *over, const char *const *params, int param_count,
                           pack_defaults *out, smalti_error *err)
{
    memset(out, 0, sizeof *out);
    settings_clear(&out->own);
    size_t size;
    unsigned char *xml = pack_read(p, m->file, &size, err);
    if (!xml) return false;
    char label[PATH_MAX + 64];
    pack_entry_label(p, m->file, label, sizeof label);
    /* A model that is not XML has no settings here; loading it says why. */
    xmlDoc *doc = size <= INT_MAX ? xmlReadMemory((const char *)xml, (int)size, label, NULL,
                                                  XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                                  : NULL;
    mem_free(xml);
    diag d = {.file = label, .err = err, .quiet = 1};
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    bool ok = !doc || (params_resolve(&d, root, params, param_count, NULL) && settings_parse(&d, root, &out->own));
    xmlFreeDoc(doc);
    if (!ok) return false;
    grid_request entry = {m->size, m->length, m->width, m->height, m->dim};
    grid_request use = entry;
    if (over && (over->size || over->length || over->width || over->height)) {
        use = *over;
        if (!use.dim) use.dim = m->dim;
    } else if (over && over->dim) {
        use.dim = over->dim;
    }
    settings_grid(&out->own, &use, SMALTI_DEFAULT_SIDE_2D, SMALTI_DEFAULT_SIDE_3D, &out->mx, &out->my, &out->mz);
    out->seed = m->seed_count > 0 ? m->seeds[0] : out->own.has_seed ? out->own.seed : 1;
    out->steps = m->has_steps ? m->steps : out->own.has_steps ? out->own.steps : 50000;
    out->pixel_size = m->pixel_size > 0 ? m->pixel_size : out->own.pixel_size > 0 ? out->own.pixel_size : 4;
    out->iso = m->iso >= 0 ? m->iso == 1 : out->own.iso == 1;
    return true;
}

smalti_model *pack_load_model(const pack *p, const pack_model *m, const smalti_load_options *opt, smalti_error *err)
{
    smalti_load_options o = opt ? *opt : smalti_load_defaults();
    if (o.mx <= 0 || o.my <= 0 || o.mz <= 0) {
        pack_defaults def;
        if (!pack_model_defaults(p, m, NULL, o.params, o.param_count, &def, err)) return NULL;
        o.mx = def.mx, o.my = def.my, o.mz = def.mz;
    }
    size_t size;
    unsigned char *xml = pack_read(p, m->file, &size, err);
    if (!xml) return NULL;
    char label[PATH_MAX + 64], root[PATH_MAX + 64];
    pack_entry_label(p, m->file, label, sizeof label);
    /* Resources come from the pack's resource folder and nowhere else: a zip's through its reader
       (names such as "resources/rules/x.png"), a folder's from its files, which resource_find keeps
       inside that folder. */
    if (pack_is_zip(p)) snprintf(root, sizeof root, "%s", pack_manifest_of(p)->resources);
    else snprintf(root, sizeof root, "%s/%s", pack_path(p), pack_manifest_of(p)->resources);
    const char *roots[] = {root};
    o.resource_dirs = roots;
    o.resource_dir_count = 1;
    o.allow_any_path = 0;
    const char **params;
    smalti_model *model = NULL;
    if (with_entry_params(m, o.params, o.param_count, &params, &o.param_count, err)) {
        o.params = params;
        model = model_load_bytes_from((const char *)xml, size, label, &o, pack_resource_reader(p), err);
        free(params);
    }
    mem_free(xml);
    return model;
}
