/* fanout.c — several observers on one run. smalti_run_set_observer takes one
   callback; the CLI gives it fanout_notify, which hands every step event to
   each added observer (trace, GIF/frames recorder, terminal view) in the
   order they were added. Add all observers first, then fanout_attach. */
#include "pieces.h"
#include "../common/cli.h"

bool fanout_add(observer_fanout *f, smalti_observer_fn fn, void *userdata)
{
    if (f->count == FANOUT_MAX) return false;
    f->to[f->count].fn = fn;
    f->to[f->count].userdata = userdata;
    f->count++;
    return true;
}

static void fanout_notify(void *fanout, const smalti_step_event *event)
{
    const observer_fanout *f = fanout;
    for (int i = 0; i < f->count; i++) f->to[i].fn(f->to[i].userdata, event);
}

void fanout_attach(observer_fanout *f, smalti_run *run)
{
    if (f->count == 1) smalti_run_set_observer(run, f->to[0].fn, f->to[0].userdata); /* no detour for one */
    else if (f->count > 1) smalti_run_set_observer(run, fanout_notify, f);
}
