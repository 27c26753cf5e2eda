/* cli.h — shared pieces of the smalti command-line tool. */
#ifndef SMALTI_CLI_H
#define SMALTI_CLI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "smalti.h"
#include "../../io/output.h"
#include "../../core/mem.h"

/* Exit codes, documented in `smalti --help` and docs/cli.md. */
enum {
    EXIT_OK = 0,
    EXIT_USAGE = 2,
    EXIT_MODEL = 3,
    EXIT_RUNTIME = 4,
    EXIT_IO = 5,
    EXIT_TIMEOUT = 6,
    EXIT_MEMORY = 7,
    EXIT_CANCELLED = 8,
    EXIT_REQUIREMENT = 9, /* a <require> failed on all its tries */
};

#define CLI_MAX_RESOURCES 16
#define CLI_MAX_SETS 32
#define CLI_MAX_SETS_TEXT "32"

/* --set NAME=VALUE options (sets.c), each kept as given: "rooms=12", or "rooms=4,8,12" (a comma
   separates the values of many runs, so a value given on the command line holds none). */
typedef struct cli_sets {
    const char *items[CLI_MAX_SETS];
    int count;
} cli_sets;
/* arg with its value val (NULL: none left): 0 when arg is not --set, 2 when it took it, -1 after a
   usage error (not NAME=VALUE, a name set twice, too many). */
int cli_set_option(cli_sets *s, const char *arg, const char *val);
/* Whether each --set gives one value (no comma); else false with *bad the first that gives several. */
bool cli_sets_single(const cli_sets *s, const char **bad);

/* Shared by the commands (common.c). */
int exit_code_for(smalti_status status);
void print_error(const smalti_error *err);                                   /* "file:line: error: ..." */
void print_warning(void *userdata, const char *file, int line, const char *message); /* a smalti_warning_fn */
/* "smalti: " fmt (with arg), then the pointer to --help, on stderr; returns EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);
/* A command's option parser: given an option and the argument after it (val; NULL: none left), the
   arguments it took (1 or 2), or -1 after telling the usage error. args: the command's own struct. */
typedef int cli_option_parser(void *args, const char *arg, const char *val);
/* The arguments of a command that takes one operand: each option ("-" alone is an operand) to
   parse_option, the operand into *operand; a second operand is told with usage (usage_error, or the
   command's own of that shape). EXIT_OK or EXIT_USAGE. */
int cli_parse_args(int argc, char **argv, cli_option_parser *parse_option, void *args, const char **operand,
                   int (*usage)(const char *fmt, const char *arg));
/* A byte count: digits with an optional K, M or G (powers of 1024), at least 1M; false when not. */
bool parse_size_arg(const char *text, size_t *out);
/* --max-memory SIZE and --timeout SECONDS, with the value at val (NULL: missing): false after the
   usage message every command gives. */
bool parse_max_memory(const char *val, size_t *out);
bool parse_timeout(const char *val, double *out);
/* A command's exit code once its --max-memory budget `whole` is given back: a failure that came of
   the budget (whatever the message said, such as out of memory drawing a picture) is said to be the
   budget's and exits EXIT_MEMORY; other codes pass. */
int memory_verdict(const mem_budget *whole, int rc, const char *label);
/* A deadline reached in the load or the run said one way, with the --timeout given (a run's own may
   be what the load left of it): these commands have no work budget, so their timeouts are the deadline's. */
void say_timeout(smalti_error *err, long steps, double timeout);
bool parse_int_arg(const char *text, long min, long max, long *out);   /* a whole decimal number in [min, max] */
/* A count of at least 1: digits with an optional k, M, G or T (powers of 1000: 500M is 500,000,000). */
bool parse_count_arg(const char *text, long long *out);
const char *path_extension(const char *path);          /* ".png" of "a/b.png"; "" when the file name has none */
/* An existing device, FIFO or socket (such as /dev/null): -o writes the text form there whatever its name. */
bool is_special_file(const char *path);
/* Whether two outputs would land in one file: the same path once "./" parts and doubled slashes
   are dropped, or, when both exist, the same file (device and inode). Never for "-" (stdout has
   its own checks) nor for two character devices (/dev/null twice loses nothing). */
bool outputs_collide(const char *a, const char *b);
bool has_extension(const char *path, const char *ext); /* case-insensitive, ext with its dot */
/* The file name of path without its extension, in buf. */
const char *base_name(const char *path, char *buf, size_t size);
/* Make the folder unless it exists; false after printing why not. */
bool make_output_dir(const char *path);
double now_seconds(void); /* a monotonic clock */
/* What is left of `timeout` seconds (0: none) since `start` (now_seconds): a deadline already passed
   leaves the least positive time, so that what it bounds stops at its first check with the usual message. */
double deadline_left(double timeout, double start);
/* data as base64 (with padding, no line breaks), for a page that embeds it. */
void put_base64(FILE *f, const uint8_t *data, size_t len);

/* Temporary files (tempfiles.c): temp_files_guard, at the start, makes SIGINT,
   SIGTERM, SIGHUP and SIGPIPE remove the temporary files still listed before
   the process dies of them; every writer is given temp_files_hook() to list its
   temporary file. */
void temp_files_guard(void);
const temp_hook *temp_files_hook(void);
/* Whether a signal is ending the process: a write that fails now failed because the handler took
   its temporary file away, and is not worth a message. */
bool temp_files_ending(void);

/* The bundled models of an installed smalti (datadir.c): DIR/models of $SMALTI_DATADIR, else of
   ../share/smalti beside the binary, else of the data folder it was built for; false when none
   has a pack.xml. */
bool datadir_models(char *buf, size_t size);
/* `smalti run maze`: a NAME (or NAME.xml) that is no file here and has no '/' but is one of the
   bundled models: its folder in dir and its pack name in model. */
bool datadir_find_model(const char *name, char *dir, size_t size, char *model, size_t model_size);
/* Help (usage.c): the overview, a command's usage text (NULL if no such command). */
const char *usage_overview(void);
const char *usage_of(const char *command);
/* Print the overview (command NULL) or a command's usage to stdout; EXIT_OK, or EXIT_USAGE
   after unknown_command. */
int print_help(const char *command);
bool wants_help(int argc, char **argv); /* --help or -h among the arguments */
/* "smalti: unknown option '--sise'; did you mean '--size'?" (the nearest option of the command's
   usage text, or of smalti's own when command is NULL) and where the help is, on stderr; returns EXIT_USAGE. */
int unknown_option(const char *command, const char *option);
int unknown_command(const char *command);
/* one or many by n: "1 entry", "2 entries". */
const char *plural(long n, const char *one, const char *many);
/* Parse a list file; EXIT_OK, or the exit code after printing "file:line: error". */
typedef struct _xmlDoc xmlDoc;
int read_list_file(const char *path, const char *what, xmlDoc **doc);
#endif
