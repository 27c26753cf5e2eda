/* anim.c — record a run while it goes, as an observer: the start, every N-th
   step and the last step become frames of an animated GIF and/or PNG files
   DIR/<step>.png (the reference's gif mode names its frames by step the same
   way). 2-D grids are drawn cell by cell at pixel_size; 3-D grids as the
   isometric picture (iso.c) with cubes of pixel_size.

   The GIF holds only what changed since the previous frame: for 2-D grids the
   observer keeps the bounding box of the cells the steps changed, which is
   then shrunk to the cells that really differ from what the GIF shows; for
   3-D pictures the rendered pixels are compared. Memory is one copy of the
   grid (or picture) as shown, whatever the number of frames. */
#include "anim.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../core/diag.h"
#include "../core/mem.h"

struct anim_recorder {
    anim_options opt;
    const smalti_run *run;
    gif_anim *gif;
    long frames;
    long last_step;         /* step of the latest frame, -1 before the first */
    bool done;              /* the last step is recorded */
    bool failed;
    smalti_error err;
    /* What the GIF shows now. */
    char legend[GRID_COLORS_MAX];
    uint32_t colors[GRID_COLORS_MAX];
    int color_count;
    int mx, my, mz;         /* mx == 0: nothing shown yet */
    uint8_t *shown;         /* 2-D: the cells as shown */
    int x0, y0, x1, y1;     /* 2-D: cells changed since the last frame (x0 > x1: none) */
    uint32_t *shown_rgb;    /* 3-D: the picture as shown */
    int shown_w, shown_h;
    uint32_t iso_colors[255]; /* 3-D: colours of the pictures so far */
    int iso_count;
    unsigned char *row;
    size_t row_cap;
};

static bool fail(anim_recorder *a, const smalti_error *err)
{
    if (!a->failed) a->err = *err;
    a->failed = true;
    return false;
}

static unsigned char *row_buffer(anim_recorder *a, size_t size)
{
    if (size > a->row_cap) {
        unsigned char *bigger = mem_realloc(a->row, size);
        if (!bigger) return NULL;
        a->row = bigger;
        a->row_cap = size;
    }
    return a->row;
}

static int frame_delay(const anim_recorder *a, bool last)
{
    return last && a->opt.delay_cs < ANIM_FINAL_HOLD ? ANIM_FINAL_HOLD : a->opt.delay_cs;
}

/* A frame of one transparent pixel: nothing changed, but time passes. */
static bool unchanged_frame(anim_recorder *a, const uint32_t *colors, int count, int delay, smalti_error *err)
{
    gif_frame f = {0, 0, 1, 1, colors, count, delay};
    unsigned char px = (unsigned char)count;
    return gif_anim_begin_frame(a->gif, &f, err) && gif_anim_row(a->gif, &px, 1, err);
}

/* Shrink the changed box to the cells that differ from the shown ones. */
static bool differing_box(const anim_recorder *a, const grid_view *g, int box[4])
{
    int x0 = a->x1, x1 = a->x0, y0 = -1, y1 = -1; /* x0 only decreases, x1 only increases */
    for (int y = a->y0; y <= a->y1; y++) {
        const uint8_t *now = g->cells + (size_t)y * g->mx, *was = a->shown + (size_t)y * g->mx;
        int first = a->x0, last = a->x1;
        while (first <= last && now[first] == was[first]) first++;
        if (first > last) continue;
        while (now[last] == was[last]) last--;
        if (y0 < 0) y0 = y;
        y1 = y;
        if (first < x0) x0 = first;
        if (last > x1) x1 = last;
    }
    box[0] = x0, box[1] = y0, box[2] = x1, box[3] = y1;
    return y0 >= 0;
}

static bool gif_flat_frame(anim_recorder *a, const grid_view *g, int delay, smalti_error *err)
{
    int ps = a->opt.pixel_size, count = a->color_count;
    bool full = a->mz != 1 || a->mx != g->mx || a->my != g->my || !a->shown;
    if (full) {
        uint8_t *shown = mem_realloc(a->shown, (size_t)g->mx * g->my);
        if (!shown) goto out_of_memory;
        a->shown = shown;
        a->mx = g->mx, a->my = g->my, a->mz = 1;
        a->x0 = 0, a->y0 = 0, a->x1 = g->mx - 1, a->y1 = g->my - 1;
    }
    int box[4] = {0, 0, g->mx - 1, g->my - 1};
    bool any = full || (a->x0 <= a->x1 && differing_box(a, g, box));
    a->x0 = g->mx, a->y0 = g->my, a->x1 = -1, a->y1 = -1;
    if (!any) return unchanged_frame(a, a->colors, count, delay, err);
    int cells_w = box[2] - box[0] + 1, width = cells_w * ps;
    gif_frame f = {box[0] * ps, box[1] * ps, width, (box[3] - box[1] + 1) * ps, a->colors, count, delay};
    unsigned char *row = row_buffer(a, (size_t)width);
    if (!row) goto out_of_memory;
    if (!gif_anim_begin_frame(a->gif, &f, err)) return false;
    for (int y = box[1]; y <= box[3]; y++) {
        const uint8_t *now = g->cells + (size_t)y * g->mx + box[0];
        uint8_t *was = a->shown + (size_t)y * g->mx + box[0];
        for (int x = 0; x < cells_w; x++)
            memset(row + (size_t)x * ps, full || now[x] != was[x] ? now[x] : count, (size_t)ps);
        memcpy(was, now, (size_t)cells_w);
        /* giflib may mask the row in place: values are below the table size, so it stays the same. */
        for (int k = 0; k < ps; k++)
            if (!gif_anim_row(a->gif, row, width, err)) return false;
    }
    return true;
out_of_memory:
    error_set(err, SMALTI_ERR_RUNTIME, a->opt.gif_path, 0, "out of memory");
    return false;
}

static int iso_color_index(anim_recorder *a, uint32_t rgb)
{
    for (int i = 0; i < a->iso_count; i++)
        if (a->iso_colors[i] == rgb) return i;
    if (a->iso_count == 255) return -1;
    a->iso_colors[a->iso_count] = rgb;
    return a->iso_count++;
}

static bool gif_iso_frame(anim_recorder *a, const grid_view *g, int delay, smalti_error *err)
{
    int w, h;
    uint32_t *px = iso_render(g, a->colors, a->opt.pixel_size, &w, &h);
    if (!px && !iso_size_ok(g->mx, g->my, g->mz, a->opt.pixel_size)) {
        error_set(err, SMALTI_ERR_RUNTIME, a->opt.gif_path, 0, "the isometric picture is too large; lower --pixel-size");
        return false;
    }
    if (!px) {
        error_set(err, SMALTI_ERR_RUNTIME, a->opt.gif_path, 0, "out of memory drawing the isometric picture");
        return false;
    }
    const uint32_t *was = a->shown_rgb && w == a->shown_w && h == a->shown_h ? a->shown_rgb : NULL;
    int x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
    if (was) {
        x0 = w, y0 = h, x1 = -1, y1 = -1;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (px[(size_t)y * w + x] != was[(size_t)y * w + x]) {
                    if (x < x0) x0 = x;
                    if (x > x1) x1 = x;
                    if (y < y0) y0 = y;
                    y1 = y;
                }
    }
    bool ok;
    if (x1 < 0) {
        ok = unchanged_frame(a, a->iso_colors, a->iso_count ? a->iso_count : 1, delay, err);
    } else {
        /* First the colour indices (the table may grow), 255 for unchanged pixels; then the rows. */
        int width = x1 - x0 + 1, height = y1 - y0 + 1;
        unsigned char *index = mem_malloc((size_t)width * height);
        ok = index != NULL;
        if (!ok) error_set(err, SMALTI_ERR_RUNTIME, a->opt.gif_path, 0, "out of memory");
        for (int y = 0; ok && y < height; y++)
            for (int x = 0; x < width; x++) {
                size_t at = (size_t)(y0 + y) * w + x0 + x;
                int c = was && px[at] == was[at] ? 255 : iso_color_index(a, px[at]);
                if (c < 0) {
                    error_set(err, SMALTI_ERR_RUNTIME, a->opt.gif_path, 0, "the picture has more than 255 colours");
                    ok = false;
                    break;
                }
                index[(size_t)y * width + x] = (unsigned char)c;
            }
        gif_frame f = {x0, y0, width, height, a->iso_colors, a->iso_count, delay};
        ok = ok && gif_anim_begin_frame(a->gif, &f, err);
        for (int y = 0; ok && y < height; y++) {
            unsigned char *row = index + (size_t)y * width;
            for (int x = 0; x < width; x++)
                if (row[x] == 255) row[x] = (unsigned char)a->iso_count;
            ok = gif_anim_row(a->gif, row, width, err);
        }
        mem_free(index);
    }
    mem_free(a->shown_rgb);
    a->shown_rgb = px;
    a->shown_w = w, a->shown_h = h;
    a->mz = g->mz; /* a later 2-D grid (after a map) starts afresh */
    return ok;
}

/* Take the run's legend and its colours; true when they changed. */
static bool take_legend(anim_recorder *a, const char *legend)
{
    if (strcmp(a->legend, legend) == 0 && a->color_count) return false;
    snprintf(a->legend, sizeof a->legend, "%s", legend);
    palette_colors(a->opt.pal, a->legend, a->colors, NULL, 0);
    a->color_count = (int)strlen(a->legend);
    if (a->color_count == 0) a->color_count = 1; /* a table needs a colour */
    return true;
}

static bool record(anim_recorder *a, long step, bool last)
{
    grid_view g;
    g.cells = smalti_run_grid(a->run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(a->run);
    if (take_legend(a, g.legend)) {
        mem_free(a->shown); /* other values: the next 2-D frame is drawn whole */
        a->shown = NULL;
    }
    smalti_error err;
    if (a->opt.frames_dir) {
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%ld.png", a->opt.frames_dir, step) >= (int)sizeof path) {
            error_set(&err, SMALTI_ERR_IO, a->opt.frames_dir, 0, "path too long");
            return fail(a, &err);
        }
        bool ok = g.mz > 1 ? save_iso_png(path, &g, a->colors, a->opt.pixel_size, a->opt.temps, &err)
                           : save_png(path, &g, a->colors, a->opt.pixel_size, a->opt.temps, &err);
        if (!ok) return fail(a, &err);
    }
    if (a->gif) {
        int delay = frame_delay(a, last);
        bool ok = g.mz > 1 ? gif_iso_frame(a, &g, delay, &err) : gif_flat_frame(a, &g, delay, &err);
        if (!ok) return fail(a, &err);
    }
    a->frames++;
    a->last_step = step;
    a->done = last;
    return true;
}

void anim_observe(void *recorder, const smalti_step_event *event)
{
    anim_recorder *a = recorder;
    if (a->failed || a->done) return;
    if (a->gif && a->shown && a->mz == 1) {
        /* Widen the box of changed cells (2-D grid the GIF shows). A map node
           may have switched grids; then the next frame is whole anyway. */
        int mx, my, mz;
        smalti_run_grid(a->run, &mx, &my, &mz);
        if (mz == 1 && mx == a->mx && my == a->my) {
            for (size_t k = 0; k < event->changed_count; k++) {
                int32_t i = event->changed[k];
                int x = i % mx, y = i / mx;
                if (x < a->x0) a->x0 = x;
                if (x > a->x1) a->x1 = x;
                if (y < a->y0) a->y0 = y;
                if (y > a->y1) a->y1 = y;
            }
        }
    }
    bool last = smalti_run_finished(a->run) || (a->opt.step_limit > 0 && event->step >= a->opt.step_limit) ||
                smalti_run_error(a->run, NULL);
    if (last || event->step % a->opt.every == 0) record(a, event->step, last);
}

static bool make_folder(const char *dir, smalti_error *err)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) return true;
    error_set(err, SMALTI_ERR_IO, dir, 0, "cannot make the frames folder: %s", errno == EEXIST ? "not a folder" : strerror(errno));
    return false;
}

static void free_recorder(anim_recorder *a)
{
    mem_free(a->shown);
    mem_free(a->shown_rgb);
    mem_free(a->row);
    mem_free(a);
}

anim_recorder *anim_start(const anim_options *opt, const smalti_run *run, smalti_error *err)
{
    if (opt->frames_dir && !make_folder(opt->frames_dir, err)) return NULL;
    anim_recorder *a = mem_calloc(1, sizeof *a);
    if (!a) {
        error_set(err, SMALTI_ERR_RUNTIME, "", 0, "out of memory");
        return NULL;
    }
    a->opt = *opt;
    if (a->opt.every < 1) a->opt.every = 1;
    if (a->opt.pixel_size < 1) a->opt.pixel_size = 1;
    a->run = run;
    a->last_step = -1;
    if (opt->gif_path && !(a->gif = gif_anim_open(opt->gif_path, opt->temps, err))) {
        free_recorder(a);
        return NULL;
    }
    if (!record(a, smalti_run_counter(run), false)) {
        if (err) *err = a->err;
        anim_abort(a);
        return NULL;
    }
    return a;
}

bool anim_finish(anim_recorder *a, smalti_error *err)
{
    if (!a->failed && !a->done && a->last_step != smalti_run_counter(a->run)) record(a, smalti_run_counter(a->run), true);
    bool ok = !a->failed;
    if (!ok && err) *err = a->err;
    if (a->gif) {
        if (ok) ok = gif_anim_close(a->gif, err);
        else gif_anim_abort(a->gif);
    }
    free_recorder(a);
    return ok;
}

void anim_abort(anim_recorder *a)
{
    if (!a) return;
    gif_anim_abort(a->gif);
    free_recorder(a);
}

long anim_frame_count(const anim_recorder *a) { return a->frames; }
