/* zip_write.h — writing a reproducible pack zip (zip_write.c), for `smalti pack build`. */
#ifndef SMALTI_PACK_ZIP_WRITE_H
#define SMALTI_PACK_ZIP_WRITE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "pack.h" /* PACK_CHECKSUMS_NAME, pack_sha256_hex */

/* One file of the pack, as it will be stored: its name inside the zip ("models/a.xml") and its bytes. */
typedef struct zip_member {
    char *name;
    unsigned char *data;
    size_t size;
} zip_member;


/* Sort members by name (byte order), and find one by name in sorted members (NULL if none). */
void zip_members_sort(zip_member *members, size_t count);
const zip_member *zip_members_find(const zip_member *members, size_t count, const char *name);


/* The files of a pack folder as pack build takes them (pack_build.c): plain files only (a link,
   device, FIFO or socket refused), hidden files, backups and a top SHA256SUMS left out, names a
   pack reader accepts, at most cap_bytes (0: the default cap) in all; sorted by name. false with
   err naming the file. */
bool pack_folder_members(const char *dir, uint64_t cap_bytes, zip_member **members, size_t *count, smalti_error *err);
/* Whether members (sorted) hold every model and thumbnail p's manifest names, and every model loads
   from them with the pack's resources only; root names the pack in messages. */
bool pack_members_usable(const pack *p, const char *root, zip_member *members, size_t count, smalti_error *err);
void zip_members_free(zip_member *members, size_t count);

/* MS-DOS date and time (what a zip entry stores) of a Unix time, in UTC, clamped to the
   years DOS can say (1980 to 2107). */
void pack_dos_time(int64_t unix_time, uint16_t *dos_time, uint16_t *dos_date);

/* The zip of members (sorted here) plus PACK_CHECKSUMS_NAME, in memory: every entry deflated
   at level 6 (zlib's default; level 9 took five times as long on the MarkovJunior corpus for a
   zip 3 % smaller), stamped dos_time/dos_date, Unix mode 0644, no extra fields, no directory
   entries. The same members give the same bytes. *zip is malloc'd; false with
   err set (naming out_name) when libzip fails. */
bool pack_zip_build(zip_member *members, size_t count, uint16_t dos_time, uint16_t dos_date, const char *out_name,
                    unsigned char **zip, size_t *zip_size, smalti_error *err);
#endif
