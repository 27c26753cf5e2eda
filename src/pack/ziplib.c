/* ziplib.c — loading libzip and libcrypto at their first use: a run of a plain model never pays
   for mapping and relocating them (and libzip's own libraries) at start. */
#include "ziplib.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include "../core/diag.h"

/* Each library is loaded once, under pthread_once; after that its table (or the reason it could
   not be loaded) is only read. A library is never unloaded. */
typedef struct loaded {
    pthread_once_t once;
    const char *soname, *needed_by, *package;
    bool ok;
    char why[512];
} loaded;

static loaded zip_state = {PTHREAD_ONCE_INIT, "libzip.so.4", "packs", "libzip (libzip4)", false, ""};
static loaded crypto_state = {PTHREAD_ONCE_INIT, "libcrypto.so.3", "SHA-256 checksums", "libcrypto (libssl3)", false, ""};
static ziplib zip_table;
static cryptolib crypto_table;

/* The library's handle, or NULL with l->why set. */
static void *open_library(loaded *l)
{
    void *handle = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) snprintf(l->why, sizeof l->why, "%s", dlerror());
    return handle;
}

/* dlsym gives an object pointer; POSIX guarantees it converts to the function's pointer type. */
#define RESOLVE(name)                                                                                   \
    if (ok && !(table->name = (__typeof__(table->name))dlsym(handle, #name))) {                         \
        snprintf(l->why, sizeof l->why, "%s", dlerror());                                               \
        ok = false;                                                                                     \
    }

static void load_zip(void)
{
    loaded *l = &zip_state;
    ziplib *table = &zip_table;
    void *handle = open_library(l);
    bool ok = handle != NULL;
    ZIPLIB_FUNCTIONS(RESOLVE)
    l->ok = ok;
}

static void load_crypto(void)
{
    loaded *l = &crypto_state;
    cryptolib *table = &crypto_table;
    void *handle = open_library(l);
    bool ok = handle != NULL;
    CRYPTOLIB_FUNCTIONS(RESOLVE)
    l->ok = ok;
}

static bool ready(loaded *l, void (*load)(void), smalti_error *err)
{
    pthread_once(&l->once, load);
    if (!l->ok) error_set(err, SMALTI_ERR_RUNTIME, "", 0, "%s need %s: %s", l->needed_by, l->package, l->why);
    return l->ok;
}

const ziplib *ziplib_get(smalti_error *err) { return ready(&zip_state, load_zip, err) ? &zip_table : NULL; }

const cryptolib *cryptolib_get(smalti_error *err) { return ready(&crypto_state, load_crypto, err) ? &crypto_table : NULL; }
