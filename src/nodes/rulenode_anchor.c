/* rulenode_anchor.c — a rule's whole-grid scan started from the few cells of a rare value, in the
   order the lattice scan gives: the first scan of a grid that is one value but for an origin. */
#include "rulenode.h"
#include "../core/mem.h"
#include "../core/sort.h"
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Past this many cells holding the anchor's value, the bitplane scan is the cheaper one. */
static int32_t anchor_limit(int32_t cells) { return cells / 128 > 256 ? cells / 128 : 256; }

/* The first cell in [p, end) holding v, or NULL: 16 cells a compare. (Not libc's memchr, whose code
   would be one more 64 KB window of libc resident in every run.) */
static const uint8_t *find_value(const uint8_t *p, const uint8_t *end, uint8_t v)
{
#ifdef __SSE2__
    const __m128i needle = _mm_set1_epi8((char)v);
    for (; end - p >= 16; p += 16) {
        const int hits = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), needle));
        if (hits) return p + __builtin_ctz((unsigned)hits);
    }
#endif
    for (; p < end; p++)
        if (*p == v) return p;
    return NULL;
}

/* Count the cells holding v, up to limit + 1, and list them in a->cells[v] (false: out of memory). */
static bool anchors_count(rulenode_anchors *a, const uint8_t *state, int32_t cells, uint8_t v, int32_t limit)
{
    int32_t *list = mem_malloc((size_t)(limit + 1) * sizeof *list);
    if (!list) return false;
    int32_t n = 0;
    for (const uint8_t *p = find_value(state, state + cells, v); p && n <= limit; p = find_value(p + 1, state + cells, v))
        list[n++] = (int32_t)(p - state);
    a->counts[v] = n;
    a->cells[v] = list;
    return true;
}

void rulenode_anchors_free(rulenode_anchors *a)
{
    for (int v = 0; v < GRID_MAX_VALUES; v++) mem_free(a->cells[v]);
}

bool rulenode_scan_rule_anchored(run_state *r, const rulenode *rn, rulenode_state *st, int ri, rulenode_add_fn add, rulenode_anchors *anchors)
{
    const rule *rl = rn->rules[ri];
    const int MX = r->mx, MY = r->my, MZ = r->mz, imx = rl->imx, imy = rl->imy, imz = rl->imz;
    if (imx > MX || imy > MY || imz > MZ) return true; /* the rule fits nowhere: nothing to add */
    const int32_t limit = anchor_limit(r->cells);
    /* The input cell whose single value the fewest cells hold (value_counts: per value, -1 until counted). */
    int anchor = -1;
    int32_t fewest = limit + 1;
    for (int k = 0; k < imx * imy * imz; k++) {
        const wave_bits wave = rl->input[k];
        if (wave == 0 || (wave & (wave - 1))) continue;
        const uint8_t v = (uint8_t)__builtin_ctzll(wave);
        if (anchors->counts[v] < 0 && !anchors_count(anchors, r->state, r->cells, v, limit)) return false;
        if (anchors->counts[v] < fewest) {
            fewest = anchors->counts[v];
            anchor = k;
        }
    }
    if (anchor < 0) return false;
    const int ax = anchor % imx, ay = anchor / imx % imy, az = anchor / (imx * imy);
    const uint8_t v = (uint8_t)__builtin_ctzll(rl->input[anchor]);
    /* Each match's place in the lattice order, from which its corner is recovered after the sort. */
    uint64_t *found = fewest > 0 ? mem_malloc((size_t)fewest * sizeof *found) : NULL;
    if (fewest > 0 && !found) return false;
    const int32_t plane = MX * MY;
    const int64_t cell_count = (int64_t)imx * imy * imz;
    int32_t n = 0;
    const int32_t *const cells = anchors->cells[v];
    for (int32_t k = 0; k < fewest; k++) {
        const int32_t i = cells[k];
        const int cx = i % MX - ax, cy = i / MX % MY - ay, cz = i / plane - az;
        if (cx < 0 || cy < 0 || cz < 0 || cx > MX - imx || cy > MY - imy || cz > MZ - imz) continue;
        if (!rule_matches(rl, r->state, cx + cy * MX + cz * plane)) continue;
        /* The lattice cell inside the match's box, then the corner's shift from it (the planes
           scan's order: lattice cells in z, y, x order, within one the shifts ascending). */
        const int lx = cx / imx * imx + imx - 1, ly = cy / imy * imy + imy - 1, lz = cz / imz * imz + imz - 1;
        const int64_t lattice = lx + (int64_t)ly * MX + (int64_t)lz * plane;
        const int64_t shift = (lz - cz) * (int64_t)imx * imy + (ly - cy) * imx + (lx - cx);
        found[n++] = (uint64_t)(lattice * cell_count + shift);
    }
    sort_u64(found, n);
    for (int32_t k = 0; k < n && !r->out_of_memory; k++) {
        const int64_t lattice = (int64_t)(found[k] / (uint64_t)cell_count), shift = (int64_t)(found[k] % (uint64_t)cell_count);
        const int dx = (int)(shift % imx), dy = (int)(shift / imx % imy), dz = (int)(shift / ((int64_t)imx * imy));
        add(r, rn, st, ri, (int32_t)(lattice - dx - (int64_t)dy * MX - (int64_t)dz * plane));
    }
    mem_free(found);
    return true;
}
