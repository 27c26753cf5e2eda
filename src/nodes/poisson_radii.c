/* poisson_radii.c — `radii` of <poisson>: parsing the per-value radius list. */
#include "poisson_radii.h"
#include "../core/xmlutil.h"
#include <stdlib.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static bool radius_error(diag *d, const xmlNode *el, const char *text, const char *why, char symbol)
{
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "radii=\"%s\" of <poisson>: %c %s", text, symbol, why);
}

/* One entry `Xr`: X an `on` value named once, r its radius, read up to the next space. */
static bool read_entry(diag *d, const xmlNode *el, const grid_def *g, const char *text, const char **s, uint32_t on,
                       double radius_of[GRID_MAX_VALUES], bool named[GRID_MAX_VALUES])
{
    char symbol = **s;
    int v = g->value_of[(unsigned char)symbol];
    (*s)++;
    if (v < 0) return radius_error(d, el, text, g->has_wave[(unsigned char)symbol] ? "is a union; radii name values" : "is not a value of the grid", symbol);
    if (!(on >> v & 1)) return radius_error(d, el, text, "is not an \"on\" value: it never takes a point, so it has no radius", symbol);
    if (named[v]) return radius_error(d, el, text, "is given twice", symbol);
    named[v] = true;
    const char *begin = *s;
    while (**s && !is_space(**s)) (*s)++;
    char number[64];
    size_t length = (size_t)(*s - begin);
    char *end = NULL;
    double radius = 0;
    if (length > 0 && length < sizeof number) {
        for (size_t i = 0; i < length; i++) number[i] = begin[i];
        number[length] = 0;
        radius = strtod(number, &end);
    }
    if (!end || *end || !(radius > 0 && radius <= POISSON_MAX_RADIUS))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "radii=\"%s\" of <poisson>: %c needs a radius above 0 and at most %g right after it",
                          text, symbol, POISSON_MAX_RADIUS);
    radius_of[v] = radius;
    return true;
}

bool poisson_load_radii(diag *d, const xmlNode *el, const grid_def *g, uint32_t on, double fallback,
                        double radius_of[GRID_MAX_VALUES], bool *listed)
{
    for (int v = 0; v < GRID_MAX_VALUES; v++) radius_of[v] = fallback;
    const char *text = xml_attr(el, "radii");
    *listed = text != NULL;
    if (!text) return true;
    bool named[GRID_MAX_VALUES] = {false};
    int entries = 0;
    for (const char *s = text; *s;) {
        if (is_space(*s)) {
            s++;
            continue;
        }
        if (!read_entry(d, el, g, text, &s, on, radius_of, named)) return false;
        entries++;
    }
    if (!entries) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "radii=\"%s\" of <poisson> names no value", text);
    return true;
}
