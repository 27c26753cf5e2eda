/* field.c — loading `<field>` elements and computing their distance potentials. */
#include "field.h"
#include "../core/xmlutil.h"

static const char *const field_attrs[] = {"for", "to", "from", "on", "recompute", "essential", NULL};

static bool symbols_wave(diag *d, const xmlNode *el, const grid_def *g, const char *name, uint32_t *out)
{
    const char *text = xml_attr(el, name);
    if (!text || !*text) return diag_error(d, TS_ERR_MODEL, xml_line(el), "<field> is missing its %s attribute", name);
    if (!grid_wave(g, text, out))
        return diag_error(d, TS_ERR_MODEL, xml_line(el), "%s=\"%s\" names a symbol that is not a value of the grid", name, text);
    return true;
}

bool field_load(diag *d, const xmlNode *el, const grid_def *g, field *f)
{
    xml_check_attrs(d, el, field_attrs);
    char symbol;
    bool present;
    if (!xml_get_char(d, el, "for", &symbol, &present)) return false;
    if (!present) return diag_error(d, TS_ERR_MODEL, xml_line(el), "<field> needs a for attribute (the value it guides)");
    f->value = g->value_of[(unsigned char)symbol];
    if (f->value < 0) return diag_error(d, TS_ERR_MODEL, xml_line(el), "unknown field value %c", symbol);
    if (!xml_get_bool(d, el, "recompute", false, &f->recompute) || !xml_get_bool(d, el, "essential", false, &f->essential))
        return false;
    if (!symbols_wave(d, el, g, "on", &f->substrate)) return false;
    f->inversed = xml_attr(el, "from") != NULL;
    if (f->inversed && xml_attr(el, "to"))
        return diag_error(d, TS_ERR_MODEL, xml_line(el), "<field> takes either from or to, not both");
    return symbols_wave(d, el, g, f->inversed ? "from" : "to", &f->zero);
}

bool field_compute(const field *f, int32_t *potential, const uint8_t *state, int mx, int my, int mz, int32_t *queue)
{
    const int32_t plane = mx * my, cells = plane * mz;
    int32_t head = 0, tail = 0;
    for (int32_t i = 0; i < cells; i++) {
        if ((f->zero >> state[i]) & 1) {
            potential[i] = 0;
            queue[tail++] = i;
        } else potential[i] = -1;
    }
    if (tail == 0) return false;
    /* Distances do not depend on the order neighbours are visited in. */
    const uint32_t substrate = f->substrate;
    while (head < tail) {
        int32_t i = queue[head++];
        int32_t next = potential[i] + 1;
        int32_t z = i / plane, rest = i - z * plane, y = rest / mx, x = rest - y * mx;
#define VISIT(cond, j)                                                                                                   \
    if ((cond) && potential[j] == -1 && ((substrate >> state[j]) & 1)) {                                                  \
        potential[j] = next;                                                                                             \
        queue[tail++] = j;                                                                                               \
    }
        VISIT(x > 0, i - 1)
        VISIT(x < mx - 1, i + 1)
        VISIT(y > 0, i - mx)
        VISIT(y < my - 1, i + mx)
        VISIT(z > 0, i - plane)
        VISIT(z < mz - 1, i + plane)
#undef VISIT
    }
    return true;
}
