/* httplib.c — loading libmicrohttpd at the first `smalti studio`: every other command starts
   without mapping it and the libraries it needs (gnutls, nettle, gmp, p11-kit, ...). */
#include "httplib.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

/* Loaded once, under pthread_once; afterwards only read. Never unloaded. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[512];
static httplib table;

/* dlsym gives an object pointer; POSIX guarantees it converts to the function's pointer type. */
#define RESOLVE(name)                                                                  \
    if (ok && !(table.name = (__typeof__(table.name))dlsym(handle, #name))) {          \
        snprintf(load_error, sizeof load_error, "%s", dlerror());                      \
        ok = false;                                                                    \
    }

static void load(void)
{
    void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    bool ok = handle != NULL;
    if (!ok) snprintf(load_error, sizeof load_error, "%s", dlerror());
    HTTPLIB_FUNCTIONS(RESOLVE)
    loaded = ok;
}

const httplib *httplib_get(char *why, size_t why_size)
{
    pthread_once(&load_once, load);
    if (!loaded && why) snprintf(why, why_size, "studio needs libmicrohttpd (libmicrohttpd12): %s", load_error);
    return loaded ? &table : NULL;
}
