/* options.c — the options of many runs (--seeds, -j, --manifest, --resume, --shard) and
   `run MODEL --seeds LIST -o TEMPLATE`. */
#include "many.h"
#include "../common/cli.h"
#include <stdio.h>
#include <string.h>

int many_cli_option(many_cli *c, const char *arg, const char *val)
{
    if (strcmp(arg, "--resume") == 0) {
        c->o.resume = true;
        return 1;
    }
    bool takes = strcmp(arg, "--seeds") == 0 || strcmp(arg, "-j") == 0 || strcmp(arg, "--jobs") == 0 ||
                 strcmp(arg, "--manifest") == 0 || strcmp(arg, "--shard") == 0;
    if (!takes) return 0;
    if (!val) {
        usage_error("%s needs a value", arg);
        return -1;
    }
    if (strcmp(arg, "--seeds") == 0) c->seeds = val;
    else if (strcmp(arg, "--manifest") == 0) c->o.manifest = val;
    else if (strcmp(arg, "--shard") == 0) {
        if (!shard_parse(val, &c->o.shard_k, &c->o.shard_n)) {
            usage_error("--shard takes K/N, shard K of N with 1 <= K <= N <= 1000000 (such as 2/8), not %s", val);
            return -1;
        }
    } else {
        if (!parse_int_arg(val, 1, 256, &c->o.jobs)) {
            fprintf(stderr, "smalti: %s %s: expected a number of threads from 1 to 256\n", arg, val);
            return -1;
        }
        c->jobs_given = true;
    }
    return 2;
}

bool many_cli_wanted(const many_cli *c)
{
    return c->seeds || c->jobs_given || c->o.manifest || c->o.resume || c->o.shard_n > 0;
}

int many_check_template(const char *tmpl, int64_t seeds, const many_model *list, int models)
{
    char why[600];
    if (!template_check(tmpl, why, sizeof why)) {
        fprintf(stderr, "smalti: -o %s: %s\n", tmpl, why);
        return EXIT_USAGE;
    }
    for (int m = 0; m < models; m++)
        if (!template_params_check(tmpl, list[m].job->model, list[m].job->label, why, sizeof why)) {
            fprintf(stderr, "smalti: -o %s: %s\n", tmpl, why);
            return EXIT_USAGE;
        }
    if (seeds > 1 && !template_has(tmpl, "{seed}") && !template_has(tmpl, "{i}")) {
        fprintf(stderr, "smalti: -o %s: %lld runs would write the one file; put {seed} or {i} in the name (such as "
                        "'out/{model}_{seed}.png')\n", tmpl, (long long)seeds);
        return EXIT_USAGE;
    }
    if (models > 1 && !template_has(tmpl, "{model}")) {
        fprintf(stderr, "smalti: -o %s: %d models would write the same files; put {model} in the name\n", tmpl, models);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int many_run_job(const job *j, const char *out, const many_cli *c)
{
    many_model m = {.job = j, .out = out};
    char why[300];
    if (c->seeds && !seed_list_parse(c->seeds, &m.seeds, why, sizeof why)) {
        fprintf(stderr, "smalti: --seeds %s: %s\n", c->seeds, why);
        return EXIT_USAGE;
    }
    if (!c->seeds && !seed_list_of(&j->seed, 1, &m.seeds)) return EXIT_MEMORY;
    int rc = many_check_template(out, m.seeds.total, &m, 1);
    if (rc == EXIT_OK) {
        many_options o = c->o;
        o.quiet = j->quiet;
        o.max_memory = j->max_memory;
        if (o.shard_n == 0) o.shard_k = o.shard_n = 1;
        rc = many_execute(&m, 1, &o);
    }
    seed_list_free(&m.seeds);
    return rc;
}
