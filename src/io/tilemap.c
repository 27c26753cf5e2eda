/* tilemap.c — writing a tile map with its tileset (generated, or the user's sheet), all or nothing, and a PNG drawn with a sheet. */
#include "tilemap.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"

/* "maps/level.tmx" -> "maps/level.tiles.png": the generated tileset beside the map. */
static bool tileset_path_for(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    int stem = dot && dot != (slash ? slash + 1 : path) ? (int)(dot - path) : (int)strlen(path);
    return snprintf(out, size, "%.*s.tiles.png", stem, path) < (int)size;
}

/* The folder of path, resolved ("." when it has none). */
static bool resolved_dir(const char *path, char *out)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path) >= (int)sizeof dir) return false;
    return realpath(dir, out) != NULL;
}

/* target (a file) as a path relative to the folder `from`, both resolved: "../sheets/a.png". */
static bool relative_to(const char *from, const char *target, char *out, size_t size)
{
    char dir[PATH_MAX + 1];
    snprintf(dir, sizeof dir, "%s%s", from, strcmp(from, "/") == 0 ? "" : "/");
    size_t common = 0; /* the length of the folders both share, up to a '/' */
    for (size_t i = 0; dir[i] && dir[i] == target[i]; i++)
        if (dir[i] == '/') common = i + 1;
    size_t n = 0;
    out[0] = 0;
    for (const char *p = dir + common; *p; p++) /* one "../" for each folder of from below the shared ones */
        if (*p == '/') n += (size_t)snprintf(out + n, n < size ? size - n : 0, "../");
    n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s", target + common);
    return n < size;
}

/* The generated tileset: one square of side `tile` per legend symbol, in a row, in its palette colour. */
static bool write_generated_tileset(FILE *f, const grid_view *g, const uint32_t *colors, int tile, smalti_error *err)
{
    int count = (int)strlen(g->legend);
    uint32_t *px = malloc(sizeof *px * (size_t)count * tile * tile);
    if (!px) {
        error_set(err, SMALTI_ERR_RUNTIME, NULL, 0, "out of memory");
        return false;
    }
    for (int y = 0; y < tile; y++)
        for (int x = 0; x < count * tile; x++) px[(size_t)y * count * tile + x] = colors[x / tile];
    bool ok = png_write_rgb(f, px, count * tile, tile, err);
    free(px);
    return ok;
}

static void write_map(FILE *f, tilemap_kind kind, const tilemap *m)
{
    switch (kind) {
    case TILEMAP_TMX: write_tmx(f, m); break;
    case TILEMAP_TMJ: write_tmj(f, m); break;
    case TILEMAP_CSV: write_tile_csv(f, m); break;
    case TILEMAP_JSON: write_grid_json(f, m); break;
    }
}

bool save_generated_tileset(const char *path, const grid_view *g, const uint32_t *colors, const temp_hook *temps,
                            smalti_error *err)
{
    atomic_file f;
    if (!atomic_open(&f, path, temps, err)) return false;
    if (!write_generated_tileset(f.f, g, colors, TILEMAP_DEFAULT_TILE, err)) {
        atomic_abort(&f);
        return false;
    }
    return atomic_commit(&f, err);
}

/* An image file named from the map's folder, so that Tiled finds it. */
static bool image_from_map(const char *map_path, const char *image_path, char *name, size_t size)
{
    char map_dir[PATH_MAX], image[PATH_MAX];
    return resolved_dir(map_path, map_dir) && realpath(image_path, image) && relative_to(map_dir, image, name, size);
}

bool save_tilemap(const char *path, tilemap_kind kind, const grid_view *g, const uint32_t *colors, const tile_sheet *sheet,
                  const char *shared_tileset, const temp_hook *temps, smalti_error *err)
{
    size_t cells = (size_t)g->mx * g->my * g->mz;
    uint32_t *ids = malloc(sizeof *ids * (cells ? cells : 1));
    if (!ids) {
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
        return false;
    }
    tilemap_ids(g, sheet, ids);
    tilemap m = {.g = g, .ids = ids, .colors = colors, .objects = tile_sheet_has_objects(sheet) ? sheet : NULL};
    char tileset[PATH_MAX], name[PATH_MAX];
    atomic_file map_file, tiles_file = {0};
    bool ok = true, generated = !sheet && !shared_tileset;
    const int count = (int)strlen(g->legend);
    if (sheet) {
        if (!image_from_map(path, sheet->image_path, name, sizeof name)) {
            error_set(err, SMALTI_ERR_IO, path, 0, "cannot name the tile sheet %s from the map's folder", sheet->image_path);
            free(ids);
            return false;
        }
        m.tileset_image = name;
        m.tile_width = sheet->tile_width, m.tile_height = sheet->tile_height;
        m.columns = sheet->columns, m.tile_count = sheet->columns * sheet->rows;
        m.image_width = sheet->image_width, m.image_height = sheet->image_height;
    } else {
        if (shared_tileset ? !image_from_map(path, shared_tileset, name, sizeof name) : !tileset_path_for(path, tileset, sizeof tileset)) {
            if (shared_tileset) error_set(err, SMALTI_ERR_IO, path, 0, "cannot name the tileset %s from the map's folder", shared_tileset);
            else error_set(err, SMALTI_ERR_IO, path, 0, "output path is too long");
            free(ids);
            return false;
        }
        if (!shared_tileset) {
            const char *slash = strrchr(tileset, '/');
            snprintf(name, sizeof name, "%s", slash ? slash + 1 : tileset);
        }
        m.tileset_image = name;
        m.tile_width = m.tile_height = TILEMAP_DEFAULT_TILE;
        m.columns = m.tile_count = count;
        m.image_width = count * TILEMAP_DEFAULT_TILE, m.image_height = TILEMAP_DEFAULT_TILE;
    }
    /* Both files are opened before either is written, and renamed only when both are complete. */
    if (!atomic_open(&map_file, path, temps, err)) ok = false;
    if (ok && generated && !atomic_open(&tiles_file, tileset, temps, err)) {
        atomic_abort(&map_file);
        ok = false;
    }
    if (ok) {
        write_map(map_file.f, kind, &m);
        if (generated && !write_generated_tileset(tiles_file.f, g, colors, TILEMAP_DEFAULT_TILE, err)) {
            atomic_abort(&tiles_file);
            atomic_abort(&map_file);
            ok = false;
        }
    }
    if (ok && generated) ok = atomic_commit_pair(&tiles_file, &map_file, err);
    else if (ok) ok = atomic_commit(&map_file, err);
    free(ids);
    return ok;
}

bool save_tiles_png(const char *path, const grid_view *g, const tile_sheet *sheet, const temp_hook *temps, smalti_error *err)
{
    int64_t w = (int64_t)g->mx * sheet->tile_width, h = (int64_t)g->my * sheet->tile_height;
    if (!png_size_ok(path, w, h, err)) return false;
    size_t cells = (size_t)g->mx * g->my * g->mz;
    uint32_t *ids = malloc(sizeof *ids * cells);
    uint32_t *px = calloc((size_t)w * (size_t)h, sizeof *px);
    if (!ids || !px) {
        free(ids);
        free(px);
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
        return false;
    }
    tilemap_ids(g, sheet, ids);
    /* Layers bottom to top; a sheet pixel with alpha below half lets the layer beneath show. */
    for (int z = 0; z < g->mz; z++)
        for (int cy = 0; cy < g->my; cy++)
            for (int cx = 0; cx < g->mx; cx++) {
                uint32_t id = ids[(size_t)z * g->mx * g->my + (size_t)cy * g->mx + cx];
                if (!id) continue;
                int tx = (int)((id - 1) % (uint32_t)sheet->columns) * sheet->tile_width;
                int ty = (int)((id - 1) / (uint32_t)sheet->columns) * sheet->tile_height;
                for (int y = 0; y < sheet->tile_height; y++)
                    for (int x = 0; x < sheet->tile_width; x++) {
                        uint32_t p = sheet->pixels[(size_t)(ty + y) * sheet->image_width + tx + x];
                        if ((p >> 24) >= 0x80)
                            px[((size_t)cy * sheet->tile_height + y) * (size_t)w + (size_t)cx * sheet->tile_width + x] = p & 0xFFFFFF;
                    }
            }
    free(ids);
    bool ok = save_png_rgb(path, px, (int)w, (int)h, temps, err);
    free(px);
    return ok;
}
