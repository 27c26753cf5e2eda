/* test_anim.c — run recordings: the animated GIF, decoded by giflib, shows
   frame for frame the pictures of the PNG frames (decoded by stb_image);
   --every keeps the right steps; a failed recording leaves no file; our LZW
   compression gives giflib's bytes. */
#include "unit.h"
#include <dirent.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/trace/anim.h"
#include <stb/stb_image.h> /* the implementation is in test_output.c */

#define DIR_BASE "build/test_anim"

static const char maze_xml[] = "<markov values=\"BWA\" origin=\"True\"><one in=\"WBB\" out=\"WAW\"/>"
                               "<one in=\"AW\" out=\"WW\"/></markov>";
/* Grows for a few steps, then a map doubles the grid with other values, then it grows again. */
static const char map_xml[] = "<sequence values=\"BW\" origin=\"True\"><one in=\"WB\" out=\"WW\" steps=\"4\"/>"
                              "<map scale=\"2 2 1\" values=\"KRG\"><rule in=\"B\" out=\"KK/KK\"/><rule in=\"W\" out=\"RG/GR\"/>"
                              "<one in=\"RK\" out=\"RR\" steps=\"5\"/></map></sequence>";
static const char growth3d_xml[] = "<one values=\"BW\" origin=\"True\" in=\"WB\" out=\"WW\"/>";

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    closedir(d);
    rmdir(dir);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

typedef struct recording {
    long steps;     /* steps the run made */
    long frames;    /* frames recorded */
} recording;

/* Run xml at the size with a recorder of gif and frames; the run's step count and the recorder's frames. */
static recording record_run(const char *xml, int mx, int my, int mz, long every, long limit, int pixel_size,
                            const char *gif, const char *frames)
{
    smalti_model *m = unit_load(xml, "anim.xml", mx, my, mz, NULL);
    smalti_run *run = smalti_run_new(m, 5, NULL);
    palette pal;
    palette_default(&pal);
    anim_options o = {gif, frames, every, pixel_size, 7, limit, &pal, NULL};
    smalti_error err;
    anim_recorder *a = anim_start(&o, run, &err);
    if (!a) fail_msg("%s: %s", err.file, err.message);
    smalti_run_set_observer(run, anim_observe, a);
    recording r;
    r.steps = smalti_run_to_end(run, limit);
    r.frames = anim_frame_count(a);
    if (!anim_finish(a, &err)) fail_msg("%s: %s", err.file, err.message);
    smalti_run_free(run);
    smalti_model_free(m);
    return r;
}

/* The steps kept with every: 0, every, 2*every, ..., and the last. */
static int kept_steps(long steps, long every, long *out)
{
    int n = 0;
    for (long s = 0; s <= steps; s += every) out[n++] = s;
    if (out[n - 1] != steps) out[n++] = steps;
    return n;
}

/* Decode the GIF with giflib and lay its frames one over the other, as a
   viewer does (disposal: leave in place; the transparent index keeps the
   pixel); each composed frame must equal the PNG of its step, and the
   screen must be as large as the largest PNG. */
static void assert_gif_matches_frames(const char *gif_path, const char *frames_dir, const long *steps, int count)
{
    int code;
    GifFileType *gif = DGifOpenFileName(gif_path, &code);
    assert_non_null(gif);
    assert_int_equal(DGifSlurp(gif), GIF_OK);
    assert_int_equal(gif->ImageCount, count);
    int sw = gif->SWidth, sh = gif->SHeight, max_w = 0, max_h = 0;
    uint32_t *canvas = calloc((size_t)sw * sh, sizeof *canvas);
    for (int i = 0; i < count; i++) {
        const SavedImage *im = &gif->SavedImages[i];
        GraphicsControlBlock gcb;
        assert_int_equal(DGifSavedExtensionToGCB(gif, i, &gcb), GIF_OK);
        assert_int_equal(gcb.DisposalMode, DISPOSE_DO_NOT);
        assert_true(gcb.DelayTime == 7 || (i == count - 1 && gcb.DelayTime == ANIM_FINAL_HOLD));
        const ColorMapObject *map = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : gif->SColorMap;
        assert_non_null(map);
        const GifImageDesc *d = &im->ImageDesc;
        assert_true(d->Left + d->Width <= sw && d->Top + d->Height <= sh);
        for (int y = 0; y < d->Height; y++)
            for (int x = 0; x < d->Width; x++) {
                int c = im->RasterBits[(size_t)y * d->Width + x];
                if (c == gcb.TransparentColor) continue;
                assert_true(c < map->ColorCount);
                const GifColorType *rgb = &map->Colors[c];
                canvas[(size_t)(d->Top + y) * sw + d->Left + x] = (uint32_t)rgb->Red << 16 | rgb->Green << 8 | rgb->Blue;
            }
        char png[512];
        snprintf(png, sizeof png, "%s/%ld.png", frames_dir, steps[i]);
        int w, h, n;
        unsigned char *px = stbi_load(png, &w, &h, &n, 3);
        if (!px) fail_msg("no frame %s", png);
        assert_true(w <= sw && h <= sh);
        if (w > max_w) max_w = w;
        if (h > max_h) max_h = h;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const unsigned char *p = px + 3 * ((size_t)y * w + x);
                uint32_t want = (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
                if (canvas[(size_t)y * sw + x] != want)
                    fail_msg("frame %d (step %ld) pixel (%d,%d): GIF %06x, PNG %06x", i, steps[i], x, y,
                             canvas[(size_t)y * sw + x], want);
            }
        stbi_image_free(px);
    }
    assert_int_equal(sw, max_w);
    assert_int_equal(sh, max_h);
    free(canvas);
    DGifCloseFile(gif, &code);
}

static void gif_equals_png_frames_2d(void **state)
{
    (void)state;
    remove_dir(DIR_BASE "/maze");
    mkdir(DIR_BASE, 0777);
    recording r = record_run(maze_xml, 15, 11, 1, 4, 0, 3, DIR_BASE "/maze.gif", DIR_BASE "/maze");
    long steps[4096];
    int n = kept_steps(r.steps, 4, steps);
    assert_true(r.steps > 20);
    assert_int_equal(r.frames, n);
    assert_int_equal(count_files(DIR_BASE "/maze"), n);
    assert_gif_matches_frames(DIR_BASE "/maze.gif", DIR_BASE "/maze", steps, n);
    /* Frames after the first draw only what changed: the GIF is much smaller than n whole frames. */
    struct stat st;
    assert_int_equal(stat(DIR_BASE "/maze.gif", &st), 0);
    assert_true(st.st_size < 45 * 33 * n / 2);
}

static void every_keeps_start_multiples_and_last(void **state)
{
    (void)state;
    /* Every step (the reference's gif mode): frames 0..steps. */
    remove_dir(DIR_BASE "/all");
    recording r = record_run(maze_xml, 9, 9, 1, 1, 0, 1, NULL, DIR_BASE "/all");
    assert_int_equal(r.frames, r.steps + 1);
    assert_int_equal(count_files(DIR_BASE "/all"), r.steps + 1);
    /* A step limit that is a multiple of every: the last frame is not doubled. */
    remove_dir(DIR_BASE "/limit");
    r = record_run(maze_xml, 21, 21, 1, 5, 30, 1, DIR_BASE "/limit.gif", DIR_BASE "/limit");
    assert_int_equal(r.steps, 30);
    assert_int_equal(r.frames, 7); /* 0 5 10 15 20 25 30 */
    long steps[16];
    assert_int_equal(kept_steps(30, 5, steps), 7);
    assert_gif_matches_frames(DIR_BASE "/limit.gif", DIR_BASE "/limit", steps, 7);
    /* A limit that is not: 0 7 14 21 28 and 30. */
    remove_dir(DIR_BASE "/limit7");
    r = record_run(maze_xml, 21, 21, 1, 7, 30, 1, NULL, DIR_BASE "/limit7");
    assert_int_equal(r.frames, 6);
    struct stat st;
    assert_int_equal(stat(DIR_BASE "/limit7/28.png", &st), 0);
    assert_int_equal(stat(DIR_BASE "/limit7/30.png", &st), 0);
    assert_int_not_equal(stat(DIR_BASE "/limit7/35.png", &st), 0);
}

static void gif_follows_a_map_to_a_larger_grid(void **state)
{
    (void)state;
    remove_dir(DIR_BASE "/map");
    recording r = record_run(map_xml, 8, 6, 1, 1, 0, 2, DIR_BASE "/map.gif", DIR_BASE "/map");
    long steps[64];
    int n = kept_steps(r.steps, 1, steps);
    int w, h, c;
    assert_true(stbi_info(DIR_BASE "/map/0.png", &w, &h, &c) && w == 16 && h == 12);
    char last[128];
    snprintf(last, sizeof last, DIR_BASE "/map/%ld.png", r.steps);
    assert_true(stbi_info(last, &w, &h, &c) && w == 32 && h == 24);
    assert_gif_matches_frames(DIR_BASE "/map.gif", DIR_BASE "/map", steps, n);
}

static void gif_equals_png_frames_3d(void **state)
{
    (void)state;
    remove_dir(DIR_BASE "/iso");
    recording r = record_run(growth3d_xml, 5, 4, 3, 9, 0, 3, DIR_BASE "/iso.gif", DIR_BASE "/iso");
    long steps[64];
    int n = kept_steps(r.steps, 9, steps);
    assert_int_equal(r.frames, n);
    assert_gif_matches_frames(DIR_BASE "/iso.gif", DIR_BASE "/iso", steps, n);
}

/* A GIF that cannot be written, or a run that is dropped, leaves no file, not even a temporary one. */
static void failed_recordings_leave_no_file(void **state)
{
    (void)state;
    remove_dir(DIR_BASE "/atomic");
    mkdir(DIR_BASE "/atomic", 0777);
    smalti_model *m = unit_load(maze_xml, "maze.xml", 9, 9, 1, NULL);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    palette pal;
    palette_default(&pal);
    anim_options o = {DIR_BASE "/atomic/no/such/dir.gif", NULL, 1, 1, 5, 0, &pal, NULL};
    smalti_error err;
    assert_null(anim_start(&o, run, &err));
    assert_int_equal(err.status, SMALTI_ERR_IO);
    assert_non_null(strstr(err.message, "cannot write"));
    o.gif_path = DIR_BASE "/atomic/dropped.gif";
    anim_recorder *a = anim_start(&o, run, &err);
    assert_non_null(a);
    smalti_run_set_observer(run, anim_observe, a);
    smalti_run_to_end(run, 10);
    assert_int_equal(count_files(DIR_BASE "/atomic"), 1); /* the temporary file, while recording */
    anim_abort(a);
    assert_int_equal(count_files(DIR_BASE "/atomic"), 0);
    /* A frames "folder" that is a file. */
    o.gif_path = NULL;
    o.frames_dir = DIR_BASE "/maze.gif";
    assert_null(anim_start(&o, run, &err));
    assert_non_null(strstr(err.message, "frames folder"));
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Pixels for the encoder test: runs of random length (up to max_run) of random values below count. */
static void fill_runs(unsigned char *px, long n, int count, int max_run, uint32_t *seed)
{
    for (long i = 0; i < n;) {
        *seed = *seed * 1103515245u + 12345u;
        int value = (int)((*seed >> 16) % (uint32_t)count);
        *seed = *seed * 1103515245u + 12345u;
        long len = 1 + (long)((*seed >> 8) % (uint32_t)max_run);
        for (long k = 0; k < len && i < n; k++) px[i++] = (unsigned char)value;
    }
}

/* gif_lzw.c gives the very bytes of giflib's own compression (EGifPutLine):
   short and long runs, runs across rows, dictionary clears, code sizes 2 to 8. */
static void lzw_matches_giflib_byte_for_byte(void **state)
{
    (void)state;
    static const struct { int w, h, count, max_run; } frames[] = {
        {64, 64, 3, 1},      /* noise of 4 values (code size 2) */
        {300, 200, 5, 900},  /* long runs across rows */
        {256, 256, 255, 1},  /* noise of 256 values: many clears, code size 8 */
        {1000, 50, 8, 5000}, /* runs longer than the dictionary's longest */
        {97, 31, 17, 40},
        {1, 1, 1, 1},
        {2044, 300, 3, 20000},
        {4000, 2000, 2, 0}, /* one run: its strings fill the dictionary */
    };
    const char *paths[2] = {DIR_BASE "/ours.gif", DIR_BASE "/giflib.gif"};
    uint32_t colors[255];
    for (int i = 0; i < 255; i++) colors[i] = (uint32_t)i * 0x010203u;
    for (int which = 0; which < 2; which++) {
        smalti_error err;
        gif_anim *g = gif_anim_open(paths[which], NULL, &err);
        assert_non_null(g);
        if (which) gif_anim_use_giflib_lzw(g);
        uint32_t seed = 77;
        for (size_t f = 0; f < sizeof frames / sizeof *frames; f++) {
            long n = (long)frames[f].w * frames[f].h;
            unsigned char *px = malloc((size_t)n);
            /* Values up to count: count itself is the transparent index. */
            if (frames[f].max_run) fill_runs(px, n, frames[f].count + 1, frames[f].max_run, &seed);
            else memset(px, frames[f].count, (size_t)n);
            gif_frame fr = {0, 0, frames[f].w, frames[f].h, colors, frames[f].count, 3};
            assert_true(gif_anim_begin_frame(g, &fr, &err));
            for (int y = 0; y < frames[f].h; y++)
                assert_true(gif_anim_row(g, px + (size_t)y * frames[f].w, frames[f].w, &err));
            free(px);
        }
        assert_true(gif_anim_close(g, &err));
    }
    FILE *a = fopen(paths[0], "rb"), *b = fopen(paths[1], "rb");
    assert_non_null(a);
    assert_non_null(b);
    long size = 0;
    int ca, cb;
    do {
        ca = fgetc(a), cb = fgetc(b);
        if (ca != cb) fail_msg("the GIFs differ at byte %ld", size);
        size++;
    } while (ca != EOF);
    fclose(a);
    fclose(b);
    assert_true(size > 10000);
}

int run_anim_tests(void)
{
    mkdir("build", 0777);
    mkdir(DIR_BASE, 0777);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lzw_matches_giflib_byte_for_byte),
        cmocka_unit_test(gif_equals_png_frames_2d),
        cmocka_unit_test(every_keeps_start_multiples_and_last),
        cmocka_unit_test(gif_follows_a_map_to_a_larger_grid),
        cmocka_unit_test(gif_equals_png_frames_3d),
        cmocka_unit_test(failed_recordings_leave_no_file),
    };
    return cmocka_run_group_tests_name("anim", tests, NULL, NULL);
}
