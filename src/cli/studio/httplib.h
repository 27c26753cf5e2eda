/* httplib.h — libmicrohttpd, loaded when `smalti studio` starts (dlopen), so that no other command maps it and the TLS libraries it pulls in. */
#ifndef SMALTI_CLI_HTTPLIB_H
#define SMALTI_CLI_HTTPLIB_H
#include <microhttpd.h>
#include <stddef.h>

/* Exactly the functions studio_http.c calls, typed by the header, by their own names (mhd->MHD_start_daemon(...)). */
#define HTTPLIB_FUNCTIONS(X)                                                                                  \
    X(MHD_add_response_header) X(MHD_create_response_from_buffer) X(MHD_create_response_from_callback)       \
    X(MHD_destroy_response) X(MHD_get_connection_info) X(MHD_get_daemon_info) X(MHD_lookup_connection_value) X(MHD_queue_response)      \
    X(MHD_start_daemon) X(MHD_stop_daemon)

#define HTTPLIB_FIELD(name) __typeof__(&name) name;
typedef struct httplib {
    HTTPLIB_FUNCTIONS(HTTPLIB_FIELD)
} httplib;
#undef HTTPLIB_FIELD

/* libmicrohttpd.so.12, loaded once (thread-safe); NULL with why set when it cannot be:
   "studio needs libmicrohttpd (libmicrohttpd12): DLERROR". */
const httplib *httplib_get(char *why, size_t why_size);

#endif
