/* poisson_radii.c — `radii` and `radiuspicture` of <poisson>: the per-value radius list and the grey picture. */
#include "poisson_radii.h"
#include "../core/mem.h"
#include "../core/xmlutil.h"
#include <stdlib.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static bool radius_error(diag *d, const xmlNode *el, const char *text, const char *why, char symbol)
{
    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "radii=\"%s\" of <poisson>: %c %s", text, symbol, why);
}

/* One entry `Xr`: X an `on` value named once, r its radius, read up to the next space. */
static bool read_entry(diag *d, const xmlNode *el, const grid_def *g, const char *text, const char **s, wave_bits on,
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

bool poisson_load_radii(diag *d, const xmlNode *el, const grid_def *g, wave_bits on, double fallback,
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

bool poisson_load_picture(diag *d, const xmlNode *el, const resources *res, bool has_radii, grey_picture *pic, double *white)
{
    int line = xml_line(el);
    const char *name = xml_attr(el, "radiuspicture"), *white_text = xml_attr(el, "whiteradius");
    pic->grey = NULL;
    if (!name && !white_text) return true;
    if (!name) return diag_error(d, SMALTI_ERR_MODEL, line, "whiteradius of <poisson> goes with a radiuspicture");
    if (!white_text) return diag_error(d, SMALTI_ERR_MODEL, line, "radiuspicture of <poisson> needs a whiteradius: the radius at white");
    if (has_radii) return diag_error(d, SMALTI_ERR_MODEL, line, "<poisson> takes radii or a radiuspicture, not both");
    if (!xml_get_double(d, el, "whiteradius", 0, white)) return false;
    if (!(*white > 0 && *white <= POISSON_MAX_RADIUS))
        return diag_error(d, SMALTI_ERR_MODEL, line, "whiteradius=\"%s\" of <poisson> must be above 0 and at most %g", white_text, POISSON_MAX_RADIUS);
    char *path = resource_find(res, d, line, "radius picture", "samples", name, ".png");
    if (!path) return false;
    uint32_t *argb = resource_load_image(res, d, line, path, &pic->w, &pic->h);
    mem_free(path);
    if (!argb) return false;
    pic->grey = mem_malloc((size_t)pic->w * (size_t)pic->h);
    if (!pic->grey) {
        mem_free(argb);
        return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    /* The same grey as density pictures: integer luma, rounded. */
    for (size_t i = 0; i < (size_t)pic->w * (size_t)pic->h; i++) {
        uint32_t c = argb[i], r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
        pic->grey[i] = (uint8_t)((299 * r + 587 * g + 114 * b + 500) / 1000);
    }
    mem_free(argb);
    return true;
}

uint8_t grey_at(const grey_picture *pic, int32_t x, int32_t y, int32_t mx, int32_t my)
{
    int64_t px = ((int64_t)2 * x + 1) * pic->w / (2 * (int64_t)mx), py = ((int64_t)2 * y + 1) * pic->h / (2 * (int64_t)my);
    return pic->grey[px + py * pic->w];
}
