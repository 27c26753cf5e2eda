/* xmlutil.h — typed attribute access on libxml2 elements, parsed as .NET's converters do. */
#ifndef SMALTI_XMLUTIL_H
#define SMALTI_XMLUTIL_H
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdbool.h>
#include "diag.h"

/* libxml2 reports several errors for one mistake, the later ones often lines away (a tag left open
   at line 3 is "Extra content at the end of the document" at the end); the first is the one to
   show. message is "malformed XML: " and libxml2's words. */
typedef struct xml_first_error {
    bool set;
    int line;
    char message[400];
} xml_first_error;
/* A parser that keeps its first error in *fe and prints nothing; free it with xmlFreeParserCtxt.
   NULL when memory runs out. */
/* This thread's libxml2 generic error handler, which prints to stderr without file:line what the
   parser's own error (or the caller) says already, such as an allocation refused by a memory
   budget: xml_generic_errors_off silences it and returns it for xml_generic_errors_restore. */
typedef struct xml_generic_handler {
    xmlGenericErrorFunc fn;
    void *ctx;
} xml_generic_handler;
xml_generic_handler xml_generic_errors_off(void);
void xml_generic_errors_restore(xml_generic_handler h);

xmlParserCtxt *xml_parser_new(xml_first_error *fe);

int xml_line(const xmlNode *el);
const char *xml_name(const xmlNode *el);
bool xml_is(const xmlNode *el, const char *name);
/* The attribute's text, or NULL; the pointer lives as long as the document. */
const char *xml_attr(const xmlNode *el, const char *name);
/* Each getter returns false after reporting a malformed value; a missing
   attribute leaves *out at the default and returns true. */
bool xml_get_int(diag *d, const xmlNode *el, const char *name, int dflt, int *out);
/* xml_get_int, then a given value must satisfy lo <= *out <= hi, or the error `name="v" of <el> must
   lie between lo and hi` (a default may stand for "unset" outside the range): every integer attribute
   that sizes, counts or indexes something is read through here. */
bool xml_get_int_range(diag *d, const xmlNode *el, const char *name, int dflt, int lo, int hi, int *out);
bool xml_get_double(diag *d, const xmlNode *el, const char *name, double dflt, double *out);
bool xml_get_bool(diag *d, const xmlNode *el, const char *name, bool dflt, bool *out);
/* A single character; *present tells whether the attribute was there. */
bool xml_get_char(diag *d, const xmlNode *el, const char *name, char *out, bool *present);
/* Warn about attributes not in the NULL-terminated list (plus "comment"). */
void xml_check_attrs(diag *d, const xmlNode *el, const char *const *known);
/* The same, accepting silently the attributes in `ignored` too (NULL-terminated, or NULL): those
   the reference's own models carry where it reads nothing (node_kind.ignored_attrs). Unlike
   `known`, they are never suggested for a misspelt name. */
void xml_check_attrs_ignoring(diag *d, const xmlNode *el, const char *const *known, const char *const *ignored);
/* Iterate element children. */
xmlNode *xml_first_child(const xmlNode *el);
xmlNode *xml_next(const xmlNode *el);
bool xml_parse_int_text(const char *text, int *out);
/* An XML input file (a model, a list, a tileset) larger than this is refused before it is parsed. */
#define XML_FILE_MAX_BYTES (256L << 20)
/* Parse the file named by path with ctx from its bytes, read by file_read_named (a regular file only,
   at most XML_FILE_MAX_BYTES, non-blocking: a FIFO or /dev/zero is refused, not waited on or read
   without end), so that no path reaches libxml2; path names the document in libxml2's messages.
   NULL with *why set (a few words) when the file could not be read, with *why NULL when libxml2
   gave no document. */
xmlDoc *xml_ctxt_read_named(xmlParserCtxt *ctx, const char *path, int options, const char **why);
/* The bytes of the XML file at path, read as xml_ctxt_read_named reads them (mem_free them); NULL with
   err set ("cannot read the WHAT: not a regular file ..."; out of memory is a runtime error, the rest
   I/O errors). */
unsigned char *xml_file_bytes(const char *path, const char *what, size_t *size, smalti_error *err);
/* Parse a file with options; on malformed XML NULL, with the first error's line (0 if none)
   and message in *line and message (the parser context holds them: no global handler). */
xmlDoc *xml_read_file_first_error(const char *path, int options, int *line, char *message, size_t size);
/* The same from size bytes in memory; name is the document's name in libxml2's messages. */
xmlDoc *xml_read_memory_first_error(const char *data, int size, const char *name, int options, int *line, char *message,
                                    size_t message_size);
#endif
