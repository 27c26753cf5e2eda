/* tilemap.h — grids as tile maps for games: Tiled .tmx/.tmj, CSV and JSON of tile ids, tile sheets and autotiles. */
#ifndef SMALTI_TILEMAP_H
#define SMALTI_TILEMAP_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "output.h"

/* How one symbol becomes a tile of a sheet (TILES.xml, docs/formats.md). */
typedef enum tile_rule_kind {
    TILE_NONE,   /* no tile: the cell stays empty (tile id 0) */
    TILE_INDEX,  /* always the tile `index` */
    TILE_EDGE16, /* index + the 4-bit mask of joined edge neighbours (N 1, E 2, S 4, W 8) */
    TILE_BLOB47, /* index + the rank of the 8-bit mask, corners kept only between two joined edges */
    TILE_OBJECT, /* a marker: an object in the map's object layer, drawn as the tile of its ground symbol */
} tile_rule_kind;

/* An object symbol's name and type as the map's objects carry them (at most 63 bytes each). */
#define TILE_OBJECT_TEXT 64

typedef struct tile_rule {
    tile_rule_kind kind;
    int index;           /* the tile, or the first of the autotile set */
    uint8_t joins[32];   /* a bit per symbol: the neighbours that count as the same (default: itself) */
    bool border_joins;   /* whether outside the grid counts as joined (default yes) */
    /* TILE_OBJECT only: the symbol whose tile is drawn under it, the object's name and type. */
    unsigned char ground;
    char object_name[TILE_OBJECT_TEXT], object_type[TILE_OBJECT_TEXT];
} tile_rule;

/* A parsed TILES.xml: the user's sheet and a rule per symbol. */
typedef struct tile_sheet {
    char image_path[4096];    /* the sheet as read: relative to the TILES.xml file's folder */
    int tile_width, tile_height;
    int columns, rows;        /* whole tiles in the image, row by row from the top left */
    int image_width, image_height;
    uint32_t *pixels;         /* 0xAARRGGBB, for -o map.png; tile_sheet_free frees it */
    tile_rule rule[256];      /* by symbol */
} tile_sheet;

/* Read TILES.xml into s; false with file:line in err (SMALTI_ERR_MODEL for a bad file). */
bool tile_sheet_load(tile_sheet *s, const char *path, smalti_error *err);
void tile_sheet_free(tile_sheet *s);
/* The symbols of legend that the sheet gives no tile (they are left empty), in missing (257 bytes). */
void tile_sheet_untiled(const tile_sheet *s, const char *legend, char *missing);
/* Whether the sheet names any object symbol (then maps carry object layers, NULL: none). */
bool tile_sheet_has_objects(const tile_sheet *s);

/* Autotiling of the cell (x, y) in layer z: the neighbours' joined masks and the tile's offset in its set. */
int autotile_edge_mask(const grid_view *g, const tile_rule *r, int x, int y, int z);
int autotile_blob_mask(const grid_view *g, const tile_rule *r, int x, int y, int z); /* reduced, 0..255 */
int autotile_blob_rank(int reduced_mask); /* 0..46: its place among the 47 reduced masks in increasing order; -1 if not one */

/* The tile id of every cell (x + y*mx + z*mx*my): with sheet NULL, the symbol's legend index + 1;
   with a sheet, the chosen tile + 1 (an object's cell: its ground's tile); 0 for no tile. */
void tilemap_ids(const grid_view *g, const tile_sheet *sheet, uint32_t *ids);

/* A map ready to write: the grid, its ids, and its one tileset (first id 1). */
typedef struct tilemap {
    const grid_view *g;
    const uint32_t *ids;
    const uint32_t *colors;   /* 0xRRGGBB per legend symbol, for the JSON */
    const char *tileset_image; /* as the map names it, relative to the map's folder; NULL: none */
    int tile_width, tile_height, columns, tile_count, image_width, image_height;
    const tile_sheet *objects; /* a sheet naming object symbols: their cells become objects; NULL: none */
} tilemap;
typedef enum tilemap_kind { TILEMAP_TMX, TILEMAP_TMJ, TILEMAP_CSV, TILEMAP_JSON } tilemap_kind;
/* .tmx and .tmj: with objects, an object layer "objects zK" after each tile layer "zK". */
void write_tmx(FILE *f, const tilemap *m);
void write_tmj(FILE *f, const tilemap *m);
void write_tile_csv(FILE *f, const tilemap *m);  /* one row of ids a line, a blank line between layers */
void write_grid_json(FILE *f, const tilemap *m); /* size, legend, colours, cells, tile ids (and objects) */

/* The map's objects (tiled_objects.c): how many cells are objects; one z's object layer, numbering
   its objects from *next_id; the .json's "objects" array, after a comma. */
size_t tilemap_object_count(const tilemap *m);
void put_tmx_objects(FILE *f, const tilemap *m, int z, int layer_id, size_t *next_id);
void put_tmj_objects(FILE *f, const tilemap *m, int z, int layer_id, size_t *next_id);
void put_json_objects(FILE *f, const tilemap *m);

/* Write the map at path, and beside it, with no sheet, its generated tileset (PATH-without-extension.tiles.png,
   one palette-coloured square per legend symbol). Both are written under temporary names and renamed only
   when both are complete, so a refused or failed write leaves neither.
   With shared_tileset (no sheet), the map names that generated tileset, written once by
   save_generated_tileset for the maps of many runs, and writes none of its own. */
bool save_tilemap(const char *path, tilemap_kind kind, const grid_view *g, const uint32_t *colors, const tile_sheet *sheet,
                  const char *shared_tileset, const temp_hook *temps, smalti_error *err);
/* The generated tileset alone: one square of TILEMAP_DEFAULT_TILE pixels per symbol of g's legend, in a
   row, in its colour. */
bool save_generated_tileset(const char *path, const grid_view *g, const uint32_t *colors, const temp_hook *temps,
                            smalti_error *err);
/* The map drawn with the sheet's tiles as a PNG; the layers of a 3-D grid drawn bottom to top. */
bool save_tiles_png(const char *path, const grid_view *g, const tile_sheet *sheet, const temp_hook *temps, smalti_error *err);

/* The side of a generated tile, in pixels. */
#define TILEMAP_DEFAULT_TILE 16
#endif
