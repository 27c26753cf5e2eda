/* test_once.c — which `one` nodes find each match at most once while it is listed
   (rulenode_once.c), and that those nodes' fast loop without the match mask (smalti_run_to_end)
   ends on the grid that step-by-step runs, which keep the mask, end on. */
#include "unit.h"
#include <string.h>
#include "smalti.h"
#include "../../src/engine/run.h"
#include "../../src/nodes/rulenode.h"

/* The verdict for the `one` node at `line` of a model. */
static bool finds_once(const char *xml, int line)
{
    smalti_model *m = unit_load(xml, "once.xml", 16, 16, 1, NULL);
    wave_bits changes_to[GRID_MAX_VALUES];
    bool known = rulenode_model_changes((const node *const *)m->nodes, m->node_count, changes_to), once = false, seen = false;
    for (int k = 0; k < m->node_count; k++)
        if (strcmp(m->nodes[k]->kind->name, "one") == 0 && m->nodes[k]->line == line) {
            once = known && rulenode_finds_once((const rulenode *)m->nodes[k], changes_to);
            seen = true;
        }
    assert_true(seen);
    smalti_model_free(m);
    return once;
}

static const char *growth_xml = "<one values=\"BW\" in=\"WB\" out=\"WW\" origin=\"True\"/>";
static const char *maze_growth_xml = "<one values=\"BWA\" in=\"WBB\" out=\"WAW\" origin=\"True\"/>";
static const char *competition_xml =
    "<markov values=\"BRGU\">\n"
    "  <one in=\"B\" out=\"R\" steps=\"1\"/>\n"
    "  <one in=\"B\" out=\"G\" steps=\"1\"/>\n"
    "  <one in=\"RB\" out=\"RR\"/>\n"
    "  <one in=\"GB\" out=\"GG\"/>\n"
    "</markov>";

static void verdicts(void **state)
{
    (void)state;
    /* Growth: found from its W cell only; B -> W is a cell's one change. */
    assert_true(finds_once(growth_xml, 1));
    assert_true(finds_once(maze_growth_xml, 1));
    /* Two growths from two seeds: each rule's trigger (R, or G) is entered from B only. */
    assert_true(finds_once(competition_xml, 4));
    assert_true(finds_once(competition_xml, 5));
    /* The seeds' rules accept B, which nothing writes, so they have no trigger at all. */
    assert_true(finds_once(competition_xml, 2));
    /* A backtracker's walker cell changes again (R -> G, R -> W): R is not final. */
    const char *backtracker = "<markov values=\"BRGW\" origin=\"True\">\n<one in=\"RBB\" out=\"GGR\"/>\n<one in=\"RGG\" out=\"WWR\"/>\n</markov>";
    assert_false(finds_once(backtracker, 2));
    assert_false(finds_once(backtracker, 3));
    /* A W cell is turned A by another node: W is not final, so a cell may turn W twice. */
    assert_false(finds_once("<markov values=\"BWA\" origin=\"True\">\n<one in=\"WB\" out=\"WW\"/>\n<one in=\"W\" out=\"A\"/>\n</markov>", 2));
    /* B -> C -> W: a cell may be logged twice (as C, then W) before one scan, and that scan
       would see W at both entries. */
    assert_false(finds_once("<markov values=\"BCW\" origin=\"True\">\n<one in=\"WB\" out=\"WW\"/>\n<one in=\"B\" out=\"C\"/>\n"
                            "<one in=\"C\" out=\"W\"/>\n</markov>",
                            2));
    /* Something writes B as well: the B cell is a second trigger of WB. */
    assert_false(finds_once("<markov values=\"BWR\" origin=\"True\">\n<one in=\"WB\" out=\"WW\"/>\n<one in=\"R\" out=\"B\"/>\n</markov>", 2));
    /* Two triggers, each final and each entered by a first change (B -> W, G -> R): a match is
       found when its W cell turns W and again when its R cell turns R. */
    assert_false(finds_once("<markov values=\"BWRG\" origin=\"True\">\n<one in=\"WRB\" out=\"WRW\"/>\n<one in=\"G\" out=\"R\"/>\n</markov>", 2));
    /* A wildcard accepts what any change writes: two triggers. */
    assert_false(finds_once("<one values=\"BW\" in=\"W*B\" out=\"WWW\" origin=\"True\"/>", 1));
    /* An observation turns W cells into R (unlogged): W is not final. */
    assert_false(finds_once("<sequence values=\"BWR\" origin=\"True\">\n<one in=\"WB\" out=\"WW\" steps=\"5\"/>\n"
                            "<one in=\"RB\" out=\"RR\"><observe value=\"W\" from=\"R\" to=\"R\"/></one>\n</sequence>",
                            2));
    /* A node that is not a rule node may write anything. */
    assert_false(finds_once("<sequence values=\"BWR\" origin=\"True\">\n<one in=\"WB\" out=\"WW\"/>\n"
                            "<path from=\"W\" to=\"R\" on=\"B\" color=\"R\"/>\n</sequence>",
                            2));
}

/* Run by the fast loop in chunks and step by step alongside (unit_loop_matches_steps): the same
   counter and grid after every chunk, and the same end, past an eighth of the cells. */
static void loop_matches_steps(const char *xml, int mx, int my, int mz, int seed, long chunk)
{
    assert_true(unit_loop_matches_steps(xml, mx, my, mz, seed, chunk) > (long)mx * my * mz / 8);
}

static void unmasked_loop_is_exact(void **state)
{
    (void)state;
    loop_matches_steps(growth_xml, 61, 47, 1, 1, 0x7fffffff);
    loop_matches_steps(growth_xml, 40, 40, 1, 5, 97);
    loop_matches_steps(maze_growth_xml, 63, 63, 1, 2, 0x7fffffff);
    loop_matches_steps(maze_growth_xml, 63, 64, 1, 9, 13);
    loop_matches_steps(competition_xml, 50, 50, 1, 3, 0x7fffffff);
    loop_matches_steps("<one values=\"BW\" in=\"WB\" out=\"WW\" origin=\"True\"/>", 17, 13, 11, 4, 200);
}

/* A small random model of rule nodes over BWRG: a markov or a sequence of one to three `one`,
   `all` or `prl` nodes, each with a rule of one to three cells in a row (input symbols or `*`,
   at least one not `*`; output symbols or `*`), some with a step limit. */
static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

static void random_model(uint32_t *seed, char *xml, size_t cap)
{
    static const char symbols[] = "BWRG*";
    static const char *const kinds[] = {"one", "one", "one", "all", "prl"};
    size_t len = (size_t)snprintf(xml, cap, "<%s values=\"BWRG\" origin=\"True\">", next_random(seed) % 2 ? "markov" : "sequence");
    int nodes = 1 + (int)(next_random(seed) % 3);
    for (int n = 0; n < nodes; n++) {
        char in[4] = {0}, out[4] = {0};
        int cells = 1 + (int)(next_random(seed) % 3);
        for (int k = 0; k < cells; k++) {
            in[k] = symbols[next_random(seed) % (k == 0 ? 4 : 5)];
            out[k] = symbols[next_random(seed) % 5];
        }
        char steps[32] = "";
        if (next_random(seed) % 4 == 0) snprintf(steps, sizeof steps, " steps=\"%u\"", 1 + next_random(seed) % 50);
        len += (size_t)snprintf(xml + len, cap - len, "<%s in=\"%s\" out=\"%s\"%s/>", kinds[next_random(seed) % 5], in, out, steps);
    }
    snprintf(xml + len, cap - len, "</%s>", strstr(xml, "<markov") == xml ? "markov" : "sequence");
}

/* Random models, and for each whose proof finds a `one` node that finds each match once, the
   fast loop (without that node's mask) against step-by-step runs (with it), up to 3000 steps:
   an unsound verdict would list a match twice and draw differently. */
static void random_models_agree(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    int proved = 0, loaded = 0;
    for (int trial = 0; trial < 400; trial++) {
        char xml[1024];
        random_model(&seed, xml, sizeof xml);
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = 23;
        opt.my = 19;
        opt.mz = 1;
        opt.quiet = 1;
        smalti_model *m = smalti_model_load_string(xml, "random.xml", &opt, NULL);
        if (!m) continue;
        loaded++;
        wave_bits changes_to[GRID_MAX_VALUES];
        bool any = false;
        if (rulenode_model_changes((const node *const *)m->nodes, m->node_count, changes_to))
            for (int k = 0; k < m->node_count; k++)
                if (strcmp(m->nodes[k]->kind->name, "one") == 0 && rulenode_finds_once((const rulenode *)m->nodes[k], changes_to)) any = true;
        if (any) {
            proved++;
            smalti_run *fast = smalti_run_new(m, 1 + trial, NULL), *slow = smalti_run_new(m, 1 + trial, NULL);
            long reached = smalti_run_to_end(fast, 3000);
            while (smalti_run_counter(slow) < reached && smalti_run_step(slow)) {}
            if (smalti_run_counter(slow) != reached ||
                memcmp(smalti_run_grid(fast, NULL, NULL, NULL), smalti_run_grid(slow, NULL, NULL, NULL), 23 * 19) != 0)
                fail_msg("trial %d: %s: the fast loop and step-by-step runs differ", trial, xml);
            smalti_run_free(fast);
            smalti_run_free(slow);
        }
        smalti_model_free(m);
    }
    /* The generator makes both kinds often enough to test something. */
    assert_true(loaded > 300);
    assert_true(proved > 60);
}

int run_once_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdicts),
        cmocka_unit_test(unmasked_loop_is_exact),
        cmocka_unit_test(random_models_agree),
    };
    return cmocka_run_group_tests_name("once", tests, NULL, NULL);
}
