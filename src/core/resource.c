/* resource.c — resolve resource names to files under the resource roots, refusing names that climb out. */
#include "resource.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A name escapes when it is absolute or has a ".." component. */
static bool escapes(const char *name)
{
    if (!name || !*name) return false;
    if (name[0] == '/' || name[0] == '\\' || (name[1] == ':' && (name[2] == '/' || name[2] == '\\'))) return true;
    const char *p = name;
    while (*p) {
        size_t len = strcspn(p, "/\\");
        if (len == 2 && p[0] == '.' && p[1] == '.') return true;
        p += len;
        if (*p) p++;
    }
    return false;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *resource_find(const resources *res, diag *d, int line, const char *what, const char *subdir, const char *name,
                    const char *ext)
{
    if (!name || !*name) {
        diag_error(d, SMALTI_ERR_MODEL, line, "empty %s name", what);
        return NULL;
    }
    bool any = res && res->allow_any_path;
    if (!any && (escapes(name) || escapes(subdir))) {
        diag_error(d, SMALTI_ERR_MODEL, line,
                   "%s \"%s%s%s\" climbs out of the resource root; pass --allow-any-path to allow it", what,
                   subdir ? subdir : "", subdir && *subdir ? "/" : "", name);
        return NULL;
    }
    const char *fallback[] = {"resources"};
    const char *const *roots = res && res->root_count > 0 ? res->roots : fallback;
    int count = res && res->root_count > 0 ? res->root_count : 1;
    char tried[512] = "";
    for (int i = 0; i < count; i++) {
        size_t len = strlen(roots[i]) + strlen(subdir ? subdir : "") + strlen(name) + strlen(ext ? ext : "") + 4;
        char *path = malloc(len);
        if (!path) {
            diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
            return NULL;
        }
        /* An absolute name (allowed by --allow-any-path) stands on its own. */
        if (any && (name[0] == '/' || name[0] == '\\'))
            snprintf(path, len, "%s%s", name, ext ? ext : "");
        else
            snprintf(path, len, "%s/%s%s%s%s", roots[i], subdir ? subdir : "", subdir && *subdir ? "/" : "", name,
                     ext ? ext : "");
        if (res && res->reader ? res->reader->read(res->reader->userdata, path, &(size_t){0}) != NULL : is_file(path))
            return path;
        if (i == 0) snprintf(tried, sizeof tried, "%s", path);
        free(path);
    }
    diag_error(d, SMALTI_ERR_MODEL, line, "%s \"%s\" not found (looked for %s%s; --resources DIR says where resources are)",
               what, name, tried, count > 1 ? " and in the other resource roots" : "");
    return NULL;
}
