/* resource_read.c — the bytes of a resource file, from a resource_reader or read once beneath its root, handed to its decoder. */
#include "resource.h"
#include "mem.h"
#include <libxml/parser.h>
#include <limits.h>
#include <stdlib.h>

/* The bytes of the resource at path: from the reader (not to be freed: *owned false), or read
   beneath its root (*owned true). NULL after a model error at line. */
static const unsigned char *resource_bytes(const resources *res, diag *d, int line, const char *path, const char *what,
                                           long max_bytes, size_t *size, bool *owned)
{
    const resources dflt = {0}; /* the default root, as resource_find uses it */
    const resource_reader *rd = resource_reader_of(res);
    *owned = false;
    if (!rd) {
        *owned = true;
        return resource_read_file(res ? res : &dflt, d, line, path, what, max_bytes, size);
    }
    const unsigned char *data = rd->read(rd->userdata, path, size);
    if (!data) diag_error(d, SMALTI_ERR_MODEL, line, "%s: cannot open the %s", path, what);
    return data;
}

uint32_t *resource_load_image(const resources *res, diag *d, int line, const char *path, int *width, int *height)
{
    size_t size = 0;
    bool owned;
    const unsigned char *data = resource_bytes(res, d, line, path, "PNG image", IMAGE_MAX_BYTES, &size, &owned);
    if (!data) return NULL;
    uint32_t *argb = image_decode_argb(d, line, path, data, size, width, height);
    if (owned) mem_free((void *)data);
    return argb;
}

int32_t *resource_load_vox(const resources *res, diag *d, int line, const char *path, int *mx, int *my, int *mz)
{
    size_t size = 0;
    bool owned;
    const unsigned char *data = resource_bytes(res, d, line, path, "VOX file", VOX_MAX_BYTES, &size, &owned);
    if (!data) return NULL;
    int32_t *vox = vox_decode(d, line, path, data, size, mx, my, mz);
    if (owned) mem_free((void *)data);
    return vox;
}

xmlDoc *resource_load_xml(const resources *res, diag *d, int line, const char *path, int options, xml_first_error *fe)
{
    xml_first_error unused;
    if (!fe) fe = &unused;
    fe->set = false;
    size_t size = 0;
    bool owned;
    const unsigned char *data = resource_bytes(res, d, line, path, "tileset", RESOURCE_XML_MAX_BYTES, &size, &owned);
    if (!data) return NULL;
    xmlDoc *doc = NULL;
    xmlParserCtxt *ctx = size <= INT_MAX ? xml_parser_new(fe) : NULL;
    if (ctx) doc = xmlCtxtReadMemory(ctx, (const char *)data, (int)size, path, NULL, options);
    else diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
    /* As for models: an error libxml2 recovered from (a namespace one) still fails the file. */
    if (doc && fe->set) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    if (ctx) xmlFreeParserCtxt(ctx);
    if (owned) mem_free((void *)data);
    return doc;
}
