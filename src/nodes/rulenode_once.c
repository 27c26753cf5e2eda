/* rulenode_once.c — a proof, from every rule of a model, that a rule node finds each match at most
   once while it is listed, so that `one`'s fast loop can do without its match mask. */
#include "rulenode.h"
#include "nodes.h"

/* A rule node's match mask keeps a match from being listed twice: an incremental scan visits
   every change since the node's last scan, and a match is found again when another change (at
   another of its cells, or at the same cell once more) leads to it while it is still listed.
   For some models that cannot happen, and then the mask decides nothing. Growth (WB -> WW) is
   one: a match is found only from its W cell, a cell turns W only from B, nothing turns a cell
   B, and nothing changes a W cell again; so each cell is logged once in its life, and each
   match found once.

   In general, for each rule of the node, call an input position a trigger when some rule of
   the model can write a value the position accepts (a change there is scanned for this rule).
   The node finds each match at most once when every rule has at most one trigger, and for that
   trigger's accepted values A:
   - no rule changes a cell whose value is in A (once there, a cell stays), and
   - no rule writes any value that some rule changes into a value of A (a cell comes into A by
     its first change, and is logged once: the scan sees the cell's value when it scans, so a
     cell logged twice before a scan would be scanned twice with its final value).
   A match the whole-grid scan found had its trigger cell in A already, so no later change
   finds it again. The rules' writes stand for every change only when every node of the model
   is a branch or a rule node without search; any other node may write anything. A rule node's
   observations count as changes too (from each observed value to its `from`): they are not
   logged, but a cell they change may come back to a trigger's values. */

bool rulenode_model_changes(const node *const *nodes, int count, wave_bits changes_to[GRID_MAX_VALUES])
{
    memset(changes_to, 0, GRID_MAX_VALUES * sizeof *changes_to);
    for (int n = 0; n < count; n++) {
        const node_kind *kind = nodes[n]->kind;
        if (kind == &node_kind_markov || kind == &node_kind_sequence || kind->changes_no_cells) continue;
        if (!kind->is_rule_node) return false;
        const rulenode *rn = (const rulenode *)nodes[n];
        if (rn->search) return false;
        /* An observation turns its cells into its `from` value, unlogged: not a change any scan
           sees, but one that may take a cell out of a trigger's values and let it come back. */
        if (rn->observations)
            for (int v = 0; v < GRID_MAX_VALUES; v++) {
                const observation *o = &rn->observations[v];
                if (o->present && o->from != v && o->from < GRID_MAX_VALUES) changes_to[v] |= wave_bit(o->from);
            }
        for (int ri = 0; ri < rn->rule_count; ri++) {
            const rule *rl = rn->rules[ri];
            if (rl->imx != rl->omx || rl->imy != rl->omy || rl->imz != rl->omz) return false;
            for (int k = 0; k < rl->imx * rl->imy * rl->imz; k++) {
                const uint8_t out = rl->output[k];
                if (out == RULE_KEEP) continue;
                if (out >= GRID_MAX_VALUES) return false;
                for (wave_bits from = rl->input[k] & ~wave_bit(out); from; from &= from - 1)
                    changes_to[__builtin_ctzll(from)] |= wave_bit(out);
            }
        }
    }
    return true;
}

bool rulenode_finds_once(const rulenode *rn, const wave_bits changes_to[GRID_MAX_VALUES])
{
    wave_bits written = 0;        /* values some change writes */
    wave_bits changed = 0;        /* values some change leaves */
    wave_bits written_before[GRID_MAX_VALUES] = {0}; /* by value b: the values changed into b */
    for (int a = 0; a < GRID_MAX_VALUES; a++) {
        written |= changes_to[a];
        if (changes_to[a]) changed |= wave_bit(a);
        for (wave_bits to = changes_to[a]; to; to &= to - 1) written_before[__builtin_ctzll(to)] |= wave_bit(a);
    }
    for (int ri = 0; ri < rn->rule_count; ri++) {
        const rule *rl = rn->rules[ri];
        int triggers = 0;
        for (int k = 0; k < rl->imx * rl->imy * rl->imz; k++) {
            const wave_bits accepted = rl->input[k];
            if (!(accepted & written)) continue;
            if (++triggers > 1 || (accepted & changed)) return false;
            for (wave_bits to = accepted & written; to; to &= to - 1)
                if (written_before[__builtin_ctzll(to)] & written) return false;
        }
    }
    return true;
}
