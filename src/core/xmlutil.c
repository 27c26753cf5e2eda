/* xmlutil.c — typed attribute access on libxml2 elements, parsed as .NET's converters do. */
#include "xmlutil.h"
#include "file_read.h"
#include "mem.h"
#include "suggest.h"
#include <ctype.h>
#include <errno.h>
#include <libxml/parser.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void on_xml_error(void *userdata, xmlErrorPtr e)
{
    xmlParserCtxt *ctx = userdata;
    xml_first_error *fe = ctx ? ctx->_private : NULL;
    if (!fe || fe->set || !e || e->level < XML_ERR_ERROR) return;
    fe->set = true;
    fe->line = e->line;
    snprintf(fe->message, sizeof fe->message, "malformed XML: %s", e->message ? e->message : "parse error");
    size_t n = strlen(fe->message);
    while (n > 0 && (fe->message[n - 1] == '\n' || fe->message[n - 1] == ' ')) fe->message[--n] = 0;
    /* Some messages go on to a second line ("Input is not proper UTF-8 ...\nBytes: 0xE9 ..."): one line
       keeps every line of the output a file:line: message. */
    for (char *c = fe->message; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
}

xmlParserCtxt *xml_parser_new(xml_first_error *fe)
{
    memset(fe, 0, sizeof *fe);
    xmlParserCtxt *ctx = xmlNewParserCtxt();
    if (!ctx) return NULL;
    ctx->_private = fe;
    ctx->sax->serror = on_xml_error;
    return ctx;
}

static void ignore_generic_error(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

xml_generic_handler xml_generic_errors_off(void)
{
    xml_generic_handler h = {xmlGenericError, xmlGenericErrorContext};
    xmlSetGenericErrorFunc(NULL, ignore_generic_error);
    return h;
}

void xml_generic_errors_restore(xml_generic_handler h) { xmlSetGenericErrorFunc(h.ctx, h.fn); }

/* The counted allocator is plain malloc underneath (mem.c), so libxml2's blocks made before the
   hooks, or under another budget, may be freed through them and the other way round. */
int smalti_count_xml_memory(void) { return xmlMemSetup(mem_free, mem_malloc, mem_realloc, mem_strdup) == 0; }

int xml_line(const xmlNode *el) { return (int)xmlGetLineNo(el); }
const char *xml_name(const xmlNode *el) { return (const char *)el->name; }
bool xml_is(const xmlNode *el, const char *name) { return strcmp((const char *)el->name, name) == 0; }

const char *xml_attr(const xmlNode *el, const char *name)
{
    for (xmlAttr *a = el->properties; a; a = a->next) {
        if (strcmp((const char *)a->name, name) == 0) {
            if (a->children && a->children->type == XML_TEXT_NODE && !a->children->next)
                return (const char *)a->children->content;
            return a->children ? (const char *)a->children->content : "";
        }
    }
    return NULL;
}

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

static bool rest_is_space(const char *s) { return *skip_space(s) == 0; }

bool xml_parse_int_text(const char *text, int *out)
{
    const char *s = skip_space(text);
    if (!*s) return false;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || errno || v < INT_MIN || v > INT_MAX || !rest_is_space(end)) return false;
    *out = (int)v;
    return true;
}

bool xml_get_int(diag *d, const xmlNode *el, const char *name, int dflt, int *out)
{
    *out = dflt;
    const char *text = xml_attr(el, name);
    if (!text) return true;
    if (!xml_parse_int_text(text, out))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "attribute %s=\"%s\" of <%s> is not an integer", name, text, xml_name(el));
    return true;
}

bool xml_get_int_range(diag *d, const xmlNode *el, const char *name, int dflt, int lo, int hi, int *out)
{
    if (!xml_get_int(d, el, name, dflt, out)) return false;
    if (xml_attr(el, name) && (*out < lo || *out > hi))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\" of <%s> must lie between %d and %d", name,
                          xml_attr(el, name), xml_name(el), lo, hi);
    return true;
}

bool xml_get_double(diag *d, const xmlNode *el, const char *name, double dflt, double *out)
{
    *out = dflt;
    const char *text = xml_attr(el, name);
    if (!text) return true;
    const char *s = skip_space(text);
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || !rest_is_space(end) || errno == ERANGE || v != v)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "attribute %s=\"%s\" of <%s> is not a number", name, text, xml_name(el));
    *out = v;
    return true;
}

bool xml_get_bool(diag *d, const xmlNode *el, const char *name, bool dflt, bool *out)
{
    *out = dflt;
    const char *text = xml_attr(el, name);
    if (!text) return true;
    const char *s = skip_space(text);
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    if (n == 4 && strncasecmp(s, "true", 4) == 0) *out = true;
    else if (n == 5 && strncasecmp(s, "false", 5) == 0) *out = false;
    else return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "attribute %s=\"%s\" of <%s> must be True or False", name, text, xml_name(el));
    return true;
}

bool xml_get_char(diag *d, const xmlNode *el, const char *name, char *out, bool *present)
{
    const char *text = xml_attr(el, name);
    *present = text != NULL;
    if (!text) return true;
    const char *s = text;
    size_t n = strlen(s);
    if (n > 1) { /* .NET trims a longer string before insisting on one character */
        s = skip_space(s);
        n = strlen(s);
        while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    }
    if (n != 1 || (unsigned char)s[0] >= 0x80)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "attribute %s=\"%s\" of <%s> must be one ASCII character", name, text, xml_name(el));
    *out = s[0];
    return true;
}

static bool is_listed(const char *const *names, const char *name)
{
    for (const char *const *n = names; n && *n; n++)
        if (strcmp(*n, name) == 0) return true;
    return false;
}

/* The root element of a model defines the grid, whatever node it is: path, wfc and the rest. */
static bool is_grid_attribute(const xmlNode *el, const char *name)
{
    static const char *const grid_attrs[] = {"values", "origin", "symmetry", "folder", "transparent", NULL};
    if (!el->parent || el->parent->type != XML_DOCUMENT_NODE) return false;
    for (const char *const *g = grid_attrs; *g; g++)
        if (strcmp(*g, name) == 0) return true;
    return false;
}

void xml_check_attrs_ignoring(diag *d, const xmlNode *el, const char *const *known, const char *const *ignored)
{
    for (xmlAttr *a = el->properties; a; a = a->next) {
        const char *name = (const char *)a->name;
        bool ok = strcmp(name, "comment") == 0 || is_listed(ignored, name) || is_grid_attribute(el, name) || is_listed(known, name);
        if (ok) continue;
        char hint[96];
        diag_warn(d, xml_line(el), "unknown attribute \"%s\" on <%s> is ignored%s", name, xml_name(el),
                  suggest_phrase(hint, sizeof hint, name, known));
    }
}

void xml_check_attrs(diag *d, const xmlNode *el, const char *const *known) { xml_check_attrs_ignoring(d, el, known, NULL); }

xmlNode *xml_first_child(const xmlNode *el)
{
    for (xmlNode *c = el->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) return c;
    return NULL;
}

xmlNode *xml_next(const xmlNode *el)
{
    for (xmlNode *c = el->next; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) return c;
    return NULL;
}

/* The parse of a file (data NULL) or of memory, keeping the first error's line and words. */
unsigned char *xml_file_bytes(const char *path, const char *what, size_t *size, smalti_error *err)
{
    file_read_status status;
    unsigned char *data = file_read_named(path, XML_FILE_MAX_BYTES, size, &status);
    if (!data)
        error_set(err, status == FILE_READ_NO_MEMORY ? SMALTI_ERR_RUNTIME : SMALTI_ERR_IO, path, 0, "cannot read the %s: %s", what,
                  file_read_status_text(status));
    return data;
}

xmlDoc *xml_ctxt_read_named(xmlParserCtxt *ctx, const char *path, int options, const char **why)
{
    size_t len = 0;
    file_read_status status;
    unsigned char *data = file_read_named(path, XML_FILE_MAX_BYTES, &len, &status);
    *why = NULL;
    if (!data) {
        *why = file_read_status_text(status);
        return NULL;
    }
    xmlDoc *doc = len <= INT_MAX ? xmlCtxtReadMemory(ctx, (const char *)data, (int)len, path, NULL, options) : NULL;
    mem_free(data);
    return doc;
}

static xmlDoc *read_first_error(const char *path, const char *data, int size, int options, int *line, char *message,
                                size_t message_size)
{
    xml_first_error fe;
    *line = 0;
    snprintf(message, message_size, "parse error");
    xmlParserCtxt *ctx = xml_parser_new(&fe);
    if (!ctx) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    const char *why = NULL;
    xmlDoc *doc = data ? xmlCtxtReadMemory(ctx, data, size, path, NULL, options) : xml_ctxt_read_named(ctx, path, options, &why);
    if (why) snprintf(message, message_size, "%s", why);
    if (fe.set) {
        xmlFreeDoc(doc);
        doc = NULL;
        *line = fe.line;
        const char *prefix = "malformed XML: "; /* the caller says what was malformed */
        const char *words = strncmp(fe.message, prefix, strlen(prefix)) == 0 ? fe.message + strlen(prefix) : fe.message;
        snprintf(message, message_size, "%s", words);
    }
    xmlFreeParserCtxt(ctx);
    return doc;
}

xmlDoc *xml_read_file_first_error(const char *path, int options, int *line, char *message, size_t size)
{
    return read_first_error(path, NULL, 0, options, line, message, size);
}

xmlDoc *xml_read_memory_first_error(const char *data, int size, const char *name, int options, int *line, char *message,
                                    size_t message_size)
{
    return read_first_error(name, data, size, options, line, message, message_size);
}
