/* output.h — writing results: text grids, PNG, MagicaVoxel VOX, palettes, atomic files. */
#ifndef SMALTI_OUTPUT_H
#define SMALTI_OUTPUT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "smalti.h"

#define GRID_COLORS_MAX 256

/* A palette maps symbols to 0xRRGGBB colours. */
typedef struct palette {
    uint32_t rgb[256];
    bool has[256];
} palette;

/* The built-in default palette (the same colours as the reference's palette.xml). */
void palette_default(palette *p);
/* Read <colors><color symbol="B" value="000000"/>...; overrides entries of p. */
bool palette_load_file(palette *p, const char *path, smalti_error *err);
/* The same from the children of parent, read from file (a palette file's root,
   a models.xml <model>): each must be <color symbol="X" value="RRGGBB"/>, a
   one-character symbol and six hex digits. Overrides entries of p; at the
   first child that is not such a colour, false with file:line in err. */
typedef struct _xmlNode xmlNode;
bool palette_read_colors(palette *p, const xmlNode *parent, const char *file, smalti_error *err);
/* The same, passing over the child elements named skip (NULL: none), which the caller reads itself. */
bool palette_read_colors_except(palette *p, const xmlNode *parent, const char *skip, const char *file, smalti_error *err);
/* Colours for a legend; symbols without a colour get grey and are reported. */
void palette_colors(const palette *p, const char *legend, uint32_t *colors, char *missing, size_t missing_size);

/* Who must know of temporary files: told a temporary name before the file is
   made, and again once the name is free (renamed into place or removed), so
   that a program can remove what a signal would leave behind (the smalti
   command does: src/cli/common/tempfiles.c). The library keeps no such list, as it
   has no global state. Writers take a temp_hook pointer; NULL: nobody is told.
   `made`, if set, is told once the attempt to make the file told of by claim
   is over, whether it was made or not (so that a program can keep a signal from
   landing between the two). */
typedef struct temp_hook {
    void (*claim)(void *ctx, const char *tmp);
    void (*release)(void *ctx, const char *tmp);
    void *ctx;
    void (*made)(void *ctx, const char *tmp);
} temp_hook;

/* Atomic files: write to a temporary name beside the target, then rename. A
   target that is not a regular file is written directly instead, never renamed
   over: "-" is standard output (flushed, not closed), and an existing character
   device or FIFO is opened as it is; a folder, block device or socket is refused
   ("PATH: is a directory"). Such outputs cannot be all-or-nothing. A symbolic
   link at the path is never followed to a file: only one that ends at a character device or
   FIFO is written through; any other is refused. A replaced file keeps its mode. The temporary file (NAME.tmpPID)
   is always made afresh, never opened through a file or link already at its
   name: such a name is passed over for NAME.tmpPID.1 and so on. */
typedef struct atomic_file {
    FILE *f;
    char tmp[4096];    /* "" when writing directly to the target */
    char path[4096];   /* as given, for messages */
    char target[4096]; /* what tmp is renamed to: the path itself, never what a link there leads to */
    const temp_hook *temps;
} atomic_file;
bool atomic_open(atomic_file *af, const char *path, const temp_hook *temps, smalti_error *err);
bool atomic_commit(atomic_file *af, smalti_error *err); /* closes; renames on success */
void atomic_abort(atomic_file *af);                     /* closes; removes the temporary file */
/* Two files that belong together (a map and its tileset): both are closed, and renamed only
   when both were written without error (first, then second); else neither is. */
bool atomic_commit_pair(atomic_file *first, atomic_file *second, smalti_error *err);

typedef struct grid_view {
    const unsigned char *cells;
    int mx, my, mz;
    const char *legend;
} grid_view;

/* What the header of a text result says besides the final grid (../shared/mj/README.md): the model's
   name, the grid size handed to the interpreter (a map or tile wfc may end on another), the seed, the
   step limit as the caller gave it (0 or negative: none) and the steps made. */
typedef struct text_header {
    const char *model;
    int mx, my, mz;
    int32_t seed;
    long step_limit;
    long steps;
} text_header;
/* The reference's text output: the header lines, then the final grid g. */
bool write_text_result(FILE *f, const text_header *h, const grid_view *g);
/* A 2-D grid as an indexed-colour PNG, pixel_size pixels per cell (a 3-D grid: its bottom layer). */
bool save_png(const char *path, const grid_view *g, const uint32_t *colors, int pixel_size, const temp_hook *temps,
              smalti_error *err);
/* A truecolour PNG of width*height 0xRRGGBB pixels, row by row. */
bool save_png_rgb(const char *path, const uint32_t *pixels, int width, int height, const temp_hook *temps, smalti_error *err);
/* The same two PNGs written to an open stream (an open_memstream, for a page that embeds
   them); false with err set when too large or compression failed. */
bool png_write_grid(FILE *f, const grid_view *g, const uint32_t *colors, int pixel_size, smalti_error *err);
bool png_write_rgb(FILE *f, const uint32_t *pixels, int width, int height, smalti_error *err);
/* A truecolour PNG made a row at a time, without the whole picture in memory: fn fills row y
   (width 0xRRGGBB pixels), rows in order from the top. */
typedef void (*png_row_fn)(const void *ctx, int y, uint32_t *row);
bool save_png_rows(const char *path, int width, int height, png_row_fn fn, const void *ctx, const temp_hook *temps, smalti_error *err);
bool png_write_rows(FILE *f, int width, int height, png_row_fn fn, const void *ctx, smalti_error *err);
/* Whether a PNG of that size may be written; sets err when not. */
bool png_size_ok(const char *path, int64_t width, int64_t height, smalti_error *err);

/* Isometric pictures of 3-D grids, pixel for pixel as the reference draws them
   (Graphics.IsometricRender): cubes of block_size on the reference's GUI background. */
#define ISO_BACKGROUND 0x222222u
void iso_image_size(int mx, int my, int mz, int block_size, int64_t *width, int64_t *height);
/* Whether the isometric picture of such a grid is within our bound on its pixels. */
bool iso_size_ok(int mx, int my, int mz, int block_size);
/* The picture as 0xRRGGBB pixels (free() it), or NULL when out of memory or too large. */
uint32_t *iso_render(const grid_view *g, const uint32_t *colors, int block_size, int *width, int *height);
/* Whether a grid's PNG at pixel_size (isometric in 3-D, as -o draws it) is within the caps; else the
   error, a model error, so that the CLI can refuse it before the run. */
bool grid_png_size_ok(const char *path, int mx, int my, int mz, int pixel_size, smalti_error *err);
bool save_iso_png(const char *path, const grid_view *g, const uint32_t *colors, int block_size, const temp_hook *temps,
                  smalti_error *err);
bool save_vox(const char *path, const grid_view *g, const uint32_t *colors, const temp_hook *temps, smalti_error *err);

/* Animated GIFs, streamed frame by frame (gif.c). A frame is a rectangle of
   the picture drawn over the previous frames; its pixels index colors, and
   the index color_count is transparent (the pixel keeps what was there). */
#define GIF_MAX_SIDE 65535
#define GIF_MAX_PIXELS (1LL << 30) /* our bound on a frame, as for PNGs */
typedef struct gif_anim gif_anim;
typedef struct gif_frame {
    int left, top, width, height;
    const uint32_t *colors; /* 0xRRGGBB, at most 255 */
    int color_count;
    int delay_cs;           /* how long it shows, in hundredths of a second */
} gif_frame;
gif_anim *gif_anim_open(const char *path, const temp_hook *temps, smalti_error *err);
/* Start a frame, then give its height rows of width pixels (row may be modified). */
bool gif_anim_begin_frame(gif_anim *g, const gif_frame *f, smalti_error *err);
bool gif_anim_row(gif_anim *g, unsigned char *row, int width, smalti_error *err);
long gif_anim_frames(const gif_anim *g);
/* Finish the file and rename it into place; frees g either way. */
bool gif_anim_close(gif_anim *g, smalti_error *err);
void gif_anim_abort(gif_anim *g); /* no file is left; frees g */
/* Compress with giflib's EGifPutLine instead (the same bytes, slower), before the first frame. */
void gif_anim_use_giflib_lzw(gif_anim *g);
#endif
