/* commands.h — the smalti commands that main.c dispatches to (each in its own file of commands/,
   besides studio and pack, which have their own folders). */
#ifndef SMALTI_CLI_COMMANDS_H
#define SMALTI_CLI_COMMANDS_H
#include <stdbool.h>
#include "../common/cli.h"

int cmd_run(int argc, char **argv, bool check_only); /* run.c: `run`, and `check` */
int cmd_batch(int argc, char **argv);                /* batch.c */
int cmd_wfc(int argc, char **argv);                  /* wfc.c */
int cmd_view(int argc, char **argv);                 /* view.c */
#endif
