/* floor.c — Growth, MazeGrowth and MazeBacktracker written out by hand, each for itself alone (its
   rules as constants, no XML, no engine; no match mask where no match can be found twice), keeping
   the reference's match lists, so that each ends on the same grid as `smalti run` for the same
   seed. bench/floor.sh checks that and times them beside smalti: how far a speed target lies from
   what a program for that one model does on this machine.
   Usage: floor MODEL SIDE SEED OUT [STEPS] (OUT: the grid's rows as in a text result; STEPS: at
   most that many steps, 0 or none: no limit). Prints the steps and the run's time (the grid made,
   then the steps; no start-up, no output) to stderr. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../src/core/rng.h"

/* Cell values as smalti's legends number them: Growth BW, MazeGrowth BWA, MazeBacktracker BRGW.
   EDGE fills a border two cells wide around the grid, which no rule accepts, so that no scan
   needs a bounds test. */
enum { B, W, A, EDGE = 255 };
enum { BT_R = 1, BT_G = 2, BT_W = 3 };
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

/* MazeBacktracker: markov { one RBB -> GGR; one RGG -> WWR }. Each child keeps its own list and
   mask (a walker's cells change more than once, so a match can be found again while listed) and
   scans the changes logged since its last try; a variant's cells are tested and written in the
   raster order of its box. Both rules have R first, so a child's first, whole-grid scan looks at
   R cells only, in the reference's order (variant, then corner in raster order). */
typedef struct bt_child {
    uint32_t *list; /* (anchor << 2) | variant, the anchor being the R cell */
    int32_t count;
    uint64_t *mask;
    size_t scan_from;
    bool scanned;
} bt_child;

static long backtracker(run *r)
{
    static const uint8_t in[2][3] = {{BT_R, B, B}, {BT_R, BT_G, BT_G}}, out[2][3] = {{BT_G, BT_G, BT_R}, {BT_W, BT_W, BT_R}};
    const int n = r->wide;
    const size_t cells = (size_t)n * (size_t)n;
    uint8_t *g = r->grid;
    int d[4], order[4][3];
    for (int v = 0; v < 4; v++) {
        d[v] = DIR_X[v] + DIR_Y[v] * n;
        const bool forward = DIR_X[v] > 0 || DIR_Y[v] > 0;
        for (int k = 0; k < 3; k++) order[v][k] = forward ? k : 2 - k;
    }
    /* Per child and value, the (variant, position) of each rule cell that accepts the value. */
    int entry[2][4][12][2], entries[2][4];
    for (int c = 0; c < 2; c++)
        for (int value = 0; value < 4; value++) {
            int e = 0;
            for (int v = 0; v < 4; v++)
                for (int k = 0; k < 3; k++)
                    if (in[c][order[v][k]] == value) {
                        entry[c][value][e][0] = v;
                        entry[c][value][e][1] = order[v][k];
                        e++;
                    }
            entries[c][value] = e;
        }
    bt_child child[2] = {{r->list, 0, NULL, 0, false}, {NULL, 0, NULL, 0, false}};
    child[1].list = malloc(cells * 4 * sizeof *child[1].list);
    child[0].mask = calloc(cells * 4 / 64 + 1, sizeof *child[0].mask);
    child[1].mask = calloc(cells * 4 / 64 + 1, sizeof *child[1].mask);
    size_t log_cap = 1 << 16, log_len = 0;
    int32_t *log = malloc(log_cap * sizeof *log);
    if (!child[1].list || !child[0].mask || !child[1].mask || !log) exit(7);
    g[BORDER + r->side / 2 + (size_t)(BORDER + r->side / 2) * n] = BT_R;
    long steps = 0;
#define BT_FITS(c, a, v) (g[a] == in[c][0] && g[(a) + d[v]] == in[c][1] && g[(a) + 2 * d[v]] == in[c][2])
#define BT_ADD(h, a, v)                                                                                 \
    do {                                                                                                \
        const uint32_t m_ = (uint32_t)(a) << 2 | (uint32_t)(v);                                         \
        if (!((h)->mask[m_ >> 6] >> (m_ & 63) & 1)) {                                                   \
            (h)->mask[m_ >> 6] |= (uint64_t)1 << (m_ & 63);                                             \
            (h)->list[(h)->count++] = m_;                                                               \
        }                                                                                               \
    } while (0)
    for (;;) {
        if (steps == r->limit) return steps;
        bool acted = false;
        for (int c = 0; c < 2 && !acted; c++) {
            bt_child *h = &child[c];
            if (!h->scanned) {
                for (int v = 0; v < 4; v++)
                    for (const uint8_t *p = memchr(g, BT_R, cells); p; p = memchr(p + 1, BT_R, cells - (size_t)(p + 1 - g)))
                        if (BT_FITS(c, p - g, v)) BT_ADD(h, p - g, v);
                h->scanned = true;
            } else {
                for (size_t k = h->scan_from; k < log_len; k++) {
                    const int32_t i = log[k];
                    const int value = g[i];
                    for (int e = 0; e < entries[c][value]; e++) {
                        const int v = entry[c][value][e][0];
                        const int32_t a = i - entry[c][value][e][1] * d[v];
                        if (BT_FITS(c, a, v)) BT_ADD(h, a, v);
                    }
                }
            }
            h->scan_from = log_len;
            while (h->count > 0) {
                const int32_t k = (int32_t)(rng_next(&r->random) * (1.0 / RNG_MBIG) * h->count);
                const uint32_t m = h->list[k];
                h->list[k] = h->list[--h->count];
                h->mask[m >> 6] &= ~((uint64_t)1 << (m & 63));
                const int32_t a = (int32_t)(m >> 2);
                const int v = (int)(m & 3);
                if (!BT_FITS(c, a, v)) continue;
                if (log_len + 3 > log_cap) {
                    log_cap *= 2;
                    if (!(log = realloc(log, log_cap * sizeof *log))) exit(7);
                }
                for (int kk = 0; kk < 3; kk++) {
                    const int p = order[v][kk];
                    const int32_t i = a + p * d[v];
                    if (g[i] == out[c][p]) continue;
                    g[i] = out[c][p];
                    log[log_len++] = i;
                }
                acted = true;
                break;
            }
        }
        if (!acted) break;
        steps++;
    }
#undef BT_FITS
#undef BT_ADD
    free(child[1].list);
    free(child[0].mask);
    free(child[1].mask);
    free(log);
    return steps;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: floor Growth|MazeGrowth|MazeBacktracker SIDE SEED OUT [STEPS]\n");
        return 2;
    }
    static const struct {
        const char *name, *legend;
        long (*run)(run *);
    } models[] = {{"Growth", "BW", growth}, {"MazeGrowth", "BWA", maze_growth}, {"MazeBacktracker", "BRGW", backtracker}};
    int model = 0;
    while (model < 3 && strcmp(argv[1], models[model].name) != 0) model++;
    if (model == 3) {
        fprintf(stderr, "floor: %s: only Growth, MazeGrowth and MazeBacktracker\n", argv[1]);
        return 2;
    }
    run r = {.side = atoi(argv[2]), .used = 64, .limit = argc == 6 ? atol(argv[5]) : 0};
    r.wide = r.side + 2 * BORDER;
    if (r.limit <= 0) r.limit = -1;
    if (r.side < 3 || r.side > 4096) {
        fprintf(stderr, "floor: side %s: 3 to 4096\n", argv[2]);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const size_t cells = (size_t)r.wide * (size_t)r.wide;
    r.grid = malloc(cells);
    r.list = malloc(cells * 4 * sizeof *r.list + 16);
    if (!r.grid || !r.list) return 7;
    memset(r.grid, EDGE, cells);
    for (int y = 0; y < r.side; y++) memset(r.grid + (size_t)(y + BORDER) * r.wide + BORDER, B, (size_t)r.side);
    rng_seed(&r.random, (int32_t)atol(argv[3]));
    const long steps = models[model].run(&r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    FILE *f = fopen(argv[4], "wb");
    if (!f) {
        perror(argv[4]);
        return 5;
    }
    char *line = malloc((size_t)r.side + 1);
    if (!line) return 7;
    line[r.side] = '\n';
    for (int y = 0; y < r.side; y++) {
        for (int x = 0; x < r.side; x++) line[x] = models[model].legend[r.grid[(size_t)(y + BORDER) * r.wide + BORDER + x]];
        fwrite(line, 1, (size_t)r.side + 1, f);
    }
    if (fclose(f) != 0) return 5;
    fprintf(stderr, "steps %ld run_ms %.3f\n", steps, (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6);
    free(line);
    free(r.grid);
    free(r.list);
    return 0;
}
