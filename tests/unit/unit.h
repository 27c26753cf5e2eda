/* unit.h — the cmocka test groups of smalti, one per source area. */
#ifndef SMALTI_UNIT_H
#define SMALTI_UNIT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "smalti.h"

/* support.c: load a model that must load (fails the test otherwise), with
   an optional resource root; lay rows of legend symbols over a run's grid. */
smalti_model *unit_load(const char *xml, const char *name, int mx, int my, int mz, const char *resource_root);
void unit_lay_picture(smalti_run *run, const char *picture);
/* Run a model (seed `seed`) over a laid picture (NULL: the start grid) to its
   end; the final grid's symbols (caller frees), and in *acting_steps (if not
   NULL) the steps in which a node acted. The run must end without an error. */
char *unit_run_picture(const char *xml, const char *name, int mx, int my, int mz, const char *picture, int seed,
                       long *acting_steps);
/* Run a model by the fast loops (smalti_run_to_end) in chunks of `chunk` steps and step by step
   (smalti_run_step) alongside, to its end: after every chunk the same counter, grid, last node
   and streak. Returns the steps made. */
long unit_loop_matches_steps(const char *xml, int mx, int my, int mz, int seed, long chunk);

int run_rng_tests(void);
int run_rule_tests(void);
int run_api_tests(void);
int run_params_tests(void);
int run_badinput_tests(void);
int run_output_tests(void);
int run_path_tests(void);
int run_path_cost_tests(void);
int run_iso_tests(void);
int run_rulefile_tests(void);
int run_convchain_tests(void);
int run_infer_tests(void);
int run_wfc_tests(void);
int run_wfc_prop_tests(void);
int run_wfc_steer_tests(void);
int run_wfc_engine_tests(void);
int run_wfc_counts_tests(void);
int run_wfc_domains_tests(void);
int run_wfc_sets_tests(void);
int run_wfc_classic_tests(void);
int run_wfc_blocks_tests(void);
int run_oddmodel_tests(void);
int run_ca_tests(void);
int run_ca_kernel_tests(void);
int run_runner_tests(void);
int run_lsystem_tests(void);
int run_trace_tests(void);
int run_noise_tests(void);
int run_budget_tests(void);
int run_work_tests(void);
int run_voronoi_tests(void);
int run_values_tests(void);
int run_chisel_tests(void);
int run_poisson_tests(void);
int run_anim_tests(void);
int run_memres_tests(void);
int run_settings_tests(void);
int run_pack_tests(void);
int run_lint_tests(void);
int run_kinds_tests(void);
int run_require_tests(void);
int run_atomic_tests(void);
int run_file_read_tests(void);
int run_lastnode_tests(void);
int run_markov_loop_tests(void);
int run_once_tests(void);
int run_anchor_scan_tests(void);
int run_sort_tests(void);
int run_tilemap_tests(void);
int run_many_tests(void);
int run_growgrid_tests(void);
int run_escape_tests(void);
int run_later_scan_tests(void);
int run_quiet_scan_tests(void);
int run_scan_probe_tests(void);
#endif
