/* gen.c — attribute parsing and helpers shared by the generator nodes. */
#include "gen.h"
#include "../core/xmlutil.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool gen_value(diag *d, const xmlNode *el, const grid_def *g, const char *name, bool required, int *out)
{
    *out = -1;
    const char *text = xml_attr(el, name);
    if (!text) {
        if (required) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> needs a %s attribute", xml_name(el), name);
        return true;
    }
    if (strlen(text) != 1 || g->value_of[(unsigned char)text[0]] < 0)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> is not a value of the grid (values are \"%s\")", name,
                          text, xml_name(el), g->chars);
    *out = g->value_of[(unsigned char)text[0]];
    return true;
}

bool gen_values(diag *d, const xmlNode *el, const grid_def *g, const char *name, bool required, uint8_t *out, int *count)
{
    *count = 0;
    const char *text = xml_attr(el, name);
    if (!text) {
        if (required) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> needs a %s attribute", xml_name(el), name);
        return true;
    }
    size_t n = strlen(text);
    if (n == 0 || n > GRID_MAX_VALUES)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> must list 1 to %d values", name, text, xml_name(el),
                          GRID_MAX_VALUES);
    for (size_t i = 0; i < n; i++) {
        int v = g->value_of[(unsigned char)text[i]];
        if (v < 0)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s>: '%c' is not a value of the grid (values are \"%s\")",
                              name, text, xml_name(el), text[i], g->chars);
        out[i] = (uint8_t)v;
    }
    *count = (int)n;
    return true;
}

bool gen_wave(diag *d, const xmlNode *el, const grid_def *g, const char *name, wave_bits *out)
{
    *out = wave_all(g->c);
    const char *text = xml_attr(el, name);
    if (!text) return true;
    wave_bits wave = 0;
    bool ok = *text != 0;
    for (const char *s = text; *s && ok; s++) { /* grid_wave takes values only; a wave also takes unions and '*' */
        ok = g->has_wave[(unsigned char)*s];
        wave |= grid_symbol_wave(g, (unsigned char)*s);
    }
    if (!ok)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                          "%s=\"%s\" of <%s> must be grid values, unions or '*' (values are \"%s\")", name, text, xml_name(el), g->chars);
    *out = wave;
    return true;
}

static bool parse_number(const char *s, const char **end, double *out)
{
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || errno == ERANGE || v != v || isinf(v)) return false;
    if (e[-1] == '.' && e[0] == '.') e--; /* strtod reads "4..8" as "4." then ".8": give the dot back to ".." */
    *out = v;
    *end = e;
    return true;
}

bool gen_get_range(diag *d, const xmlNode *el, const char *name, double dflt, double min, double max, gen_range *out)
{
    out->lo = out->hi = dflt;
    const char *text = xml_attr(el, name);
    if (!text) return true;
    const char *p = text, *end;
    double lo, hi;
    if (!parse_number(p, &end, &lo)) goto bad;
    hi = lo;
    p = end;
    if (p[0] == '.' && p[1] == '.') {
        if (!parse_number(p + 2, &end, &hi)) goto bad;
        p = end;
    }
    if (*p) goto bad;
    if (lo > hi) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s>: the range runs backwards", name, text, xml_name(el));
    if (lo < min || hi > max)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> must lie between %g and %g", name, text, xml_name(el), min, max);
    out->lo = lo;
    out->hi = hi;
    return true;
bad:
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> must be a number or a range such as \"4..8\"", name, text,
                      xml_name(el));
}

bool gen_get_double(diag *d, const xmlNode *el, const char *name, double dflt, double min, double max, double *out)
{
    if (!xml_get_double(d, el, name, dflt, out)) return false;
    if (*out < min || *out > max)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> must lie between %g and %g", name, xml_attr(el, name),
                          xml_name(el), min, max);
    return true;
}

bool gen_get_choice(diag *d, const xmlNode *el, const char *name, const char *const *choices, int dflt, int *out)
{
    *out = dflt;
    const char *text = xml_attr(el, name);
    if (!text) return true;
    for (int i = 0; choices[i]; i++)
        if (strcmp(choices[i], text) == 0) {
            *out = i;
            return true;
        }
    char list[256] = "";
    for (int i = 0; choices[i]; i++) {
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> must be one of: %s", name, text, xml_name(el), list);
}

double gen_range_draw(const gen_range *r, rng *random)
{
    double u = rng_next_double(random);
    return r->lo + (r->hi - r->lo) * u;
}

int gen_range_draw_int(const gen_range *r, rng *random)
{
    int lo = (int)ceil(r->lo), hi = (int)floor(r->hi);
    double u = rng_next_double(random);
    if (hi <= lo) return lo;
    return lo + (int)(u * (double)(hi - lo + 1));
}
