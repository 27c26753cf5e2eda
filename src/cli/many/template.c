/* template.c — output names of many runs from a template: 'out/{model}_{seed}.png', and {NAME} for a model's parameter. */
#include "many.h"
#include "../../core/suggest.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const field_names[] = {"{model}", "{seed}", "{i}", "{w}", "{h}", "{d}", NULL};

/* The field at s ("{seed}..."), or -1. */
static int field_at(const char *s)
{
    for (int f = 0; field_names[f]; f++)
        if (strncmp(s, field_names[f], strlen(field_names[f])) == 0) return f;
    return -1;
}

size_t template_param_at(const char *s)
{
    if (s[0] != '{' || field_at(s) >= 0) return 0;
    size_t n = 1;
    while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
    return n > 1 && s[n] == '}' ? n + 1 : 0;
}

bool template_check(const char *tmpl, char *why, size_t why_size)
{
    for (const char *p = tmpl; *p; p++) {
        if (*p == '}' ) {
            snprintf(why, why_size, "a '}' that closes no field at \"%s\"", p);
            return false;
        }
        if (*p != '{') continue;
        int f = field_at(p);
        size_t param = template_param_at(p);
        if (f < 0 && !param) {
            snprintf(why, why_size, "unknown field at \"%s\": the fields are {model} {seed} {i} {w} {h} {d} and the "
                                    "model's parameters, {NAME}", p);
            return false;
        }
        p += (f >= 0 ? strlen(field_names[f]) : param) - 1;
    }
    return true;
}

/* The value of the parameter {NAME} at s (len bytes with the braces) in model, or NULL. */
static const char *param_value(const smalti_model *model, const char *s, size_t len)
{
    for (int i = 0; model && i < smalti_model_param_count(model); i++) {
        smalti_param_info p;
        if (smalti_model_param(model, i, &p) && strlen(p.name) == len - 2 && memcmp(p.name, s + 1, len - 2) == 0) return p.value;
    }
    return NULL;
}

/* "; did you mean 'seed'?" among the built-in fields and model's parameters, for the unknown {word}. */
static const char *nearest_field(const smalti_model *model, const char *word, char *buf, size_t size)
{
    enum { MAX_NAMES = 300 };
    const char *names[MAX_NAMES + 1] = {"model", "seed", "i", "w", "h", "d"};
    int n = 6;
    for (int i = 0; model && i < smalti_model_param_count(model) && n < MAX_NAMES; i++) {
        smalti_param_info p;
        if (smalti_model_param(model, i, &p)) names[n++] = p.name;
    }
    names[n] = NULL;
    return suggest_phrase(buf, size, word, names);
}

bool template_params_check(const char *tmpl, const smalti_model *model, const char *label, char *why, size_t why_size)
{
    for (const char *p = strchr(tmpl, '{'); p; p = strchr(p + 1, '{')) {
        size_t len = template_param_at(p);
        if (len && !param_value(model, p, len)) {
            char word[80], hint[120];
            snprintf(word, sizeof word, "%.*s", (int)(len - 2), p + 1);
            snprintf(why, why_size, "unknown field {%s}: not one of {model} {seed} {i} {w} {h} {d}, and %s declares no parameter "
                     "'%s'%s", word, label, word, nearest_field(model, word, hint, sizeof hint));
            return false;
        }
    }
    return true;
}

bool template_has(const char *tmpl, const char *field)
{
    return strstr(tmpl, field) != NULL;
}

bool template_expand(const char *tmpl, const template_fields *f, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = tmpl; *p;) {
        char value[300];
        int field = *p == '{' ? field_at(p) : -1;
        size_t param = field < 0 ? template_param_at(p) : 0;
        if (param) {
            const char *v = param_value(f->params, p, param);
            if (!v || strlen(v) >= size - n) return false;
            memcpy(out + n, v, strlen(v));
            n += strlen(v);
            p += param;
            continue;
        }
        if (field < 0) {
            if (n + 1 >= size) return false;
            out[n++] = *p++;
            continue;
        }
        switch (field) {
        case 0: snprintf(value, sizeof value, "%s", f->model); break;
        case 1: snprintf(value, sizeof value, "%" PRId32, f->seed); break;
        case 2: snprintf(value, sizeof value, "%" PRId64, f->i); break;
        case 3: snprintf(value, sizeof value, "%d", f->w); break;
        case 4: snprintf(value, sizeof value, "%d", f->h); break;
        default: snprintf(value, sizeof value, "%d", f->d); break;
        }
        size_t len = strlen(value);
        if (n + len >= size) return false;
        memcpy(out + n, value, len);
        n += len;
        p += strlen(field_names[field]);
    }
    out[n] = 0;
    return true;
}
