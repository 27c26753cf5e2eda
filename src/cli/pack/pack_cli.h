/* pack_cli.h — the `smalti pack` commands, and opening a pack for `run` and `batch`. */
#ifndef SMALTI_CLI_PACK_H
#define SMALTI_CLI_PACK_H
#include <stdint.h>
#include "../common/cli.h"
#include "../../pack/pack.h"

/* `smalti pack SUBCOMMAND ...`: argv[0] is the subcommand. */
int cmd_pack(int argc, char **argv);
int cmd_pack_check(int argc, char **argv);
int cmd_pack_list(int argc, char **argv);
int cmd_pack_new(int argc, char **argv);     /* pack_new.c */
int cmd_pack_build(int argc, char **argv);   /* pack_build.c */
int cmd_pack_gallery(int argc, char **argv); /* pack_gallery.c */
int cmd_pack_install(int argc, char **argv);   /* pack_install.c */
int cmd_pack_uninstall(int argc, char **argv); /* pack_install.c */
/* `pack list --installed`: name, version, description and folder of each installed pack. */
int pack_list_installed(void);

/* Open the pack at path for a command (max_unpacked 0: the default cap), its unpacked entries within
   max_memory (0: within the memory budget already current, if any); NULL after printing why, with the
   exit code in *rc. */
pack *cli_pack_open(const char *path, uint64_t max_unpacked, size_t max_memory, bool quiet, int *rc);
/* The colours of a pack's model: the built-in palette, the model's own <smalti> colours, then the entry's. */
void pack_model_palette(const pack_model *m, const pack_defaults *def, palette *pal);
/* "--max-unpacked SIZE" with the value at val; false after a usage message. */
bool parse_max_unpacked(const char *val, uint64_t *out);
/* The default work budget of each model's run in `pack check` and `pack gallery`
   (smalti_run_options.max_work: about one unit per cell or item visited). Counted, not timed, so a
   pack's verdict is the same on every machine. The heaviest model of the MarkovJunior corpus at
   its defaults, FireNoise (300x300), does 1.4 G; an endless search (MultiSokoban8 at 9x9) spends
   10 G in about a minute on a 2-core machine of 2026. */
#define PACK_MAX_WORK 10000000000LL /* 10 G */
/* The default memory budget of each model in `pack check` and `pack gallery` (--max-memory), and of
   unpacking a pack in the pack commands: a stranger's pack must not take the machine's memory. Twice
   the default --max-unpacked, so that a pack of that size still opens (its entries are held while
   they inflate); the corpus's heaviest model peaks at 142 MB (the whole `pack check` of it, -j 1). */
#define PACK_MAX_MEMORY ((size_t)2 << 30) /* 2 GiB */
/* --max-work N (k, M, G, T); false, having said why, when N is not a count. */
bool parse_max_work(const char *val, long long *out);
#endif
