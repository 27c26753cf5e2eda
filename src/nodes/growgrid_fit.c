/* growgrid_fit.c — Growing Grid: a lattice grown row by row and column by column toward a picture's density.
   Each sample moves the winner (the nearest point) and its lattice neighbours toward it; after each epoch a
   row or column goes in beside the point that won most often, toward its most distant neighbour; one
   fine-tuning epoch with shrinking rate and range ends it. Winners are found through a bucket grid
   that follows the points as they move, so a sample costs a few buckets, not the whole lattice. */
#include "growgrid.h"
#include "../core/mem.h"
#include <math.h>
#include <string.h>

uint8_t *growgrid_density(const uint32_t *argb, int w, int h, int intervals, int64_t *total)
{
    uint8_t *weight = mem_malloc((size_t)w * h);
    if (!weight) return NULL;
    int64_t sum = 0;
    for (int64_t i = 0; i < (int64_t)w * h; i++) {
        uint32_t c = argb[i];
        unsigned a = c >> 24, r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
        unsigned grey = (r * 299 + g * 587 + b * 114 + 500) / 1000 * a / 255;
        /* grey 1..255 falls in one of `intervals` equal bands, the brightest being level `intervals` */
        int level = grey == 0 ? 0 : (int)((grey * (unsigned)intervals + 254) / 255);
        weight[i] = (uint8_t)level;
        sum += level;
    }
    *total = sum;
    return weight;
}

double growgrid_quad_area(const geometry *g, int i, int j)
{
    int a = i + j * g->nx, b = a + 1, c = b + g->nx, d = a + g->nx;
    /* shoelace over a,b,c,d; the straight lattice (y down, as grid rows) gives +1 */
    double s = g->x[a] * g->y[b] - g->x[b] * g->y[a] + g->x[b] * g->y[c] - g->x[c] * g->y[b] + g->x[c] * g->y[d] -
               g->x[d] * g->y[c] + g->x[d] * g->y[a] - g->x[a] * g->y[d];
    return s / 2;
}

/* The sample table's size above which it falls out of the cache and a sample costs several misses. */
#define GROWGRID_TABLE_CELLS 65536

typedef struct alias_entry {
    double keep;       /* below this fraction, the entry's own box; else the other */
    int32_t box, other;
} alias_entry;

/* A point while an epoch runs: its place, its bucket and the next point of that bucket together, so
   that the search and the moves touch one cache line a point (lattice order, as x and y); 24 bytes. */
typedef struct point_slot {
    double x, y;
    int32_t next, bucket;
} point_slot;

typedef struct fitter {
    const growgrid_params *p;
    alias_entry *table; /* samples come from boxes of w*h, row by row */
    int32_t entries;
    int w, h;
    double scale_x, scale_y; /* pixel to lattice units */
    double extent_x, extent_y; /* the shape spans [0, extent_x] x [0, extent_y] while fitting */
    int cx, cy;         /* lattice size now */
    double *x, *y;      /* cx*cy points, room for nx*ny: between epochs (the slots hold them during one) */
    point_slot *pt;
    int32_t *wins;
    /* buckets: a grid of cells of side `side` over the lattice's extent, each a list of points */
    double side, inv_side; /* the bucket index is floor(coordinate * inv_side) */
    int bw, bh;
    int32_t *head;
    int bucket_cap;
    /* the neighbourhood: lattice offsets within the kernel's cut, each with its kernel weight */
    int (*offset)[2];
    double *offset_weight;
    int32_t *offset_step; /* the offset's change of index in the lattice of now */
    int offsets, reach;
} fitter;

static int bucket_at(const fitter *f, double x, double y)
{
    int bx = (int)(x * f->inv_side), by = (int)(y * f->inv_side);
    /* one unsigned test each for the usual case, a point inside the extent */
    if ((unsigned)bx >= (unsigned)f->bw) bx = bx < 0 ? 0 : f->bw - 1;
    if ((unsigned)by >= (unsigned)f->bh) by = by < 0 ? 0 : f->bh - 1;
    return bx + by * f->bw;
}

static void bucket_unlink(fitter *f, int32_t k)
{
    /* a bucket holds a point or two: walking its list costs less than keeping back links */
    int32_t *link = &f->head[f->pt[k].bucket];
    while (*link != k) link = &f->pt[*link].next;
    *link = f->pt[k].next;
}

static void bucket_link(fitter *f, int32_t k, int b)
{
    f->pt[k].bucket = b;
    f->pt[k].next = f->head[b];
    f->head[b] = k;
}

/* Move point k by h of the way toward (sx, sy), and into its new bucket if it left its own. */
static inline void move_point(fitter *f, int32_t k, double h, double sx, double sy)
{
    point_slot *p = &f->pt[k];
    double x = p->x, y = p->y;
    x += h * (sx - x);
    y += h * (sy - y);
    p->x = x;
    p->y = y;
    int b = bucket_at(f, x, y);
    if (b == p->bucket) return;
    bucket_unlink(f, k);
    bucket_link(f, k, b);
}

/* Buckets about half a lattice spacing wide for the lattice's present size. */
static bool buckets_rebuild(fitter *f)
{
    double width = f->extent_x, height = f->extent_y;
    int n = f->cx * f->cy;
    /* half a spacing: the 3x3 buckets around a sample then hold its nearest point nearly always, and
       few others (measured: fewer instructions than buckets of a whole or 0.35-0.7 of a spacing) */
    f->side = sqrt(width * height / n) / 2;
    f->inv_side = 1 / f->side;
    f->bw = (int)(width / f->side) + 1;
    f->bh = (int)(height / f->side) + 1;
    if (f->bw * f->bh > f->bucket_cap) {
        int32_t *head = mem_realloc(f->head, (size_t)f->bw * f->bh * sizeof *head);
        if (!head) return false;
        f->head = head;
        f->bucket_cap = f->bw * f->bh;
    }
    for (int b = 0; b < f->bw * f->bh; b++) f->head[b] = -1;
    for (int32_t k = 0; k < n; k++) {
        f->pt[k].x = f->x[k];
        f->pt[k].y = f->y[k];
        bucket_link(f, k, bucket_at(f, f->x[k], f->y[k]));
    }
    return true;
}

/* Keep point k if it is nearer to (sx, sy) than the best so far (the lower index among equals). */
static inline void scan_bucket(const fitter *f, int b, double sx, double sy, int32_t *best, double *best_d)
{
    for (int32_t k = f->head[b]; k >= 0; k = f->pt[k].next) {
        double dx = f->pt[k].x - sx, dy = f->pt[k].y - sy, d = dx * dx + dy * dy;
        if (d < *best_d || (d == *best_d && k < *best)) {
            *best_d = d;
            *best = k;
        }
    }
}

/* How near to (sx, sy) a point outside the buckets [x0, x1] x [y0, y1] can be; the extent's edges
   bound nothing (points beyond them are clamped into edge buckets). A hair less than exact, as a
   point's bucket comes from a rounded product. */
static double outside_bound(const fitter *f, double sx, double sy, int x0, int x1, int y0, int y1)
{
    double out = INFINITY;
    if (x0 > 0 && sx - x0 * f->side < out) out = sx - x0 * f->side;
    if (x1 < f->bw - 1 && (x1 + 1) * f->side - sx < out) out = (x1 + 1) * f->side - sx;
    if (y0 > 0 && sy - y0 * f->side < out) out = sy - y0 * f->side;
    if (y1 < f->bh - 1 && (y1 + 1) * f->side - sy < out) out = (y1 + 1) * f->side - sy;
    return out - 1e-9;
}

/* The nearest point to (sx, sy) (the lowest index among equals): the 3x3 buckets around the
   sample's, then rings of buckets outward until no unvisited bucket can hold a nearer one. */
static int32_t nearest(const fitter *f, double sx, double sy)
{
    int bx = (int)(sx * f->inv_side), by = (int)(sy * f->inv_side);
    if (bx < 0) bx = 0;
    if (bx >= f->bw) bx = f->bw - 1;
    if (by < 0) by = 0;
    if (by >= f->bh) by = f->bh - 1;
    int32_t best = -1;
    double best_d = INFINITY;
    int x0 = bx > 0 ? bx - 1 : 0, x1 = bx + 1 < f->bw ? bx + 1 : bx;
    int y0 = by > 0 ? by - 1 : 0, y1 = by + 1 < f->bh ? by + 1 : by;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) scan_bucket(f, x + y * f->bw, sx, sy, &best, &best_d);
    if (best >= 0) {
        double out = outside_bound(f, sx, sy, bx - 1, bx + 1, by - 1, by + 1);
        if (out > 0 && best_d <= out * out) return best;
    }
    int reach = f->bw > f->bh ? f->bw : f->bh;
    for (int r = 2; r <= reach; r++) {
        for (int y = by - r; y <= by + r; y++) {
            if (y < 0 || y >= f->bh) continue;
            bool edge_row = y == by - r || y == by + r;
            for (int x = bx - r; x <= bx + r; x += edge_row ? 1 : 2 * r)
                if (x >= 0 && x < f->bw) scan_bucket(f, x + y * f->bw, sx, sy, &best, &best_d);
        }
        if (best >= 0) {
            double out = outside_bound(f, sx, sy, bx - r, bx + r, by - r, by + r);
            if (out > 0 && best_d <= out * out) break;
        }
    }
    return best;
}

static void draw_sample(const fitter *f, rng *random, double *sx, double *sy)
{
    /* Walker's alias method: one entry, chosen uniformly, gives its own box or its alias */
    double v = rng_next_double(random) * f->entries;
    int32_t e = (int32_t)v;
    if (e >= f->entries) e = f->entries - 1;
    const alias_entry *a = &f->table[e];
    int32_t box = v - e < a->keep ? a->box : a->other;
    double px = (double)(box % f->w) + rng_next_double(random), py = (double)(box / f->w) + rng_next_double(random);
    *sx = px * f->scale_x;
    *sy = py * f->scale_y;
    /* the last box of a picture whose side the box does not divide sticks out */
    if (*sx > f->extent_x) *sx = f->extent_x;
    if (*sy > f->extent_y) *sy = f->extent_y;
}

/* The alias table over the boxes of nonzero weight (Vose's construction, in a fixed order). */
static bool alias_build(fitter *f, const int64_t *box_weight, int64_t boxes, int64_t sum)
{
    int32_t m = 0;
    for (int64_t k = 0; k < boxes; k++) m += box_weight[k] > 0;
    f->entries = m;
    f->table = mem_malloc((size_t)m * sizeof *f->table);
    double *scaled = mem_malloc((size_t)m * sizeof *scaled);
    int32_t *small = mem_malloc((size_t)m * sizeof *small), *large = mem_malloc((size_t)m * sizeof *large);
    bool ok = f->table && scaled && small && large;
    if (ok) {
        int32_t ns = 0, nl = 0, e = 0;
        for (int64_t k = 0; k < boxes; k++) {
            if (!box_weight[k]) continue;
            f->table[e].box = f->table[e].other = (int32_t)k;
            scaled[e] = (double)box_weight[k] * m / (double)sum;
            if (scaled[e] < 1) small[ns++] = e;
            else large[nl++] = e;
            e++;
        }
        while (ns && nl) {
            int32_t s = small[--ns], l = large[nl - 1];
            f->table[s].keep = scaled[s];
            f->table[s].other = f->table[l].box;
            scaled[l] -= 1 - scaled[s];
            if (scaled[l] < 1) {
                nl--;
                small[ns++] = l;
            }
        }
        while (nl) f->table[large[--nl]].keep = 1;
        while (ns) f->table[small[--ns]].keep = 1; /* rounding left it a hair below 1 */
    }
    mem_free(scaled);
    mem_free(small);
    mem_free(large);
    return ok;
}

/* Move the winner's lattice neighbourhood toward the sample: the offsets within the kernel's cut,
   each by rate times its kernel weight (a winner at least the kernel's reach from the lattice's
   edges needs no test per offset). */
static void adapt(fitter *f, int32_t winner, double sx, double sy, double rate)
{
    int wi = winner % f->cx, wj = winner / f->cx, reach = f->reach;
    if (wi >= reach && wi + reach < f->cx && wj >= reach && wj + reach < f->cy) {
        for (int o = 0; o < f->offsets; o++) move_point(f, winner + f->offset_step[o], rate * f->offset_weight[o], sx, sy);
        return;
    }
    for (int o = 0; o < f->offsets; o++) {
        int i = wi + f->offset[o][0], j = wj + f->offset[o][1];
        if (i >= 0 && i < f->cx && j >= 0 && j < f->cy) move_point(f, winner + f->offset_step[o], rate * f->offset_weight[o], sx, sy);
    }
}

/* Points whose weight would be below 1/100 of the rate are left out of the neighbourhood; lattice
   distances squared up to KERNEL_MAX-1 count at most (a reach of 31 steps). */
#define KERNEL_MAX 1024
#define KERNEL_REACH 31

/* The neighbourhood for range sigma: weight exp(-d2/2sigma^2) for each lattice offset at distance
   squared d2 within the cut, row by row. */
static void make_kernel(fitter *f, double sigma)
{
    double cut = 2 * sigma * sigma * log(100.0);
    int d2max = cut >= KERNEL_MAX - 1 ? KERNEL_MAX - 1 : (int)cut;
    double kernel[KERNEL_MAX];
    for (int d2 = 0; d2 <= d2max; d2++) kernel[d2] = exp(-d2 / (2 * sigma * sigma));
    int reach = 0;
    while ((reach + 1) * (reach + 1) <= d2max) reach++;
    f->reach = reach;
    f->offsets = 0;
    for (int dj = -reach; dj <= reach; dj++)
        for (int di = -reach; di <= reach; di++) {
            int d2 = di * di + dj * dj;
            if (d2 > d2max) continue;
            f->offset[f->offsets][0] = di;
            f->offset[f->offsets][1] = dj;
            f->offset_step[f->offsets] = di + dj * f->cx;
            f->offset_weight[f->offsets++] = kernel[d2];
        }
}

/* One epoch of epoch*points samples; rate and range go geometrically from start to end over it. */
static bool run_epoch(fitter *f, rng *random, run_stop *stop, double rate0, double rate1, double sigma0, double sigma1)
{
    int n = f->cx * f->cy;
    long samples = (long)ceil(f->p->epoch * n);
    if (samples < 1) samples = 1;
    memset(f->wins, 0, (size_t)n * sizeof *f->wins);
    make_kernel(f, sigma0);
    bool decays = rate0 != rate1 || sigma0 != sigma1;
    for (long s = 0; s < samples; s++) {
        if ((s & 4095) == 4095 && stop && stop_requested(stop)) return false;
        double rate = rate0;
        if (decays && (s & 63) == 0) { /* the range changes slowly: a new kernel every 64 samples */
            double t = samples > 1 ? (double)s / (double)(samples - 1) : 0;
            make_kernel(f, sigma0 * pow(sigma1 / sigma0, t));
        }
        if (decays) rate = rate0 * pow(rate1 / rate0, samples > 1 ? (double)s / (double)(samples - 1) : 0);
        double sx, sy;
        draw_sample(f, random, &sx, &sy);
        int32_t winner = nearest(f, sx, sy);
        f->wins[winner]++;
        adapt(f, winner, sx, sy, rate);
    }
    for (int32_t k = 0; k < n; k++) { /* the points back to the lattice's arrays, for growing and the result */
        f->x[k] = f->pt[k].x;
        f->y[k] = f->pt[k].y;
    }
    return true;
}

/* Insert a column after column `a` (vertical: a row after row a), at the midpoints of its neighbours. */
static void insert_line(fitter *f, bool column, int a)
{
    int cx = f->cx, cy = f->cy;
    int ncx = column ? cx + 1 : cx, ncy = column ? cy : cy + 1;
    /* fill from the end so that the points move into place without a second array */
    for (int j = ncy - 1; j >= 0; j--)
        for (int i = ncx - 1; i >= 0; i--) {
            int si = i, sj = j; /* source in the old lattice */
            double nxv, nyv;
            if (column && i == a + 1) {
                int l = a + j * cx, r = a + 1 + j * cx;
                nxv = (f->x[l] + f->x[r]) / 2;
                nyv = (f->y[l] + f->y[r]) / 2;
            } else if (!column && j == a + 1) {
                int u = i + a * cx, d = i + (a + 1) * cx;
                nxv = (f->x[u] + f->x[d]) / 2;
                nyv = (f->y[u] + f->y[d]) / 2;
            } else {
                if (column && i > a) si = i - 1;
                if (!column && j > a) sj = j - 1;
                nxv = f->x[si + sj * cx];
                nyv = f->y[si + sj * cx];
            }
            f->x[i + j * ncx] = nxv;
            f->y[i + j * ncx] = nyv;
        }
    f->cx = ncx;
    f->cy = ncy;
}

/* Whether a column (else a row) may still go in: up to the target size, or in free growth while
   the points stay within the count and the quads no more than the cells to divide. */
static bool can_grow(const fitter *f, bool column)
{
    const growgrid_params *p = f->p;
    int cx = f->cx + column, cy = f->cy + !column;
    if (!p->points) return cx <= p->nx && cy <= p->ny;
    if ((int64_t)cx * cy > p->points) return false;
    return column ? !p->divide_x || cx - 1 <= p->divide_x : !p->divide_y || cy - 1 <= p->divide_y;
}

/* Whether the lattice's quads divide the cells into whole blocks (free growth keeps only such sizes). */
static bool tiles(const fitter *f)
{
    const growgrid_params *p = f->p;
    return (!p->divide_x || p->divide_x % (f->cx - 1) == 0) && (!p->divide_y || p->divide_y % (f->cy - 1) == 0);
}

/* After an epoch: the point that won most often, and its most distant neighbour along a direction
   that may still grow; the line between them goes in. */
static void grow(fitter *f)
{
    int n = f->cx * f->cy;
    int32_t q = 0;
    for (int32_t k = 1; k < n; k++)
        if (f->wins[k] > f->wins[q]) q = k;
    int qi = q % f->cx, qj = q / f->cx;
    bool can_col = can_grow(f, true), can_row = can_grow(f, false);
    static const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    double far = -1;
    int pick = -1;
    for (int dir = 0; dir < 4; dir++) {
        if (dir < 2 ? !can_col : !can_row) continue;
        int i = qi + di[dir], j = qj + dj[dir];
        if (i < 0 || i >= f->cx || j < 0 || j >= f->cy) continue;
        int32_t k = i + j * f->cx;
        double dx = f->x[k] - f->x[q], dy = f->y[k] - f->y[q], d = dx * dx + dy * dy;
        if (d > far) {
            far = d;
            pick = dir;
        }
    }
    if (pick < 2) insert_line(f, true, pick == 0 ? qi - 1 : qi);
    else insert_line(f, false, pick == 2 ? qj - 1 : qj);
}

/* Reverse the order of the columns: mirrors the lattice's turning. */
static void flip(geometry *g)
{
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx / 2; i++) {
            int a = i + j * g->nx, b = g->nx - 1 - i + j * g->nx;
            double t = g->x[a]; g->x[a] = g->x[b]; g->x[b] = t;
            t = g->y[a]; g->y[a] = g->y[b]; g->y[b] = t;
        }
}

bool growgrid_fit(const growgrid_params *p, const uint8_t *weight, int w, int h, int64_t total, rng *random, run_stop *stop,
                  geometry *out)
{
    (void)total;
    fitter f;
    memset(&f, 0, sizeof f);
    f.p = p;
    /* Samples finer than a quarter of a quad change nothing, and a small table stays in the cache:
       the picture is summed over boxes of fx*fy pixels. */
    if (p->points) {
        /* free growth: the shape keeps the cells' proportions (the picture's without them) and spans
           about `points` unit squares */
        double across = p->divide_x && p->divide_y ? p->divide_x : w, down = p->divide_x && p->divide_y ? p->divide_y : h;
        f.extent_x = sqrt(p->points * across / down);
        f.extent_y = sqrt(p->points * down / across);
    } else {
        f.extent_x = p->nx - 1;
        f.extent_y = p->ny - 1;
    }
    /* (int) of the quotient: the integer division when the extents are whole */
    int fx = (int)(w / (4 * f.extent_x)), fy = (int)(h / (4 * f.extent_y));
    if ((int64_t)(w / (fx > 1 ? fx : 1)) * (h / (fy > 1 ? fy : 1)) > GROWGRID_TABLE_CELLS) { /* half a quad then */
        fx = (int)(w / (2 * f.extent_x));
        fy = (int)(h / (2 * f.extent_y));
    }
    if (fx < 1) fx = 1;
    if (fy < 1) fy = 1;
    f.w = (w + fx - 1) / fx;
    f.h = (h + fy - 1) / fy;
    f.scale_x = f.extent_x / w * fx;
    f.scale_y = f.extent_y / h * fy;
    size_t cap = p->points ? (size_t)p->points : (size_t)p->nx * p->ny;
    int64_t *box_weight = mem_calloc((size_t)f.w * f.h, sizeof *box_weight);
    f.wins = mem_malloc(cap * sizeof *f.wins);
    f.pt = mem_malloc(cap * sizeof *f.pt);
    size_t offsets = (2 * KERNEL_REACH + 1) * (2 * KERNEL_REACH + 1);
    f.offset = mem_malloc(offsets * sizeof *f.offset);
    f.offset_weight = mem_malloc(offsets * sizeof *f.offset_weight);
    f.offset_step = mem_malloc(offsets * sizeof *f.offset_step);
    f.x = out->x;
    f.y = out->y;
    bool ok = box_weight && f.wins && f.pt && f.offset && f.offset_weight && f.offset_step;
    if (ok) {
        int64_t sum = 0;
        double mx = 0, my = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) box_weight[x / fx + (int64_t)(y / fy) * f.w] += weight[x + (int64_t)y * w];
        int64_t n = (int64_t)f.w * f.h;
        for (int64_t k = 0; k < n; k++) {
            mx += (double)box_weight[k] * (k % f.w + 0.5);
            my += (double)box_weight[k] * (k / f.w + 0.5);
            sum += box_weight[k];
        }
        ok = alias_build(&f, box_weight, n, sum);
        /* a small straight 2x2 square at the density's centre of mass */
        mx = mx / (double)sum * f.scale_x;
        my = my / (double)sum * f.scale_y;
        double half = 0.05 * (f.extent_x + f.extent_y + 2);
        f.cx = f.cy = 2;
        f.x[0] = f.x[2] = mx - half;
        f.x[1] = f.x[3] = mx + half;
        f.y[0] = f.y[1] = my - half;
        f.y[2] = f.y[3] = my + half;
    }
    /* free growth: the lattice as it was at the last size whose quads divide the cells */
    double *kept_x = NULL, *kept_y = NULL;
    int kept_cx = 2, kept_cy = 2;
    if (ok && p->points) {
        kept_x = mem_malloc(cap * sizeof *kept_x);
        kept_y = mem_malloc(cap * sizeof *kept_y);
        ok = kept_x && kept_y;
    }
    bool grown = !can_grow(&f, true) && !can_grow(&f, false);
    while (ok) {
        ok = buckets_rebuild(&f);
        if (!ok) break;
        if (grown) ok = run_epoch(&f, random, stop, p->rate_start, p->rate_end, p->sigma_start, p->sigma_end);
        else ok = run_epoch(&f, random, stop, p->rate_start, p->rate_start, p->sigma_start, p->sigma_start);
        if (!ok || grown) break;
        if (p->points && tiles(&f)) {
            kept_cx = f.cx;
            kept_cy = f.cy;
            memcpy(kept_x, f.x, (size_t)f.cx * f.cy * sizeof *kept_x);
            memcpy(kept_y, f.y, (size_t)f.cx * f.cy * sizeof *kept_y);
        }
        grow(&f);
        grown = !can_grow(&f, true) && !can_grow(&f, false);
        if (grown && p->points && !tiles(&f)) {
            f.cx = kept_cx;
            f.cy = kept_cy;
            memcpy(f.x, kept_x, (size_t)f.cx * f.cy * sizeof *kept_x);
            memcpy(f.y, kept_y, (size_t)f.cx * f.cy * sizeof *kept_y);
        }
    }
    if (ok && p->points) {
        /* to lattice units: the shape's extent becomes the straight lattice's, [0, cx-1] x [0, cy-1] */
        out->nx = f.cx;
        out->ny = f.cy;
        double sx = (f.cx - 1) / f.extent_x, sy = (f.cy - 1) / f.extent_y;
        for (int k = 0; k < f.cx * f.cy; k++) {
            out->x[k] *= sx;
            out->y[k] *= sy;
        }
    }
    if (ok && growgrid_quad_area(out, 0, 0) < 0) flip(out);
    mem_free(kept_x);
    mem_free(kept_y);
    mem_free(box_weight);
    mem_free(f.table);
    mem_free(f.wins);
    mem_free(f.pt);
    mem_free(f.head);
    mem_free(f.offset);
    mem_free(f.offset_weight);
    mem_free(f.offset_step);
    return ok;
}
