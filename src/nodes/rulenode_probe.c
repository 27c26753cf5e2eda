/* rulenode_probe.c — before a long incremental scan, a whole-grid check that it can find nothing:
   a node re-checking the thousands of cells its own `all` step wrote. */
#include "rulenode.h"

/* Work, in shift entries tried, past which an incremental scan is first checked against the grid:
   this many times the grid's cells (a bitplane scan of a few rules is a small part of one pass). */
#define PROBE_WORK_PER_CELL 4

static void probe_add(run_state *r, const rulenode *rn, rulenode_state *st, int ri, int32_t at)
{
    (void)r;
    (void)rn;
    if (!mask_get(st, ri, at)) st->probe_found++;
}

/* The incremental scan finds the placements that fit, are not in the mask and hold a changed cell
   (a fitting placement's every cell accepts its value, so its entry is there): a subset of what a
   whole-grid scan finds. When that finds nothing, neither would the long scan. A node whose check
   found something once is not checked again: its long scans are the kind that find matches. */
bool rulenode_nothing_new(run_state *r, const rulenode *rn, rulenode_state *st)
{
    /* Only over bitplanes made for this grid (the check must not build their memory either). */
    if (!st->mask || !r->planes.bits || r->planes.cells != r->cells || st->probe_futile) return false;
    const int64_t start = run_first(r, st->last_matched_turn), end = run_changes_end(r);
    const int64_t enough = (int64_t)r->cells * PROBE_WORK_PER_CELL;
    if ((end - start) * rn->most_shifts < enough) return false;
    int64_t work = 0;
    for (int64_t n = start; n < end && work < enough; n++) {
        const uint8_t value = r->state[run_change_at(r, n)];
        work += rn->shift_start[value + 1] - rn->shift_start[value];
    }
    if (work < enough) return false;
    for (int ri = 0; ri < rn->rule_count; ri++)
        if (!planes_fit(rn->rules[ri])) return false;
    planes_sync(r);
    if (r->out_of_memory) return false;
    st->probe_found = 0;
    for (int ri = 0; ri < rn->rule_count && st->probe_found == 0; ri++) {
        if (stop_said(&r->stop)) return false;
        rulenode_scan_rule_planes_until(r, rn, st, ri, probe_add, &st->probe_found);
    }
    if (st->probe_found > 0) st->probe_futile = true;
    return st->probe_found == 0 && !r->out_of_memory && !stop_said(&r->stop);
}
