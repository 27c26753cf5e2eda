/* palette.c — symbol colours: the built-in default (rules/palette.xml, compiled
   in as a table) and palette files in the same format. */
#include "output.h"
#include <ctype.h>
#include <errno.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "../core/resource.h"
#include "../core/xmlutil.h"

/* rules/palette.xml as {symbol, 0xRRGGBB} pairs, made from it by the Makefile. */
static const struct {
    char symbol;
    uint32_t rgb;
} default_colors[] = {
#include "palette_table.inc"
};

/* Exactly RRGGBB: strtoul alone would also take "0x", a sign, spaces and fewer digits. */
static bool parse_rrggbb(const char *text, uint32_t *rgb)
{
    if (!text || strlen(text) != 6) return false;
    for (int i = 0; i < 6; i++)
        if (!isxdigit((unsigned char)text[i])) return false;
    *rgb = (uint32_t)strtoul(text, NULL, 16);
    return true;
}

bool palette_read_colors(palette *p, const xmlNode *parent, const char *file, smalti_error *err)
{
    return palette_read_colors_except(p, parent, NULL, file, err);
}

bool palette_read_colors_except(palette *p, const xmlNode *parent, const char *skip, const char *file, smalti_error *err)
{
    for (const xmlNode *c = xml_first_child(parent); c; c = xml_next(c)) {
        if (skip && xml_is(c, skip)) continue;
        const char *symbol = xml_attr(c, "symbol");
        uint32_t rgb;
        if (!xml_is(c, "color") || !symbol || strlen(symbol) != 1 || !parse_rrggbb(xml_attr(c, "value"), &rgb)) {
            const char *value = xml_attr(c, "value");
            /* The CSS habit: say what to write instead. */
            if (xml_is(c, "color") && value && value[0] == '#' && parse_rrggbb(value + 1, &rgb))
                error_set(err, SMALTI_ERR_MODEL, file, xml_line(c),
                          "value=\"%s\" of <color>: write the colour without '#', as value=\"%s\"", value, value + 1);
            else error_set(err, SMALTI_ERR_MODEL, file, xml_line(c), "expected <color symbol=\"X\" value=\"RRGGBB\"/>");
            return false;
        }
        p->rgb[(unsigned char)symbol[0]] = rgb;
        p->has[(unsigned char)symbol[0]] = true;
    }
    return true;
}

static bool palette_from_doc(palette *p, xmlDoc *doc, const char *name, smalti_error *err)
{
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root) {
        error_set(err, SMALTI_ERR_MODEL, name, 0, "not a palette file: expected <colors> holding <color symbol=\"X\" value=\"RRGGBB\"/>");
        return false;
    }
    return palette_read_colors(p, root, name, err);
}

void palette_default(palette *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < sizeof default_colors / sizeof *default_colors; i++) {
        p->rgb[(unsigned char)default_colors[i].symbol] = default_colors[i].rgb;
        p->has[(unsigned char)default_colors[i].symbol] = true;
    }
}

bool palette_load_file(palette *p, const char *path, smalti_error *err)
{
    int e = input_file_error(path);
    if (e) {
        if (e == EISDIR) error_set(err, SMALTI_ERR_IO, path, 0, "is a directory, not a palette file");
        else error_set(err, SMALTI_ERR_IO, path, 0, "cannot open the palette: %s", strerror(e));
        return false;
    }
    /* A file that opens but does not parse is a format error with its line, not an I/O error. */
    int line;
    char message[300];
    xmlDoc *doc = xml_read_file_first_error(path, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING, &line, message,
                                            sizeof message);
    if (!doc) {
        error_set(err, SMALTI_ERR_MODEL, path, line, "malformed palette XML: %s", message);
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
