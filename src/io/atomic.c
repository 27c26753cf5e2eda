/* atomic.c — write a file under a temporary name and rename it into place, so
   that a reader never sees a half-written output. A target that is not a
   regular file is never renamed over: "-" is standard output, and an existing
   character device or FIFO (/dev/null, a pipe) is written directly, as a
   rename would replace it with a plain file; a folder, block device or socket
   is refused. A symbolic link at the output path is never followed to a file:
   in a shared sticky folder (/tmp) anyone may plant one, and following it would
   overwrite whatever file it leads to. Only a link whose final target is a
   character device or FIFO (/dev/stdout onto a terminal or a pipe, a link to
   /dev/null) is written through, and that is checked on the opened descriptor
   (fstat), so a swap after the check cannot turn it into a file; a link to
   anything else is refused ("-" writes to standard output). Writing over an
   existing regular file keeps its permission bits. The temp_hook hears of each
   temporary name before its file is made and after it is renamed or removed. */
#include "output.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../core/diag.h"

/* A target that exists and is not a regular file (st: what lstat saw): open it for writing as
   it is, or refuse it. Opened without O_CREAT or O_TRUNC, and its type checked again on the
   descriptor, so whatever replaced it since lstat is at most opened, never changed. */
static bool open_special(atomic_file *af, const struct stat *st, smalti_error *err)
{
    const bool link = S_ISLNK(st->st_mode);
    const char *refused = S_ISDIR(st->st_mode)   ? "is a directory"
                          : S_ISBLK(st->st_mode) ? "is a block device; smalti writes files, character devices and FIFOs"
                          : S_ISSOCK(st->st_mode) ? "is a socket; smalti writes files, character devices and FIFOs"
                                                  : NULL;
    if (refused) {
        error_set(err, SMALTI_ERR_IO, af->path, 0, "%s", refused);
        return false;
    }
    static const char link_refused[] = "is a symbolic link; smalti follows a link only to a character "
                                       "device or FIFO, never to a file (standard output is -o -)";
    int fd = open(af->path, O_WRONLY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        /* A dangling link, or one to a folder or an unwritable file: refused as a link. */
        if (link && errno != EINTR) error_set(err, SMALTI_ERR_IO, af->path, 0, "%s", link_refused);
        else error_set(err, SMALTI_ERR_IO, af->path, 0, "cannot write: %s", strerror(errno));
        return false;
    }
    struct stat opened;
    if (fstat(fd, &opened) != 0 || !(S_ISCHR(opened.st_mode) || S_ISFIFO(opened.st_mode))) {
        close(fd);
        error_set(err, SMALTI_ERR_IO, af->path, 0, "%s", link ? link_refused : "changed while being opened; refused");
        return false;
    }
    if (!(af->f = fdopen(fd, "wb"))) {
        close(fd);
        error_set(err, SMALTI_ERR_IO, af->path, 0, "cannot write: %s", strerror(errno));
        return false;
    }
    return true;
}

/* The temporary name is free again: renamed into place or removed. */
static void release(atomic_file *af)
{
    if (af->temps) af->temps->release(af->temps->ctx, af->tmp);
    af->tmp[0] = 0;
}

/* Temporary names tried: NAME.tmpPID, then NAME.tmpPID.1 and so on. */
#define ATOMIC_TEMP_TRIES 16

/* Make the temporary file beside `target`. It is created here and never opened if it exists
   (O_EXCL, O_NOFOLLOW), so a symbolic link planted at its name cannot send the write elsewhere; a
   name already taken (by such a link, or a file left by an earlier process with the same id) is
   passed over for the next. */
static bool open_temp(atomic_file *af, const char *target, smalti_error *err)
{
    for (int attempt = 0; attempt < ATOMIC_TEMP_TRIES; attempt++) {
        int n = attempt == 0 ? snprintf(af->tmp, sizeof af->tmp, "%s.tmp%ld", target, (long)getpid())
                             : snprintf(af->tmp, sizeof af->tmp, "%s.tmp%ld.%d", target, (long)getpid(), attempt);
        if (n >= (int)sizeof af->tmp) {
            error_set(err, SMALTI_ERR_IO, af->path, 0, "output path is too long");
            af->tmp[0] = 0;
            return false;
        }
        /* Told before the file exists, so that no moment is left when it exists unlisted. */
        if (af->temps) af->temps->claim(af->temps->ctx, af->tmp);
        int fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        const bool opened = fd >= 0 && (af->f = fdopen(fd, "wb")) != NULL;
        int e = errno;
        if (af->temps && af->temps->made) af->temps->made(af->temps->ctx, af->tmp);
        if (opened) return true;
        if (fd >= 0) {
            close(fd);
            remove(af->tmp);
        }
        release(af);
        if (fd >= 0 || e != EEXIST) {
            error_set(err, SMALTI_ERR_IO, af->path, 0, "cannot write: %s", strerror(e));
            return false;
        }
    }
    error_set(err, SMALTI_ERR_IO, af->path, 0, "cannot write: %d temporary names beside it are taken (%s.tmp%ld...)",
              ATOMIC_TEMP_TRIES, target, (long)getpid());
    return false;
}

bool atomic_open(atomic_file *af, const char *path, const temp_hook *temps, smalti_error *err)
{
    memset(af, 0, sizeof *af);
    if (snprintf(af->path, sizeof af->path, "%s", path) >= (int)sizeof af->path) {
        error_set(err, SMALTI_ERR_IO, path, 0, "output path is too long");
        return false;
    }
    if (strcmp(path, "-") == 0) {
        af->f = stdout;
        return true;
    }
    struct stat st;
    const bool exists = lstat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) return open_special(af, &st, err);
    if (snprintf(af->target, sizeof af->target, "%s", path) >= (int)sizeof af->target) {
        error_set(err, SMALTI_ERR_IO, path, 0, "output path is too long");
        return false;
    }
    af->temps = temps;
    if (!open_temp(af, path, err)) return false;
    /* The new file takes the old one's permission bits (a 0600 file stays private); the rename
       replaces whatever is at the path then, and never follows a link. */
    if (exists && fchmod(fileno(af->f), st.st_mode & 0777) != 0) {
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
        atomic_abort(af);
        return false;
    }
    return true;
}

/* Close the file, or only flush standard output, which stays open. */
static bool close_file(atomic_file *af)
{
    if (!af->f) return true; /* closed already (atomic_commit_pair) */
    bool ok = !ferror(af->f);
    ok = (af->f == stdout ? fflush(af->f) == 0 : fclose(af->f) == 0) && ok;
    af->f = NULL;
    return ok;
}

bool atomic_commit(atomic_file *af, smalti_error *err)
{
    bool ok = close_file(af);
    if (ok && (!af->tmp[0] || rename(af->tmp, af->target) == 0)) {
        if (af->tmp[0]) release(af);
        return true;
    }
    error_set(err, SMALTI_ERR_IO, af->path, 0, "cannot write: %s", strerror(errno ? errno : EIO));
    atomic_abort(af);
    return false;
}

void atomic_abort(atomic_file *af)
{
    if (af->f) close_file(af);
    if (!af->tmp[0]) return;
    remove(af->tmp);
    release(af);
}

bool atomic_commit_pair(atomic_file *first, atomic_file *second, smalti_error *err)
{
    bool ok_first = close_file(first), ok_second = close_file(second);
    if (!ok_first || !ok_second) {
        error_set(err, SMALTI_ERR_IO, ok_first ? second->path : first->path, 0, "cannot write: %s", strerror(errno ? errno : EIO));
        atomic_abort(first);
        atomic_abort(second);
        return false;
    }
    /* Both are complete: now the renames, which fail only when the folder changes under us. */
    if (!atomic_commit(first, err)) {
        atomic_abort(second);
        return false;
    }
    return atomic_commit(second, err);
}
