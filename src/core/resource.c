/* resource.c — resolve resource names to files under the resource roots, refusing names that climb out. */
#include "resource.h"
#include "file_read.h"
#include "mem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

bool resource_name_is_plain(const char *name, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    if (!name || !*name) return *why = "is empty", false;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return *why = "names a folder (\".\" or \"..\")", false;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if (*c == '/' || *c == '\\') return *why = "has a '/' or '\\'", false;
        if (*c < 0x20 || *c == 0x7f) return *why = "has a control character", false;
    }
    return true;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool resource_inside_root(const char *root, const char *path, char *real, size_t real_size)
{
    char *real_root = realpath(root, NULL), *real_path = realpath(path, NULL);
    bool inside = false;
    if (real_root && real_path) {
        size_t n = strlen(real_root);
        /* "/a/bc" is not inside "/a/b"; everything is inside "/". */
        inside = strncmp(real_path, real_root, n) == 0 && (real_path[n] == '/' || real_root[n - 1] == '/');
    }
    snprintf(real, real_size, "%s", real_path ? real_path : strerror(errno));
    mem_free(real_root);
    mem_free(real_path);
    return inside;
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
        char *path = mem_malloc(len);
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
        if (res && res->reader) {
            if (res->reader->read(res->reader->userdata, path, &(size_t){0})) return path;
        } else if (is_file(path)) {
            char real[512];
            if (any || resource_inside_root(roots[i], path, real, sizeof real)) return path;
            diag_error(d, SMALTI_ERR_MODEL, line,
                       "%s \"%s\" leaves the resource folder %s through a symbolic link (%s leads to %s); "
                       "pass --allow-any-path to allow it", what, name, roots[i], path, real);
            mem_free(path);
            return NULL;
        }
        if (i == 0) snprintf(tried, sizeof tried, "%s", path);
        mem_free(path);
    }
    diag_error(d, SMALTI_ERR_MODEL, line, "%s \"%s\" not found (looked for %s%s; --resources DIR says where resources are)",
               what, name, tried, count > 1 ? " and in the other resource roots" : "");
    return NULL;
}

int input_file_error(const char *path)
{
    /* Non-blocking: a FIFO with no writer must not hold the caller here (the read refuses it). */
    int fd = file_open_named(path);
    if (fd < 0) return errno ? errno : ENOENT;
    struct stat st;
    int e = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) ? EISDIR : 0;
    close(fd);
    return e;
}

/* The root of res that path (as resource_find built it) lies under, and the rest of path after it. */
static const char *root_of(const resources *res, const char *path, const char **rel)
{
    static const char *const fallback[] = {"resources"};
    const char *const *roots = res && res->root_count > 0 ? res->roots : fallback;
    int count = res && res->root_count > 0 ? res->root_count : 1;
    for (int i = 0; i < count; i++) {
        size_t n = strlen(roots[i]);
        if (strncmp(path, roots[i], n) == 0 && path[n] == '/' && path[n + 1]) {
            *rel = path + n + 1;
            return roots[i];
        }
    }
    return NULL;
}

/* Open the resource at path beneath its root, links allowed while they stay beneath it (the
   one open; nothing checked by name before it). NULL res: path is a name the user gave. */
static int open_resource(const resources *res, const char *path)
{
    const char *rel = NULL, *root = res && !res->allow_any_path ? root_of(res, path, &rel) : NULL;
    if (!root) {
        if (res && !res->allow_any_path) return errno = EXDEV, -1;
        return file_open_named(path);
    }
    int root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) return -1;
    int fd = file_open_within(root_fd, rel);
    int e = errno;
    close(root_fd);
    errno = e;
    return fd;
}

/* Read from the descriptor that opened the file, a regular file only: a resource swapped for a
   device, FIFO or a link out of the root after resource_find looked (/dev/zero, a pipe with no
   writer) is refused, not read without end. */
unsigned char *resource_read_file(const resources *res, diag *d, int line, const char *path, const char *what, long max_bytes,
                                  size_t *len)
{
    int fd = open_resource(res, path);
    if (fd < 0 && errno == EXDEV) {
        diag_error(d, SMALTI_ERR_MODEL, line,
                   "%s: the %s leaves the resource folder through a symbolic link; pass --allow-any-path to allow it", path,
                   what);
        return NULL;
    }
    if (fd < 0) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: cannot open the %s: %s", path, what, strerror(errno));
        return NULL;
    }
    file_read_status status;
    unsigned char *buf = file_read_fd(fd, max_bytes > 0 ? (size_t)max_bytes : 0, len, &status);
    int e = errno;
    close(fd);
    errno = e;
    if (status == FILE_READ_NO_MEMORY) diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
    else if (status == FILE_READ_TOO_LARGE)
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: a %s larger than %ld bytes is absurd", path, what, max_bytes);
    else if (status == FILE_READ_DIRECTORY) diag_error(d, SMALTI_ERR_MODEL, line, "%s: cannot open the %s: %s", path, what, strerror(EISDIR));
    else if (status != FILE_READ_OK) diag_error(d, SMALTI_ERR_MODEL, line, "%s: cannot read the %s: %s", path, what, file_read_status_text(status));
    return buf;
}
