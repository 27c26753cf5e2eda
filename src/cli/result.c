/* result.c — write a finished run as text, PNG (isometric in 3-D) or VOX, chosen by the file extension. */
#include "cli.h"
#include "../core/diag.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool write_text(FILE *f, const smalti_run *run, const char *model_name, int32_t seed, long step_limit, const grid_view *g)
{
    fprintf(f, "model %s\ngrid %d %d %d\nseed %d\nsteps-limit %ld\nsteps %ld\nlegend %s\nsize %d %d %d\n", model_name,
            g->mx, g->my, g->mz, (int)seed, step_limit > 0 ? step_limit : -1, smalti_run_counter(run), g->legend, g->mx,
            g->my, g->mz);
    return write_text_cells(f, g);
}

bool write_result(const char *path, const smalti_run *run, const char *model_name, int32_t seed, long step_limit,
                  const palette *pal, int pixel_size, smalti_error *err)
{
    grid_view g;
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(run);
    if (!path) {
        if (!write_text(stdout, run, model_name, seed, step_limit, &g) || fflush(stdout) != 0) {
            error_set(err, SMALTI_ERR_IO, "<stdout>", 0, "write failed");
            return false;
        }
        return true;
    }
    const char *ext = path_extension(path);
    if (strcasecmp(ext, ".txt") == 0) {
        atomic_file af;
        if (!atomic_open(&af, path, err)) return false;
        write_text(af.f, run, model_name, seed, step_limit, &g);
        return atomic_commit(&af, err);
    }
    uint32_t colors[GRID_COLORS_MAX];
    char missing[64];
    palette_colors(pal, g.legend, colors, missing, sizeof missing);
    if (missing[0]) fprintf(stderr, "smalti: warning: no colour for symbols \"%s\" in the palette; drawn grey\n", missing);
    /* The reference draws a 3-D grid's picture isometrically, pixelsize being the cube size. */
    if (strcasecmp(ext, ".png") == 0)
        return g.mz > 1 ? save_iso_png(path, &g, colors, pixel_size, err) : save_png(path, &g, colors, pixel_size, err);
    if (strcasecmp(ext, ".vox") == 0) return save_vox(path, &g, colors, err);
    error_set(err, SMALTI_ERR_USAGE, path, 0, "unknown output kind \"%s\": use .png, .txt or .vox", ext);
    return false;
}
