/* classic.h — the standalone WaveFunctionCollapse project's sample lists (overlapping and simple tiled
   models, samples.xml) on the same engine as the `wfc` node. */
#ifndef SMALTI_WFC_CLASSIC_H
#define SMALTI_WFC_CLASSIC_H
#include <libxml/tree.h>
#include "blocks.h"
#include "wfc.h"

/* One <overlapping> or <simpletiled> entry of a samples.xml. */
typedef struct wfc_classic_entry {
    bool overlapping;
    char name[128];
    char subset[128];          /* "" for none */
    int N, symmetry, width, height, screenshots;
    int seed;                  /* -1: none given */
    long limit;                /* -1: none */
    int backtrack;             /* decisions a contradiction may take back; 0: none */
    int blocks;                /* solve in blocks of this side (blocks.h); 0: the whole wave at once */
    bool sets;                 /* propagation="sets": pattern sets instead of support counts (sets.c) */
    bool periodic, periodic_input, ground, black_background, text_output;
    wfc_heuristic heuristic;
    int line;
    char density[128];         /* a density picture samples/NAME.png, "" for none */
    int density_power;
    const xmlNode *el;         /* the entry, for its <fixed> and <density> children (read by wfc_classic_load only) */
    run_stop *stop;            /* set by the caller, NULL: none; a load past it fails with SMALTI_ERR_TIMEOUT */
} wfc_classic_entry;

/* A loaded model, ready to run with any seed. */
typedef struct wfc_classic {
    wfc_problem pb;
    /* With blocks, the solver holds no wave: only its stop and the last run's counts, which runs copy
       from the blocks' solver. */
    wfc_solver solver;
    wfc_blocks *blocks;        /* NULL: the whole wave at once */
    bool ground;               /* the last pattern only on the bottom row (an overlapping entry's ground) */
    bool start_contradicts;    /* the bans before the first observation already contradict */
    bool done;                 /* the last run observed every cell */
    bool black_background;
    /* Overlapping: P patterns of N*N colour numbers. */
    uint8_t *patterns;
    uint32_t colours[256];
    /* Simple tiled: P tiles of tilesize^2 ARGB pixels, and their names ("corner 1"). */
    uint32_t *tiles;
    int tilesize;
    char (*tile_names)[160];
    /* Simple tiled: cells fixed to variants first..first+count-1 before every run, and each variant's density. */
    struct wfc_classic_fixed { int cell, first, count; } *fixed;
    int fixed_count;
    double *density;
} wfc_classic;

/* Read an entry's attributes (errors at its line in d->file); false on bad input. */
bool wfc_classic_read_entry(diag *d, const xmlNode *el, wfc_classic_entry *e);
/* Load the sample (root/samples/NAME.png) or tileset (root/tilesets/NAME.xml and NAME/), with the
   tiled entries' <fixed x y tile> cells and density picture (root/samples/DENSITY.png).
   Errors about the entry go to d; errors inside a tileset name that file. NULL on failure, also
   when e->stop says stop between its steps or inside its solver's reset and propagation. */
wfc_classic *wfc_classic_load(diag *d, const char *root, const wfc_classic_entry *e);
/* The same with the files read through rd (NULL: the file system), at the same paths under root. */
wfc_classic *wfc_classic_load_from(diag *d, const char *root, const resource_reader *rd, const wfc_classic_entry *e);
/* One attempt: WFC_DONE, WFC_CONTRADICTION, or WFC_LIMIT after limit observations (limit < 0: none). */
wfc_result wfc_classic_run(wfc_classic *m, int32_t seed, long limit);
/* The picture of the last run as 0xRRGGBB pixels (free() it): observed cells in their colours,
   undecided ones as the average of what they may still become. NULL when out of memory. */
uint32_t *wfc_classic_render(const wfc_classic *m, int *width, int *height);
/* Tile names of a finished tiled run, row by row ("name k, "), or NULL (free() it). */
char *wfc_classic_text(const wfc_classic *m);
void wfc_classic_free(wfc_classic *m);

/* A second solver of a loaded model, for attempts on another thread: m is only read by these,
   so workers of one model run at once, and m's own runs (wfc_classic_run, on one thread) may go
   on beside them (they too only read the start wave); m must outlive its workers. */
typedef struct wfc_classic_worker {
    wfc_solver solver;         /* as wfc_classic's, with blocks */
    wfc_blocks *blocks;        /* its own blocks when the model has them */
    bool done;                 /* the last run observed every cell */
} wfc_classic_worker;
/* NULL when out of memory. */
wfc_classic_worker *wfc_classic_worker_new(const wfc_classic *m);
/* How many of `wanted` solvers of m (its own and workers) to run at once so that together they take
   no more than half of `memory` bytes (the machine's; 0 or less: not known, so no cap): at least 1. */
int wfc_classic_threads(const wfc_classic *m, int wanted, int64_t memory);
/* As wfc_classic_run and wfc_classic_text, on the worker's solver. */
wfc_result wfc_classic_worker_run(const wfc_classic *m, wfc_classic_worker *w, int32_t seed, long limit);
char *wfc_classic_worker_text(const wfc_classic *m, const wfc_classic_worker *w);
void wfc_classic_worker_free(wfc_classic_worker *w);
/* The picture a render makes, a row at a time (no whole picture in memory): its size, and row y
   (width 0xRRGGBB pixels) of the last run of worker w (NULL: of m's own). */
void wfc_classic_picture_size(const wfc_classic *m, int *width, int *height);
void wfc_classic_render_row(const wfc_classic *m, const wfc_classic_worker *w, int y, uint32_t *row);
#endif
