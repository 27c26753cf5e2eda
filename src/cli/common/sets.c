/* sets.c — --set NAME=VALUE[,VALUE...]: overrides of a model's parameters, as every command reads them. */
#include "cli.h"
#include <string.h>
#include "../../nodes/params.h"

int cli_set_option(cli_sets *s, const char *arg, const char *val)
{
    if (strcmp(arg, "--set") != 0) return 0;
    if (!val) return usage_error("%s needs NAME=VALUE", arg), -1;
    const char *eq = strchr(val, '=');
    if (!eq || !param_name_valid(val, (size_t)(eq - val)))
        return usage_error("--set %s: expected NAME=VALUE, NAME of letters, digits and '_' (such as --set rooms=12)", val), -1;
    if (s->count == CLI_MAX_SETS) return usage_error("more than %s --set options", CLI_MAX_SETS_TEXT), -1;
    for (int i = 0; i < s->count; i++)
        if (strncmp(s->items[i], val, (size_t)(eq - val) + 1) == 0)
            return usage_error("--set %s: that parameter is set twice (give one --set NAME=A,B for several values)", val), -1;
    s->items[s->count++] = val;
    return 2;
}

bool cli_sets_single(const cli_sets *s, const char **bad)
{
    for (int i = 0; i < s->count; i++)
        if (strchr(s->items[i], ',')) return *bad = s->items[i], false;
    return true;
}
