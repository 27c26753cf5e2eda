/* grid.c — a grid's definition: its values, waves (unions, *), folder and size. */
#include "grid.h"
#include "xmlutil.h"
#include "mem.h"
#include <stdlib.h>
#include <string.h>

bool grid_cells_within_cap(int64_t mx, int64_t my, int64_t mz, int64_t *cells)
{
    int64_t plane;
    if (__builtin_mul_overflow(mx, my, &plane) || __builtin_mul_overflow(plane, mz, cells)) *cells = INT64_MAX;
    return mx >= 1 && my >= 1 && mz >= 1 && *cells <= GRID_MAX_CELLS;
}

bool grid_wave(const grid_def *g, const char *symbols, wave_bits *out)
{
    wave_bits sum = 0;
    for (const char *s = symbols; *s; s++) {
        int v = g->value_of[(unsigned char)*s];
        if (v < 0) return false;
        sum += wave_bit(v); /* a sum, as in the reference: a repeated symbol counts twice */
    }
    *out = sum;
    return true;
}

static bool load_union(diag *d, const xmlNode *u, grid_def *g)
{
    static const char *const known[] = {"symbol", "values", NULL};
    static const char *const reference_extras[] = {"color", NULL}; /* the reference's models carry it; it reads none */
    xml_check_attrs_ignoring(d, u, known, reference_extras);
    char symbol;
    bool present;
    if (!xml_get_char(d, u, "symbol", &symbol, &present)) return false;
    if (!present) return diag_error(d, SMALTI_ERR_MODEL, xml_line(u), "<union> needs a symbol attribute");
    const char *values = xml_attr(u, "values");
    if (!values) return diag_error(d, SMALTI_ERR_MODEL, xml_line(u), "<union> needs a values attribute");
    if (g->has_wave[(unsigned char)symbol])
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(u), "repeating union type %c", symbol);
    wave_bits w;
    if (!grid_wave(g, values, &w))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(u), "union %c: values \"%s\" contain a symbol that is not a grid value", symbol, values);
    g->wave_of[(unsigned char)symbol] = w;
    g->has_wave[(unsigned char)symbol] = true;
    return true;
}

bool grid_load(diag *d, const xmlNode *el, int mx, int my, int mz, int max_values, grid_holds_unions_fn holds_unions,
               grid_def *g)
{
    memset(g, 0, sizeof *g);
    memset(g->value_of, -1, sizeof g->value_of);
    g->mx = mx;
    g->my = my;
    g->mz = mz;
    const char *values = xml_attr(el, "values");
    if (!values) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "no values specified");
    int c = 0;
    for (const char *s = values; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == ' ') continue;
        if (ch >= 0x80 || ch < 0x20)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "value symbols must be printable ASCII characters");
        if (ch == '*') return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "'*' is the wildcard and cannot be a value");
        if (g->value_of[ch] >= 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "repeating value %c", ch);
        if (c >= max_values || c >= GRID_MAX_VALUES)
            return max_values < GRID_MAX_VALUES
                       ? diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                                    "too many values (at most %d, as in MarkovJunior; %d in a model that uses one of smalti's own nodes)",
                                    max_values, GRID_MAX_VALUES)
                       : diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "too many values (at most %d)", GRID_MAX_VALUES);
        g->chars[c] = (char)ch;
        g->value_of[ch] = (int8_t)c;
        g->wave_of[ch] = wave_bit(c);
        g->has_wave[ch] = true;
        c++;
    }
    if (c == 0) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "no values specified");
    g->c = c;
    g->chars[c] = 0;

    const char *transparent = xml_attr(el, "transparent");
    if (transparent && !grid_wave(g, transparent, &g->transparent))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "transparent=\"%s\" names a symbol that is not a value", transparent);

    g->wave_of['*'] = wave_all(c);
    g->has_wave['*'] = true;

    /* Breadth-first over the children that hold unions, and unions' own, as the reference collects unions. */
    size_t cap = 16, head = 0, tail = 0;
    const xmlNode **queue = mem_malloc(cap * sizeof *queue);
    if (!queue) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    queue[tail++] = el;
    bool ok = true;
    while (ok && head < tail) {
        const xmlNode *e = queue[head++];
        if (e != el && xml_is(e, "union")) ok = load_union(d, e, g);
        for (xmlNode *ch = xml_first_child(e); ok && ch; ch = xml_next(ch)) {
            if (!xml_is(ch, "union") && !holds_unions(ch)) continue;
            if (tail == cap) {
                const xmlNode **bigger = mem_realloc(queue, 2 * cap * sizeof *queue);
                if (!bigger) { ok = diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory"); break; }
                queue = bigger;
                cap *= 2;
            }
            queue[tail++] = ch;
        }
    }
    mem_free(queue);
    if (!ok) return false;

    const char *folder = xml_attr(el, "folder");
    if (folder) {
        g->folder = mem_strdup(folder);
        if (!g->folder) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    return true;
}

void grid_free(grid_def *g)
{
    mem_free(g->folder);
    g->folder = NULL;
}
