/* pack.c — `smalti pack`: the dispatch to its subcommands, opening a pack for a command, and `pack list`. */
#include "pack_cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} pack_commands[] = {
    {"check", cmd_pack_check},
    {"list", cmd_pack_list},
    {"new", cmd_pack_new},
    {"build", cmd_pack_build},
    {"gallery", cmd_pack_gallery},
    {"install", cmd_pack_install},
    {"uninstall", cmd_pack_uninstall},
};

int cmd_pack(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        if (argc < 1) {
            fputs(usage_of("pack"), stderr);
            return EXIT_USAGE;
        }
        return print_help("pack");
    }
    for (size_t i = 0; i < sizeof pack_commands / sizeof *pack_commands; i++) {
        if (strcmp(argv[0], pack_commands[i].name) != 0) continue;
        char full[64];
        snprintf(full, sizeof full, "pack %s", argv[0]);
        if (wants_help(argc - 1, argv + 1)) return print_help(full);
        return pack_commands[i].run(argc - 1, argv + 1);
    }
    if (argv[0][0] == '-') return unknown_option("pack", argv[0]);
    fprintf(stderr, "smalti: unknown pack command '%s'\nRun 'smalti help pack' for the pack commands.\n", argv[0]);
    return EXIT_USAGE;
}

bool parse_max_unpacked(const char *val, uint64_t *out)
{
    size_t bytes;
    if (!val || !parse_size_arg(val, &bytes)) {
        fprintf(stderr, "smalti: --max-unpacked takes a size such as 500M or 2G (at least 1M), not %s\n", val ? val : "nothing");
        return false;
    }
    *out = bytes;
    return true;
}

bool parse_max_work(const char *val, long long *out)
{
    if (!val || !parse_count_arg(val, out)) {
        usage_error("--max-work takes a number of work units such as 5000000 or 20G, not %s", val ? val : "nothing");
        return false;
    }
    return true;
}

pack *cli_pack_open(const char *path, uint64_t max_unpacked, size_t max_memory, bool quiet, int *rc)
{
    pack_options opt = {.max_unpacked = max_unpacked, .warn = print_warning, .quiet = quiet};
    smalti_error err;
    mem_budget unpacking = {.limit = max_memory};
    mem_budget *outer = max_memory ? mem_enter_whole(&unpacking) : NULL;
    pack *p = pack_open(path, &opt, &err);
    if (max_memory) mem_enter_whole(outer);
    if (!p) {
        print_error(&err);
        *rc = err.status == SMALTI_ERR_USAGE ? EXIT_USAGE : exit_code_for(err.status);
        *rc = memory_verdict(&unpacking, *rc, path);
    }
    return p;
}

void pack_model_palette(const pack_model *m, const pack_defaults *def, palette *pal)
{
    palette_default(pal);
    for (int i = 0; i < def->own.color_count; i++) {
        pal->rgb[(unsigned char)def->own.color_symbols[i]] = def->own.color_rgb[i];
        pal->has[(unsigned char)def->own.color_symbols[i]] = true;
    }
    for (int i = 0; i < m->color_count; i++) {
        pal->rgb[(unsigned char)m->color_symbols[i]] = m->color_rgb[i];
        pal->has[(unsigned char)m->color_symbols[i]] = true;
    }
}

/* `pack list PACK`: the pack's own lines, then one line per model with its defaults. */
int cmd_pack_list(int argc, char **argv)
{
    const char *path = NULL;
    uint64_t max_unpacked = 0;
    bool installed = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--installed") == 0) installed = true;
        else if (strcmp(argv[i], "--max-unpacked") == 0) {
            if (!parse_max_unpacked(i + 1 < argc ? argv[i + 1] : NULL, &max_unpacked)) return EXIT_USAGE;
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) return unknown_option("pack list", argv[i]);
        else if (path) return usage_error("unexpected argument %s", argv[i]);
        else path = argv[i];
    }
    if (installed && path) return usage_error("%s", "pack list takes PACK or --installed, not both");
    if (installed) return pack_list_installed();
    if (!path) return usage_error("%s", "pack list needs PACK (a folder or a .zip), or --installed");
    int rc = EXIT_OK;
    pack *p = cli_pack_open(path, max_unpacked, PACK_MAX_MEMORY, false, &rc);
    if (!p) return rc;
    const pack_manifest *man = pack_manifest_of(p);
    printf("%s %s%s%s\n", man->name, man->version, *man->description ? " - " : "", man->description);
    if (man->license) printf("license: %s\n", man->license);
    for (int i = 0; i < man->author_count; i++)
        printf("author: %s%s%s%s\n", man->authors[i].name, man->authors[i].email ? " <" : "",
               man->authors[i].email ? man->authors[i].email : "", man->authors[i].email ? ">" : "");
    if (man->homepage) printf("homepage: %s\n", man->homepage);
    if (man->min_smalti) printf("needs: smalti %s or newer\n", man->min_smalti);
    printf("%d %s (from %s):\n", man->model_count, plural(man->model_count, "model", "models"), man->file);
    for (int i = 0; i < man->model_count; i++) {
        const pack_model *m = &man->models[i];
        pack_defaults def;
        smalti_error err;
        char grid[64] = "?";
        if (pack_model_defaults(p, m, NULL, NULL, 0, &def, &err)) {
            if (def.mz > 1) snprintf(grid, sizeof grid, "%dx%dx%d", def.mx, def.my, def.mz);
            else snprintf(grid, sizeof grid, "%dx%d", def.mx, def.my);
        } else {
            print_error(&err);
            rc = exit_code_for(err.status);
            continue;
        }
        char seeds[128] = "";
        int len = 0;
        for (int s = 0; s < m->seed_count && len < (int)sizeof seeds - 16; s++)
            len += snprintf(seeds + len, sizeof seeds - len, "%s%d", s ? " " : "", (int)m->seeds[s]);
        if (!m->seed_count) snprintf(seeds, sizeof seeds, "%d", (int)def.seed);
        printf("  %-22s %-10s seed%s %s, %ld steps%s  %s\n", m->name, grid, m->seed_count > 1 ? "s" : "", seeds, def.steps,
               def.steps <= 0 ? " (no limit)" : "", m->title ? m->title : m->file);
        if (m->tag_count) {
            printf("  %-22s tags:", "");
            for (int t = 0; t < m->tag_count; t++) printf(" %s", m->tags[t]);
            printf("\n");
        }
    }
    pack_close(p);
    return rc;
}
