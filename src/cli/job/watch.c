/* watch.c — `smalti run --watch`: the run drawn live in the terminal, for
   people on a remote shell. Each character is two cells, one above the other:
   "▀" with the upper cell's colour in front and the lower cell's behind, in
   24-bit colour escapes. The picture is fitted to the terminal: zoomed by a
   whole factor when small, shrunk by averaging the colours of the cells each
   half-character covers when large (so thin maze walls stay visible as
   shades rather than vanishing). It is redrawn at most WATCH_FPS times a
   second (steps in between are not drawn), and only the characters that
   changed since the last drawing are sent.

   Ctrl-C: SIGINT and SIGTERM are blocked while watching and looked for with
   sigpending() at each drawing, so the run stops between two steps, the
   terminal gets its cursor and colours back, and the caller can drop partial
   outputs before the signal is raised again. No handler, no global state. */
#include "pieces.h"
#include "../common/cli.h"
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define WATCH_FPS 30
#define UNKNOWN 0xff000000u   /* no colour drawn there yet */
#define DEFAULT_BG 0xfe000000u /* the terminal's own background (below the picture) */
#define ISO_MAX_BLOCK 8

struct term_watch {
    const smalti_run *run;
    const smalti_model *model;
    const palette *pal;
    char label[64];
    char legend[GRID_COLORS_MAX];
    uint32_t colors[GRID_COLORS_MAX];
    double last_draw;
    long step;
    int node_id;             /* the last node that acted, -1 before any */
    int signal;              /* the signal that stopped the run, 0 if none */
    sigset_t watched, old_mask;
    /* The drawing as on screen: terminal and text size, picture width, per character (upper, lower). */
    int cols, rows, text_w, text_h, pic_w;
    uint32_t *screen;
    uint32_t *iso;           /* 3-D: the isometric picture being shown */
    char *out;
    size_t out_len, out_cap;
    bool out_failed;
};

static void put(term_watch *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(term_watch *w, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = w->out_cap - w->out_len;
        int n = vsnprintf(w->out ? w->out + w->out_len : NULL, w->out ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if ((size_t)n < room) {
            w->out_len += (size_t)n;
            return;
        }
        size_t cap = (w->out_cap ? 2 * w->out_cap : 1 << 16) + (size_t)n;
        char *bigger = realloc(w->out, cap);
        if (!bigger) {
            w->out_failed = true;
            return;
        }
        w->out = bigger;
        w->out_cap = cap;
    }
}

static void flush_out(term_watch *w)
{
    if (w->out_len) fwrite(w->out, 1, w->out_len, stdout);
    fflush(stdout);
    w->out_len = 0;
}

static void terminal_size(int *cols, int *rows)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 1) {
        *cols = ws.ws_col;
        *rows = ws.ws_row;
    } else {
        *cols = 80;
        *rows = 24;
    }
}

/* The picture to show: a 2-D grid's cells, or a 3-D grid's isometric picture
   as 0xRRGGBB pixels. */
static bool picture(term_watch *w, int cols, int rows, const uint32_t **pixels, const uint8_t **cells, int *pw, int *ph)
{
    grid_view g;
    g.cells = smalti_run_grid(w->run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(w->run);
    if (strcmp(g.legend, w->legend) != 0) {
        snprintf(w->legend, sizeof w->legend, "%s", g.legend);
        palette_colors(w->pal, w->legend, w->colors, NULL, 0);
    }
    *pixels = NULL;
    *cells = NULL;
    if (g.mz == 1) {
        *cells = g.cells;
        *pw = g.mx;
        *ph = g.my;
        return true;
    }
    /* Cubes large enough for the picture to fill the terminal, then shrunk
       by averaging: small cubes would lose their shading. */
    int block = 1;
    for (; block < ISO_MAX_BLOCK; block++) {
        int64_t iw, ih;
        iso_image_size(g.mx, g.my, g.mz, block, &iw, &ih);
        if (iw >= cols || ih >= 2 * (rows - 1)) break;
    }
    mem_free(w->iso);
    w->iso = iso_render(&g, w->colors, block, pw, ph);
    *pixels = w->iso;
    return w->iso != NULL;
}

static void status_line(term_watch *w, int row, const char *state)
{
    char node[96] = "";
    smalti_node_info info;
    if (w->node_id >= 0 && smalti_model_node_info(w->model, w->node_id, &info))
        snprintf(node, sizeof node, "  %s (line %d)", info.kind, info.line);
    int mx, my, mz;
    smalti_run_grid(w->run, &mx, &my, &mz);
    char size[64], scale[32] = "";
    if (mz > 1) snprintf(size, sizeof size, "%dx%dx%d isometric", mx, my, mz);
    else snprintf(size, sizeof size, "%dx%d", mx, my);
    if (w->pic_w > w->text_w) snprintf(scale, sizeof scale, ", shown at %d%%", (int)(100.0 * w->text_w / w->pic_w));
    else if (w->text_w > w->pic_w) snprintf(scale, sizeof scale, ", zoom %d", w->text_w / w->pic_w);
    char text[320];
    snprintf(text, sizeof text, "%s  step %ld%s  %s  %s%s", w->label, w->step, node, state, size, scale);
    if ((int)strlen(text) > w->cols) text[w->cols] = 0; /* a wrapped line would scroll the picture */
    put(w, "\033[%d;1H\033[0m%s\033[K", row, text);
}

typedef struct source {
    const uint8_t *cells;    /* 2-D: cell values, coloured by colors */
    const uint32_t *colors;
    const uint32_t *pixels;  /* 3-D: the isometric picture */
    int w, h;
} source;

/* The mean colour of the source pixels [x0, x1) x [y0, y1). */
static uint32_t area_color(const source *s, int x0, int x1, int y0, int y1)
{
    uint32_t r = 0, g = 0, b = 0, n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            size_t i = (size_t)y * s->w + x;
            uint32_t c = s->cells ? s->colors[s->cells[i]] : s->pixels[i];
            r += c >> 16, g += (c >> 8) & 255, b += c & 255, n++;
        }
    return (r + n / 2) / n << 16 | (g + n / 2) / n << 8 | (b + n / 2) / n;
}

/* The picture laid over tw x th half-characters: the source pixels a
   half-character covers (several when shrunk, one when zoomed), averaged. */
static uint32_t half_color(const source *s, int tw, int th, int tx, int hy)
{
    if (hy >= th) return DEFAULT_BG;
    int x0 = (int)((int64_t)tx * s->w / tw), x1 = (int)((int64_t)(tx + 1) * s->w / tw);
    int y0 = (int)((int64_t)hy * s->h / th), y1 = (int)((int64_t)(hy + 1) * s->h / th);
    if (x1 <= x0) x1 = x0 + 1;
    if (y1 <= y0) y1 = y0 + 1;
    return area_color(s, x0, x1, y0, y1);
}

static void draw(term_watch *w, const char *state)
{
    int cols, rows;
    terminal_size(&cols, &rows);
    source s = {NULL, w->colors, NULL, 0, 0};
    if (!picture(w, cols, rows, &s.pixels, &s.cells, &s.w, &s.h)) return;
    /* Fit the picture in the terminal above the status line: a whole zoom
       factor when it is small, a shrink by averaging when it is large. Two
       picture rows make one text row. */
    int avail = 2 * (rows - 1);
    double k = (double)cols / s.w < (double)avail / s.h ? (double)cols / s.w : (double)avail / s.h;
    int pw = k >= 1 ? s.w * (int)k : (int)(s.w * k), ph = k >= 1 ? s.h * (int)k : (int)(s.h * k);
    if (pw < 1) pw = 1;
    if (ph < 1) ph = 1;
    int tw = pw, th = (ph + 1) / 2;
    if (cols != w->cols || rows != w->rows || tw != w->text_w || th != w->text_h || s.w != w->pic_w) {
        /* A new layout: start from a clear screen. */
        uint32_t *screen = realloc(w->screen, (size_t)tw * th * 2 * sizeof *screen);
        if (!screen) return;
        w->screen = screen;
        for (size_t i = 0; i < (size_t)tw * th * 2; i++) w->screen[i] = UNKNOWN;
        w->cols = cols, w->rows = rows, w->text_w = tw, w->text_h = th, w->pic_w = s.w;
        put(w, "\033[0m\033[2J");
    }
    uint32_t fg = UNKNOWN, bg = UNKNOWN;
    int at_row = -1, at_col = -1;
    for (int ty = 0; ty < th; ty++) {
        for (int tx = 0; tx < tw; tx++) {
            uint32_t c[2] = {half_color(&s, pw, ph, tx, 2 * ty), half_color(&s, pw, ph, tx, 2 * ty + 1)};
            uint32_t *was = w->screen + 2 * ((size_t)ty * tw + tx);
            if (was[0] == c[0] && was[1] == c[1]) continue;
            was[0] = c[0], was[1] = c[1];
            if (at_row != ty || at_col != tx) put(w, "\033[%d;%dH", ty + 1, tx + 1);
            if (c[0] != fg) put(w, "\033[38;2;%u;%u;%um", c[0] >> 16, (c[0] >> 8) & 255, c[0] & 255);
            if (c[1] != bg) {
                if (c[1] == DEFAULT_BG) put(w, "\033[49m");
                else put(w, "\033[48;2;%u;%u;%um", c[1] >> 16, (c[1] >> 8) & 255, c[1] & 255);
            }
            fg = c[0], bg = c[1];
            put(w, "\xe2\x96\x80"); /* ▀ */
            at_row = ty, at_col = tx + 1;
        }
    }
    status_line(w, th + 1, state);
    flush_out(w);
    w->last_draw = now_seconds();
    /* A Ctrl-C since the last drawing stops the run before its next step. */
    sigset_t pending;
    if (sigpending(&pending) == 0) {
        if (sigismember(&pending, SIGINT)) w->signal = SIGINT;
        else if (sigismember(&pending, SIGTERM)) w->signal = SIGTERM;
    }
}

term_watch *watch_start(const smalti_run *run, const smalti_model *model, const palette *pal, const char *label)
{
    term_watch *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->run = run;
    w->model = model;
    w->pal = pal;
    w->node_id = -1;
    snprintf(w->label, sizeof w->label, "%s", label);
    sigemptyset(&w->watched);
    sigaddset(&w->watched, SIGINT);
    sigaddset(&w->watched, SIGTERM);
    sigprocmask(SIG_BLOCK, &w->watched, &w->old_mask);
    put(w, "\033[?25l"); /* hide the cursor */
    draw(w, "start");
    return w;
}

void watch_observe(void *watch, const smalti_step_event *event)
{
    term_watch *w = watch;
    w->step = event->step;
    if (event->node_id >= 0) w->node_id = event->node_id; /* the status shows the last node that acted */
    if (now_seconds() - w->last_draw >= 1.0 / WATCH_FPS) draw(w, "running");
}

bool watch_run(term_watch *w, smalti_run *run, long step_limit)
{
    while (!w->signal && (step_limit <= 0 || smalti_run_counter(run) < step_limit) && smalti_run_step(run)) {}
    return !w->signal;
}

int watch_end(term_watch *w)
{
    char state[64];
    if (w->signal) snprintf(state, sizeof state, "interrupted");
    else if (smalti_run_finished(w->run)) snprintf(state, sizeof state, "done");
    else snprintf(state, sizeof state, "stopped");
    draw(w, state);
    /* Leave the picture on screen, the cursor below it, visible, in plain colours. */
    put(w, "\033[0m\033[%d;1H\n\033[?25h", w->text_h + 1);
    flush_out(w);
    /* Take a pending Ctrl-C off the queue before unblocking, so that the
       caller decides when the process ends. */
    int sig = w->signal;
    sigset_t pending;
    if (sigpending(&pending) == 0 && (sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM))) {
        struct timespec zero = {0, 0};
        int got = sigtimedwait(&w->watched, NULL, &zero);
        if (got > 0 && !sig) sig = got;
    }
    sigprocmask(SIG_SETMASK, &w->old_mask, NULL);
    free(w->screen);
    mem_free(w->iso);
    free(w->out);
    free(w);
    return sig;
}
