/* tiles.c — TILES.xml (a user's tile sheet and a tile, autotile or object rule per symbol) and the autotile masks. */
#include "tilemap.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "../core/mem.h"
#include "../core/resource.h"
#include "../core/xmlutil.h"

static bool joins(const tile_rule *r, unsigned char symbol) { return r->joins[symbol >> 3] & (1u << (symbol & 7)); }

/* Whether the cell at (x, y) of layer z counts as joined for the rule. */
static bool joined_at(const grid_view *g, const tile_rule *r, int x, int y, int z)
{
    if (x < 0 || y < 0 || x >= g->mx || y >= g->my) return r->border_joins;
    unsigned char v = g->cells[x + y * g->mx + z * g->mx * g->my];
    return joins(r, (unsigned char)g->legend[v]);
}

int autotile_edge_mask(const grid_view *g, const tile_rule *r, int x, int y, int z)
{
    return (joined_at(g, r, x, y - 1, z) ? 1 : 0) | (joined_at(g, r, x + 1, y, z) ? 2 : 0) |
           (joined_at(g, r, x, y + 1, z) ? 4 : 0) | (joined_at(g, r, x - 1, y, z) ? 8 : 0);
}

/* Bits N 1, NE 2, E 4, SE 8, S 16, SW 32, W 64, NW 128 (y grows down, so north is y - 1). A corner
   counts only when both edges beside it are joined: otherwise the tile looks the same either way,
   which leaves 47 distinct masks of the 256. */
static int reduce_blob(int m)
{
    if ((m & (1 | 4)) != (1 | 4)) m &= ~2;
    if ((m & (4 | 16)) != (4 | 16)) m &= ~8;
    if ((m & (16 | 64)) != (16 | 64)) m &= ~32;
    if ((m & (64 | 1)) != (64 | 1)) m &= ~128;
    return m;
}

int autotile_blob_mask(const grid_view *g, const tile_rule *r, int x, int y, int z)
{
    static const int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
    int m = 0;
    for (int i = 0; i < 8; i++)
        if (joined_at(g, r, x + dx[i], y + dy[i], z)) m |= 1 << i;
    return reduce_blob(m);
}

int autotile_blob_rank(int reduced_mask)
{
    if (reduced_mask < 0 || reduced_mask > 255 || reduce_blob(reduced_mask) != reduced_mask) return -1;
    int rank = 0;
    for (int m = 0; m < reduced_mask; m++)
        if (reduce_blob(m) == m) rank++;
    return rank;
}

void tilemap_ids(const grid_view *g, const tile_sheet *sheet, uint32_t *ids)
{
    for (int z = 0; z < g->mz; z++)
        for (int y = 0; y < g->my; y++)
            for (int x = 0; x < g->mx; x++) {
                size_t i = (size_t)x + (size_t)y * g->mx + (size_t)z * g->mx * g->my;
                unsigned char v = g->cells[i];
                if (!sheet) {
                    ids[i] = (uint32_t)v + 1;
                    continue;
                }
                const tile_rule *r = &sheet->rule[(unsigned char)g->legend[v]];
                /* An object's cell draws its ground as if the ground were there (the loader made sure
                   the ground is not itself an object). */
                if (r->kind == TILE_OBJECT) r = &sheet->rule[r->ground];
                switch (r->kind) {
                case TILE_NONE:
                case TILE_OBJECT: ids[i] = 0; break;
                case TILE_INDEX: ids[i] = (uint32_t)r->index + 1; break;
                case TILE_EDGE16: ids[i] = (uint32_t)(r->index + autotile_edge_mask(g, r, x, y, z)) + 1; break;
                case TILE_BLOB47:
                    ids[i] = (uint32_t)(r->index + autotile_blob_rank(autotile_blob_mask(g, r, x, y, z))) + 1;
                    break;
                }
            }
}

/* ------------------------------------------------------------------------------------------------ */

static bool check_attrs(diag *d, const xmlNode *el, const char *const *known)
{
    for (const xmlAttr *a = el->properties; a; a = a->next) {
        bool ok = false;
        for (int i = 0; known[i] && !ok; i++) ok = strcmp((const char *)a->name, known[i]) == 0;
        if (!ok) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> has no attribute \"%s\"", xml_name(el), (const char *)a->name);
    }
    return true;
}

/* A whole number in [min, max] from a required attribute. */
static bool need_int(diag *d, const xmlNode *el, const char *name, int min, int max, int *out)
{
    const char *text = xml_attr(el, name);
    if (!text) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<%s> needs %s=\"N\"", xml_name(el), name);
    if (!xml_parse_int_text(text, out) || *out < min || *out > max)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%s\": expected a whole number from %d to %d", name, text, min, max);
    return true;
}

/* A text attribute of an object, into out (TILE_OBJECT_TEXT bytes); an absent one is "" unless required. */
static bool object_text(diag *d, const xmlNode *el, const char *name, bool required, char *out)
{
    const char *text = xml_attr(el, name);
    if (required && (!text || !*text))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "<tile object=...> needs %s=\"...\", not empty", name);
    if (text && strlen(text) >= TILE_OBJECT_TEXT)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "%s=\"%.20s...\" is longer than %d bytes", name, text, TILE_OBJECT_TEXT - 1);
    snprintf(out, TILE_OBJECT_TEXT, "%s", text ? text : "");
    return true;
}

/* <tile symbol="K" object="key" type="item" ground="F"/>: the ground is checked once every <tile> is read. */
static bool read_object(diag *d, tile_rule *r, const xmlNode *el)
{
    int line = xml_line(el);
    if (xml_attr(el, "index") || xml_attr(el, "autotile") || xml_attr(el, "first") || xml_attr(el, "joins") || xml_attr(el, "border"))
        return diag_error(d, SMALTI_ERR_MODEL, line, "an object takes object, type and ground; its cell is drawn as the ground's tile");
    const char *ground = xml_attr(el, "ground");
    if (!ground || strlen(ground) != 1)
        return diag_error(d, SMALTI_ERR_MODEL, line, "<tile object=...> needs ground=\"X\", one symbol whose tile is drawn under it");
    if (!object_text(d, el, "object", true, r->object_name) || !object_text(d, el, "type", false, r->object_type)) return false;
    r->kind = TILE_OBJECT;
    r->ground = (unsigned char)ground[0];
    return true;
}

static bool read_tile(diag *d, tile_sheet *s, const xmlNode *el)
{
    static const char *const known[] = {"symbol", "index", "autotile", "first", "joins", "border", "object", "type", "ground", NULL};
    if (!check_attrs(d, el, known)) return false;
    int line = xml_line(el);
    const char *symbol = xml_attr(el, "symbol");
    if (!symbol || strlen(symbol) != 1)
        return diag_error(d, SMALTI_ERR_MODEL, line, "<tile> needs symbol=\"X\", one character (the grid value it draws)");
    tile_rule *r = &s->rule[(unsigned char)symbol[0]];
    if (r->kind != TILE_NONE) return diag_error(d, SMALTI_ERR_MODEL, line, "symbol \"%s\" has a tile already", symbol);
    if (xml_attr(el, "object")) return read_object(d, r, el);
    if (xml_attr(el, "type") || xml_attr(el, "ground"))
        return diag_error(d, SMALTI_ERR_MODEL, line, "type and ground go with object=\"NAME\"");
    int count = s->columns * s->rows;
    const char *autotile = xml_attr(el, "autotile");
    if (!autotile) {
        if (xml_attr(el, "first") || xml_attr(el, "joins") || xml_attr(el, "border"))
            return diag_error(d, SMALTI_ERR_MODEL, line, "first, joins and border go with autotile=\"edge16\" or \"blob47\"");
        if (!need_int(d, el, "index", 0, count - 1, &r->index)) return false;
        r->kind = TILE_INDEX;
        return true;
    }
    int set;
    if (strcmp(autotile, "edge16") == 0) r->kind = TILE_EDGE16, set = 16;
    else if (strcmp(autotile, "blob47") == 0) r->kind = TILE_BLOB47, set = 47;
    else return diag_error(d, SMALTI_ERR_MODEL, line, "autotile=\"%s\": expected edge16 or blob47", autotile);
    if (xml_attr(el, "index")) return diag_error(d, SMALTI_ERR_MODEL, line, "an autotile gives first=\"N\", its set's first tile, not index");
    if (count < set)
        return diag_error(d, SMALTI_ERR_MODEL, line, "autotile=\"%s\" needs %d tiles; the sheet has %d", autotile, set, count);
    if (!need_int(d, el, "first", 0, count - set, &r->index)) return false;
    const char *j = xml_attr(el, "joins");
    for (const char *c = j ? j : symbol; *c; c++) r->joins[(unsigned char)*c >> 3] |= (uint8_t)(1u << ((unsigned char)*c & 7));
    const char *border = xml_attr(el, "border");
    r->border_joins = true;
    if (border && strcmp(border, "open") == 0) r->border_joins = false;
    else if (border && strcmp(border, "join") != 0)
        return diag_error(d, SMALTI_ERR_MODEL, line, "border=\"%s\": expected join or open", border);
    return true;
}

/* The sheet image's path: relative names are taken from the folder of the TILES.xml file. */
static bool sheet_path(diag *d, tile_sheet *s, const char *tiles_path, const char *image, int line)
{
    const char *slash = strrchr(tiles_path, '/');
    int dir = image[0] == '/' || !slash ? 0 : (int)(slash - tiles_path + 1);
    if (snprintf(s->image_path, sizeof s->image_path, "%.*s%s", dir, tiles_path, image) >= (int)sizeof s->image_path)
        return diag_error(d, SMALTI_ERR_MODEL, line, "image path too long");
    return true;
}

/* Every object's ground is a symbol with a tile of its own; and where an autotile joins the ground,
   it joins the object's cells too, since they are drawn as that ground. */
static bool check_objects(diag *d, tile_sheet *s, const xmlNode *root)
{
    for (const xmlNode *el = xml_first_child(root); el; el = xml_next(el)) {
        const char *symbol = xml_attr(el, "symbol");
        const tile_rule *r = &s->rule[(unsigned char)symbol[0]];
        if (r->kind != TILE_OBJECT) continue;
        const tile_rule *ground = &s->rule[r->ground];
        if (ground->kind == TILE_OBJECT)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "ground=\"%c\" is an object itself; the ground is a symbol with a tile", r->ground);
        if (ground->kind == TILE_NONE)
            return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "ground=\"%c\" has no <tile>; the ground is a symbol with a tile", r->ground);
    }
    for (int k = 0; k < 256; k++) {
        if (s->rule[k].kind != TILE_OBJECT) continue;
        for (int a = 0; a < 256; a++) {
            tile_rule *r = &s->rule[a];
            if ((r->kind == TILE_EDGE16 || r->kind == TILE_BLOB47) && joins(r, s->rule[k].ground))
                r->joins[k >> 3] |= (uint8_t)(1u << (k & 7));
        }
    }
    return true;
}

static bool read_sheet(diag *d, tile_sheet *s, const char *path, const xmlNode *root)
{
    static const char *const known[] = {"image", "tilewidth", "tileheight", "size", NULL};
    if (!xml_is(root, "tiles"))
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(root), "the root element is <%s>; a tile sheet file is <tiles image=\"...\">", xml_name(root));
    if (!check_attrs(d, root, known)) return false;
    const char *image = xml_attr(root, "image");
    if (!image || !*image) return diag_error(d, SMALTI_ERR_MODEL, xml_line(root), "<tiles> needs image=\"SHEET.png\"");
    if (xml_attr(root, "size")) {
        if (!need_int(d, root, "size", 1, 4096, &s->tile_width)) return false;
        s->tile_height = s->tile_width;
    } else if (!need_int(d, root, "tilewidth", 1, 4096, &s->tile_width) || !need_int(d, root, "tileheight", 1, 4096, &s->tile_height)) {
        return false;
    }
    if (!sheet_path(d, s, path, image, xml_line(root))) return false;
    s->pixels = image_load_argb(d, xml_line(root), s->image_path, &s->image_width, &s->image_height);
    if (!s->pixels) return false;
    s->columns = s->image_width / s->tile_width;
    s->rows = s->image_height / s->tile_height;
    if (s->columns < 1 || s->rows < 1)
        return diag_error(d, SMALTI_ERR_MODEL, xml_line(root), "the sheet %s (%dx%d) is smaller than one %dx%d tile", image,
                          s->image_width, s->image_height, s->tile_width, s->tile_height);
    for (const xmlNode *el = xml_first_child(root); el; el = xml_next(el)) {
        if (!xml_is(el, "tile")) return diag_error(d, SMALTI_ERR_MODEL, xml_line(el), "unknown element <%s> in <tiles>: expected <tile>", xml_name(el));
        if (!read_tile(d, s, el)) return false;
    }
    return check_objects(d, s, root);
}

bool tile_sheet_load(tile_sheet *s, const char *path, smalti_error *err)
{
    memset(s, 0, sizeof *s);
    int e = input_file_error(path);
    if (e) {
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot open the tile sheet file: %s", strerror(e));
        return false;
    }
    /* Read as bounded bytes from a regular file, as a model is: a FIFO or /dev/zero is refused at
       once, neither waited on nor read without end (its sheet image is read the same way). */
    size_t size;
    unsigned char *xml = xml_file_bytes(path, "tile sheet file", &size, err);
    if (!xml) return false;
    int line;
    char message[300];
    /* (XML_FILE_MAX_BYTES is far below INT_MAX.) */
    xmlDoc *doc = xml_read_memory_first_error((const char *)xml, (int)size, path, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING,
                                              &line, message, sizeof message);
    mem_free(xml);
    if (!doc) {
        error_set(err, SMALTI_ERR_MODEL, path, line, "malformed XML: %s", message);
        return false;
    }
    diag d = {.file = path, .err = err, .quiet = 1};
    bool ok = read_sheet(&d, s, path, xmlDocGetRootElement(doc));
    xmlFreeDoc(doc);
    if (!ok) tile_sheet_free(s);
    return ok;
}

void tile_sheet_untiled(const tile_sheet *s, const char *legend, char *missing)
{
    size_t n = 0;
    for (const char *c = legend; *c && n < 256; c++)
        if (s->rule[(unsigned char)*c].kind == TILE_NONE) missing[n++] = *c;
    missing[n] = 0;
}

bool tile_sheet_has_objects(const tile_sheet *s)
{
    for (int k = 0; s && k < 256; k++)
        if (s->rule[k].kind == TILE_OBJECT) return true;
    return false;
}

void tile_sheet_free(tile_sheet *s)
{
    mem_free(s->pixels);
    s->pixels = NULL;
}
