/* params.h — a model's parameters: <param name value/> in <smalti>, overridden by the caller, put into every attribute's {name}. */
#ifndef SMALTI_PARAMS_H
#define SMALTI_PARAMS_H
#include <libxml/tree.h>
#include <stdbool.h>
#include "../core/diag.h"
#include "../engine/run.h" /* model_params */

/* The longest parameter name, and the most a model may declare. */
#define PARAM_NAME_MAX 64
#define PARAMS_MAX 256

/* Read the <param> children of root's <smalti> element (and take them out of the tree, so that the
   settings see only their colours), apply the caller's "name=value" overrides (`sets`, the last of a
   name winning), then replace every {name} in every attribute value of the tree by the parameter's
   value; {{ stands for a literal {. False after a diag_error: a bad declaration or reference (with its
   line), an override of a parameter the model does not declare (SMALTI_ERR_USAGE). out (may be NULL:
   not kept) gets the parameters, to free with params_free. */
bool params_resolve(diag *d, xmlNode *root, const char *const *sets, int set_count, model_params *out);
void params_free(model_params *p);
/* Whether name is a parameter's name: 1 to PARAM_NAME_MAX letters, digits and '_'. */
bool param_name_valid(const char *name, size_t len);
#endif
