/* studio_slots.c — studio's connection slots: a connection that has not sent its request's headers
   within a deadline is dropped, and connections without the token hold at most a share of the
   slots, so that a local process trickling bytes cannot lock the token holder out. */
#define _GNU_SOURCE
#include "studio.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "../common/cli.h"
#include "studio_slots.h"

/* Connections without the token (yet) beyond this share make the oldest of them go: the rest of
   STUDIO_CONNECTIONS stays for the page's own. */
#define STUDIO_OPEN_SLOTS (STUDIO_CONNECTIONS * 3 / 4)
/* MHD may tell of a new connection before the cleanup of one it closed: room for both. */
#define STUDIO_SLOT_TABLE (2 * STUDIO_CONNECTIONS)

typedef struct studio_slot {
    struct MHD_Connection *conn; /* NULL: free */
    int fd;                      /* a dup of the connection's socket: shut down by us, never reused under us */
    double since;                /* seconds (now_seconds): the connection's start, or the end of its last request */
    unsigned long order;         /* accept order: the oldest goes first */
    bool authed;                 /* a request line carried the token */
    bool reading;                /* its request's headers are not all in yet */
    bool dropped;                /* shut down by us; gone at MHD's next cleanup */
} studio_slot;

struct studio_slots {
    pthread_mutex_t lock;
    studio_slot slot[STUDIO_SLOT_TABLE];
    unsigned long accepted;
    pthread_t reaper;
    atomic_bool stop;
};

/* The connection's end comes from its own thread in MHD, which sees the socket shut. */
static void drop(studio_slot *sl)
{
    shutdown(sl->fd, SHUT_RDWR);
    sl->dropped = true;
}

static studio_slot *slot_of(struct MHD_Connection *c)
{
    const httplib *mhd = httplib_get(NULL, 0); /* loaded by cmd_studio before the server started */
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* A new connection takes a slot; past the open share, the oldest connection without the token
   (never the new one, whose request line is not in yet) is dropped. Closed: the slot is freed. */
void studio_slots_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                         enum MHD_ConnectionNotificationCode code)
{
    studio_slots *t = ((studio *)cls)->slots;
    pthread_mutex_lock(&t->lock);
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        studio_slot *sl = *socket_context;
        if (sl) {
            close(sl->fd);
            memset(sl, 0, sizeof *sl);
            *socket_context = NULL;
        }
        pthread_mutex_unlock(&t->lock);
        return;
    }
    const httplib *mhd = httplib_get(NULL, 0);
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    int fd = info ? fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;
    studio_slot *free_slot = NULL, *oldest = NULL;
    int without_token = 0;
    for (int i = 0; i < STUDIO_SLOT_TABLE; i++) {
        studio_slot *sl = &t->slot[i];
        if (!sl->conn) {
            if (!free_slot) free_slot = sl;
            continue;
        }
        if (sl->authed || sl->dropped) continue;
        without_token++;
        if (!oldest || sl->order < oldest->order) oldest = sl;
    }
    if (fd < 0 || !free_slot) {
        /* No way to watch it: not kept (its own socket, shut; MHD closes it). */
        if (info) shutdown(info->connect_fd, SHUT_RDWR);
        if (fd >= 0) close(fd);
        pthread_mutex_unlock(&t->lock);
        return;
    }
    if (without_token + 1 > STUDIO_OPEN_SLOTS && oldest) drop(oldest);
    *free_slot = (studio_slot){.conn = c, .fd = fd, .since = now_seconds(), .order = ++t->accepted, .reading = true};
    *socket_context = free_slot;
    pthread_mutex_unlock(&t->lock);
}

/* The request line is in: a connection whose path carries the token is the page's. Returns what
   the access handler gets as its request pointer at first: nothing. */
void *studio_slots_request_line(void *cls, const char *uri, struct MHD_Connection *c)
{
    studio *s = cls;
    bool token = uri && studio_path_has_token(s, uri);
    pthread_mutex_lock(&s->slots->lock);
    studio_slot *sl = slot_of(c);
    if (sl && token) sl->authed = true;
    pthread_mutex_unlock(&s->slots->lock);
    return NULL;
}

void studio_slots_headers_in(studio *s, struct MHD_Connection *c)
{
    pthread_mutex_lock(&s->slots->lock);
    studio_slot *sl = slot_of(c);
    if (sl) sl->reading = false;
    pthread_mutex_unlock(&s->slots->lock);
}

/* A request answered: the next one on the connection (keep-alive) has its own deadline. */
void studio_slots_request_done(void *cls, struct MHD_Connection *c, void **req, enum MHD_RequestTerminationCode code)
{
    (void)req, (void)code;
    studio *s = cls;
    pthread_mutex_lock(&s->slots->lock);
    studio_slot *sl = slot_of(c);
    if (sl) {
        sl->reading = true;
        sl->since = now_seconds();
    }
    pthread_mutex_unlock(&s->slots->lock);
}

/* Every 100 ms, the connections past the header deadline are dropped. Counted from the start, not
   from the last byte: a trickle does not extend it. */
static void *reap(void *arg)
{
    studio_slots *t = arg;
    while (!atomic_load(&t->stop)) {
        nanosleep(&(struct timespec){.tv_nsec = 100 * 1000000L}, NULL);
        double now = now_seconds();
        pthread_mutex_lock(&t->lock);
        for (int i = 0; i < STUDIO_SLOT_TABLE; i++) {
            studio_slot *sl = &t->slot[i];
            if (sl->conn && sl->reading && !sl->dropped && now - sl->since > STUDIO_HEADER_DEADLINE_SECONDS) drop(sl);
        }
        pthread_mutex_unlock(&t->lock);
    }
    return NULL;
}

bool studio_slots_start(studio *s)
{
    studio_slots *t = calloc(1, sizeof *t);
    if (!t) return false;
    pthread_mutex_init(&t->lock, NULL);
    if (pthread_create(&t->reaper, NULL, reap, t) != 0) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return false;
    }
    s->slots = t;
    return true;
}

/* After the server has stopped (every connection closed and told). */
void studio_slots_stop(studio *s)
{
    studio_slots *t = s->slots;
    if (!t) return;
    atomic_store(&t->stop, true);
    pthread_join(t->reaper, NULL);
    for (int i = 0; i < STUDIO_SLOT_TABLE; i++)
        if (t->slot[i].conn) close(t->slot[i].fd);
    pthread_mutex_destroy(&t->lock);
    free(t);
    s->slots = NULL;
}
