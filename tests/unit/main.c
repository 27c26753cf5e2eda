/* main.c — runs every cmocka group; the exit code is the number of failed tests. */
#include "unit.h"

int main(void)
{
    int failed = 0;
    failed += run_rng_tests();
    failed += run_rule_tests();
    failed += run_api_tests();
    failed += run_badinput_tests();
    failed += run_output_tests();
    failed += run_path_tests();
    failed += run_iso_tests();
    failed += run_rulefile_tests();
    failed += run_convchain_tests();
    failed += run_infer_tests();
    failed += run_wfc_tests();
    failed += run_wfc_prop_tests();
    failed += run_wfc_steer_tests();
    failed += run_wfc_engine_tests();
    failed += run_wfc_counts_tests();
    failed += run_wfc_domains_tests();
    failed += run_wfc_classic_tests();
    failed += run_oddmodel_tests();
    failed += run_ca_tests();
    failed += run_runner_tests();
    failed += run_lsystem_tests();
    failed += run_trace_tests();
    failed += run_noise_tests();
    failed += run_voronoi_tests();
    failed += run_chisel_tests();
    failed += run_poisson_tests();
    failed += run_anim_tests();
    failed += run_budget_tests();
    failed += run_memres_tests();
    failed += run_settings_tests();
    failed += run_pack_tests();
    failed += run_lint_tests();
    failed += run_atomic_tests();
    failed += run_lastnode_tests();
    failed += run_markov_loop_tests();
    failed += run_once_tests();
    failed += run_anchor_scan_tests();
    failed += run_sort_tests();
    failed += run_tilemap_tests();
    failed += run_many_tests();
    failed += run_growgrid_tests();
    return failed ? 1 : 0;
}
