/* listfile.c — read the XML list a batch command runs (models.xml, samples.xml), reporting why it cannot. */
#include "cli.h"
#include <errno.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <string.h>
#include "../core/resource.h"

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
    *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (*doc) return EXIT_OK;
    /* libxml2's message ends in a newline; a failure it reports without a line has none to show. */
    const xmlError *xe = xmlGetLastError();
    const char *message = xe && xe->message ? xe->message : "malformed XML";
    int len = (int)strcspn(message, "\n");
    if (xe && xe->line > 0) fprintf(stderr, "%s:%d: error: cannot read the %s: %.*s\n", path, xe->line, what, len, message);
    else fprintf(stderr, "%s: error: cannot read the %s: %.*s\n", path, what, len, message);
    return EXIT_MODEL;
}
