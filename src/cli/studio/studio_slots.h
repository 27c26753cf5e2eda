/* studio_slots.h — studio's connection slots (studio_slots.c): the header deadline and the slots kept
   for the token holder, hooked into the web server's callbacks by studio_http.c. */
#ifndef SMALTI_STUDIO_SLOTS_H
#define SMALTI_STUDIO_SLOTS_H
#include "httplib.h"
#include "studio.h"

/* Connections at once (MHD refuses more at accept). */
#define STUDIO_CONNECTIONS 64
/* From a connection's start, or the end of its last request, to the end of the next request's
   headers; past it the connection is dropped, however many bytes it trickles in meanwhile. */
#define STUDIO_HEADER_DEADLINE_SECONDS 10.0

bool studio_slots_start(studio *s);
void studio_slots_stop(studio *s);
/* MHD_OPTION_NOTIFY_CONNECTION, MHD_OPTION_URI_LOG_CALLBACK and MHD_OPTION_NOTIFY_COMPLETED, with s as cls. */
void studio_slots_notify(void *cls, struct MHD_Connection *c, void **socket_context, enum MHD_ConnectionNotificationCode code);
void *studio_slots_request_line(void *cls, const char *uri, struct MHD_Connection *c);
void studio_slots_request_done(void *cls, struct MHD_Connection *c, void **req, enum MHD_RequestTerminationCode code);
/* From the access handler, once a request's headers are all in. */
void studio_slots_headers_in(studio *s, struct MHD_Connection *c);

#endif
