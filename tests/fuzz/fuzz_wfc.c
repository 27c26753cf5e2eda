/* fuzz_wfc.c — libFuzzer target: the classic WaveFunctionCollapse list (samples.xml) with its sample
   pictures and tilesets from memory (fuzz_common.h's container): up to three entries are read, shrunk to
   at most 24x24 cells and N=3 (pictures of at most 32x32 pixels), loaded, run twice, rendered and (tiled)
   written as text. */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "fuzz_common.h"
#include "../../src/core/xmlutil.h"
#include "../../src/wfc/classic.h"

#define MAX_SIDE 24
/* Patterns grow with the sample's pixels and N, and the propagator with their square. */
#define MAX_N 3
#define MAX_PIXELS (32 * 32)
#define MAX_BACKTRACK 20
#define MAX_ENTRIES 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void entry(fuzz_input *in, const xmlNode *el)
{
    smalti_error err;
    memset(&err, 0, sizeof err);
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    if (!wfc_classic_read_entry(&d, el, &e)) return;
    if (e.width > MAX_SIDE) e.width = MAX_SIDE;
    if (e.height > MAX_SIDE) e.height = MAX_SIDE;
    if (e.N > MAX_N) e.N = MAX_N;
    if (e.overlapping && (e.N > e.width || e.N > e.height)) return;
    if (e.backtrack > MAX_BACKTRACK) e.backtrack = MAX_BACKTRACK;
    resource_reader reader = {fuzz_read, in};
    wfc_classic *m = wfc_classic_load_from(&d, "w", &reader, &e);
    if (!m) return;
    for (int32_t seed = 1; seed <= 2; seed++) {
        wfc_classic_run(m, seed, e.limit);
        int w, h;
        uint32_t *px = wfc_classic_render(m, &w, &h);
        free(px);
        if (!e.overlapping) free(wfc_classic_text(m));
    }
    wfc_classic_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    size_t len = strlen(in.main);
    xmlDoc *doc = fuzz_files_small(&in, MAX_PIXELS, 16) && len < 0x7fffffff
                      ? xmlReadMemory(in.main, (int)len, "samples.xml", NULL,
                                      XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                      : NULL;
    const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (root && xml_is(root, "samples")) {
        int k = 0;
        for (const xmlNode *el = xml_first_child(root); el && k < MAX_ENTRIES; el = xml_next(el))
            if (xml_is(el, "overlapping") || xml_is(el, "simpletiled")) {
                entry(&in, el);
                k++;
            }
    } else if (root && (xml_is(root, "overlapping") || xml_is(root, "simpletiled"))) {
        entry(&in, root);
    }
    xmlFreeDoc(doc);
    fuzz_input_free(&in);
    return 0;
}
