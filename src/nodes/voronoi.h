/* voronoi.h — exact nearest-site assignment used by the `voronoi` node (exposed for tests). */
#ifndef SMALTI_VORONOI_H
#define SMALTI_VORONOI_H
#include <stdbool.h>
#include <stdint.h>
#include "../core/stop.h"

typedef enum voronoi_metric { VORONOI_EUCLIDEAN, VORONOI_MANHATTAN, VORONOI_CHEBYSHEV } voronoi_metric;

/* The distance between cells (ax,ay,az) and (bx,by,bz) under `metric`, in
   integers: Euclidean gives the squared distance. */
int64_t voronoi_distance(voronoi_metric metric, int32_t ax, int32_t ay, int32_t az, int32_t bx, int32_t by, int32_t bz);

/* owner[x + y*mx + z*mx*my] = the index of the site nearest to that cell
   (sites at sx[i], sy[i], sz[i], i < count, count >= 1), the lowest index on
   ties. Exact: it gives what comparing every site would give. False when
   memory runs out, or when `stop` (NULL: never) says stop, with owner[] partly filled. */
bool voronoi_nearest(const int32_t *sx, const int32_t *sy, const int32_t *sz, int32_t count, int mx, int my, int mz,
                     voronoi_metric metric, run_stop *stop, int32_t *owner);
#endif
