/* wfc_tile.c — the tile model of `wfc`: tiles from a tileset, their symmetric variants and allowed neighbours. */
#include "wfc.h"
#include "../core/xmlutil.h"
#include <stdlib.h>

node *wfc_tile_load(loader *ld, const xmlNode *el, symmetry_set parent_symmetry)
{
    (void)parent_symmetry;
    char *path = resource_find(ld->res, ld->d, xml_line(el), "tileset", "tilesets", xml_attr(el, "tileset"), ".xml");
    if (!path) return NULL;
    free(path);
    diag_error(ld->d, TS_ERR_MODEL, xml_line(el), "the tile model of <wfc> is not supported yet");
    return NULL;
}
