/* product.c — `run --set NAME=A,B,C`: a job for each combination of the parameters' values, each run for every seed. */
#include "many.h"
#include "../common/cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most combinations one command may ask for: each is a model loaded and kept until the end. */
#define MANY_MAX_COMBINATIONS 4096

/* The values of one --set: "rooms=4,8,12" as its name's length and the values' count. */
static int value_count(const char *set) { int n = 1; for (const char *c = strchr(set, '='); *c; c++) n += *c == ','; return n; }

/* The i-th value of set (a pointer into it) and its length. */
static const char *value_at(const char *set, int i, size_t *len)
{
    const char *v = strchr(set, '=') + 1;
    while (i-- > 0) v = strchr(v, ',') + 1;
    const char *end = strchr(v, ',');
    *len = end ? (size_t)(end - v) : strlen(v);
    return v;
}

/* A list holds no empty value and none twice; false after saying which. */
static bool values_ok(const char *set)
{
    for (int i = 0, n = value_count(set); i < n; i++) {
        size_t len, other_len;
        const char *v = value_at(set, i, &len);
        if (len == 0) return usage_error("--set %s: an empty value in the list", set), false;
        for (int k = 0; k < i; k++)
            if (value_at(set, k, &other_len) && other_len == len && memcmp(value_at(set, k, &other_len), v, len) == 0)
                return usage_error("--set %s: a value given twice", set), false;
    }
    return true;
}

/* How many combinations; 0 after a usage error (a bad list, too many). */
static long combination_count(const cli_sets *sets)
{
    long total = 1;
    for (int i = 0; i < sets->count; i++) {
        if (!values_ok(sets->items[i])) return 0;
        long n = value_count(sets->items[i]);
        if (total > MANY_MAX_COMBINATIONS / n) {
            fprintf(stderr, "smalti: the --set lists make more than %d combinations\n", MANY_MAX_COMBINATIONS);
            return 0;
        }
        total *= n;
    }
    return total;
}

/* Combination k's "name=value" of each set, the last set's value changing fastest; false when memory runs out. */
static bool combination(const cli_sets *sets, long k, char **texts)
{
    for (int i = sets->count - 1; i >= 0; i--) {
        const char *set = sets->items[i];
        int n = value_count(set);
        size_t name_len = (size_t)(strchr(set, '=') - set), len;
        const char *v = value_at(set, (int)(k % n), &len);
        k /= n;
        if (!(texts[i] = malloc(name_len + len + 2))) return false;
        snprintf(texts[i], name_len + len + 2, "%.*s=%.*s", (int)name_len, set, (int)len, v);
    }
    return true;
}

/* A list of several values must show in the file names: {NAME} in the template. */
static int check_names_vary(const char *out, const cli_sets *sets)
{
    for (int i = 0; i < sets->count; i++) {
        const char *set = sets->items[i];
        char field[80];
        snprintf(field, sizeof field, "{%.*s}", (int)(strchr(set, '=') - set), set);
        if (value_count(set) > 1 && !template_has(out, field)) {
            fprintf(stderr, "smalti: -o %s: the values of --set %s would write the same files; put %s in the name\n", out, set,
                    field);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

typedef struct product {
    long count, opened;
    job *jobs;
    many_model *models;
    char **texts; /* count * sets "name=value" */
} product;

static void product_free(product *p, int sets)
{
    for (long k = 0; k < p->opened; k++) job_close(&p->jobs[k]);
    for (long k = 0; p->models && k < p->count; k++) seed_list_free(&p->models[k].seeds);
    for (long t = 0; p->texts && t < p->count * sets; t++) free(p->texts[t]);
    free(p->jobs);
    free(p->models);
    free(p->texts);
}

/* Open each combination's job with its seeds; EXIT_OK or the first failure's code. */
static int open_all(product *p, const job_request *req, const cli_sets *sets, const char *out, const many_cli *c)
{
    for (long k = 0; k < p->count; k++) {
        char **texts = p->texts + k * sets->count;
        if (!combination(sets, k, texts)) return EXIT_MEMORY;
        job_request r = *req;
        r.params = (const char *const *)texts;
        r.param_count = sets->count;
        int rc = job_open(&p->jobs[k], &r);
        if (rc != EXIT_OK) return rc;
        p->opened++;
        many_model *m = &p->models[k];
        m->job = &p->jobs[k];
        m->out = out;
        char why[300];
        if (c->seeds && !seed_list_parse(c->seeds, &m->seeds, why, sizeof why)) {
            fprintf(stderr, "smalti: --seeds %s: %s\n", c->seeds, why);
            return EXIT_USAGE;
        }
        if (!c->seeds && !seed_list_of(&p->jobs[k].seed, 1, &m->seeds)) return EXIT_MEMORY;
    }
    return EXIT_OK;
}

int many_run_product(const job_request *req, const char *const *set_texts, int set_count, const char *out, const many_cli *c)
{
    cli_sets own = {.count = set_count}, *sets = &own;
    if (set_count < 0 || set_count > CLI_MAX_SETS) return EXIT_USAGE;
    for (int i = 0; i < set_count; i++) own.items[i] = set_texts[i];
    product p = {.count = combination_count(sets)};
    if (p.count == 0) return EXIT_USAGE;
    int rc = check_names_vary(out, sets);
    if (rc != EXIT_OK) return rc;
    p.jobs = calloc((size_t)p.count, sizeof *p.jobs);
    p.models = calloc((size_t)p.count, sizeof *p.models);
    p.texts = calloc((size_t)(p.count * sets->count), sizeof *p.texts);
    rc = p.jobs && p.models && p.texts ? open_all(&p, req, sets, out, c) : EXIT_MEMORY;
    /* The combinations are of one model file: its first stands for the others' fields. */
    if (rc == EXIT_OK) rc = many_check_template(out, p.models[0].seeds.total, p.models, 1);
    if (rc == EXIT_OK) {
        many_options o = c->o;
        o.quiet = req->quiet;
        o.max_memory = req->max_memory;
        if (o.shard_n == 0) o.shard_k = o.shard_n = 1;
        rc = many_execute(p.models, (int)p.count, &o);
    }
    product_free(&p, sets->count);
    return rc;
}
