/* main.c — runs every cmocka group, or only the groups named on the command line (`unit_tests api
   budget`: the ThreadSanitizer build runs those that start threads); the exit code is 1 when a test
   failed, 2 for an unknown group. */
#include "unit.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } groups[] = {
        {"rng", run_rng_tests},
        {"rule", run_rule_tests},
        {"api", run_api_tests},
        {"badinput", run_badinput_tests},
        {"output", run_output_tests},
        {"path", run_path_tests},
        {"path_cost", run_path_cost_tests},
        {"iso", run_iso_tests},
        {"rulefile", run_rulefile_tests},
        {"convchain", run_convchain_tests},
        {"infer", run_infer_tests},
        {"wfc", run_wfc_tests},
        {"wfc_prop", run_wfc_prop_tests},
        {"wfc_steer", run_wfc_steer_tests},
        {"wfc_engine", run_wfc_engine_tests},
        {"wfc_counts", run_wfc_counts_tests},
        {"wfc_domains", run_wfc_domains_tests},
        {"wfc_sets", run_wfc_sets_tests},
        {"wfc_classic", run_wfc_classic_tests},
        {"wfc_blocks", run_wfc_blocks_tests},
        {"oddmodel", run_oddmodel_tests},
        {"ca", run_ca_tests},
        {"ca_kernels", run_ca_kernel_tests},
        {"runner", run_runner_tests},
        {"lsystem", run_lsystem_tests},
        {"trace", run_trace_tests},
        {"noise", run_noise_tests},
        {"voronoi", run_voronoi_tests},
        {"values", run_values_tests},
        {"chisel", run_chisel_tests},
        {"poisson", run_poisson_tests},
        {"anim", run_anim_tests},
        {"budget", run_budget_tests},
        {"work", run_work_tests},
        {"memres", run_memres_tests},
        {"settings", run_settings_tests},
        {"params", run_params_tests},
        {"pack", run_pack_tests},
        {"lint", run_lint_tests},
        {"kinds", run_kinds_tests},
        {"require", run_require_tests},
        {"atomic", run_atomic_tests},
        {"file_read", run_file_read_tests},
        {"lastnode", run_lastnode_tests},
        {"markov_loop", run_markov_loop_tests},
        {"once", run_once_tests},
        {"anchor_scan", run_anchor_scan_tests},
        {"sort", run_sort_tests},
        {"tilemap", run_tilemap_tests},
        {"many", run_many_tests},
        {"growgrid", run_growgrid_tests},
        {"escape", run_escape_tests},
        {"later_scan", run_later_scan_tests},
        {"quiet_scan", run_quiet_scan_tests},
        {"scan_probe", run_scan_probe_tests},
    };
    const int count = (int)(sizeof groups / sizeof *groups);
    for (int a = 1; a < argc; a++) {
        int g = 0;
        while (g < count && strcmp(argv[a], groups[g].name) != 0) g++;
        if (g == count) {
            fprintf(stderr, "unit_tests: no group '%s'; the groups:", argv[a]);
            for (g = 0; g < count; g++) fprintf(stderr, " %s", groups[g].name);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    int failed = 0;
    for (int g = 0; g < count; g++) {
        bool named = argc == 1;
        for (int a = 1; a < argc && !named; a++) named = strcmp(argv[a], groups[g].name) == 0;
        if (named) failed += groups[g].run();
    }
    return failed ? 1 : 0;
}
