/* many.h — many runs: seed lists, output name templates, shards, the manifest and the threads
   that run a work list (seeds.c, template.c, run_manifest.c, workers.c, progress_bar.c, options.c). */
#ifndef SMALTI_CLI_MANY_H
#define SMALTI_CLI_MANY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../../io/output.h"
#include "../job/job.h"

/* A list of seeds as the user wrote it, "1,5,9..20": ranges in the order given, each
   counted up from first to last. No seed is listed twice. */
typedef struct seed_range {
    int64_t first, last;
    int64_t before; /* how many seeds the earlier ranges hold */
} seed_range;
typedef struct seed_list {
    seed_range *ranges;
    int count;
    int64_t total;
} seed_list;
/* Parse text into out; false with why ("a range goes up: 20..9") when it is not a list. */
bool seed_list_parse(const char *text, seed_list *out, char *why, size_t why_size);
/* A list of the given seeds (an entry's seeds), one range each; false when a seed repeats. */
bool seed_list_of(const int32_t *seeds, int count, seed_list *out);
int32_t seed_list_at(const seed_list *l, int64_t k); /* the k-th seed, 0 <= k < total */
void seed_list_free(seed_list *l);

/* Shards: "K/N" with 1 <= K <= N; the work item of index g (its place in the fixed order
   of the whole list) belongs to shard g mod N + 1, so that every item is in exactly one. */
bool shard_parse(const char *text, long *k, long *n);
static inline bool shard_has(int64_t index, long k, long n) { return index % n == k - 1; }

/* Output names from a template: {model} {seed} {i} {w} {h} {d}, and {NAME} for the value of the
   model's parameter NAME; any other '{' is an error. */
typedef struct template_fields {
    const char *model;
    int32_t seed;
    int64_t i;
    int w, h, d;
    const smalti_model *params; /* whose parameters {NAME} names (NULL: none) */
} template_fields;
bool template_check(const char *tmpl, char *why, size_t why_size);
/* The length of the parameter field {NAME} at s (braces included), or 0 when s starts none (a built-in field is none). */
size_t template_param_at(const char *s);
/* Every {NAME} of tmpl a parameter of model; else false with why ("{rooms}: LABEL declares no parameter 'rooms'"). */
bool template_params_check(const char *tmpl, const smalti_model *model, const char *label, char *why, size_t why_size);
bool template_has(const char *tmpl, const char *field); /* field as "{seed}" */
bool template_expand(const char *tmpl, const template_fields *f, char *out, size_t size); /* false when too long */

/* The manifest: one JSON line per finished output, appended with one write() on an O_APPEND
   descriptor, so that lines of several threads or processes never mix and a crash leaves at
   most a torn last line, which manifest_open(resume) cuts off. */
typedef struct manifest_entry {
    const char *model;
    int32_t seed;
    int64_t i;
    int mx, my, mz;
    long steps;
    bool finished;
    double ms;
    const char *const *outputs;
    int output_count;
    char sha256[65]; /* of the final grid's cells (see manifest_grid_sha256) */
    int attempts;    /* the attempts a <require> made the run begin (1: none failed) */
    int warnings;    /* the run's warnings (a <wfc> that found no solution); the line says only more than 0 */
    const smalti_model *params; /* its parameters and their values go on the line ("params"), when it has any */
} manifest_entry;
typedef struct manifest_done manifest_done; /* the (model, seed) pairs a manifest already holds */
/* Open path for appending. Without resume an existing non-empty manifest is refused; with it, a
   torn last line is cut off and *done gets every pair whose outputs all exist. EXIT_OK or an
   exit code after printing why. */
int manifest_open(const char *path, bool resume, int *fd, manifest_done **done);
/* The set on its own, for other strings: a new empty one (NULL when out of memory), and adding to it. */
manifest_done *manifest_done_new(void);
bool manifest_done_add(manifest_done *done, const char *model, int32_t seed);
/* Walking the set: slot i's string, or NULL when it is empty, for i below the capacity. */
size_t manifest_done_capacity(const manifest_done *done);
const char *manifest_done_slot(const manifest_done *done, size_t i);
bool manifest_done_has(const manifest_done *done, const char *model, int32_t seed);
long manifest_done_count(const manifest_done *done);
void manifest_done_free(manifest_done *done);
/* The key by which a run is done in a manifest, with its seed: the model's name, and with parameters
   (params, NULL: none) their values too, so that each combination of --set values is its own run.
   false when it does not fit. manifest_open reads lines into the same keys. */
bool manifest_key(const char *model, const smalti_model *params, char *buf, size_t size);
/* One line for e, ending in '\n', in buf; its length, or 0 when it does not fit. */
size_t manifest_format(const manifest_entry *e, char *buf, size_t size);
bool manifest_append(int fd, const char *line, size_t len); /* one write() */
/* SHA-256 of the cells, one byte each (the value's index in the legend), x fastest, then y, then z. */
void manifest_grid_sha256(const unsigned char *cells, int mx, int my, int mz, char hex[65]);

/* A work list: each job with its seeds, in order; the work items are job 0's seeds in their order,
   then job 1's, and so on. */
typedef struct many_model {
    const job *job;        /* the model, its name ({model}, the manifest's model), colours and budgets */
    const char *out;       /* the template of its outputs */
    seed_list seeds;
} many_model;
typedef struct many_options {
    const char *manifest;  /* NULL: none */
    bool resume;
    long jobs;             /* threads; 0: the number of cores */
    long shard_k, shard_n; /* 1/1 when not sharded */
    bool quiet;
    size_t max_memory;     /* each thread's runs with the pictures they write (the jobs' --max-memory) */
} many_options;
/* Run the work list; an exit code (the worst of the runs). */
int many_execute(many_model *models, int count, const many_options *o);
/* Draw the progress of many runs (progress.c): a bar on a terminal, a line every few seconds
   off one. final: the last call, which ends the bar's line. */
typedef struct many_progress {
    bool tty;
    double start, last;
    bool drawn;
} many_progress;
void many_progress_start(many_progress *p);
void many_progress_show(many_progress *p, int64_t done, int64_t total, bool final);

/* The command-line options of many runs, shared by run and batch (options.c). */
typedef struct many_cli {
    const char *seeds;     /* --seeds LIST (run only) */
    many_options o;
    bool jobs_given;
} many_cli;
/* arg (with val, the next argument) if it is one of these options: 1 when it took only arg, 2
   when it took val too, 0 when arg is none of them, -1 after a usage error was printed. */
int many_cli_option(many_cli *c, const char *arg, const char *val);
bool many_cli_wanted(const many_cli *c); /* any of them given */
/* The checks of an output template for a list: its fields, each {NAME} a parameter of every one of
   the `models` models of list, "{seed}" or "{i}" when seeds > 1, and "{model}" when models > 1;
   EXIT_OK or EXIT_USAGE after saying why. */
int many_check_template(const char *tmpl, int64_t seeds, const many_model *list, int models);
/* `run MODEL --set NAME=A,B ...` (product.c): a job opened from req for each combination of the
   --set lists' values (sets: set_count texts "NAME=A,B,..."; a name at most once) (the first list's value changing slowest), each run for every seed of
   --seeds (or its default seed), in that order; out must name each list of several values as
   {NAME}. At most 4096 combinations, each a model kept loaded until the end. EXIT_* */
int many_run_product(const job_request *req, const char *const *sets, int set_count, const char *out, const many_cli *c);
/* `run MODEL --seeds ...` (commands/run.c hands over the open job): EXIT_* */
int many_run_job(const job *j, const char *out, const many_cli *c);
#endif
