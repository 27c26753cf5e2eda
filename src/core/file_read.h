/* file_read.h — opening and reading input files without following symbolic links, and from the opened descriptor only. */
#ifndef SMALTI_FILE_READ_H
#define SMALTI_FILE_READ_H
#include <stdbool.h>
#include <stddef.h>

/* Open `rel` (a relative name, '/'-separated) for reading beneath the folder open as root_fd,
   following no symbolic link in any part of it and never leaving the folder: openat2 with
   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS where the kernel has it, else openat with O_NOFOLLOW
   one part at a time. The name is resolved once, by the open itself, so nothing can be swapped
   between a check and the open. Opened non-blocking, so that a FIFO does not wait for a writer
   (file_read_fd then refuses it). -1 with errno: ELOOP (or EXDEV) for a link, ENOENT, ... */
int file_open_beneath(int root_fd, const char *rel);
/* Its fallback, without openat2 (its own name so that tests reach it on any kernel). */
int file_open_part_by_part(int root_fd, const char *rel);

/* Open `rel` for reading beneath the folder open as root_fd, following symbolic links as long as
   they stay beneath it (a resource folder may link inside itself): openat2 with RESOLVE_BENEATH
   where the kernel has it, else open and then check where the opened descriptor leads (through
   /proc/self/fd; refused when that cannot be known). Nothing is checked by name before the open,
   so nothing can be swapped in between. Non-blocking, as above. -1 with errno EXDEV when it
   leads out of the folder. */
int file_open_within(int root_fd, const char *rel);
/* Its fallback, without openat2 (for tests on any kernel). */
int file_open_within_checked(int root_fd, const char *rel);

/* Open the file named by path (links followed: a name the user gave) for reading, non-blocking. */
int file_open_named(const char *path);

/* Why file_read_fd gave no bytes. */
typedef enum file_read_status {
    FILE_READ_OK,
    FILE_READ_IO,          /* fstat or read failed: errno says why */
    FILE_READ_DIRECTORY,   /* a folder */
    FILE_READ_NOT_REGULAR, /* a device, FIFO or socket: never read, as it may not end (/dev/zero) */
    FILE_READ_TOO_LARGE,   /* more than max_bytes */
    FILE_READ_NO_MEMORY,
} file_read_status;

/* The whole regular file open as fd (not closed here), checked by fstat on the descriptor
   itself: at most max_bytes, in *len bytes plus a NUL after them (mem_free or free it).
   NULL with *status (and errno for FILE_READ_IO) set. */
unsigned char *file_read_fd(int fd, size_t max_bytes, size_t *len, file_read_status *status);

/* file_read_fd on the file named by path (links followed: a name the user gave), opened
   non-blocking and closed here; FILE_READ_IO with errno when it cannot be opened. */
unsigned char *file_read_named(const char *path, size_t max_bytes, size_t *len, file_read_status *status);

/* A few words for a status, for messages ("not a regular file (a device, FIFO or socket)"). */
const char *file_read_status_text(file_read_status status);
#endif
