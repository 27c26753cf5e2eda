/* listfile.c — read the XML list a batch command runs (models.xml, samples.xml), reporting why it cannot. */
#include "cli.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <unistd.h>

int read_list_file(const char *path, const char *what, xmlDoc **doc)
{
    *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (*doc) return EXIT_OK;
    const xmlError *e = xmlGetLastError();
    fprintf(stderr, "%s:%d: error: cannot read the %s%s%s", path, e ? e->line : 0, what, e ? ": " : "",
            e && e->message ? e->message : "\n");
    return access(path, R_OK) == 0 ? EXIT_MODEL : EXIT_IO;
}
