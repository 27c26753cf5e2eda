/* file_read.c — open input files without following links (openat2, or openat a part at a time) and read them from the descriptor, bounded. */
#include "file_read.h"
#include "mem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPENAT2 1
#endif
#endif

#define READ_FLAGS (O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

/* The fallback for kernels before 5.6 (or a seccomp filter that refuses openat2): each part
   opened relative to the one before, none of them a link. ".." is refused, as it could climb. */
int file_open_part_by_part(int root_fd, const char *rel)
{
    int dir = root_fd;
    const char *p = rel;
    for (;;) {
        size_t len = strcspn(p, "/");
        char part[256];
        if (len == 0 || len >= sizeof part) {
            errno = len ? ENAMETOOLONG : ENOENT;
            break;
        }
        memcpy(part, p, len);
        part[len] = 0;
        if (strcmp(part, "..") == 0) {
            errno = EXDEV;
            break;
        }
        const bool last = p[len] == 0;
        int fd = openat(dir, part, last ? READ_FLAGS : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        if (dir != root_fd) close(dir);
        errno = e;
        if (fd < 0 || last) return fd;
        dir = fd;
        p += len + 1;
    }
    if (dir != root_fd) {
        int e = errno;
        close(dir);
        errno = e;
    }
    return -1;
}

int file_open_beneath(int root_fd, const char *rel)
{
#if defined(SYS_openat2) && defined(HAVE_OPENAT2)
    struct open_how how = {.flags = READ_FLAGS, .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS};
    long fd = syscall(SYS_openat2, root_fd, rel, &how, sizeof how);
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return (int)fd;
#endif
    return file_open_part_by_part(root_fd, rel);
}

/* Where the descriptor fd leads, as the kernel knows it (the path a realpath of the file would give). */
static bool fd_real_path(int fd, char *out, size_t size)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, size - 1);
    if (n <= 0 || (size_t)n >= size - 1) return false;
    out[n] = 0;
    return out[0] == '/';
}

/* The fallback of file_open_within: open, links followed, then ask the kernel where the opened
   file is. The check is on the descriptor itself, so a swap after it changes nothing we read.
   Without /proc the answer is unknown and the file is refused. */
static int open_then_check_within(int root_fd, const char *rel)
{
    int fd = openat(root_fd, rel, (READ_FLAGS & ~O_NOFOLLOW));
    if (fd < 0) return -1;
    char root[4096], real[4096];
    bool inside = false;
    if (fd_real_path(root_fd, root, sizeof root) && fd_real_path(fd, real, sizeof real)) {
        size_t n = strlen(root);
        /* "/a/bc" is not inside "/a/b"; everything is inside "/". */
        inside = strncmp(real, root, n) == 0 && (real[n] == '/' || (n == 1 && root[0] == '/'));
    }
    if (!inside) {
        close(fd);
        errno = EXDEV;
        return -1;
    }
    return fd;
}

int file_open_within(int root_fd, const char *rel)
{
#if defined(SYS_openat2) && defined(HAVE_OPENAT2)
    struct open_how how = {.flags = READ_FLAGS & ~O_NOFOLLOW, .resolve = RESOLVE_BENEATH};
    long fd = syscall(SYS_openat2, root_fd, rel, &how, sizeof how);
    /* EXDEV also comes from an absolute link, even one that leads back inside the folder: the
       check on the opened descriptor decides those. */
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != EXDEV)) return (int)fd;
#endif
    return open_then_check_within(root_fd, rel);
}

int file_open_within_checked(int root_fd, const char *rel) { return open_then_check_within(root_fd, rel); }

unsigned char *file_read_named(const char *path, size_t max_bytes, size_t *len, file_read_status *status)
{
    int fd = file_open_named(path);
    if (fd < 0) return *status = FILE_READ_IO, NULL;
    unsigned char *data = file_read_fd(fd, max_bytes, len, status);
    int e = errno;
    close(fd);
    errno = e;
    return data;
}

int file_open_named(const char *path) { return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); }

unsigned char *file_read_fd(int fd, size_t max_bytes, size_t *len, file_read_status *status)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return *status = FILE_READ_IO, NULL;
    if (S_ISDIR(st.st_mode)) return *status = FILE_READ_DIRECTORY, NULL;
    if (!S_ISREG(st.st_mode)) return *status = FILE_READ_NOT_REGULAR, NULL;
    if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) return *status = FILE_READ_TOO_LARGE, NULL;
    /* The size fstat gave bounds the read: a file that grows meanwhile is read as it was. */
    size_t size = (size_t)st.st_size, n = 0;
    unsigned char *data = mem_malloc(size + 1);
    if (!data) return *status = FILE_READ_NO_MEMORY, NULL;
    while (n < size) {
        ssize_t got = read(fd, data + n, size - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int e = errno;
            mem_free(data);
            errno = e;
            return *status = FILE_READ_IO, NULL;
        }
        if (got == 0) break; /* it shrank */
        n += (size_t)got;
    }
    data[n] = 0;
    *len = n;
    *status = FILE_READ_OK;
    return data;
}

const char *file_read_status_text(file_read_status status)
{
    switch (status) {
    case FILE_READ_OK: return "read";
    case FILE_READ_IO: return strerror(errno);
    case FILE_READ_DIRECTORY: return "is a directory";
    case FILE_READ_NOT_REGULAR: return "not a regular file (a device, FIFO or socket)";
    case FILE_READ_TOO_LARGE: return "larger than the cap";
    case FILE_READ_NO_MEMORY: return "out of memory";
    }
    return "cannot read";
}
