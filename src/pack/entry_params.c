/* entry_params.c — a pack.xml <model>'s <param> children: its values of the model's parameters, and the gallery's combinations of them. */
#include "pack.h"
#include <stdlib.h>
#include <string.h>
#include "../core/xmlutil.h"
#include "../nodes/params.h"

/* Whether the texts "name=..." a and b name one parameter. */
static bool same_name(const char *a, const char *b)
{
    size_t n = strcspn(a, "=");
    return strncmp(a, b, n + 1) == 0;
}

static bool first_of_its_name(const pack_model *m, int i)
{
    for (int k = 0; k < i; k++)
        if (same_name(m->params[k], m->params[i])) return false;
    return true;
}

static int values_of(const pack_model *m, int i)
{
    int n = 0;
    for (int k = 0; k < m->param_count; k++) n += same_name(m->params[k], m->params[i]);
    return n;
}

long pack_model_setting_count(const pack_model *m)
{
    long total = 1;
    for (int i = 0; i < m->param_count; i++) {
        if (!first_of_its_name(m, i)) continue;
        int n = values_of(m, i);
        if (total > (PACK_MAX_SETTINGS + 1) / n) return PACK_MAX_SETTINGS + 1; /* too many: the manifest refuses it */
        total *= n;
    }
    return total;
}

int pack_model_setting(const pack_model *m, long k, const char **out)
{
    int names = 0;
    for (int i = 0; i < m->param_count; i++) names += first_of_its_name(m, i);
    for (int i = m->param_count - 1, slot = names - 1; i >= 0; i--) {
        if (!first_of_its_name(m, i)) continue;
        int n = values_of(m, i), pick = (int)(k % n);
        k /= n;
        for (int j = i; j < m->param_count; j++)
            if (same_name(m->params[j], m->params[i]) && pick-- == 0) {
                out[slot--] = m->params[j];
                break;
            }
    }
    return names;
}

static bool add_param(diag *d, const xmlNode *el, pack_model *pm)
{
    static const char *const known[] = {"name", "value", NULL};
    xml_check_attrs(d, el, known);
    const char *name = xml_attr(el, "name"), *value = xml_attr(el, "value");
    if (!name || !value || !param_name_valid(name, strlen(name)))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "expected <param name=\"NAME\" value=\"...\"/>, NAME of 1 to %d "
                          "letters, digits and '_'", PARAM_NAME_MAX);
    if (pm->param_count >= PARAMS_MAX) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "more than %d <param>s", PARAMS_MAX);
    char **bigger = realloc(pm->params, (size_t)(pm->param_count + 1) * sizeof *bigger);
    if (!bigger) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
    pm->params = bigger;
    size_t size = strlen(name) + strlen(value) + 2;
    if (!(pm->params[pm->param_count] = malloc(size))) return diag_error(d, SMALTI_ERR_RUNTIME, xml_line(el), "out of memory");
    snprintf(pm->params[pm->param_count++], size, "%s=%s", name, value);
    for (int k = 0; k < pm->param_count - 1; k++)
        if (strcmp(pm->params[k], pm->params[pm->param_count - 1]) == 0)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<param name=\"%s\" value=\"%s\"> is listed twice", name, value);
    return true;
}

bool pack_entry_read_params(diag *d, const xmlNode *el, pack_model *pm)
{
    for (const xmlNode *c = xml_first_child(el); c; c = xml_next(c))
        if (xml_is(c, "param") && !add_param(d, c, pm)) return false;
    if (pack_model_setting_count(pm) > PACK_MAX_SETTINGS)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<model> lists more than %d combinations of parameter values",
                          PACK_MAX_SETTINGS);
    return true;
}
