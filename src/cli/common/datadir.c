/* datadir.c — where an installed smalti keeps its bundled models: share/smalti beside the binary's
   prefix, so that `smalti run maze` finds them without a path. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by install.mk from PREFIX (make install's prefix); a build without it has the usual one. */
#ifndef SMALTI_DATADIR
#define SMALTI_DATADIR "/usr/local/share/smalti"
#endif

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* DIR/models when DIR/models/pack.xml exists. */
static bool models_in(const char *dir, char *buf, size_t size)
{
    char manifest[4096];
    int n = snprintf(buf, size, "%s/models", dir);
    if (n < 0 || (size_t)n >= size) return false;
    n = snprintf(manifest, sizeof manifest, "%s/pack.xml", buf);
    return n > 0 && (size_t)n < sizeof manifest && access(manifest, R_OK) == 0;
}

bool datadir_models(char *buf, size_t size)
{
    /* $SMALTI_DATADIR first; then ../share/smalti from the running binary, so that a copy
       installed under another root (a DESTDIR, a moved prefix) finds its own; then the
       folder it was built for. */
    const char *env = getenv("SMALTI_DATADIR");
    if (env && *env) return models_in(env, buf, size);
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            char dir[4096 + 32];
            snprintf(dir, sizeof dir, "%s/../share/smalti", exe);
            if (is_dir(dir) && models_in(dir, buf, size)) return true;
        }
    }
    return models_in(SMALTI_DATADIR, buf, size);
}

bool datadir_find_model(const char *name, char *dir, size_t size, char *model, size_t model_size)
{
    if (!*name || strchr(name, '/') || access(name, F_OK) == 0) return false;
    if (!datadir_models(dir, size)) return false;
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".xml") == 0) n -= 4;
    if (n == 0 || n + 1 > model_size) return false;
    memcpy(model, name, n);
    model[n] = 0;
    char file[4096 + 300];
    snprintf(file, sizeof file, "%s/%s.xml", dir, model);
    return access(file, R_OK) == 0;
}
