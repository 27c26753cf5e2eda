/* test_many.c — many runs: the seed-list parser, output templates, and shards that partition
   every work list exactly (src/cli/many/seeds.c, src/cli/many/template.c). */
#include "unit.h"
#include "../../src/cli/many/many.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void seed_lists_keep_the_order_given(void **state)
{
    (void)state;
    seed_list l;
    char why[200];
    assert_true(seed_list_parse("1,5,9..20", &l, why, sizeof why));
    assert_int_equal(l.total, 14);
    int32_t want[] = {1, 5, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    for (int k = 0; k < 14; k++) assert_int_equal(seed_list_at(&l, k), want[k]);
    seed_list_free(&l);
    assert_true(seed_list_parse("30..32,-2..0,7", &l, why, sizeof why));
    int32_t want2[] = {30, 31, 32, -2, -1, 0, 7};
    assert_int_equal(l.total, 7);
    for (int k = 0; k < 7; k++) assert_int_equal(seed_list_at(&l, k), want2[k]);
    seed_list_free(&l);
    assert_true(seed_list_parse("-2147483648..2147483647", &l, why, sizeof why));
    assert_true(l.total == 4294967296LL);
    assert_int_equal(seed_list_at(&l, 4294967295LL), INT32_MAX);
    seed_list_free(&l);
}

static void bad_seed_lists_say_why(void **state)
{
    (void)state;
    static const struct { const char *text, *why; } bad[] = {
        {"", "expected a seed"},          {"1,,2", "expected a seed"},  {"20..9", "a range goes up: 20..9"},
        {"1..5,3", "seed 3 is listed twice"}, {"1..", "expected the last seed"}, {"1.5", "expected ',' or '..'"},
        {"2147483648", "expected a seed"}, {"1-5", "expected ',' or '..'"}, {"4,1..4", "seed 4 is listed twice"},
        {"a", "expected a seed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        seed_list l;
        char why[200] = "";
        assert_false(seed_list_parse(bad[i].text, &l, why, sizeof why));
        if (!strstr(why, bad[i].why)) fail_msg("\"%s\": %s (wanted %s)", bad[i].text, why, bad[i].why);
    }
    int32_t repeat[] = {3, 4, 3};
    seed_list l;
    assert_false(seed_list_of(repeat, 3, &l));
    assert_true(seed_list_of(repeat, 2, &l));
    assert_int_equal(seed_list_at(&l, 1), 4);
    seed_list_free(&l);
}

static void shard_specs(void **state)
{
    (void)state;
    long k, n;
    assert_true(shard_parse("1/1", &k, &n) && k == 1 && n == 1);
    assert_true(shard_parse("3/8", &k, &n) && k == 3 && n == 8);
    const char *bad[] = {"0/4", "5/4", "1/0", "-1/4", "1/-4", "1", "1/", "/4", "a/b", "1/4x", "1/1000001", NULL};
    for (int i = 0; bad[i]; i++)
        if (shard_parse(bad[i], &k, &n)) fail_msg("--shard %s was taken", bad[i]);
}

/* For random N in 1..64 and random work lists (several models, random seed lists), every item
   is in exactly one shard, and the shards together are the whole list. */
static void shards_partition_every_list(void **state)
{
    (void)state;
    srand(12345);
    for (int trial = 0; trial < 300; trial++) {
        long n = 1 + rand() % 64;
        int models = 1 + rand() % 4;
        int64_t total = 0;
        for (int m = 0; m < models; m++) {
            char text[400] = "";
            int parts = 1 + rand() % 5;
            int32_t base = rand() % 1000 - 500;
            for (int p = 0; p < parts; p++) {
                int len = rand() % 40;
                char part[64];
                snprintf(part, sizeof part, "%s%d..%d", p ? "," : "", (int)base, (int)(base + len));
                strcat(text, part);
                base += len + 1 + rand() % 10;
            }
            seed_list l;
            char why[200];
            assert_true(seed_list_parse(text, &l, why, sizeof why));
            total += l.total;
            seed_list_free(&l);
        }
        int *owner = calloc((size_t)total, sizeof *owner);
        int64_t counted = 0;
        for (long k = 1; k <= n; k++)
            for (int64_t g = 0; g < total; g++)
                if (shard_has(g, k, n)) {
                    if (owner[g]) fail_msg("item %lld in shards %d and %ld of %ld", (long long)g, owner[g], k, n);
                    owner[g] = (int)k;
                    counted++;
                }
        assert_int_equal(counted, total);
        for (int64_t g = 0; g < total; g++) assert_true(owner[g] >= 1);
        free(owner);
    }
}

static void templates_fill_their_fields(void **state)
{
    (void)state;
    char why[200], out[64];
    template_fields f = {"maze", -7, 12, 16, 9, 1, NULL};
    assert_true(template_check("out/{model}/{seed}_{i}_{w}x{h}x{d}.png", why, sizeof why));
    assert_true(template_expand("out/{model}/{seed}_{i}_{w}x{h}x{d}.png", &f, out, sizeof out));
    assert_string_equal(out, "out/maze/-7_12_16x9x1.png");
    /* {NAME} may be a parameter: the model's list says (template_params_check). */
    assert_true(template_check("out/{sed}.png", why, sizeof why));
    assert_false(template_params_check("out/{sed}.png", NULL, "m.xml", why, sizeof why));
    assert_non_null(strstr(why, "unknown field {sed}"));
    assert_non_null(strstr(why, "did you mean 'seed'?"));
    assert_false(template_check("out/{se-d}.png", why, sizeof why));
    assert_non_null(strstr(why, "unknown field"));
    assert_false(template_check("out/{seed.png", why, sizeof why));
    assert_false(template_check("out/seed}.png", why, sizeof why));
    assert_true(template_has("a{i}.txt", "{i}"));
    assert_false(template_has("a{i}.txt", "{seed}"));
    char tiny[8];
    assert_false(template_expand("{model}{model}", &f, tiny, sizeof tiny));
}

/* {NAME} is the value of the model's parameter NAME (the manifest's "params" are params_test.sh's). */
static void parameters_in_file_names(void **state)
{
    (void)state;
    const char *const sets[] = {"rooms=12"};
    smalti_load_options opt = smalti_load_defaults();
    opt.quiet = 1;
    opt.params = sets;
    opt.param_count = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string("<one values=\"BW\" in=\"B\" out=\"W\" steps=\"{rooms}\">\n<smalti>"
                                               "<param name=\"rooms\" value=\"8\"/><param name=\"style\" value=\"a\\&quot;b\"/>"
                                               "</smalti></one>", "p.xml", &opt, &err);
    assert_non_null(m);
    char why[300], out[64];
    assert_true(template_check("o/{model}_{rooms}_{seed}.png", why, sizeof why));
    assert_true(template_params_check("o/{model}_{rooms}_{seed}.png", m, "p.xml", why, sizeof why));
    assert_false(template_params_check("o/{room}.png", m, "p.xml", why, sizeof why));
    assert_non_null(strstr(why, "did you mean 'rooms'?"));
    template_fields f = {"p", 3, 0, 4, 4, 1, m};
    assert_true(template_expand("o/{model}_{rooms}_{seed}.png", &f, out, sizeof out));
    assert_string_equal(out, "o/p_12_3.png");
    smalti_model_free(m);
}

int run_many_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_lists_keep_the_order_given),
        cmocka_unit_test(parameters_in_file_names),
        cmocka_unit_test(bad_seed_lists_say_why),
        cmocka_unit_test(shard_specs),
        cmocka_unit_test(shards_partition_every_list),
        cmocka_unit_test(templates_fill_their_fields),
    };
    return cmocka_run_group_tests_name("many", tests, NULL, NULL);
}
