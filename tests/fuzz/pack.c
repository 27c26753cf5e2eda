/* pack.c — seed inputs for the model and wfc fuzz targets (fuzz_common.h's container): a model, or each
   entry of a samples.xml, with the resource files its loading reads, found by loading it once through a
   reader that reads the files from disk and remembers them.

     pack model [--3d] [--root DIR]... MODEL.xml OUT    (without --3d: 2-D unless only 3-D loads)
     pack wfc ROOT SAMPLES.xml OUTDIR                    (OUTDIR/NAME-K for the K-th entry)
     pack pack NAME MODEL_INPUT OUT                      (a model target's input as a pack target's: a
                                                         pack.xml of one model, the model as models/NAME.xml,
                                                         its files under resources/) */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "fuzz_common.h"
#include "../../src/core/xmlutil.h"
#include "../../src/nodes/nodes.h"
#include "../../src/wfc/classic.h"

#define MAX_FILES 256

typedef struct recorder {
    const char *const *roots;
    int root_count;
    char *name[MAX_FILES];
    unsigned char *data[MAX_FILES];
    size_t size[MAX_FILES];
    int count;
} recorder;

/* The whole file through the library's reader; NULL when it cannot be read. */
static unsigned char *slurp(const char *path, size_t *size)
{
    diag d = {.file = path};
    return resource_read_file(NULL, &d, 0, path, "file", 1L << 30, size);
}

/* Reads path from disk and keeps it under its name below the root it is in. */
static const unsigned char *record(void *userdata, const char *path, size_t *size)
{
    recorder *r = userdata;
    const char *name = path;
    for (int i = 0; i < r->root_count; i++) {
        size_t n = strlen(r->roots[i]);
        if (strncmp(path, r->roots[i], n) == 0 && path[n] == '/') {
            name = path + n + 1;
            break;
        }
    }
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->name[i], name) == 0) {
            *size = r->size[i];
            return r->data[i];
        }
    unsigned char *data = slurp(path, size);
    if (!data || r->count == MAX_FILES) {
        free(data);
        return NULL;
    }
    r->name[r->count] = strdup(name);
    r->data[r->count] = data;
    r->size[r->count++] = *size;
    return data;
}

static void recorder_free(recorder *r)
{
    for (int i = 0; i < r->count; i++) {
        free(r->name[i]);
        free(r->data[i]);
    }
    r->count = 0;
}

static bool write_input(const char *out, bool three_d, const char *main_text, size_t main_len, const recorder *r)
{
    FILE *f = fopen(out, "wb");
    if (!f) {
        perror(out);
        return false;
    }
    if (three_d) fputs(FUZZ_3D_MARK, f);
    fwrite(main_text, 1, main_len, f);
    for (int i = 0; i < r->count; i++) {
        fprintf(f, "%s%s\n", FUZZ_FILE_MARK, r->name[i]);
        fwrite(r->data[i], 1, r->size[i], f);
    }
    return fclose(f) == 0;
}

static bool try_load(const char *xml, const char *name, bool three_d, recorder *r)
{
    smalti_load_options opt = smalti_load_defaults();
    if (three_d) opt.mx = opt.my = opt.mz = 6;
    else opt.mx = opt.my = 16, opt.mz = 1;
    opt.resource_dirs = r->roots;
    opt.resource_dir_count = r->root_count;
    opt.quiet = 1;
    resource_reader reader = {record, r};
    smalti_error err;
    smalti_model *m = model_load_string_from(xml, name, &opt, &reader, &err);
    smalti_model_free(m);
    return m != NULL;
}

static int pack_model(int argc, char **argv)
{
    bool force_3d = false;
    const char *roots[16];
    int root_count = 0, i = 0;
    for (; i < argc - 2; i++) {
        if (strcmp(argv[i], "--3d") == 0) force_3d = true;
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc - 2 && root_count < 16) roots[root_count++] = argv[++i];
        else break;
    }
    if (i != argc - 2) {
        fprintf(stderr, "usage: pack model [--3d] [--root DIR]... MODEL.xml OUT\n");
        return 2;
    }
    const char *model = argv[i], *out = argv[i + 1];
    size_t len;
    char *xml = (char *)slurp(model, &len);
    if (!xml) {
        perror(model);
        return 1;
    }
    char *text = realloc(xml, len + 1);
    if (!text) return 1;
    text[len] = 0;
    recorder r = {.roots = roots, .root_count = root_count};
    bool three_d = force_3d;
    if (!three_d && !try_load(text, model, false, &r)) {
        recorder r3 = {.roots = roots, .root_count = root_count};
        if (try_load(text, model, true, &r3)) {
            three_d = true;
            recorder_free(&r);
            r = r3;
        } else {
            recorder_free(&r3);
        }
    } else if (three_d) {
        try_load(text, model, true, &r);
    }
    bool ok = write_input(out, three_d, text, len, &r);
    recorder_free(&r);
    free(text);
    return ok ? 0 : 1;
}

static int pack_wfc(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pack wfc ROOT SAMPLES.xml OUTDIR\n");
        return 2;
    }
    const char *root = argv[0], *list = argv[1], *outdir = argv[2];
    xmlDoc *doc = xmlReadFile(list, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        fprintf(stderr, "%s: not readable XML\n", list);
        return 1;
    }
    int k = 0;
    for (const xmlNode *el = xml_first_child(xmlDocGetRootElement(doc)); el; el = xml_next(el), k++) {
        smalti_error err;
        memset(&err, 0, sizeof err);
        diag d = {.file = list, .err = &err, .quiet = 1};
        wfc_classic_entry e;
        if (!wfc_classic_read_entry(&d, el, &e)) continue;
        /* The fuzz target shrinks outputs to 24x24; the seed need not be loaded larger. */
        if (e.width > 24) e.width = 24;
        if (e.height > 24) e.height = 24;
        const char *roots[] = {root};
        recorder r = {.roots = roots, .root_count = 1};
        resource_reader reader = {record, &r};
        wfc_classic *m = wfc_classic_load_from(&d, root, &reader, &e);
        wfc_classic_free(m);
        xmlBuffer *buf = xmlBufferCreate();
        xmlNodeDump(buf, doc, (xmlNode *)el, 0, 0);
        char out[4096];
        snprintf(out, sizeof out, "%s/%s-%d", outdir, e.name, k);
        size_t n = strlen("<samples>\n") + (size_t)xmlBufferLength(buf) + strlen("\n</samples>\n");
        char *text = malloc(n + 1);
        if (!text) return 1;
        snprintf(text, n + 1, "<samples>\n%s\n</samples>\n", (const char *)xmlBufferContent(buf));
        bool ok = write_input(out, false, text, strlen(text), &r);
        free(text);
        xmlBufferFree(buf);
        recorder_free(&r);
        if (!ok) return 1;
    }
    xmlFreeDoc(doc);
    return 0;
}

static int pack_pack(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pack pack NAME MODEL_INPUT OUT\n");
        return 2;
    }
    const char *name = argv[0], *input = argv[1], *out = argv[2];
    size_t len;
    unsigned char *bytes = slurp(input, &len);
    fuzz_input in;
    if (!bytes || !fuzz_split(bytes, len, &in)) {
        fprintf(stderr, "%s: cannot be read\n", input);
        free(bytes);
        return 1;
    }
    FILE *f = fopen(out, "wb");
    bool ok = f != NULL;
    if (ok) {
        fprintf(f, "<pack name=\"seed\" version=\"1.0.0\" description=\"%s as a pack\">\n"
                   "  <model file=\"models/%s.xml\"%s/>\n</pack>\n",
                name, name, in.three_d ? " d=\"3\" size=\"6\"" : " size=\"16\"");
        fprintf(f, "%smodels/%s.xml\n%s", FUZZ_FILE_MARK, name, in.main);
        for (int i = 0; i < in.count; i++) {
            fprintf(f, "%sresources/%s\n", FUZZ_FILE_MARK, in.files[i].name);
            fwrite(in.files[i].data, 1, in.files[i].size, f);
        }
        ok = fclose(f) == 0;
    }
    if (!ok) perror(out);
    fuzz_input_free(&in);
    free(bytes);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    xmlInitParser();
    if (argc >= 2 && strcmp(argv[1], "model") == 0) return pack_model(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "wfc") == 0) return pack_wfc(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "pack") == 0) return pack_pack(argc - 2, argv + 2);
    fprintf(stderr, "usage: pack model [--3d] [--root DIR]... MODEL.xml OUT | pack wfc ROOT SAMPLES.xml OUTDIR | "
                    "pack pack NAME MODEL_INPUT OUT\n");
    return 2;
}
