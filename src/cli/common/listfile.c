/* listfile.c — read the XML list a batch command runs (models.xml, samples.xml), reporting why it cannot. */
#include "cli.h"
#include <errno.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>
#include "../../core/resource.h"
#include "../../core/xmlutil.h"

int read_list_file(const char *path, const char *what, xmlDoc **doc)
{
    *doc = NULL;
    int e = input_file_error(path);
    if (e == EISDIR) {
        fprintf(stderr, "%s: error: is a directory, not a %s\n", path, what);
        return EXIT_IO;
    }
    if (e) {
        fprintf(stderr, "%s: error: cannot open the %s: %s\n", path, what, strerror(e));
        return EXIT_IO;
    }
    /* The model loader's parser: the first of libxml2's errors is the one shown, with its line. */
    xml_first_error fe;
    xmlParserCtxt *ctx = xml_parser_new(&fe);
    if (!ctx) {
        fprintf(stderr, "%s: error: out of memory\n", path);
        return EXIT_RUNTIME;
    }
    const char *why;
    *doc = xml_ctxt_read_named(ctx, path, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING, &why);
    xmlFreeParserCtxt(ctx);
    if (why) {
        fprintf(stderr, "%s: error: cannot read the %s: %s\n", path, what, why);
        return EXIT_IO;
    }
    if (*doc && !fe.set) return EXIT_OK;
    xmlFreeDoc(*doc);
    *doc = NULL;
    if (fe.set && fe.line > 0) fprintf(stderr, "%s:%d: error: cannot read the %s: %s\n", path, fe.line, what, fe.message);
    else fprintf(stderr, "%s: error: cannot read the %s: %s\n", path, what, fe.set ? fe.message : "malformed XML");
    return EXIT_MODEL;
}
