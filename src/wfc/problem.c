/* problem.c — a WFC problem: the directions, the flat propagator and what it implies, the neighbour table and the entropy sums. */
#include "wfc.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>

const int wfc_dx[6] = {1, 0, -1, 0, 0, 0};
const int wfc_dy[6] = {0, 1, 0, -1, 0, 0};
const int wfc_dz[6] = {0, 0, 0, 0, 1, -1};
const int wfc_opposite[6] = {2, 3, 0, 1, 5, 4};

void wfc_problem_free(wfc_problem *pb)
{
    mem_free(pb->neighbours);
    mem_free(pb->prop_start);
    mem_free(pb->prop_data);
    mem_free(pb->initial_compatible);
    mem_free(pb->weights);
    mem_free(pb->weight_log_weights);
    wfc_density_free(pb);
}

bool wfc_set_propagator(wfc_problem *pb, bool *const *dense)
{
    int P = pb->P, D = pb->D;
    int64_t total = 0;
    for (int d = 0; d < D; d++)
        for (int64_t k = 0; k < (int64_t)P * P; k++) total += dense[d][k];
    pb->prop_start = mem_malloc(((size_t)D * P + 1) * sizeof *pb->prop_start);
    pb->prop_data = mem_malloc((size_t)(total > 0 ? total : 1) * sizeof *pb->prop_data);
    pb->initial_compatible = mem_malloc((size_t)P * D * sizeof *pb->initial_compatible);
    if (!pb->prop_start || !pb->prop_data || !pb->initial_compatible) return false;
    int32_t at = 0;
    for (int d = 0; d < D; d++)
        for (int t = 0; t < P; t++) {
            pb->prop_start[d * P + t] = at;
            const bool *row = dense[d] + (size_t)t * P;
            for (int t2 = 0; t2 < P; t2++)
                if (row[t2]) pb->prop_data[at++] = t2;
        }
    pb->prop_start[D * P] = at;
    for (int t = 0; t < P; t++)
        for (int d = 0; d < D; d++) {
            int o = wfc_opposite[d] * P + t;
            pb->initial_compatible[d * P + t] = pb->prop_start[o + 1] - pb->prop_start[o];
        }
    /* An emptied cell empties every neighbour when each pattern's support
       count from each side is exactly the number of patterns that list it
       (a symmetric propagator) and never starts at zero. */
    int32_t *listed = mem_calloc((size_t)P * D, sizeof *listed);
    if (!listed) return false;
    for (int d = 0; d < D; d++)
        for (int32_t k = pb->prop_start[d * P]; k < pb->prop_start[(d + 1) * P]; k++) listed[d * P + pb->prop_data[k]]++;
    pb->symmetric = true;
    pb->contradiction_spreads = true;
    for (int k = 0; k < P * D; k++) {
        if (listed[k] != pb->initial_compatible[k]) pb->symmetric = false;
        if (listed[k] != pb->initial_compatible[k] || listed[k] == 0) pb->contradiction_spreads = false;
    }
    mem_free(listed);
    return true;
}

bool wfc_problem_prepare(wfc_problem *pb)
{
    int MX = pb->mx, MY = pb->my, MZ = pb->mz, N = pb->N, D = pb->D;
    pb->neighbours = mem_malloc((size_t)pb->cells * D * sizeof *pb->neighbours);
    if (!pb->neighbours) return false;
    /* In cell order, a step off a side wrapped round without a division: a big wave's table (RedMaze
       1200²'s, with four divisions per entry, took 0.1 s of the load, which does not check the deadline). */
    size_t at = 0;
    for (int z = 0; z < MZ; z++)
        for (int y = 0; y < MY; y++)
            for (int x = 0; x < MX; x++)
                for (int d = 0; d < D; d++, at++) {
                    int x2 = x + wfc_dx[d], y2 = y + wfc_dy[d], z2 = z + wfc_dz[d];
                    bool outside = x2 < 0 || y2 < 0 || z2 < 0 || x2 + N > MX || y2 + N > MY || z2 + 1 > MZ;
                    if (outside && !pb->periodic) {
                        pb->neighbours[at] = -1;
                        continue;
                    }
                    x2 = x2 < 0 ? x2 + MX : x2 >= MX ? x2 - MX : x2; /* x2, y2, z2 are one step off at most */
                    y2 = y2 < 0 ? y2 + MY : y2 >= MY ? y2 - MY : y2;
                    z2 = z2 < 0 ? z2 + MZ : z2 >= MZ ? z2 - MZ : z2;
                    pb->neighbours[at] = x2 + (y2 + z2 * MY) * MX;
                }
    if (pb->heuristic != WFC_ENTROPY) return true;
    pb->weight_log_weights = mem_malloc((size_t)pb->P * sizeof(double));
    if (!pb->weight_log_weights) return false;
    pb->sum_of_weights = pb->sum_of_weight_log_weights = 0;
    for (int t = 0; t < pb->P; t++) {
        pb->weight_log_weights[t] = pb->weights[t] * log(pb->weights[t]);
        pb->sum_of_weights += pb->weights[t];
        pb->sum_of_weight_log_weights += pb->weight_log_weights[t];
    }
    pb->starting_entropy = log(pb->sum_of_weights) - pb->sum_of_weight_log_weights / pb->sum_of_weights;
    return !pb->cell_class || wfc_density_prepare(pb);
}
