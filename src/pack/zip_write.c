/* zip_write.c — a reproducible zip through libzip: sorted entries, fixed times, modes and
   compression level, and a SHA256SUMS list inside; built in memory so that the caller can
   write it atomically. */
#include "zip_write.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../core/diag.h"
#include "ziplib.h"

void pack_dos_time(int64_t unix_time, uint16_t *dos_time, uint16_t *dos_date)
{
    const int64_t dos_first = 315532800;   /* 1980-01-01 00:00:00 UTC */
    const int64_t dos_last = 4354819198LL; /* 2107-12-31 23:59:58 UTC */
    if (unix_time < dos_first) unix_time = dos_first;
    if (unix_time > dos_last) unix_time = dos_last;
    time_t t = (time_t)unix_time;
    struct tm tm;
    gmtime_r(&t, &tm);
    *dos_date = (uint16_t)(((tm.tm_year + 1900 - 1980) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
    *dos_time = (uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const zip_member *)a)->name, ((const zip_member *)b)->name);
}

void zip_members_sort(zip_member *members, size_t count) { qsort(members, count, sizeof *members, by_name); }

const zip_member *zip_members_find(const zip_member *members, size_t count, const char *name)
{
    zip_member key = {.name = (char *)name};
    return bsearch(&key, members, count, sizeof *members, by_name);
}

/* "HEX  NAME\n" for each member, in their (sorted) order. */
static char *checksum_list(const zip_member *members, size_t count, size_t *len)
{
    size_t cap = 1;
    for (size_t i = 0; i < count; i++) cap += 64 + 2 + strlen(members[i].name) + 1;
    char *text = malloc(cap);
    if (!text) return NULL;
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        char hex[65];
        pack_sha256_hex(members[i].data, members[i].size, hex);
        at += (size_t)snprintf(text + at, cap - at, "%s  %s\n", hex, members[i].name);
    }
    *len = at;
    return text;
}

static bool add_entry(const ziplib *zl, zip_t *za, const char *name, const void *data, size_t size, uint16_t dos_time, uint16_t dos_date)
{
    zip_source_t *src = zl->zip_source_buffer(za, data, size, 0);
    if (!src) return false;
    zip_int64_t idx = zl->zip_file_add(za, name, src, ZIP_FL_ENC_UTF_8);
    if (idx < 0) {
        zl->zip_source_free(src);
        return false;
    }
    return zl->zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_DEFLATE, 6) == 0 &&
           zl->zip_file_set_dostime(za, (zip_uint64_t)idx, dos_time, dos_date, 0) == 0 &&
           zl->zip_file_set_external_attributes(za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX, (zip_uint32_t)0100644 << 16) == 0;
}

/* The bytes libzip wrote into the memory source. */
static bool take_bytes(const ziplib *zl, zip_source_t *mem, unsigned char **out, size_t *out_size)
{
    zip_stat_t st;
    if (zl->zip_source_open(mem) < 0) return false;
    bool ok = zl->zip_source_stat(mem, &st) == 0 && (st.valid & ZIP_STAT_SIZE);
    unsigned char *buf = ok ? malloc(st.size ? (size_t)st.size : 1) : NULL;
    ok = buf && zl->zip_source_read(mem, buf, st.size) == (zip_int64_t)st.size;
    zl->zip_source_close(mem);
    if (!ok) {
        free(buf);
        return false;
    }
    *out = buf;
    *out_size = (size_t)st.size;
    return true;
}

bool pack_zip_build(zip_member *members, size_t count, uint16_t dos_time, uint16_t dos_date, const char *out_name,
                    unsigned char **zip, size_t *zip_size, smalti_error *err)
{
    /* Both libraries first: the checksums below are taken with libcrypto. */
    const ziplib *zl = ziplib_get(err);
    if (!zl || !cryptolib_get(err)) return false;
    zip_members_sort(members, count);
    size_t sums_len = 0;
    char *sums = checksum_list(members, count, &sums_len);
    zip_error_t ze;
    zl->zip_error_init(&ze);
    zip_source_t *mem = sums ? zl->zip_source_buffer_create(NULL, 0, 0, &ze) : NULL;
    zip_t *za = NULL;
    bool ok = false;
    if (mem) {
        zl->zip_source_keep(mem); /* it outlives the archive: the bytes are read from it after zip_close */
        za = zl->zip_open_from_source(mem, ZIP_TRUNCATE, &ze);
    }
    if (za) {
        /* The checksum list goes where its name sorts among the members. */
        bool sums_added = false;
        ok = true;
        for (size_t i = 0; ok && i <= count; i++) {
            if (!sums_added && (i == count || strcmp(PACK_CHECKSUMS_NAME, members[i].name) < 0)) {
                ok = add_entry(zl, za, PACK_CHECKSUMS_NAME, sums, sums_len, dos_time, dos_date);
                sums_added = true;
            }
            if (ok && i < count) ok = add_entry(zl, za, members[i].name, members[i].data, members[i].size, dos_time, dos_date);
        }
        if (!ok) zl->zip_error_set(&ze, zl->zip_error_code_zip(zl->zip_get_error(za)), zl->zip_error_code_system(zl->zip_get_error(za)));
        if (ok && zl->zip_close(za) < 0) {
            zl->zip_error_set(&ze, zl->zip_error_code_zip(zl->zip_get_error(za)), zl->zip_error_code_system(zl->zip_get_error(za)));
            ok = false;
        }
        if (!ok) zl->zip_discard(za);
        else if (!take_bytes(zl, mem, zip, zip_size)) {
            zl->zip_error_set(&ze, ZIP_ER_MEMORY, 0);
            ok = false;
        }
    }
    if (!sums) zl->zip_error_set(&ze, ZIP_ER_MEMORY, 0);
    if (!ok) error_set(err, SMALTI_ERR_IO, out_name, 0, "cannot make the zip: %s", zl->zip_error_strerror(&ze));
    zl->zip_error_fini(&ze);
    if (mem) zl->zip_source_free(mem);
    free(sums);
    return ok;
}
