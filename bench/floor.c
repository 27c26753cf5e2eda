/* floor.c — the least work a run of Growth or MazeGrowth can be: that one model's draws and scans
   written out by hand (its four rules as constants, no mask, no change log, no XML, no engine),
   keeping the reference's match list, so that it ends on the same grid as `smalti run` for the
   same seed. bench/floor.sh checks that and times it beside smalti: a speed target beyond this
   program is beyond any interpreter that keeps the reference's list order on this machine.
   Usage: floor Growth|MazeGrowth SIDE SEED OUT [STEPS] (OUT: the grid's rows as in a text result;
   STEPS: at most that many steps, 0 or none: no limit). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/core/rng.h"

/* Cell values as smalti's legend numbers them: B 0, W 1, A 2 (MazeGrowth); EDGE fills a border
   two cells wide around the grid, which no rule accepts, so that no scan needs a bounds test. */
enum { B, W, A, EDGE };
#define BORDER 2

/* The four directions of a rule's variants, in the order smalti lists the variants. */
static const int DIR_X[4] = {1, -1, 0, 0}, DIR_Y[4] = {0, 0, -1, 1};

typedef struct run {
    int side, wide; /* wide = side + 2 * BORDER, the padded grid's row length */
    uint8_t *grid;
    uint32_t *list; /* (corner << 2) | variant */
    int32_t count;
    rng random;
    int32_t batch[64];
    int used;
    long limit;
} run;

/* The reference's draw: a uniform index into the list, the last match moved into its slot. */
static inline uint32_t take(run *r)
{
    if (r->used == 64) {
        rng_fill(&r->random, r->batch, 64);
        r->used = 0;
    }
    const int32_t k = (int32_t)(r->batch[r->used++] * (1.0 / RNG_MBIG) * r->count);
    const uint32_t m = r->list[k];
    r->list[k] = r->list[--r->count];
    return m;
}

/* Ask for the list slot of the next draw while the draw before it is checked: its index moves by
   less than one slot per match the scan still adds, so this is nearly always the slot. */
static inline void prefetch_draw(const run *r)
{
    if (r->used < 64) __builtin_prefetch(&r->list[(int32_t)(r->batch[r->used] * (1.0 / RNG_MBIG) * r->count)]);
}

/* Growth, WB -> WW: a variant's corner is the top left of its two cells; only the B cell changes. */
static long growth(run *r)
{
    const int n = r->wide;
    int wo[4], bo[4], wx[4], wy[4], bx[4], by[4];
    for (int v = 0; v < 4; v++) {
        /* The variant's two cells, W then B, as offsets from its corner (its top left cell). */
        wx[v] = DIR_X[v] < 0 ? 1 : 0;
        wy[v] = DIR_Y[v] < 0 ? 1 : 0;
        bx[v] = wx[v] + DIR_X[v];
        by[v] = wy[v] + DIR_Y[v];
        wo[v] = wx[v] + wy[v] * n;
        bo[v] = bx[v] + by[v] * n;
    }
    long steps = 0;
    int32_t changed = BORDER + r->side / 2 + (BORDER + r->side / 2) * n;
    r->grid[changed] = W;
    for (;;) {
        /* The changed cell is W: every variant whose W cell it is (one off the grid meets EDGE). */
        for (int v = 0; v < 4; v++) {
            const int32_t corner = changed - wo[v];
            r->list[r->count] = (uint32_t)corner << 2 | (uint32_t)v;
            r->count += r->grid[corner + bo[v]] == B;
        }
        prefetch_draw(r);
        if (steps == r->limit) return steps;
        int32_t at = -1;
        int v = 0;
        while (r->count > 0) {
            const uint32_t m = take(r);
            v = (int)(m & 3);
            if (r->grid[(m >> 2) + wo[v]] == W && r->grid[(m >> 2) + bo[v]] == B) {
                at = (int32_t)(m >> 2);
                break;
            }
        }
        if (at < 0) return steps;
        changed = at + bo[v];
        r->grid[changed] = W;
        steps++;
    }
}

/* MazeGrowth, WBB -> WAW: the corner is the W cell, the rule runs two cells along its direction. */
static long maze_growth(run *r)
{
    const int n = r->wide;
    int d[4];
    for (int v = 0; v < 4; v++) d[v] = DIR_X[v] + DIR_Y[v] * n;
    long steps = 0;
    int32_t head = BORDER + r->side / 2 + (BORDER + r->side / 2) * n;
    r->grid[head] = W;
    for (;;) {
        for (int v = 0; v < 4; v++) {
            r->list[r->count] = (uint32_t)head << 2 | (uint32_t)v;
            r->count += (r->grid[head + d[v]] == B) & (r->grid[head + 2 * d[v]] == B);
        }
        prefetch_draw(r);
        if (steps == r->limit) return steps;
        int32_t at = -1;
        int v = 0;
        while (r->count > 0) {
            const uint32_t m = take(r);
            v = (int)(m & 3);
            const int32_t c = (int32_t)(m >> 2);
            if (r->grid[c] == W && r->grid[c + d[v]] == B && r->grid[c + 2 * d[v]] == B) {
                at = c;
                break;
            }
        }
        if (at < 0) return steps;
        r->grid[at + d[v]] = A;
        head = at + 2 * d[v];
        r->grid[head] = W;
        steps++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: floor Growth|MazeGrowth SIDE SEED OUT [STEPS]\n");
        return 2;
    }
    const bool maze = strcmp(argv[1], "MazeGrowth") == 0;
    if (!maze && strcmp(argv[1], "Growth") != 0) {
        fprintf(stderr, "floor: %s: only Growth and MazeGrowth\n", argv[1]);
        return 2;
    }
    run r = {.side = atoi(argv[2]), .used = 64, .limit = argc == 6 ? atol(argv[5]) : 0};
    r.wide = r.side + 2 * BORDER;
    if (r.limit <= 0) r.limit = -1;
    if (r.side < 3 || r.side > 4096) {
        fprintf(stderr, "floor: side %s: 3 to 4096\n", argv[2]);
        return 2;
    }
    const size_t cells = (size_t)r.wide * (size_t)r.wide;
    r.grid = malloc(cells);
    r.list = malloc(cells * 4 * sizeof *r.list + 16);
    if (!r.grid || !r.list) return 7;
    memset(r.grid, EDGE, cells);
    for (int y = 0; y < r.side; y++) memset(r.grid + (size_t)(y + BORDER) * r.wide + BORDER, B, (size_t)r.side);
    rng_seed(&r.random, (int32_t)atol(argv[3]));
    const long steps = maze ? maze_growth(&r) : growth(&r);
    FILE *f = fopen(argv[4], "wb");
    if (!f) {
        perror(argv[4]);
        return 5;
    }
    char *line = malloc((size_t)r.side + 1);
    if (!line) return 7;
    line[r.side] = '\n';
    for (int y = 0; y < r.side; y++) {
        for (int x = 0; x < r.side; x++) line[x] = "BWA"[r.grid[(size_t)(y + BORDER) * r.wide + BORDER + x]];
        fwrite(line, 1, (size_t)r.side + 1, f);
    }
    if (fclose(f) != 0) return 5;
    fprintf(stderr, "steps %ld\n", steps);
    free(line);
    free(r.grid);
    free(r.list);
    return 0;
}
