/* result.c — write a finished run as text, PNG (isometric in 3-D), VOX or a tile map, chosen by the file extension. */
#include "../common/cli.h"
#include "../../core/diag.h"
#include "../../io/tilemap.h"
#include "../../io/twisted.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

text_header result_header(const smalti_model *model, const char *model_name, int32_t seed, long step_limit)
{
    text_header h = {.model = model_name, .seed = seed, .step_limit = step_limit};
    smalti_model_grid_size(model, &h.mx, &h.my, &h.mz);
    return h;
}

bool write_result(const char *path, const smalti_run *run, const text_header *header, const palette *pal, int pixel_size,
                  bool quiet, smalti_error *err)
{
    return write_result_tiles(path, run, header, pal, pixel_size, NULL, quiet, err);
}

/* The tile map kinds, by extension. */
static bool tilemap_kind_of(const char *ext, tilemap_kind *kind)
{
    static const struct { const char *ext; tilemap_kind kind; } kinds[] = {
        {".tmx", TILEMAP_TMX}, {".tmj", TILEMAP_TMJ}, {".csv", TILEMAP_CSV}, {".json", TILEMAP_JSON}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcasecmp(ext, kinds[i].ext) == 0) return *kind = kinds[i].kind, true;
    return false;
}

bool write_result_tiles(const char *path, const smalti_run *run, const text_header *header, const palette *pal, int pixel_size,
                        const tile_sheet *tiles, bool quiet, smalti_error *err)
{
    text_header h = *header;
    h.steps = smalti_run_counter(run);
    grid_view g;
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(run);
    if (!path || strcmp(path, "-") == 0) {
        if (!write_text_result(stdout, &h, &g) || fflush(stdout) != 0) {
            error_set(err, SMALTI_ERR_IO, "<stdout>", 0, "write failed");
            return false;
        }
        return true;
    }
    const char *ext = path_extension(path);
    if (strcasecmp(ext, ".txt") == 0 || (!*ext && is_special_file(path))) {
        atomic_file af;
        if (!atomic_open(&af, path, temp_files_hook(), err)) return false;
        write_text_result(af.f, &h, &g);
        return atomic_commit(&af, err);
    }
    if (tiles && strcasecmp(ext, ".png") == 0) return save_tiles_png(path, &g, tiles, temp_files_hook(), err);
    uint32_t colors[GRID_COLORS_MAX];
    char missing[64];
    palette_colors(pal, g.legend, colors, missing, sizeof missing);
    if (missing[0] && !quiet) fprintf(stderr, "smalti: warning: no colour for symbols \"%s\" in the palette; drawn grey\n", missing);
    /* A run with a growgrid lattice draws its pictures and data twisted onto it. */
    twisted_lattice lattice;
    if (twisted_kind(ext) && smalti_run_geometry(run, &lattice.x, &lattice.y, &lattice.nx, &lattice.ny))
        return save_twisted(path, ext, &g, colors, &lattice, pixel_size, temp_files_hook(), err);
    /* The reference draws a 3-D grid's picture isometrically, pixelsize being the cube size. */
    if (strcasecmp(ext, ".png") == 0)
        return g.mz > 1 ? save_iso_png(path, &g, colors, pixel_size, temp_files_hook(), err)
                        : save_png(path, &g, colors, pixel_size, temp_files_hook(), err);
    if (strcasecmp(ext, ".vox") == 0) return save_vox(path, &g, colors, temp_files_hook(), err);
    tilemap_kind kind;
    if (tilemap_kind_of(ext, &kind)) return save_tilemap(path, kind, &g, colors, tiles, temp_files_hook(), err);
    if (twisted_kind(ext)) { /* .svg, .obj: the kinds only a lattice has */
        error_set(err, SMALTI_ERR_USAGE, path, 0, "a %s output is a twisted map, and this run has no lattice: add a <growgrid> node", ext);
        return false;
    }
    error_set(err, SMALTI_ERR_USAGE, path, 0, "unknown output kind \"%s\": use .png, .txt, .vox, .tmx, .tmj, .csv or .json", ext);
    return false;
}
