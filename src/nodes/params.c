/* params.c — a model's parameters: declared in <smalti>, overridden by the caller, substituted into attribute values. */
#include "params.h"
#include "settings.h"
#include "../core/mem.h"
#include "../core/suggest.h"
#include "../core/xmlutil.h"
#include <ctype.h>
#include <string.h>

/* An attribute value may grow to this by substitution, and no further. */
#define PARAM_RESULT_MAX ((size_t)1 << 20)

void params_free(model_params *p)
{
    for (int i = 0; i < p->count; i++) {
        mem_free(p->items[i].name);
        mem_free(p->items[i].default_value);
        mem_free(p->items[i].value);
    }
    mem_free(p->items);
    p->items = NULL;
    p->count = 0;
}

bool param_name_valid(const char *name, size_t len)
{
    if (len < 1 || len > PARAM_NAME_MAX) return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_') return false;
    return true;
}

static model_param *find(const model_params *p, const char *name, size_t len)
{
    for (int i = 0; i < p->count; i++)
        if (strlen(p->items[i].name) == len && memcmp(p->items[i].name, name, len) == 0) return &p->items[i];
    return NULL;
}

/* "; did you mean 'rooms'?" among the declared names, or a hint to declare one when there are none. */
static const char *nearest_phrase(const model_params *p, const char *word, char *buf, size_t size)
{
    if (p->count == 0) {
        snprintf(buf, size, " (the model declares no parameters: add <param name=\"%s\" value=\"...\"/> to its <smalti> element)", word);
        return buf;
    }
    const char *names[PARAMS_MAX + 1];
    for (int i = 0; i < p->count; i++) names[i] = p->items[i].name;
    names[p->count] = NULL;
    return suggest_phrase(buf, size, word, names);
}

static bool add_declared(diag *d, model_params *p, const xmlNode *el)
{
    static const char *const known[] = {"name", "value", NULL};
    xml_check_attrs(d, el, known);
    const char *name = xml_attr(el, "name"), *value = xml_attr(el, "value");
    if (!name || !value)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<param> needs a name and a value: <param name=\"rooms\" value=\"8\"/>");
    if (!param_name_valid(name, strlen(name)))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el),
                          "<param name=\"%s\">: a parameter's name is 1 to %d letters, digits and '_'", name, PARAM_NAME_MAX);
    if (find(p, name, strlen(name)))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<param name=\"%s\"> is declared twice", name);
    if (p->count >= PARAMS_MAX)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "more than %d parameters", PARAMS_MAX);
    model_param *grown = mem_realloc(p->items, (size_t)(p->count + 1) * sizeof *grown);
    if (!grown) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    p->items = grown;
    model_param *m = &p->items[p->count];
    *m = (model_param){.name = mem_strdup(name), .default_value = mem_strdup(value), .value = mem_strdup(value), .line = xml_line(el)};
    p->count++;
    if (!m->name || !m->default_value || !m->value) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    return true;
}

/* The <param> children of <smalti>, read and then taken out of the tree. */
static bool read_declared(diag *d, xmlNode *root, model_params *p)
{
    xmlNode *settings = settings_element(root);
    xmlNode *next;
    for (xmlNode *c = settings ? xml_first_child(settings) : NULL; c; c = next) {
        next = xml_next(c);
        if (!xml_is(c, "param")) continue;
        if (!add_declared(d, p, c)) return false;
        xmlUnlinkNode(c);
        xmlFreeNode(c);
    }
    return true;
}

static bool apply_override(diag *d, model_params *p, const char *set)
{
    const char *eq = set ? strchr(set, '=') : NULL;
    if (!eq || !param_name_valid(set, (size_t)(eq - set)))
        return diag_error(d, SMALTI_ERR_USAGE, 0, "parameter override '%s': expected NAME=VALUE", set ? set : "(null)");
    size_t len = (size_t)(eq - set);
    model_param *m = find(p, set, len);
    if (!m) {
        char name[PARAM_NAME_MAX + 1], hint[400];
        snprintf(name, sizeof name, "%.*s", (int)len, set);
        if (p->count == 0) return diag_error(d, SMALTI_ERR_USAGE, 0, "cannot set the parameter '%s': the model declares no parameters", name);
        return diag_error(d, SMALTI_ERR_USAGE, 0, "cannot set the parameter '%s': the model declares no such parameter%s", name,
                          nearest_phrase(p, name, hint, sizeof hint));
    }
    char *value = mem_strdup(eq + 1);
    if (!value) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    mem_free(m->value);
    m->value = value;
    m->overridden = true;
    return true;
}

/* The length of the reference {name} at s (s[0] == '{'), its name at s + 1; 0 when s starts none. */
static size_t reference_at(const char *s)
{
    size_t n = 1;
    while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
    return n > 1 && s[n] == '}' ? n + 1 : 0;
}

/* value with its references replaced, into *out (mem_free it); false after the error. */
static bool substitute(diag *d, const model_params *p, const xmlNode *el, const char *attr, const char *value, char **out)
{
    size_t size = 0;
    for (int pass = 0; pass < 2; pass++) { /* the first measures, the second writes */
        size_t at = 0;
        for (const char *s = value; *s;) {
            size_t ref = *s == '{' ? reference_at(s) : 0;
            const char *piece = s;
            size_t piece_len = 1;
            if (s[0] == '{' && s[1] == '{') s += 2;
            else if (ref) {
                const model_param *m = find(p, s + 1, ref - 2);
                if (!m) {
                    char name[PARAM_NAME_MAX + 1], hint[400];
                    snprintf(name, sizeof name, "%.*s", (int)(ref - 2 < PARAM_NAME_MAX ? ref - 2 : PARAM_NAME_MAX), s + 1);
                    return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "{%s} in %s=\"%s\" of <%s>: no parameter '%s' is declared%s",
                                      name, attr, value, xml_name(el), name, nearest_phrase(p, name, hint, sizeof hint));
                }
                piece = m->value, piece_len = strlen(m->value), s += ref;
            } else s++;
            if (piece_len > PARAM_RESULT_MAX - at) /* only the first pass can stop here: the second writes what it measured */
                return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s of <%s> is longer than %zu bytes once its parameters are put in",
                                  attr, xml_name(el), PARAM_RESULT_MAX);
            if (pass == 1) memcpy(*out + at, piece, piece_len);
            at += piece_len;
        }
        size = at;
        if (pass == 0 && !(*out = mem_malloc(size + 1))) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    (*out)[size] = 0;
    return true;
}

static bool substitute_tree(diag *d, const model_params *p, xmlNode *el)
{
    for (xmlAttr *a = el->properties; a; a = a->next) {
        const char *value = a->children ? (const char *)a->children->content : NULL;
        if (!value || !strchr(value, '{')) continue;
        char *replaced;
        if (!substitute(d, p, el, (const char *)a->name, value, &replaced)) return false;
        bool set = xmlSetNsProp(el, a->ns, a->name, (const xmlChar *)replaced) != NULL;
        mem_free(replaced);
        if (!set) return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    for (xmlNode *c = xml_first_child(el); c; c = xml_next(c))
        if (!substitute_tree(d, p, c)) return false;
    return true;
}

bool params_resolve(diag *d, xmlNode *root, const char *const *sets, int set_count, model_params *out)
{
    model_params p = {0};
    bool ok = !root || read_declared(d, root, &p);
    for (int i = 0; ok && i < set_count; i++) ok = apply_override(d, &p, sets[i]);
    ok = ok && (!root || substitute_tree(d, &p, root));
    if (ok && out) *out = p;
    else params_free(&p);
    return ok;
}
