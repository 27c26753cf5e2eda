/* density.c — density pictures: per-cell pattern weights from a greyscale image, so a designer paints where tiles cluster. */
#include "wfc.h"
#include "../core/resource.h"
#include "../core/mem.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* (2 * lerp(1-d, d, v))^power: exactly 1 for d = 0.5 (a neutral tile keeps its weight), between 0 and 2^power
   otherwise. Integer powers by repeated multiplication and no fused multiply-add (each product is its own
   statement), so every platform gets the same weights bit for bit. */
static double density_factor(double d, double v, int power)
{
    double low = (1 - d) * (1 - v);
    double high = d * v;
    double f = 2 * (low + high);
    double r = 1;
    for (int k = 0; k < power; k++) r *= f;
    return r;
}

bool wfc_set_density(wfc_problem *pb, const uint8_t *level, const double *density, int per_pattern, int power)
{
    /* One class per grey level in use, in increasing order of grey. */
    int class_of[256];
    bool used[256] = {0};
    for (int i = 0; i < pb->cells; i++) used[level[i]] = true;
    pb->classes = 0;
    for (int g = 0; g < 256; g++) class_of[g] = used[g] ? pb->classes++ : -1;
    size_t P = (size_t)pb->P;
    pb->cell_class = mem_malloc((size_t)pb->cells);
    pb->class_weights = mem_malloc((size_t)pb->classes * P * sizeof(double));
    if (!pb->cell_class || !pb->class_weights) return false;
    for (int i = 0; i < pb->cells; i++) pb->cell_class[i] = (uint8_t)class_of[level[i]];
    for (int g = 0; g < 256; g++) {
        if (!used[g]) continue;
        double *row = pb->class_weights + (size_t)class_of[g] * P;
        double v = g / 255.0;
        for (size_t t = 0; t < P; t++) {
            double factor = 1;
            for (int k = 0; k < per_pattern; k++) factor *= density_factor(density[t * per_pattern + k], v, power);
            row[t] = pb->weights[t] * (factor < WFC_DENSITY_FLOOR ? WFC_DENSITY_FLOOR : factor);
        }
    }
    return true;
}

bool wfc_density_prepare(wfc_problem *pb)
{
    size_t P = (size_t)pb->P, C = (size_t)pb->classes;
    pb->class_weight_log_weights = mem_malloc(C * P * sizeof(double));
    pb->class_sum_of_weights = mem_malloc(C * sizeof(double));
    pb->class_sum_of_weight_log_weights = mem_malloc(C * sizeof(double));
    pb->class_starting_entropy = mem_malloc(C * sizeof(double));
    if (!pb->class_weight_log_weights || !pb->class_sum_of_weights || !pb->class_sum_of_weight_log_weights ||
        !pb->class_starting_entropy)
        return false;
    /* The same sums in the same order as for the plain weights, so a neutral picture changes nothing. */
    for (size_t c = 0; c < C; c++) {
        const double *w = pb->class_weights + c * P;
        double *wlw = pb->class_weight_log_weights + c * P;
        double sum = 0, sum_wlw = 0;
        for (size_t t = 0; t < P; t++) {
            wlw[t] = w[t] * log(w[t]);
            sum += w[t];
            sum_wlw += wlw[t];
        }
        pb->class_sum_of_weights[c] = sum;
        pb->class_sum_of_weight_log_weights[c] = sum_wlw;
        pb->class_starting_entropy[c] = log(sum) - sum_wlw / sum;
    }
    return true;
}

void wfc_density_free(wfc_problem *pb)
{
    mem_free(pb->cell_class);
    mem_free(pb->class_weights);
    mem_free(pb->class_weight_log_weights);
    mem_free(pb->class_sum_of_weights);
    mem_free(pb->class_sum_of_weight_log_weights);
    mem_free(pb->class_starting_entropy);
    pb->cell_class = NULL;
    pb->class_weights = pb->class_weight_log_weights = NULL;
    pb->class_sum_of_weights = pb->class_sum_of_weight_log_weights = pb->class_starting_entropy = NULL;
}

uint8_t *wfc_density_levels(const resources *res, diag *d, int line, const char *path, int mx, int my, int mz)
{
    int W, H;
    uint32_t *argb = resource_load_image(res, d, line, path, &W, &H);
    if (!argb) return NULL;
    uint8_t *level = mem_malloc((size_t)mx * my * mz);
    if (!level) {
        mem_free(argb);
        diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
        return NULL;
    }
    for (int y = 0; y < my; y++) {
        /* The pixel under the cell's centre. */
        int py = (int)(((int64_t)2 * y + 1) * H / (2 * (int64_t)my));
        for (int x = 0; x < mx; x++) {
            int px = (int)(((int64_t)2 * x + 1) * W / (2 * (int64_t)mx));
            uint32_t c = argb[px + (size_t)py * W];
            uint32_t r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
            uint8_t grey = (uint8_t)((299 * r + 587 * g + 114 * b + 500) / 1000);
            for (int z = 0; z < mz; z++) level[x + y * mx + (size_t)z * mx * my] = grey;
        }
    }
    mem_free(argb);
    return level;
}
