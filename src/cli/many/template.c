/* template.c — output names of many runs from a template: 'out/{model}_{seed}.png'. */
#include "many.h"
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

bool template_check(const char *tmpl, char *why, size_t why_size)
{
    for (const char *p = tmpl; *p; p++) {
        if (*p == '}' ) {
            snprintf(why, why_size, "a '}' that closes no field at \"%s\"", p);
            return false;
        }
        if (*p != '{') continue;
        int f = field_at(p);
        if (f < 0) {
            snprintf(why, why_size, "unknown field at \"%s\": the fields are {model} {seed} {i} {w} {h} {d}", p);
            return false;
        }
        p += strlen(field_names[f]) - 1;
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
