/* field.c — loading `<field>` elements and computing their distance potentials. */
#include "field.h"
#include "../core/xmlutil.h"

static const char *const field_attrs[] = {"for", "to", "from", "on", "recompute", "essential", NULL};

static bool symbols_wave(diag *d, const xmlNode *el, const grid_def *g, const char *name, wave_bits *out)
{
    const char *text = xml_attr(el, name);
    if (!text || !*text) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<field> is missing its %s attribute", name);
    if (!grid_wave(g, text, out))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" names a symbol that is not a value of the grid", name, text);
    return true;
}

bool field_load(diag *d, const xmlNode *el, const grid_def *g, field *f)
{
    xml_check_attrs(d, el, field_attrs);
    char symbol;
    bool present;
    if (!xml_get_char(d, el, "for", &symbol, &present)) return false;
    if (!present) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<field> needs a for attribute (the value it guides)");
    f->value = g->value_of[(unsigned char)symbol];
    if (f->value < 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown field value %c", symbol);
    if (!xml_get_bool(d, el, "recompute", false, &f->recompute) || !xml_get_bool(d, el, "essential", false, &f->essential))
        return false;
    if (!symbols_wave(d, el, g, "on", &f->substrate)) return false;
    f->inversed = xml_attr(el, "from") != NULL;
    if (f->inversed && xml_attr(el, "to"))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<field> takes either from or to, not both");
    return symbols_wave(d, el, g, f->inversed ? "from" : "to", &f->zero);
}

void field_borders(uint8_t *borders, int mx, int my, int mz)
{
    for (int z = 0, i = 0; z < mz; z++)
        for (int y = 0; y < my; y++)
            for (int x = 0; x < mx; x++, i++)
                borders[i] = (uint8_t)((x > 0) | (x < mx - 1) << 1 | (y > 0) << 2 | (y < my - 1) << 3 | (z > 0) << 4 |
                                       (z < mz - 1) << 5);
}

bool field_compute(const field *f, int32_t *potential, const uint8_t *state, const uint8_t *borders, int mx, int my,
                   int mz, int32_t *queue, run_stop *stop)
{
    const int32_t plane = mx * my, cells = plane * mz;
    int32_t head = 0, tail = 0;
    const wave_bits zero = f->zero, substrate = f->substrate;
    /* In chunks of STOP_ITEMS cells, a check before each: no test in the loops themselves. */
    for (int32_t chunk = 0; chunk < cells; chunk += STOP_ITEMS) {
        if (stop_requested(stop)) return false;
        const int32_t end = cells - chunk > STOP_ITEMS ? chunk + STOP_ITEMS : cells;
        for (int32_t i = chunk; i < end; i++) {
            if ((zero >> state[i]) & 1) {
                potential[i] = 0;
                queue[tail++] = i;
            } else potential[i] = -1;
        }
    }
    if (tail == 0) return false;
    /* Distances do not depend on the order neighbours are visited in. The cells queued now, up
       to STOP_ITEMS of them, then a check; those they queue wait for the next round. */
    while (head < tail) {
        if (stop_requested(stop)) return false;
        const int32_t end = tail - head > STOP_ITEMS ? head + STOP_ITEMS : tail;
        while (head < end) {
            int32_t i = queue[head++];
            int32_t next = potential[i] + 1;
            unsigned b = borders[i];
#define VISIT(bit, j)                                                                                                    \
    if ((b & (bit)) && potential[j] == -1 && ((substrate >> state[j]) & 1)) {                                            \
        potential[j] = next;                                                                                             \
        queue[tail++] = j;                                                                                               \
    }
            VISIT(1, i - 1)
            VISIT(2, i + 1)
            VISIT(4, i - mx)
            VISIT(8, i + mx)
            VISIT(16, i - plane)
            VISIT(32, i + plane)
#undef VISIT
        }
    }
    return true;
}
