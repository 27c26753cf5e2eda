/* support.c — helpers the unit test groups share: loading a model that must load, laying a picture over
   a run's grid, running the fast loops beside step-by-step runs. */
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "../../src/engine/run.h"

smalti_model *unit_load(const char *xml, const char *name, int mx, int my, int mz, const char *resource_root)
{
    const char *roots[] = {resource_root};
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = mx;
    opt.my = my;
    opt.mz = mz;
    if (resource_root) {
        opt.resource_dirs = roots;
        opt.resource_dir_count = 1;
    }
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, name, &opt, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return m;
}

void unit_lay_picture(smalti_run *run, const char *picture)
{
    int mx, my, mz;
    smalti_run_grid(run, &mx, &my, &mz);
    const char *legend = smalti_run_legend(run);
    assert_int_equal(strlen(picture), (size_t)(mx * my * mz));
    for (int i = 0; i < mx * my * mz; i++) {
        const char *v = strchr(legend, picture[i]);
        assert_non_null(v);
        run->rs.state[i] = (uint8_t)(v - legend);
    }
}

/* Steps in which a node acted (the run's counter also counts the final step that finds nothing to do). */
static void count_acting_steps(void *userdata, const smalti_step_event *ev)
{
    if (ev->node_id >= 0) ++*(long *)userdata;
}

char *unit_run_picture(const char *xml, const char *name, int mx, int my, int mz, const char *picture, int seed,
                       long *acting_steps)
{
    smalti_model *m = unit_load(xml, name, mx, my, mz, NULL);
    smalti_error err;
    smalti_run *run = smalti_run_new(m, seed, &err);
    assert_non_null(run);
    if (picture) unit_lay_picture(run, picture);
    long acting = 0;
    smalti_run_set_observer(run, count_acting_steps, &acting);
    smalti_run_to_end(run, 0);
    if (acting_steps) *acting_steps = acting;
    assert_false(smalti_run_error(run, NULL));
    int gx, gy, gz;
    const unsigned char *cells = smalti_run_grid(run, &gx, &gy, &gz);
    const char *legend = smalti_run_legend(run);
    size_t total = (size_t)gx * gy * gz;
    char *out = malloc(total + 1);
    assert_non_null(out);
    for (size_t i = 0; i < total; i++) out[i] = legend[cells[i]];
    out[total] = 0;
    smalti_run_free(run);
    smalti_model_free(m);
    return out;
}

long unit_loop_matches_steps(const char *xml, int mx, int my, int mz, int seed, long chunk)
{
    smalti_model *m = unit_load(xml, "loop.xml", mx, my, mz, NULL);
    smalti_run *fast = smalti_run_new(m, seed, NULL), *slow = smalti_run_new(m, seed, NULL);
    long target = 0;
    while (!smalti_run_finished(fast)) {
        target += chunk;
        long reached = smalti_run_to_end(fast, target);
        while (smalti_run_counter(slow) < reached && smalti_run_step(slow)) {}
        assert_int_equal(smalti_run_counter(slow), reached);
        assert_memory_equal(smalti_run_grid(fast, NULL, NULL, NULL), smalti_run_grid(slow, NULL, NULL, NULL), (size_t)mx * my * mz);
        long streak_fast = -1, streak_slow = -2;
        assert_int_equal(smalti_run_last_node(fast, &streak_fast), smalti_run_last_node(slow, &streak_slow));
        assert_int_equal(streak_fast, streak_slow);
        if (reached < target) break;
    }
    assert_int_equal(smalti_run_step(slow), 0);
    assert_true(smalti_run_finished(fast));
    assert_int_equal(smalti_run_error(fast, NULL), 0);
    long steps = smalti_run_counter(fast);
    smalti_run_free(fast);
    smalti_run_free(slow);
    smalti_model_free(m);
    return steps;
}
