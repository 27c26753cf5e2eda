/* fuzz_palette.c — libFuzzer target: the input as a palette file (palette_load_file, through a memfd) and
   as a document whose root and whose root's children (as models.xml's <model> elements) hold <color>s. */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "smalti.h"
#include "fuzz_common.h"
#include "../../src/core/xmlutil.h"
#include "../../src/io/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void use(const palette *p)
{
    static const char legend[] = "BWRGUYOPKNEabcdefghijklmnopqrst*?!0123456789";
    uint32_t colors[sizeof legend];
    char missing[sizeof legend];
    palette_colors(p, legend, colors, missing, sizeof missing);
    if (strlen(missing) >= sizeof legend) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    smalti_error err;
    palette p;
    palette_default(&p);
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd >= 0) {
        palette_load_file(&p, path, &err);
        use(&p);
        close(fd);
    }
    if (size > 0x7fffffff) return 0;
    xmlDoc *doc = xmlReadMemory((const char *)data, (int)size, "fuzz.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) return 0;
    xmlNode *root = xmlDocGetRootElement(doc);
    palette_default(&p);
    palette_read_colors(&p, root, "fuzz.xml", &err);
    use(&p);
    for (const xmlNode *c = xml_first_child(root); c; c = xml_next(c)) {
        palette q;
        memset(&q, 0, sizeof q);
        palette_read_colors(&q, c, "fuzz.xml", &err);
        use(&q);
    }
    xmlFreeDoc(doc);
    return 0;
}
