/* tiled.c — the tile map writers: Tiled's .tmx (XML) and .tmj (JSON), one tile layer per z, and plain CSV and JSON. */
#include "tilemap.h"
#include "escape.h"
#include <string.h>

/* How a layer's ids are laid out: one JSON array; Tiled's CSV (a row a line, commas between rows too);
   a plain CSV file (a row a line). */
typedef enum ids_layout { IDS_JSON, IDS_TMX, IDS_CSV } ids_layout;

static void put_layer_ids(FILE *f, const tilemap *m, int z, ids_layout layout)
{
    const grid_view *g = m->g;
    size_t base = (size_t)z * g->mx * g->my;
    for (int y = 0; y < g->my; y++) {
        for (int x = 0; x < g->mx; x++) {
            bool row_end = x == g->mx - 1, last = row_end && y == g->my - 1;
            bool comma = !last && !(row_end && layout == IDS_CSV);
            fprintf(f, "%u%s", (unsigned)m->ids[base + (size_t)y * g->mx + x], comma ? "," : "");
        }
        if (layout != IDS_JSON) fputc('\n', f);
    }
}

/* Tile layers have ids 1..mz and object layers (with a sheet's objects) mz+1..2mz; objects 1..count. The
   grid's at most 2^28 cells keep these far from overflow in 64 bits. */
static long long next_layer_id(const tilemap *m) { return (m->objects ? 2LL : 1LL) * m->g->mz + 1; }

void write_tmx(FILE *f, const tilemap *m)
{
    const grid_view *g = m->g;
    size_t next_object = 1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f,
            "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"%d\" "
            "height=\"%d\" tilewidth=\"%d\" tileheight=\"%d\" infinite=\"0\" nextlayerid=\"%lld\" nextobjectid=\"%zu\">\n",
            g->mx, g->my, m->tile_width, m->tile_height, next_layer_id(m), tilemap_object_count(m) + 1);
    if (m->tileset_image) {
        fprintf(f, " <tileset firstgid=\"1\" name=\"tiles\" tilewidth=\"%d\" tileheight=\"%d\" tilecount=\"%d\" columns=\"%d\">\n",
                m->tile_width, m->tile_height, m->tile_count, m->columns);
        fputs("  <image source=\"", f);
        html_write_text(f, m->tileset_image);
        fprintf(f, "\" width=\"%d\" height=\"%d\"/>\n </tileset>\n", m->image_width, m->image_height);
    }
    for (int z = 0; z < g->mz; z++) {
        fprintf(f, " <layer id=\"%d\" name=\"z%d\" width=\"%d\" height=\"%d\">\n  <data encoding=\"csv\">\n", z + 1, z, g->mx, g->my);
        put_layer_ids(f, m, z, IDS_TMX);
        fputs("</data>\n </layer>\n", f);
        if (m->objects) put_tmx_objects(f, m, z, g->mz + 1 + z, &next_object);
    }
    fputs("</map>\n", f);
}

void write_tmj(FILE *f, const tilemap *m)
{
    const grid_view *g = m->g;
    size_t next_object = 1;
    fprintf(f, "{ \"type\":\"map\", \"version\":\"1.8\", \"tiledversion\":\"1.8.2\", \"orientation\":\"orthogonal\", "
               "\"renderorder\":\"right-down\",\n");
    fprintf(f, "  \"width\":%d, \"height\":%d, \"tilewidth\":%d, \"tileheight\":%d, \"infinite\":false, \"compressionlevel\":-1,\n",
            g->mx, g->my, m->tile_width, m->tile_height);
    fprintf(f, "  \"nextlayerid\":%lld, \"nextobjectid\":%zu,\n  \"tilesets\":[", next_layer_id(m), tilemap_object_count(m) + 1);
    if (m->tileset_image) {
        fputs("\n    { \"firstgid\":1, \"name\":\"tiles\", \"image\":", f);
        json_write_string(f, m->tileset_image, strlen(m->tileset_image));
        fprintf(f, ", \"imagewidth\":%d, \"imageheight\":%d, \"tilewidth\":%d, \"tileheight\":%d,\n"
                   "      \"tilecount\":%d, \"columns\":%d, \"margin\":0, \"spacing\":0 }",
                m->image_width, m->image_height, m->tile_width, m->tile_height, m->tile_count, m->columns);
    }
    fputs("],\n  \"layers\":[", f);
    for (int z = 0; z < g->mz; z++) {
        fprintf(f, "%s\n    { \"type\":\"tilelayer\", \"id\":%d, \"name\":\"z%d\", \"x\":0, \"y\":0, \"width\":%d, \"height\":%d, "
                   "\"opacity\":1, \"visible\":true,\n      \"data\":[", z ? "," : "", z + 1, z, g->mx, g->my);
        put_layer_ids(f, m, z, IDS_JSON);
        fputs("] }", f);
        if (m->objects) put_tmj_objects(f, m, z, g->mz + 1 + z, &next_object);
    }
    fputs("]\n}\n", f);
}

void write_tile_csv(FILE *f, const tilemap *m)
{
    for (int z = 0; z < m->g->mz; z++) {
        if (z) fputc('\n', f);
        put_layer_ids(f, m, z, IDS_CSV);
    }
}

void write_grid_json(FILE *f, const tilemap *m)
{
    const grid_view *g = m->g;
    fprintf(f, "{\n  \"width\": %d,\n  \"height\": %d,\n  \"depth\": %d,\n  \"legend\": ", g->mx, g->my, g->mz);
    json_write_string(f, g->legend, strlen(g->legend));
    fputs(",\n  \"colors\": {", f);
    for (int i = 0; g->legend[i]; i++) {
        fputs(i ? ", " : "", f);
        json_write_string(f, g->legend + i, 1);
        fprintf(f, ": \"#%06X\"", (unsigned)(m->colors[i] & 0xFFFFFF));
    }
    fputs("},\n", f);
    if (m->tileset_image) {
        fputs("  \"tileset\": {\"image\": ", f);
        json_write_string(f, m->tileset_image, strlen(m->tileset_image));
        fprintf(f, ", \"tilewidth\": %d, \"tileheight\": %d, \"columns\": %d, \"tilecount\": %d},\n", m->tile_width,
                m->tile_height, m->columns, m->tile_count);
    }
    /* cells[z][y] is a row of symbols; tiles[z][y][x] the row's tile ids (0: none). */
    fputs("  \"cells\": [", f);
    for (int z = 0; z < g->mz; z++) {
        fputs(z ? ",\n    [" : "\n    [", f);
        for (int y = 0; y < g->my; y++) {
            fputs(y ? ", \"" : "\"", f);
            for (int x = 0; x < g->mx; x++)
                json_write_chars(f, g->legend + g->cells[(size_t)z * g->mx * g->my + (size_t)y * g->mx + x], 1);
            fputc('"', f);
        }
        fputc(']', f);
    }
    fputs("\n  ],\n  \"tiles\": [", f);
    for (int z = 0; z < g->mz; z++) {
        fputs(z ? ",\n    [" : "\n    [", f);
        for (int y = 0; y < g->my; y++) {
            fputs(y ? ", [" : "[", f);
            for (int x = 0; x < g->mx; x++)
                fprintf(f, "%s%u", x ? "," : "", (unsigned)m->ids[(size_t)z * g->mx * g->my + (size_t)y * g->mx + x]);
            fputc(']', f);
        }
        fputc(']', f);
    }
    fputs("\n  ]", f);
    if (m->objects) put_json_objects(f, m);
    fputs("\n}\n", f);
}
