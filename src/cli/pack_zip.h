/* pack_zip.h — writing a reproducible pack zip (pack_zip.c), for `smalti pack build`. */
#ifndef SMALTI_PACK_ZIP_H
#define SMALTI_PACK_ZIP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../pack/pack.h" /* PACK_CHECKSUMS_NAME, pack_sha256_hex */

/* One file of the pack, as it will be stored: its name inside the zip ("models/a.xml") and its bytes. */
typedef struct zip_member {
    char *name;
    unsigned char *data;
    size_t size;
} zip_member;


/* Sort members by name (byte order), and find one by name in sorted members (NULL if none). */
void zip_members_sort(zip_member *members, size_t count);
const zip_member *zip_members_find(const zip_member *members, size_t count, const char *name);


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
