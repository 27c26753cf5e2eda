/* pack_cmd.c — `smalti pack SUBCOMMAND`: the dispatch to the pack subcommands. */
#include "cli.h"
#include <string.h>
#include "pack_cli.h"

int cmd_pack(int argc, char **argv)
{
    if (argc < 1) return usage_error("%s", "pack needs a subcommand: new, build or gallery ('smalti help pack')");
    const char *sub = argv[0];
    if (strcmp(sub, "new") == 0) return cmd_pack_new(argc - 1, argv + 1);
    if (strcmp(sub, "build") == 0) return cmd_pack_build(argc - 1, argv + 1);
    if (strcmp(sub, "gallery") == 0) return cmd_pack_gallery(argc - 1, argv + 1);
    if (sub[0] == '-') return unknown_option("pack", sub);
    return usage_error("pack: unknown subcommand '%s'; the subcommands are new, build and gallery ('smalti help pack')", sub);
}
