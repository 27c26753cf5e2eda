/* output_kinds.h — the kinds of file a run's final grid is written as, one table read by option
   checks, the writer, `smalti help outputs` and the docs test (output_kinds.c). */
#ifndef SMALTI_CLI_OUTPUT_KINDS_H
#define SMALTI_CLI_OUTPUT_KINDS_H
#include <stdbool.h>
#include <stdio.h>
#include "smalti.h"
#include "../../io/output.h"
#include "../../io/twisted.h"

typedef struct tile_sheet tile_sheet;

/* What a writer is handed: the final grid and how to draw it. */
typedef struct output_target {
    const char *path;
    const char *ext;                 /* path's extension, as written (".PNG" too) */
    const grid_view *g;
    const text_header *header;       /* for the text form */
    const uint32_t *colors;          /* 0xRRGGBB per legend symbol */
    int pixel_size;
    const tile_sheet *tiles;         /* --tiles, or NULL */
    const char *shared_tileset;      /* a tile map's generated tileset written once for many maps, or NULL */
    const twisted_lattice *lattice;  /* the run's growgrid lattice, or NULL */
} output_target;

typedef struct output_kind {
    const char *ext;                 /* ".png" (matched without regard to case) */
    bool grid_2d, grid_3d;           /* the grids it can hold */
    bool takes_tiles;                /* --tiles draws it with the user's sheet */
    bool lattice_only;               /* a twisted map: only a run with a growgrid lattice has one */
    bool twists;                     /* drawn onto the lattice when the run has one */
    bool (*write)(const output_target *t, smalti_error *err);
    const char *help;                /* one line for `smalti help outputs` */
} output_kind;

/* The kind of path's extension, or NULL. */
const output_kind *output_kind_of(const char *path);
/* The extensions, as ".png, .txt, .vox, ... or .svg" (with `only_tiles`: those --tiles draws). */
void output_kind_list(char *buf, size_t size, bool only_tiles);
/* The table for `smalti help outputs`. */
void output_kinds_help(FILE *f);
#endif
