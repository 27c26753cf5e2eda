/* planes.c — per-value bitplanes of the grid, for word-parallel whole-grid match scans.
   A full scan of a rule tests 64 corners per word operation instead of one
   cell at a time; the enumeration order stays the reference's lattice order. */
#include "planes.h"
#include "run.h"
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The planes are made at their first sync: a run whose whole-grid scans all start from a rare
   value's cells (rulenode_anchor.c) never holds them. */
bool planes_init(bitplanes *p, int mx, int my, int mz, int c)
{
    memset(p, 0, sizeof *p);
    p->words = (mx + 63) / 64;
    p->rows = my * mz;
    p->c = c;
    p->cells = (int64_t)mx * my * mz;
    return true;
}

void planes_free(bitplanes *p)
{
    mem_free(p->bits);
    mem_free(p->shadow);
    mem_free(p->scratch);
    memset(p, 0, sizeof *p);
}

uint64_t *planes_scratch(run_state *r, int64_t words)
{
    bitplanes *p = &r->planes;
    if (words > p->scratch_size) {
        uint64_t *bigger = mem_realloc(p->scratch, (size_t)words * sizeof *bigger);
        if (!bigger) return NULL;
        p->scratch = bigger;
        p->scratch_size = words;
    }
    return p->scratch;
}

static inline uint64_t *plane_row(bitplanes *p, int v, int row) { return p->bits + ((int64_t)v * p->rows + row) * p->words; }

/* Every value's word w of a row from its cells: 64 cells at a time, by byte compares where the
   machine has them (the first full scan builds the planes of the whole grid). */
static void planes_build_row(bitplanes *p, const uint8_t *cells, int mx, int row)
{
    uint64_t acc[GRID_MAX_VALUES];
    for (int w = 0; w < p->words; w++) {
        const uint8_t *at = cells + (int64_t)w * 64;
        const int n = mx - w * 64 < 64 ? mx - w * 64 : 64;
#ifdef __SSE2__
        if (n == 64) {
            __m128i chunk[4];
            for (int k = 0; k < 4; k++) chunk[k] = _mm_loadu_si128((const __m128i *)(at + 16 * k));
            for (int v = 0; v < p->c; v++) {
                const __m128i value = _mm_set1_epi8((char)v);
                uint64_t bits = 0;
                for (int k = 0; k < 4; k++) bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk[k], value)) << (16 * k);
                plane_row(p, v, row)[w] = bits;
            }
            continue;
        }
#endif
        for (int v = 0; v < p->c; v++) acc[v] = 0;
        for (int x = 0; x < n; x++) acc[at[x]] |= (uint64_t)1 << x;
        for (int v = 0; v < p->c; v++) plane_row(p, v, row)[w] = acc[v];
    }
}

void planes_sync(run_state *r)
{
    bitplanes *p = &r->planes;
    if (!p->bits) {
        p->bits = mem_calloc((size_t)p->c * p->rows * p->words, sizeof *p->bits);
        p->shadow = mem_malloc((size_t)p->cells);
        if (!p->bits || !p->shadow) {
            mem_free(p->bits);
            mem_free(p->shadow);
            p->bits = NULL;
            p->shadow = NULL;
            r->out_of_memory = true;
            return;
        }
        p->valid = false;
    }
    int64_t end = run_changes_end(r);
    /* Replaying a change costs some tens of instructions, building a row about one per 64 cells
       and value: after changes to more than a quarter of the cells (an `all` step over the grid),
       the planes are built again. */
    if (!p->valid || p->position < r->changes_base || end - p->position > p->cells / 4) {
        for (int row = 0; row < p->rows; row++) planes_build_row(p, r->state + (int64_t)row * r->mx, r->mx, row);
        memcpy(p->shadow, r->state, (size_t)r->cells);
        p->valid = true;
        p->position = end;
        return;
    }
    for (int64_t n = p->position; n < end; n++) {
        int32_t i = run_change_at(r, n);
        uint8_t old = p->shadow[i], now = r->state[i];
        if (old == now) continue;
        int row = i / r->mx, x = i % r->mx;
        plane_row(p, old, row)[x >> 6] &= ~((uint64_t)1 << (x & 63));
        plane_row(p, now, row)[x >> 6] |= (uint64_t)1 << (x & 63);
        p->shadow[i] = now;
    }
    p->position = end;
}

/* out[w] = corners sx of row (sy, sz) where every input cell of the rule matches. */
static bool row_matches(run_state *r, const rule *rl, int sy, int sz, uint64_t *out, uint64_t *tmp)
{
    bitplanes *p = &r->planes;
    const int words = p->words;
    int valid = r->mx - rl->imx + 1; /* corners 0 .. valid-1 fit in the row */
    if (valid <= 0) return false;
    for (int w = 0; w < words; w++) out[w] = ~(uint64_t)0;
    for (int w = valid >> 6; w < words; w++) {
        int low = valid - w * 64;
        out[w] = low <= 0 ? 0 : (low >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << low) - 1));
    }
    for (int k = 0; k < rl->match_count; k++) {
        const rule_cell *cell = &rl->match[k];
        int row = (sy + cell->dy) + (sz + cell->dz) * r->my;
        wave_bits wave = cell->wave;
        if (!wave) return false; /* an empty union (values="") accepts no value */
        int v = __builtin_ctzll(wave);
        const uint64_t *src = plane_row(p, v, row);
        wave &= wave - 1;
        if (wave) {
            for (int w = 0; w < words; w++) tmp[w] = src[w];
            while (wave) {
                v = __builtin_ctzll(wave);
                wave &= wave - 1;
                src = plane_row(p, v, row);
                for (int w = 0; w < words; w++) tmp[w] |= src[w];
            }
            src = tmp;
        }
        const int dx = cell->dx;
        uint64_t any = 0;
        if (dx == 0) {
            for (int w = 0; w < words; w++) any |= out[w] &= src[w];
        } else {
            for (int w = 0; w < words; w++) {
                uint64_t shifted = src[w] >> dx;
                if (w + 1 < words) shifted |= src[w + 1] << (64 - dx);
                any |= out[w] &= shifted;
            }
        }
        if (!any) return false;
    }
    return true;
}

bool planes_band(run_state *r, const rule *rl, int lz, int ly, uint64_t *band, uint64_t *any)
{
    const int words = r->planes.words;
    uint64_t *tmp = any + words;
    bool found = false;
    for (int w = 0; w < words; w++) any[w] = 0;
    for (int dz = 0; dz < rl->imz; dz++)
        for (int dy = 0; dy < rl->imy; dy++) {
            uint64_t *out = band + (int64_t)(dz * rl->imy + dy) * words;
            int sy = ly - dy, sz = lz - dz;
            if (sy > r->my - rl->imy || sz > r->mz - rl->imz || !row_matches(r, rl, sy, sz, out, tmp)) {
                memset(out, 0, (size_t)words * sizeof *out);
                continue;
            }
            for (int w = 0; w < words; w++) any[w] |= out[w];
            found = true;
        }
    return found;
}
