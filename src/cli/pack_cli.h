/* pack_cli.h — the `smalti pack` subcommands that make packs: new, build and gallery. */
#ifndef SMALTI_PACK_CLI_H
#define SMALTI_PACK_CLI_H
#include <stdbool.h>

int cmd_pack(int argc, char **argv);         /* pack_cmd.c: the dispatch */
int cmd_pack_new(int argc, char **argv);     /* pack_new.c */
int cmd_pack_build(int argc, char **argv);   /* pack_build.c */
int cmd_pack_gallery(int argc, char **argv); /* pack_gallery.c */

/* Whether `pack build` leaves a file out of the zip: rel is its name in the pack, name its last part. */
bool pack_build_excluded(const char *rel, const char *name);
#endif
