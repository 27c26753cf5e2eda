/* text.c — the text form of a result: the header lines of the reference format, then one line of MX symbols per row, rows z-major. */
#include "output.h"
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <tmmintrin.h>
#endif

/* Rows are translated into a chunk of about this size and handed to fwrite at once, which writes
   a block bigger than the stream's buffer straight to the file: a 1023 x 1023 grid takes 16
   write calls instead of 256 of 4 KB. */
#define TEXT_CHUNK (64 * 1024)

#if defined(__x86_64__) && defined(__GNUC__)
/* One row's symbols, 16 cells per byte shuffle: the legend is the shuffle's table, as a grid of at
   most 16 values holds only values below 16. */
__attribute__((target("ssse3"))) static void legend_row_ssse3(char *out, const unsigned char *row, int n, const char table[16])
{
    const __m128i symbols = _mm_loadu_si128((const __m128i *)(const void *)table);
    int x = 0;
    for (; x + 16 <= n; x += 16)
        _mm_storeu_si128((__m128i *)(void *)(out + x), _mm_shuffle_epi8(symbols, _mm_loadu_si128((const __m128i *)(const void *)(row + x))));
    for (; x < n; x++) out[x] = table[row[x]];
}
#endif

static bool write_text_cells(FILE *f, const grid_view *g)
{
    const size_t line_size = (size_t)g->mx + 1;
    const int64_t rows = (int64_t)g->my * g->mz;
    /* A small grid's chunk is the grid: no 64 KB touched for a few hundred bytes. */
    size_t rows_per_chunk = line_size < TEXT_CHUNK ? TEXT_CHUNK / line_size : 1;
    if ((int64_t)rows_per_chunk > rows) rows_per_chunk = rows > 0 ? (size_t)rows : 1;
    char *chunk = malloc(rows_per_chunk * line_size);
    if (!chunk) return false;
    char table[16] = {0};
    const size_t values = strlen(g->legend);
    bool shuffle = false;
#if defined(__x86_64__) && defined(__GNUC__)
    shuffle = values <= 16 && __builtin_cpu_supports("ssse3");
#endif
    if (values <= 16) memcpy(table, g->legend, values);
    size_t used = 0;
    for (int64_t k = 0; k < rows; k++) {
        const unsigned char *row = g->cells + (size_t)k * (size_t)g->mx;
        char *line = chunk + used;
#if defined(__x86_64__) && defined(__GNUC__)
        if (shuffle) legend_row_ssse3(line, row, g->mx, table);
        else
#endif
            for (int x = 0; x < g->mx; x++) line[x] = g->legend[row[x]];
        line[g->mx] = '\n';
        used += line_size;
        if (used + line_size > rows_per_chunk * line_size || k + 1 == rows) {
            fwrite(chunk, 1, used, f);
            used = 0;
        }
    }
    (void)shuffle;
    free(chunk);
    return !ferror(f);
}

bool write_text_result(FILE *f, const text_header *h, const grid_view *g)
{
    fprintf(f, "model %s\ngrid %d %d %d\nseed %d\nsteps-limit %ld\nsteps %ld\nlegend %s\nsize %d %d %d\n", h->model, h->mx,
            h->my, h->mz, (int)h->seed, h->step_limit, h->steps, g->legend, g->mx, g->my, g->mz);
    return write_text_cells(f, g);
}
