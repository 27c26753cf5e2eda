/* support.c — helpers the unit test groups share: loading a model that must load, laying a picture over a run's grid. */
#include "unit.h"
#include <string.h>
#include "../../src/engine/run.h"

ts_model *unit_load(const char *xml, const char *name, int mx, int my, int mz, const char *resource_root)
{
    const char *roots[] = {resource_root};
    ts_load_options opt = ts_load_defaults();
    opt.mx = mx;
    opt.my = my;
    opt.mz = mz;
    if (resource_root) {
        opt.resource_dirs = roots;
        opt.resource_dir_count = 1;
    }
    opt.quiet = 1;
    ts_error err;
    ts_model *m = ts_model_load_string(xml, name, &opt, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return m;
}

void unit_lay_picture(ts_run *run, const char *picture)
{
    int mx, my, mz;
    ts_run_grid(run, &mx, &my, &mz);
    const char *legend = ts_run_legend(run);
    assert_int_equal(strlen(picture), (size_t)(mx * my * mz));
    for (int i = 0; i < mx * my * mz; i++) {
        const char *v = strchr(legend, picture[i]);
        assert_non_null(v);
        run->rs.state[i] = (uint8_t)(v - legend);
    }
}
