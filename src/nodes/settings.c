/* settings.c — a model file's own settings: the <smalti> element (first child of the root), read and checked. */
#include "nodes.h"
#include "settings.h"
#include "params.h"
#include "../core/resource.h"
#include "../core/xmlutil.h"
#include "../io/output.h"
#include <libxml/parser.h>
#include <string.h>

void settings_clear(smalti_settings *s)
{
    memset(s, 0, sizeof *s);
    s->iso = -1;
}

xmlNode *settings_element(const xmlNode *root)
{
    xmlNode *first = root ? xml_first_child(root) : NULL;
    return first && xml_is(first, "smalti") ? first : NULL;
}

static bool read_side(diag *d, const xmlNode *el, const char *name, int max, int *out)
{
    if (!xml_get_int(d, el, name, 0, out)) return false;
    if (xml_attr(el, name) && (*out < 1 || *out > max))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<smalti> %s=\"%s\": expected a whole number from 1 to %d", name,
                          xml_attr(el, name), max);
    return true;
}

bool settings_parse(diag *d, const xmlNode *root, smalti_settings *s)
{
    static const char *const known[] = {"size", "length", "width", "height", "d", "steps", "seed", "pixelsize", "iso", NULL};
    settings_clear(s);
    const xmlNode *el = settings_element(root);
    if (!el) return true;
    xml_check_attrs(d, el, known);
    int steps = 0, seed = 0;
    bool iso = false;
    if (!read_side(d, el, "size", SETTINGS_SIDE_MAX, &s->size) || !read_side(d, el, "length", SETTINGS_SIDE_MAX, &s->length) ||
        !read_side(d, el, "width", SETTINGS_SIDE_MAX, &s->width) || !read_side(d, el, "height", SETTINGS_SIDE_MAX, &s->height) ||
        !read_side(d, el, "pixelsize", 64, &s->pixel_size) || !xml_get_int(d, el, "d", 0, &s->dim) ||
        !xml_get_int(d, el, "steps", 0, &steps) || !xml_get_int(d, el, "seed", 0, &seed) || !xml_get_bool(d, el, "iso", false, &iso))
        return false;
    if (xml_attr(el, "d") && s->dim != 2 && s->dim != 3)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<smalti> d=\"%s\": the dimension must be 2 or 3", xml_attr(el, "d"));
    s->has_steps = xml_attr(el, "steps") != NULL;
    s->steps = steps;
    s->has_seed = xml_attr(el, "seed") != NULL;
    s->seed = seed;
    if (xml_attr(el, "iso")) s->iso = iso;
    return settings_read_colors(d, el, NULL, s->color_symbols, s->color_rgb, &s->color_count);
}

bool settings_read_colors(diag *d, const xmlNode *el, const char *skip, char *symbols, uint32_t *rgb, int *count)
{
    palette colors;
    memset(&colors, 0, sizeof colors);
    if (!palette_read_colors_except(&colors, el, skip, d->file, d->err)) {
        d->failed = 1;
        return false;
    }
    for (int ch = 1; ch < 256; ch++)
        if (colors.has[ch]) {
            symbols[*count] = (char)ch;
            rgb[(*count)++] = colors.rgb[ch];
        }
    return true;
}

bool settings_read_file(const char *path, const smalti_load_options *opt, smalti_settings *s, smalti_error *err)
{
    settings_clear(s);
    if (input_file_error(path)) return true;
    /* Quiet: the load that follows reports what is wrong with the file (out of memory included). */
    xml_first_error fe; /* unused: the load reports the model's errors */
    xmlParserCtxt *ctx = xml_parser_new(&fe);
    if (!ctx) return true;
    const char *why;
    xml_generic_handler generic = xml_generic_errors_off();
    xmlDoc *doc = xml_ctxt_read_named(ctx, path, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING, &why);
    xml_generic_errors_restore(generic);
    xmlFreeParserCtxt(ctx);
    if (!doc) return true;
    /* Warnings (an unknown attribute) are left to the load, which reads the element again. */
    diag d = {.file = path, .err = err, .warn = opt ? opt->warn : NULL, .warn_userdata = opt ? opt->warn_userdata : NULL, .quiet = 1};
    xmlNode *root = xmlDocGetRootElement(doc);
    bool ok = params_resolve(&d, root, opt ? opt->params : NULL, opt ? opt->param_count : 0, NULL) && settings_parse(&d, root, s);
    xmlFreeDoc(doc);
    return ok;
}

static int first_given(int a, int b, int c) { return a > 0 ? a : b > 0 ? b : c; }

void settings_grid(const smalti_settings *s, const grid_request *over, int dflt_2d, int dflt_3d, int *mx, int *my, int *mz)
{
    int dim = first_given(over->dim, s->dim, 2);
    int dflt = dim == 3 ? dflt_3d : dflt_2d;
    if (over->size > 0) {
        *mx = first_given(over->length, over->size, 0);
        *my = first_given(over->width, over->size, 0);
        *mz = first_given(over->height, dim == 3 ? over->size : 1, 0);
        return;
    }
    int size = first_given(s->size, dflt, 0);
    *mx = first_given(over->length, s->length, size);
    *my = first_given(over->width, s->width, size);
    /* As a models.xml entry: a height given is the height, even without d="3". */
    if (over->height > 0) *mz = over->height;
    else if (over->dim == 2) *mz = 1;
    else *mz = first_given(s->height, dim == 3 ? size : 1, 0);
}
