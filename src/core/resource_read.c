/* resource_read.c — the bytes of a resource file, from the file system or from a resource_reader, handed to its reader. */
#include "resource.h"
#include <libxml/parser.h>
#include <limits.h>
#include <stdlib.h>

uint32_t *resource_load_image(const resource_reader *rd, diag *d, int line, const char *path, int *width, int *height)
{
    if (!rd) return image_load_argb(d, line, path, width, height);
    size_t size = 0;
    const unsigned char *data = rd->read(rd->userdata, path, &size);
    if (!data) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: not a readable PNG image", path);
        return NULL;
    }
    return image_decode_argb(d, line, path, data, size, width, height);
}

int32_t *resource_load_vox(const resource_reader *rd, diag *d, int line, const char *path, int *mx, int *my, int *mz)
{
    if (!rd) return vox_load(d, line, path, mx, my, mz);
    size_t size = 0;
    const unsigned char *data = rd->read(rd->userdata, path, &size);
    if (!data) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: cannot open the VOX file", path);
        return NULL;
    }
    return vox_decode(d, line, path, data, size, mx, my, mz);
}

xmlDoc *resource_load_xml(const resource_reader *rd, const char *path, int options, xml_first_error *fe)
{
    xml_first_error unused;
    xmlParserCtxt *ctx = xml_parser_new(fe ? fe : &unused);
    if (!ctx) return NULL;
    xmlDoc *doc = NULL;
    if (!rd) {
        doc = xmlCtxtReadFile(ctx, path, NULL, options);
    } else {
        size_t size = 0;
        const unsigned char *data = rd->read(rd->userdata, path, &size);
        if (data && size <= INT_MAX) doc = xmlCtxtReadMemory(ctx, (const char *)data, (int)size, path, NULL, options);
    }
    /* As for models: an error libxml2 recovered from (a namespace one) still fails the file. */
    if (doc && ((xml_first_error *)ctx->_private)->set) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(ctx);
    return doc;
}
