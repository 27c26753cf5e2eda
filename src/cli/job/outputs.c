/* outputs.c — a job's final grid written by its output's kind (common/output_kinds.c), with the
   job's colours, pixel size and tile sheet, and the generated tileset that many maps share. */
#include "job.h"
#include "../common/cli.h"
#include "../common/output_kinds.h"
#include "../../core/diag.h"
#include "../../io/tilemap.h"
#include <stdio.h>
#include <string.h>

/* The symbols of the grid that the sheet gives no tile, in missing (257 bytes): only those the grid
   holds, since a legend may name values the run never made. */
static void untiled_in_grid(const tile_sheet *sheet, const grid_view *g, char *missing)
{
    bool present[256] = {false};
    const size_t cells = (size_t)g->mx * g->my * g->mz;
    for (size_t i = 0; i < cells; i++) present[g->cells[i]] = true;
    char held[257];
    int n = 0;
    for (int v = 0; g->legend[v]; v++)
        if (present[v]) held[n++] = g->legend[v];
    held[n] = 0;
    tile_sheet_untiled(sheet, held, missing);
}

bool job_write_output(const job *j, const smalti_run *run, int32_t seed, const char *path, const char *tileset,
                      bool colours_said, smalti_error *err)
{
    text_header h = {.model = j->name, .mx = j->mx, .my = j->my, .mz = j->mz, .seed = seed, .step_limit = j->steps,
                     .steps = smalti_run_counter(run)};
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
    /* A device or FIFO without an extension (/dev/null) takes the text form. */
    const bool bare_device = !path_extension(path)[0] && is_special_file(path);
    const output_kind *kind = output_kind_of(bare_device ? ".txt" : path);
    if (!kind) {
        char kinds[200];
        output_kind_list(kinds, sizeof kinds, false);
        error_set(err, SMALTI_ERR_USAGE, path, 0, "unknown output kind \"%s\": use %s", path_extension(path), kinds);
        return false;
    }
    uint32_t colors[GRID_COLORS_MAX];
    char missing[64];
    palette_colors(&j->pal, g.legend, colors, missing, sizeof missing);
    /* job_open's lint named the model's values without a colour; a map may end on others. */
    const bool linted = strcmp(g.legend, smalti_model_legend(j->model)) == 0;
    const bool tiled = j->tiles && kind->takes_tiles;
    if (missing[0] && !colours_said && !linted && !j->quiet && !tiled)
        fprintf(stderr, "smalti: warning: no colour for symbols \"%s\" in the palette; drawn grey\n", missing);
    if (tiled && !colours_said && !j->quiet) {
        char untiled[257];
        untiled_in_grid(j->tiles, &g, untiled);
        if (untiled[0]) fprintf(stderr, "%s: warning: no tile for symbols \"%s\"; left empty\n", j->tiles_file, untiled);
    }
    twisted_lattice lattice;
    const bool twisted = kind->twists && smalti_run_geometry(run, &lattice.x, &lattice.y, &lattice.nx, &lattice.ny);
    if (twisted) return save_twisted(path, path_extension(path), &g, colors, &lattice, j->pixel_size, temp_files_hook(), err);
    output_target t = {.path = path, .ext = path_extension(path), .g = &g, .header = &h, .colors = colors,
                       .pixel_size = j->pixel_size, .tiles = tiled ? j->tiles : NULL, .shared_tileset = tileset};
    return kind->write(&t, err);
}

bool job_write_tileset(const job *j, const smalti_run *run, const char *path, smalti_error *err)
{
    grid_view g;
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(run);
    uint32_t colors[GRID_COLORS_MAX];
    char missing[64];
    palette_colors(&j->pal, g.legend, colors, missing, sizeof missing);
    return save_generated_tileset(path, &g, colors, temp_files_hook(), err);
}

void job_default_output(const job *j, const smalti_run *run, const char *dir, int32_t seed, char *buf, size_t size)
{
    int mx, my, mz;
    smalti_run_grid(run, &mx, &my, &mz);
    snprintf(buf, size, "%s/%s_%d.%s", dir, j->name, (int)seed, mz == 1 || j->iso ? "png" : "vox");
}
