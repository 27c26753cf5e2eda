/* studio_http.c — `smalti studio`'s web server (libmicrohttpd): loopback only, a token in
   every path, a Host check against DNS rebinding, a fixed set of routes, a strict CSP, and
   the runs pushed to the page as Server-Sent Events. */
#define _GNU_SOURCE
#include "studio.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "../common/cli.h"
#include "../../io/escape.h"
#include "httplib.h"
#include "studio_slots.h"
#include "../common/viewer_assets.h"

static const char studio_html[] =
#include "view/studio.html.inc"
    ;
static const char studio_css[] =
#include "view/studio.css.inc"
    ;
static const char studio_js[] =
#include "view/studio.js.inc"
    ;

/* Scripts and styles only from this server (no inline code), data only from it, no frames. */
#define STUDIO_CSP                                                                                                   \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src data: blob:; connect-src 'self'; "             \
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/* The page, its styles and its scripts, made once at start. */
static char *page_html, *page_css, *page_js;
static size_t page_html_len, page_css_len, page_js_len;

/* The viewer's page with studio's controls, its scripts and styles as files of this server,
   and without the viewer's own CSP (which allows inline code; the header's policy does not). */
static bool build_page(const studio *s)
{
    FILE *f = open_memstream(&page_html, &page_html_len);
    if (!f) return false;
    const char *p = viewer_html;
    for (;;) {
        const char *meta = strstr(p, "<meta http-equiv=\"Content-Security-Policy\"");
        const char *mark = strstr(p, "<!--@");
        if (meta && (!mark || meta < mark)) {
            fwrite(p, 1, (size_t)(meta - p), f);
            const char *end = strchr(meta, '>');
            p = end ? end + 1 : meta + strlen(meta);
            continue;
        }
        if (!mark) {
            fputs(p, f);
            break;
        }
        fwrite(p, 1, (size_t)(mark - p), f);
        const char *close = strstr(mark, "@-->");
        if (!close) break;
        size_t name_len = (size_t)(close - mark - 5);
        const char *name = mark + 5;
        if (name_len == 5 && memcmp(name, "TITLE", 5) == 0) {
            html_write_text(f, s->model_name);
            fputs(" · smalti studio", f);
        } else if (name_len == 6 && memcmp(name, "STUDIO", 6) == 0) fputs(studio_html, f);
        else if (name_len == 3 && memcmp(name, "CSS", 3) == 0) fputs("<link rel=\"stylesheet\" href=\"app.css\">", f);
        else if (name_len == 2 && memcmp(name, "JS", 2) == 0) fputs("<script src=\"app.js\"></script>", f);
        p = close + 4; /* TRACE: none; the runs come as events */
    }
    if (fclose(f) != 0) return false;
    /* The viewer starts without a trace when the body says it is studio's page. */
    char *body = strstr(page_html, "<body>");
    if (body) {
        char *with = NULL;
        if (asprintf(&with, "%.*s<body data-studio>%s", (int)(body - page_html), page_html, body + 6) < 0) return false;
        free(page_html);
        page_html = with;
        page_html_len = strlen(with);
    }
    if (asprintf(&page_css, "%s\n%s", viewer_css, studio_css) < 0) return false;
    if (asprintf(&page_js, "%s\n%s\n%s", inflate_js, viewer_js, studio_js) < 0) return false;
    page_css_len = strlen(page_css);
    page_js_len = strlen(page_js);
    return true;
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned status, const char *type, const void *body, size_t len,
                               enum MHD_ResponseMemoryMode mode)
{
    const httplib *mhd = httplib_get(NULL, 0); /* loaded by cmd_studio before the server started */
    struct MHD_Response *r = mhd->MHD_create_response_from_buffer(len, (void *)body, mode);
    if (!r) return MHD_NO;
    mhd->MHD_add_response_header(r, "Content-Type", type);
    mhd->MHD_add_response_header(r, "Content-Security-Policy", STUDIO_CSP);
    mhd->MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    mhd->MHD_add_response_header(r, "Referrer-Policy", "no-referrer"); /* the token is in the URL */
    mhd->MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ok = mhd->MHD_queue_response(c, status, r);
    mhd->MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result respond_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    return respond(c, status, "text/plain; charset=utf-8", text, strlen(text), MHD_RESPMEM_PERSISTENT);
}

/* ---- Server-Sent Events ---- */

typedef struct sse_conn {
    studio *s;
    studio_event *cur; /* being sent */
    size_t off;
    long sent_gen;
} sse_conn;

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    sse_conn *sc = cls;
    studio *s = sc->s;
    if (!sc->cur) {
        pthread_mutex_lock(&s->lock);
        while (!s->quit && (!s->latest || s->latest->gen <= sc->sent_gen)) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 2;
            if (pthread_cond_timedwait(&s->changed, &s->lock, &until) == ETIMEDOUT) {
                pthread_mutex_unlock(&s->lock);
                /* A comment line every 2 s: a closed tab shows as a failed write, and its thread ends;
                   it also keeps the stream from the idle timeout. */
                static const char ping[] = ": ping\n\n";
                if (max < sizeof ping - 1) return 0;
                memcpy(buf, ping, sizeof ping - 1);
                return (ssize_t)(sizeof ping - 1);
            }
        }
        if (s->quit) {
            pthread_mutex_unlock(&s->lock);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        sc->cur = s->latest;
        sc->cur->refs++;
        sc->off = 0;
        sc->sent_gen = sc->cur->gen;
        pthread_mutex_unlock(&s->lock);
    }
    size_t n = sc->cur->len - sc->off;
    if (n > max) n = max;
    memcpy(buf, sc->cur->text + sc->off, n);
    sc->off += n;
    if (sc->off == sc->cur->len) {
        pthread_mutex_lock(&s->lock);
        studio_event_release(s, sc->cur);
        pthread_mutex_unlock(&s->lock);
        sc->cur = NULL;
    }
    return (ssize_t)n;
}

static void sse_free(void *cls)
{
    sse_conn *sc = cls;
    if (sc->cur) {
        pthread_mutex_lock(&sc->s->lock);
        studio_event_release(sc->s, sc->cur);
        pthread_mutex_unlock(&sc->s->lock);
    }
    free(sc);
}

static enum MHD_Result serve_events(studio *s, struct MHD_Connection *c)
{
    const httplib *mhd = httplib_get(NULL, 0); /* loaded by cmd_studio before the server started */
    sse_conn *sc = calloc(1, sizeof *sc);
    if (!sc) return MHD_NO;
    sc->s = s;
    struct MHD_Response *r = mhd->MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, sse_read, sc, sse_free);
    if (!r) {
        free(sc);
        return MHD_NO;
    }
    mhd->MHD_add_response_header(r, "Content-Type", "text/event-stream");
    mhd->MHD_add_response_header(r, "Content-Security-Policy", STUDIO_CSP);
    mhd->MHD_add_response_header(r, "Cache-Control", "no-store");
    mhd->MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ok = mhd->MHD_queue_response(c, MHD_HTTP_OK, r);
    mhd->MHD_destroy_response(r);
    return ok;
}

/* ---- The API ---- */

/* POST api/run?seed=S&size=N&steps=N&timeout=SECONDS&params=LINES: run again with these (each optional);
   params, lines of NAME=VALUE, replaces the overrides of the model's parameters (empty: the defaults). */
static enum MHD_Result serve_run(studio *s, struct MHD_Connection *c)
{
    const httplib *mhd = httplib_get(NULL, 0); /* loaded by cmd_studio before the server started */
    studio_params p;
    pthread_mutex_lock(&s->lock);
    p = s->params;
    pthread_mutex_unlock(&s->lock);
    const char *v;
    if ((v = mhd->MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "seed")) && *v &&
        !parse_int_arg(v, INT32_MIN, INT32_MAX, &p.seed))
        return respond_text(c, MHD_HTTP_BAD_REQUEST, "seed: a whole number\n");
    if ((v = mhd->MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "size")) && *v && !parse_int_arg(v, 0, 4096, &p.size))
        return respond_text(c, MHD_HTTP_BAD_REQUEST, "size: 0 (the model's own) to 4096\n");
    if ((v = mhd->MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "steps")) && *v &&
        !parse_int_arg(v, 1, 1000000000, &p.steps))
        return respond_text(c, MHD_HTTP_BAD_REQUEST, "steps: 1 to 1000000000\n");
    if ((v = mhd->MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "timeout")) && *v) {
        char *end;
        double t = strtod(v, &end);
        if (*end || !(t > 0 && t <= 3600)) return respond_text(c, MHD_HTTP_BAD_REQUEST, "timeout: seconds, over 0, at most 3600\n");
        p.timeout = t;
    }
    if ((v = mhd->MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "params"))) {
        p.set_count = 0; /* the page's fields say them all: none given is every default */
        for (const char *line = v; *line;) {
            size_t len = strcspn(line, "\n");
            if (len && !studio_params_add_set(&p, line, len))
                return respond_text(c, MHD_HTTP_BAD_REQUEST, "params: lines of NAME=VALUE, at most 32\n");
            line += len + (line[len] == '\n');
        }
    }
    pthread_mutex_lock(&s->lock);
    s->params = p;
    studio_request_run(s);
    pthread_mutex_unlock(&s->lock);
    return respond_text(c, MHD_HTTP_OK, "ok\n");
}

/* Equal strings, in time that does not depend on where they differ. */
static bool same_secret(const char *a, const char *b, size_t n)
{
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++) diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

bool studio_path_has_token(const studio *s, const char *url)
{
    size_t tl = strlen(s->token);
    return url[0] == '/' && strlen(url) >= tl + 2 && same_secret(url + 1, s->token, tl) && url[tl + 1] == '/';
}

static bool host_allowed(const studio *s, const char *host)
{
    if (!host) return false;
    char a[64], b[64];
    const unsigned port = atomic_load(&s->port);
    snprintf(a, sizeof a, "127.0.0.1:%u", port);
    snprintf(b, sizeof b, "localhost:%u", port);
    return strcmp(host, a) == 0 || strcmp(host, b) == 0;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
                              const char *upload_data, size_t *upload_size, void **req)
{
    const httplib *mhd = httplib_get(NULL, 0); /* loaded by cmd_studio before the server started */
    (void)version, (void)upload_data;
    static int started;
    if (!*req) { /* the headers: answer once the body (ignored) is in */
        *req = &started;
        studio_slots_headers_in(cls, c);
        return MHD_YES;
    }
    if (*upload_size) {
        *upload_size = 0;
        return MHD_YES;
    }
    studio *s = cls;
    /* Only a page this server gave out, reached by the loopback name, is answered. */
    if (!host_allowed(s, mhd->MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST)))
        return respond_text(c, MHD_HTTP_FORBIDDEN, "forbidden\n");
    if (!studio_path_has_token(s, url)) return respond_text(c, MHD_HTTP_FORBIDDEN, "forbidden\n");
    /* A fixed set of names: no path reaches the file system, so `..` and absolute paths find nothing. */
    const char *route = url + strlen(s->token) + 2;
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (get && strcmp(route, "") == 0)
        return respond(c, MHD_HTTP_OK, "text/html; charset=utf-8", page_html, page_html_len, MHD_RESPMEM_PERSISTENT);
    if (get && strcmp(route, "app.css") == 0)
        return respond(c, MHD_HTTP_OK, "text/css; charset=utf-8", page_css, page_css_len, MHD_RESPMEM_PERSISTENT);
    if (get && strcmp(route, "app.js") == 0)
        return respond(c, MHD_HTTP_OK, "text/javascript; charset=utf-8", page_js, page_js_len, MHD_RESPMEM_PERSISTENT);
    if (get && strcmp(route, "events") == 0) return serve_events(s, c);
    if (get && strcmp(route, "api/source") == 0) {
        size_t len;
        char *text = studio_read_model(s, &len);
        if (!text) return respond_text(c, MHD_HTTP_NOT_FOUND, "the model cannot be read\n");
        return respond(c, MHD_HTTP_OK, "text/plain; charset=utf-8", text, len, MHD_RESPMEM_MUST_FREE);
    }
    if (strcmp(method, "POST") == 0 && strcmp(route, "api/run") == 0) return serve_run(s, c);
    return respond_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

bool studio_http_start(studio *s, unsigned port, char *err, size_t err_size)
{
    const httplib *mhd = httplib_get(err, err_size);
    if (!mhd) return false;
    uint8_t raw[16];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        snprintf(err, err_size, "no random token: %s", strerror(errno));
        return false;
    }
    for (int i = 0; i < 16; i++) snprintf(s->token + 2 * i, 3, "%02x", raw[i]);
    if (!build_page(s)) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    if (!studio_slots_start(s)) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s->httpd = mhd->MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, (uint16_t)port, NULL, NULL,
                                handle, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT,
                                (unsigned)STUDIO_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
                                MHD_OPTION_NOTIFY_CONNECTION, studio_slots_notify, s, MHD_OPTION_URI_LOG_CALLBACK,
                                studio_slots_request_line, s, MHD_OPTION_NOTIFY_COMPLETED, studio_slots_request_done, s,
                                MHD_OPTION_END);
    if (!s->httpd) {
        studio_slots_stop(s);
        snprintf(err, err_size, "cannot listen on 127.0.0.1:%u%s", port, port ? " (in use?)" : "");
        return false;
    }
    const union MHD_DaemonInfo *info = mhd->MHD_get_daemon_info(s->httpd, MHD_DAEMON_INFO_BIND_PORT);
    atomic_store(&s->port, info ? info->port : port);
    return true;
}

void studio_http_stop(studio *s)
{
    const httplib *mhd = httplib_get(NULL, 0); /* loaded by cmd_studio before the server started */
    if (s->httpd) mhd->MHD_stop_daemon(s->httpd);
    s->httpd = NULL;
    studio_slots_stop(s);
    free(page_html), free(page_css), free(page_js);
    page_html = page_css = page_js = NULL;
}
