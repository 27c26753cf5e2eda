/* palette.c — symbol colours: the built-in default (rules/palette.xml, compiled
   in) and palette files in the same format. */
#include "output.h"
#include <libxml/parser.h>
#include <string.h>
#include "../core/diag.h"
#include "../core/xmlutil.h"

static const char default_palette_xml[] =
#include "palette.inc"
    ;

static bool palette_from_doc(palette *p, xmlDoc *doc, const char *name, smalti_error *err)
{
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root) {
        error_set(err, SMALTI_ERR_IO, name, 0, "not a palette file");
        return false;
    }
    for (xmlNode *c = xml_first_child(root); c; c = xml_next(c)) {
        if (!xml_is(c, "color")) continue;
        const char *symbol = xml_attr(c, "symbol"), *value = xml_attr(c, "value");
        char *end = NULL;
        unsigned long rgb = value ? strtoul(value, &end, 16) : 0;
        if (!symbol || strlen(symbol) != 1 || !value || *end || end == value || rgb > 0xffffff) {
            error_set(err, SMALTI_ERR_MODEL, name, xml_line(c), "a <color> needs symbol=\"X\" and value=\"RRGGBB\"");
            return false;
        }
        p->rgb[(unsigned char)symbol[0]] = (uint32_t)rgb;
        p->has[(unsigned char)symbol[0]] = true;
    }
    return true;
}

void palette_default(palette *p)
{
    memset(p, 0, sizeof *p);
    xmlDoc *doc = xmlReadMemory(default_palette_xml, (int)sizeof default_palette_xml - 1, "palette.xml", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    palette_from_doc(p, doc, "palette.xml", NULL);
    xmlFreeDoc(doc);
}

bool palette_load_file(palette *p, const char *path, smalti_error *err)
{
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot read the palette");
        return false;
    }
    bool ok = palette_from_doc(p, doc, path, err);
    xmlFreeDoc(doc);
    return ok;
}

void palette_colors(const palette *p, const char *legend, uint32_t *colors, char *missing, size_t missing_size)
{
    size_t m = 0;
    for (int i = 0; legend[i]; i++) {
        unsigned char ch = (unsigned char)legend[i];
        colors[i] = p->has[ch] ? p->rgb[ch] : 0x808080;
        if (!p->has[ch] && missing && m + 1 < missing_size) missing[m++] = (char)ch;
    }
    if (missing && missing_size) missing[m] = 0;
}
