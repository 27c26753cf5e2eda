/* main.c — the smalti command line: the dispatch to each command. */
#include "commands.h"
#include <stdio.h>
#include <string.h>
#include "../common/output_kinds.h"
#include "../pack/pack_cli.h"
#include "../studio/studio.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_overview(), stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    temp_files_guard();
    smalti_count_xml_memory(); /* the command owns its process: a model's XML tree counts against --max-memory */
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return print_help(NULL);
    if (strcmp(cmd, "help") == 0) {
        /* "help pack check": a pack command's own help. */
        if (argc == 4 && strcmp(argv[2], "pack") == 0) {
            char full[64];
            snprintf(full, sizeof full, "pack %s", argv[3]);
            return usage_of(full) ? print_help(full) : print_help("pack");
        }
        if (argc > 3) return usage_error("%s", "help takes at most one COMMAND");
        return print_help(argc == 3 ? argv[2] : NULL);
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("smalti %s\n", SMALTI_VERSION);
        return EXIT_OK;
    }
    if (strcmp(cmd, "pack") == 0) return cmd_pack(argc - 2, argv + 2);
    if (usage_of(cmd) && wants_help(argc - 2, argv + 2)) return print_help(cmd);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2, false);
    if (strcmp(cmd, "check") == 0) return cmd_run(argc - 2, argv + 2, true);
    if (strcmp(cmd, "batch") == 0) return cmd_batch(argc - 2, argv + 2);
    if (strcmp(cmd, "wfc") == 0) return cmd_wfc(argc - 2, argv + 2);
    if (strcmp(cmd, "view") == 0) return cmd_view(argc - 2, argv + 2);
    if (strcmp(cmd, "studio") == 0) return cmd_studio(argc - 2, argv + 2);
    if (cmd[0] == '-') return unknown_option(NULL, cmd);
    return unknown_command(cmd);
}
