/* output_kinds.c — the one table of output kinds: extension, the grids each holds, whether --tiles
   or a lattice draws it, its writer and its help line. Adding a format is one row here. */
#include "output_kinds.h"
#include "cli.h"
#include <string.h>
#include <strings.h>
#include "../../core/diag.h"
#include "../../io/tilemap.h"

static bool write_text(const output_target *t, smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, t->path, temp_files_hook(), err)) return false;
    write_text_result(af.f, t->header, t->g);
    return atomic_commit(&af, err);
}

/* The reference draws a 3-D grid's picture isometrically, pixelsize being the cube size. */
static bool write_png(const output_target *t, smalti_error *err)
{
    if (t->tiles) return save_tiles_png(t->path, t->g, t->tiles, temp_files_hook(), err);
    if (t->g->mz > 1) return save_iso_png(t->path, t->g, t->colors, t->pixel_size, temp_files_hook(), err);
    return save_png(t->path, t->g, t->colors, t->pixel_size, temp_files_hook(), err);
}

static bool write_vox(const output_target *t, smalti_error *err)
{
    return save_vox(t->path, t->g, t->colors, temp_files_hook(), err);
}

static bool write_map(const output_target *t, tilemap_kind kind, smalti_error *err)
{
    return save_tilemap(t->path, kind, t->g, t->colors, t->tiles, t->shared_tileset, temp_files_hook(), err);
}
static bool out_tmx(const output_target *t, smalti_error *err) { return write_map(t, TILEMAP_TMX, err); }
static bool out_tmj(const output_target *t, smalti_error *err) { return write_map(t, TILEMAP_TMJ, err); }
static bool out_csv(const output_target *t, smalti_error *err) { return write_map(t, TILEMAP_CSV, err); }
static bool out_json(const output_target *t, smalti_error *err) { return write_map(t, TILEMAP_JSON, err); }

/* .svg and .obj exist only as twisted maps; the writer is reached with a lattice alone. */
static bool write_twisted_only(const output_target *t, smalti_error *err)
{
    error_set(err, SMALTI_ERR_USAGE, t->path, 0, "a %s output is a twisted map, and this run has no lattice: add a <growgrid> node",
              t->ext);
    return false;
}

static const output_kind kinds[] = {
    {".png", true, true, true, false, true, write_png,
     "a picture in palette colours, --pixel-size pixels per cell (a 3-D grid's is isometric, its cells bent into their quads on a lattice); with --tiles, drawn with the sheet's tiles"},
    {".txt", true, true, false, false, false, write_text, "the text grid with its header (the reference's output)"},
    {".vox", true, true, false, false, false, write_vox, "MagicaVoxel voxels (of a run with a lattice, the straight grid)"},
    {".tmx", true, true, true, false, false, out_tmx, "a Tiled map (XML), one layer per z (and an object layer per z for a sheet's objects), with its tileset NAME.tiles.png beside it"},
    {".tmj", true, true, true, false, false, out_tmj, "a Tiled map (JSON), as .tmx"},
    {".csv", true, true, true, false, false, out_csv, "tile ids, a row of cells a line, a blank line between layers"},
    {".json", true, true, true, false, true, out_json, "size, legend, colours, cells and tile ids (and a sheet's objects)"},
    {".svg", true, false, false, true, true, write_twisted_only, "the grid drawn on its growgrid lattice, as vectors"},
    {".obj", true, true, false, true, true, write_twisted_only,
     "the lattice's quads as a mesh, coloured by cell; of a 3-D grid, its cells' boxes bent into their quads"},
};

const output_kind *output_kind_of(const char *path)
{
    const char *ext = path_extension(path);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcasecmp(ext, kinds[i].ext) == 0) return &kinds[i];
    return NULL;
}

void output_kind_list(char *buf, size_t size, bool only_tiles)
{
    size_t n = 0, count = 0, total = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) total += !only_tiles || kinds[i].takes_tiles;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds && n < size; i++) {
        if (only_tiles && !kinds[i].takes_tiles) continue;
        count++;
        const char *sep = count == 1 ? "" : count == total ? " or " : ", ";
        n += (size_t)snprintf(buf + n, size - n, "%s%s", sep, kinds[i].ext);
    }
}

/* text, wrapped at 79 columns under a first line that starts at column `at`, later lines indented to it. */
static void put_wrapped(FILE *f, const char *text, int at)
{
    int column = at;
    for (const char *w = text; *w;) {
        size_t len = strcspn(w, " ");
        if (column > at && column + 1 + (int)len > 79) fprintf(f, "\n%*s", column = at, "");
        else if (column > at) fputc(' ', f), column++;
        fwrite(w, 1, len, f);
        column += (int)len;
        w += len;
        w += strspn(w, " ");
    }
    fputc('\n', f);
}

void output_kinds_help(FILE *f)
{
    fputs("Outputs: -o FILE writes the final grid, its kind chosen by the extension (any\n"
          "case). Without -o, or with -o - or a device, the text form goes there.\n\n",
          f);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        const output_kind *k = &kinds[i];
        char line[400];
        snprintf(line, sizeof line, "%s%s%s%s", k->help, k->grid_3d ? "" : "; 2-D grids only",
                 k->lattice_only ? "; a run with a <growgrid> lattice only" : k->twists ? "; drawn on the lattice when the run has one" : "",
                 k->takes_tiles && k->write != write_png ? "; --tiles makes the sheet its tileset" : "");
        fprintf(f, "  %-6s ", k->ext);
        put_wrapped(f, line, 9);
    }
    fputs("\nAn animation of the run is --gif FILE or --frames DIR, not -o.\n", f);
}
