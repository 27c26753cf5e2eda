/* abi.c — what a program or a binding asks to check that the library it loaded is the one it was built for. */
#include "smalti.h"
#include <string.h>

/* The version this library was built as: a program compares it with the SMALTI_VERSION of the header
   it was compiled with, since a shared library can be replaced under it. */
const char *smalti_version(void) { return SMALTI_VERSION; }

int smalti_version_number(void) { return SMALTI_VERSION_NUMBER; }

/* sizeof of each public struct, by its C name: a binding that declares the structs again in its own
   language (bindings/python/smalti.py) checks its layouts against these, so that a field added here
   and not there is caught at load time instead of corrupting memory. */
size_t smalti_struct_size(const char *name)
{
    static const struct { const char *name; size_t size; } sizes[] = {
        {"smalti_error", sizeof(smalti_error)},
        {"smalti_load_options", sizeof(smalti_load_options)},
        {"smalti_step_event", sizeof(smalti_step_event)},
        {"smalti_node_info", sizeof(smalti_node_info)},
        {"smalti_settings", sizeof(smalti_settings)},
        {"smalti_run_options", sizeof(smalti_run_options)},
        {"smalti_param_info", sizeof(smalti_param_info)},
    };
    if (!name) return 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].name, name) == 0) return sizes[i].size;
    return 0;
}
