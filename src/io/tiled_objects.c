/* tiled_objects.c — a tile sheet's object symbols as markers: Tiled object layers (.tmx, .tmj) and the .json's objects. */
#include "tilemap.h"
#include "escape.h"
#include <string.h>

/* The object rule of the cell (x, y, z), or NULL when its symbol is not an object. */
static const tile_rule *object_at(const tilemap *m, int x, int y, int z)
{
    const grid_view *g = m->g;
    if (!m->objects) return NULL;
    unsigned char v = g->cells[(size_t)x + (size_t)y * g->mx + (size_t)z * g->mx * g->my];
    const tile_rule *r = &m->objects->rule[(unsigned char)g->legend[v]];
    return r->kind == TILE_OBJECT ? r : NULL;
}

size_t tilemap_object_count(const tilemap *m)
{
    size_t n = 0;
    for (int z = 0; z < m->g->mz; z++)
        for (int y = 0; y < m->g->my; y++)
            for (int x = 0; x < m->g->mx; x++) n += object_at(m, x, y, z) != NULL;
    return n;
}

/* Objects are tile-sized rectangles with their top left at the cell's (in pixels, which the 64-bit
   products keep exact for any grid and tile size), numbered from *next_id in row-major order. */
void put_tmx_objects(FILE *f, const tilemap *m, int z, int layer_id, size_t *next_id)
{
    fprintf(f, " <objectgroup id=\"%d\" name=\"objects z%d\">\n", layer_id, z);
    for (int y = 0; y < m->g->my; y++)
        for (int x = 0; x < m->g->mx; x++) {
            const tile_rule *r = object_at(m, x, y, z);
            if (!r) continue;
            fprintf(f, "  <object id=\"%zu\" name=\"", (*next_id)++);
            html_write_text(f, r->object_name);
            fputs("\" type=\"", f);
            html_write_text(f, r->object_type);
            fprintf(f, "\" x=\"%lld\" y=\"%lld\" width=\"%d\" height=\"%d\"/>\n", (long long)x * m->tile_width,
                    (long long)y * m->tile_height, m->tile_width, m->tile_height);
        }
    fputs(" </objectgroup>\n", f);
}

void put_tmj_objects(FILE *f, const tilemap *m, int z, int layer_id, size_t *next_id)
{
    fprintf(f, ",\n    { \"type\":\"objectgroup\", \"id\":%d, \"name\":\"objects z%d\", \"x\":0, \"y\":0, \"opacity\":1, "
               "\"visible\":true, \"draworder\":\"topdown\",\n      \"objects\":[",
            layer_id, z);
    bool first = true;
    for (int y = 0; y < m->g->my; y++)
        for (int x = 0; x < m->g->mx; x++) {
            const tile_rule *r = object_at(m, x, y, z);
            if (!r) continue;
            fprintf(f, "%s\n        { \"id\":%zu, \"name\":", first ? "" : ",", (*next_id)++);
            json_write_string(f, r->object_name, strlen(r->object_name));
            fputs(", \"type\":", f);
            json_write_string(f, r->object_type, strlen(r->object_type));
            fprintf(f, ", \"x\":%lld, \"y\":%lld, \"width\":%d, \"height\":%d, \"rotation\":0, \"visible\":true }",
                    (long long)x * m->tile_width, (long long)y * m->tile_height, m->tile_width, m->tile_height);
            first = false;
        }
    fputs("] }", f);
}

/* In cells, not pixels, and with the symbol: a game's own loader needs no tile size. */
void put_json_objects(FILE *f, const tilemap *m)
{
    fputs(",\n  \"objects\": [", f);
    bool first = true;
    for (int z = 0; z < m->g->mz; z++)
        for (int y = 0; y < m->g->my; y++)
            for (int x = 0; x < m->g->mx; x++) {
                const tile_rule *r = object_at(m, x, y, z);
                if (!r) continue;
                const grid_view *g = m->g;
                fputs(first ? "\n    {\"symbol\": " : ",\n    {\"symbol\": ", f);
                json_write_string(f, g->legend + g->cells[(size_t)x + (size_t)y * g->mx + (size_t)z * g->mx * g->my], 1);
                fputs(", \"name\": ", f);
                json_write_string(f, r->object_name, strlen(r->object_name));
                fputs(", \"type\": ", f);
                json_write_string(f, r->object_type, strlen(r->object_type));
                fprintf(f, ", \"x\": %d, \"y\": %d, \"z\": %d}", x, y, z);
                first = false;
            }
    fputs(first ? "]" : "\n  ]", f);
}
