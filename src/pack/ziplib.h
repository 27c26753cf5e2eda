/* ziplib.h — libzip and libcrypto, loaded at first use (dlopen) so that a command without packs maps neither. */
#ifndef SMALTI_PACK_ZIPLIB_H
#define SMALTI_PACK_ZIPLIB_H
#include <openssl/evp.h>
#include <zip.h>
#include "smalti.h"

/* The headers give each function's type; the table holds exactly the functions pack.c and the
   pack writer (zip_write.c) call, by their own names (zl->zip_open(...)). */
#define ZIPLIB_FUNCTIONS(X)                                                                                     \
    X(zip_close) X(zip_discard) X(zip_error_code_system) X(zip_error_code_zip) X(zip_error_fini)                \
    X(zip_error_init) X(zip_error_init_with_code) X(zip_error_set) X(zip_error_strerror) X(zip_fclose)          \
    X(zip_file_add) X(zip_file_get_external_attributes) X(zip_file_set_dostime)                                 \
    X(zip_file_set_external_attributes) X(zip_file_strerror) X(zip_fopen_index) X(zip_fread) X(zip_get_error)   \
    X(zip_get_name) X(zip_get_num_entries) X(zip_name_locate) X(zip_open) X(zip_open_from_source)              \
    X(zip_set_file_compression) X(zip_source_buffer) X(zip_source_buffer_create) X(zip_source_close)           \
    X(zip_source_free) X(zip_source_keep) X(zip_source_open) X(zip_source_read) X(zip_source_stat)             \
    X(zip_stat_index) X(zip_stat_init) X(zip_strerror)
#define CRYPTOLIB_FUNCTIONS(X) X(EVP_Digest) X(EVP_sha256)

#define ZIPLIB_FIELD(name) __typeof__(&name) name;
typedef struct ziplib {
    ZIPLIB_FUNCTIONS(ZIPLIB_FIELD)
} ziplib;
typedef struct cryptolib {
    CRYPTOLIB_FUNCTIONS(ZIPLIB_FIELD)
} cryptolib;
#undef ZIPLIB_FIELD

/* libzip.so.4, loaded once (thread-safe); NULL with err set when it cannot be:
   "packs need libzip (libzip4): DLERROR", SMALTI_ERR_RUNTIME. */
const ziplib *ziplib_get(smalti_error *err);
/* libcrypto.so.3 (SHA-256), likewise: "SHA-256 checksums need libcrypto (libssl3): DLERROR". */
const cryptolib *cryptolib_get(smalti_error *err);

#endif
