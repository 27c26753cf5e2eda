/* stop.c — the work budget's counting (stop.h), kept out of line so that the loops that check it stay small. */
#include "stop.h"

void stop_count_work(run_stop *s, int64_t units)
{
    s->work_done = units > INT64_MAX - s->work_done ? INT64_MAX : s->work_done + units;
    if (s->work_done > s->work_budget && s->reason == STOP_NONE) s->reason = STOP_WORK;
}
