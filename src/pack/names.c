/* names.c — what a pack may call its entries (no zip slip), and semantic versions. */
#include "pack.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool pack_name_is_safe(const char *name, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    if (!name || !*name) return *why = "is empty", false;
    if (name[0] == '/') return *why = "is an absolute path", false;
    if (strchr(name, '\\')) return *why = "has a backslash (zip names separate folders with '/')", false;
    if (isalpha((unsigned char)name[0]) && name[1] == ':') return *why = "starts with a drive letter", false;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (*c < 0x20 || *c == 0x7f) return *why = "has a control character", false;
    const char *part = name;
    while (*part) {
        size_t len = strcspn(part, "/");
        if (len == 2 && part[0] == '.' && part[1] == '.') return *why = "has a \"..\" part, which climbs out of the pack", false;
        if (len == 1 && part[0] == '.') return *why = "has a \".\" part", false;
        /* "a//b": an empty part; a trailing '/' is allowed (a zip's folder entry). */
        if (len == 0 && part[0] == '/') return *why = "has an empty part (\"//\")", false;
        part += len;
        if (*part) part++;
    }
    return true;
}

bool pack_parse_version(const char *text, long out[3])
{
    if (!text) return false;
    const char *p = text;
    for (int i = 0; i < 3; i++) {
        if (!isdigit((unsigned char)*p)) return false;
        /* Semantic versioning: no leading zeros. */
        if (*p == '0' && isdigit((unsigned char)p[1])) return false;
        char *end;
        long v = strtol(p, &end, 10);
        if (v < 0 || v > 999999999L) return false;
        out[i] = v;
        p = end;
        if (i < 2) {
            if (*p != '.') return false;
            p++;
        }
    }
    if (*p == 0) return true;
    if (*p != '-' && *p != '+') return false;
    /* The pre-release and build tail: dot-separated identifiers of [0-9A-Za-z-]. */
    for (p++; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.' && *p != '+') return false;
    return p[-1] != '.' && p[-1] != '-' && p[-1] != '+';
}

int pack_compare_versions(const char *a, const char *b)
{
    long va[3] = {0}, vb[3] = {0};
    pack_parse_version(a, va);
    pack_parse_version(b, vb);
    for (int i = 0; i < 3; i++)
        if (va[i] != vb[i]) return va[i] < vb[i] ? -1 : 1;
    /* A pre-release comes before its release: 1.0.0-rc1 < 1.0.0. */
    bool pa = strchr(a, '-') && (!strchr(a, '+') || strchr(a, '-') < strchr(a, '+'));
    bool pb = strchr(b, '-') && (!strchr(b, '+') || strchr(b, '-') < strchr(b, '+'));
    return pa == pb ? 0 : pa ? -1 : 1;
}
