/* runner.h — white-box hooks of the `runner` node for tests: its sine and a callback on every brush stamp. */
#ifndef SMALTI_RUNNER_H
#define SMALTI_RUNNER_H
#include <stdbool.h>
#include "../engine/run.h"

/* Sine and cosine of an angle in degrees, computed with + - * / and floor
   only, so every IEEE-754 machine gets the same bits (no libm). */
void runner_sincos_deg(double degrees, double *sine, double *cosine);

/* Called for every stamp with the runner's spawn number (0, 1, ... in spawn
   order, children included), the cell at the brush's centre and the radius
   used (strength/2 after taper and jitter). */
typedef void (*runner_stamp_fn)(void *userdata, int runner, int x, int y, double radius);

/* Watch the stamps of the runner node `node_id` in this run; false if that
   node is not a runner. The hook stays until the run is freed. */
bool runner_set_stamp_hook(smalti_run *run, int node_id, runner_stamp_fn fn, void *userdata);
#endif
