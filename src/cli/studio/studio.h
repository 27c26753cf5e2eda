/* studio.h — `smalti studio`: the state the runner, the file watcher and the web server share. */
#ifndef SMALTI_STUDIO_H
#define SMALTI_STUDIO_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "smalti.h"

typedef struct studio_slots studio_slots;

/* `smalti studio MODEL.xml` (studio.c). */
int cmd_studio(int argc, char **argv);

/* One message for the page (a Server-Sent Event), shared by every connection that sends it. */
typedef struct studio_event {
    int refs;              /* under studio.lock */
    long gen;
    char *text;            /* "event: ...\ndata: ...\n\n" */
    size_t len;
} studio_event;

/* Overrides of the model's parameters a run may carry ("name=value", each at most this long). */
#define STUDIO_MAX_SETS 32
#define STUDIO_SET_TEXT 320

/* What a run asks for; the page can change each. */
typedef struct studio_params {
    long seed, size, steps;
    double timeout;
    char sets[STUDIO_MAX_SETS][STUDIO_SET_TEXT]; /* --set, then the page's parameter fields */
    int set_count;
} studio_params;
/* Add the len bytes "name=value" to p's overrides (one of a name already there is replaced); false when
   it is not NAME=VALUE, holds a newline, is too long, or there is no room (studio.c). */
bool studio_params_add_set(studio_params *p, const char *text, size_t len);

typedef struct studio {
    const char *model_path;
    char model_dir[4096], model_name[256];
    pthread_mutex_t lock;
    pthread_cond_t changed;   /* a run asked for, an event published, or quitting */
    studio_params params;     /* under lock */
    size_t max_memory;        /* --max-memory: bytes each run may hold with its load and trace; 0: none */
    long requested, started;  /* run requests asked for / taken by the runner */
    smalti_run *running;      /* the run going on, for cancelling; under lock */
    studio_event *latest;     /* the last run or error, for a page that connects now */
    long gen;
    atomic_int quit;          /* set under lock; the watcher reads it without */
    char token[33];
    /* Set once the server listens, while its threads may already answer a connection (which is
       refused until then: its Host cannot match). */
    atomic_uint port;
    struct MHD_Daemon *httpd;
    struct studio_slots *slots; /* the server's connections (studio_slots.c) */
} studio;

/* studio_http.c */
bool studio_http_start(studio *s, unsigned port, char *err, size_t err_size);
void studio_http_stop(studio *s);
/* Whether url is "/TOKEN/..." with s's token (compared in constant time). */
bool studio_path_has_token(const studio *s, const char *url);
/* studio.c: ask for a run (cancelling one going on); call under s->lock. */
void studio_request_run(studio *s);
void studio_event_release(studio *s, studio_event *e); /* call under s->lock */
/* The model file's text (malloc'd, NUL-ended), or NULL. */
char *studio_read_model(const studio *s, size_t *len);

#endif
