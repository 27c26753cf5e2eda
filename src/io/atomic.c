/* atomic.c — write a file under a temporary name and rename it into place, so
   that a reader never sees a half-written output. */
#include "output.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "../core/diag.h"

bool atomic_open(atomic_file *af, const char *path, smalti_error *err)
{
    memset(af, 0, sizeof *af);
    if (snprintf(af->path, sizeof af->path, "%s", path) >= (int)sizeof af->path ||
        snprintf(af->tmp, sizeof af->tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof af->tmp) {
        error_set(err, SMALTI_ERR_IO, path, 0, "output path is too long");
        return false;
    }
    af->f = fopen(af->tmp, "wb");
    if (!af->f) {
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
        return false;
    }
    return true;
}

bool atomic_commit(atomic_file *af, smalti_error *err)
{
    bool ok = !ferror(af->f);
    ok = (fclose(af->f) == 0) && ok;
    af->f = NULL;
    if (ok && rename(af->tmp, af->path) == 0) return true;
    error_set(err, SMALTI_ERR_IO, af->path, 0, "cannot write: %s", strerror(errno ? errno : EIO));
    remove(af->tmp);
    return false;
}

void atomic_abort(atomic_file *af)
{
    if (af->f) fclose(af->f);
    af->f = NULL;
    remove(af->tmp);
}
