/* test_memres.c — resources read through a resource_reader (the fuzzers' in-memory files) give what the files give. */
#include "unit.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/core/resource.h"
#include "../../src/core/xmlutil.h"
#include "../../src/nodes/nodes.h"
#include "../../src/wfc/classic.h"

/* A reader that serves "mem/X" from the file "rules/X" (the folder "mem" does not exist), keeping
   what it read until freed, and counts the files it was asked for. */
#define MEM_FILES 64
typedef struct mem_files {
    char *path[MEM_FILES];
    unsigned char *data[MEM_FILES];
    size_t size[MEM_FILES];
    int count, asked, missing;
} mem_files;

/* The whole file through the library's reader; NULL when it cannot be read. */
static unsigned char *read_file(const char *path, size_t *size)
{
    diag d = {.file = path};
    return resource_read_file(NULL, &d, 0, path, "file", 1L << 30, size);
}

static const unsigned char *mem_read(void *userdata, const char *path, size_t *size)
{
    mem_files *m = userdata;
    m->asked++;
    for (int i = 0; i < m->count; i++)
        if (strcmp(m->path[i], path) == 0) {
            *size = m->size[i];
            return m->data[i];
        }
    if (strncmp(path, "mem/", 4) != 0) return NULL;
    char disk[1024];
    snprintf(disk, sizeof disk, "models/resources/%s", path + 4);
    assert_true(m->count < MEM_FILES);
    unsigned char *data = read_file(disk, size);
    if (!data) {
        m->missing++;
        return NULL;
    }
    m->path[m->count] = strdup(path);
    m->data[m->count] = data;
    m->size[m->count++] = *size;
    return data;
}

static void mem_free(mem_files *m)
{
    for (int i = 0; i < m->count; i++) {
        free(m->path[i]);
        free(m->data[i]);
    }
}

static char *model_text(const char *path)
{
    size_t size;
    unsigned char *data = read_file(path, &size);
    assert_non_null(data);
    char *text = realloc(data, size + 1);
    assert_non_null(text);
    text[size] = 0;
    return text;
}

/* The final grid of a run of `m` with `seed`. */
static unsigned char *final_grid(const smalti_model *m, int32_t seed, size_t *cells)
{
    smalti_run *run = smalti_run_new(m, seed, NULL);
    assert_non_null(run);
    smalti_run_to_end(run, 100000);
    assert_true(smalti_run_finished(run));
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    *cells = (size_t)mx * my * mz;
    unsigned char *copy = malloc(*cells);
    assert_non_null(copy);
    memcpy(copy, g, *cells);
    smalti_run_free(run);
    return copy;
}

/* A model of every kind of resource (a tileset's XML and VOX tiles, a density picture, a sample)
   loads from memory as from the files, and runs to the same grid. */
static void model_resources_from_memory(void **state)
{
    (void)state;
    const char *models[] = {"models/pipering.xml", "models/bricks.xml"};
    for (int k = 0; k < 2; k++) {
        char *xml = model_text(models[k]);
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = opt.my = 14;
        opt.quiet = 1;
        const char *disk_roots[] = {"models/resources"}, *mem_roots[] = {"mem"};
        opt.resource_dirs = disk_roots;
        opt.resource_dir_count = 1;
        smalti_error err;
        smalti_model *from_disk = smalti_model_load_string(xml, models[k], &opt, &err);
        if (!from_disk) fail_msg("%s", err.message);
        /* Without the reader "mem" has nothing... */
        opt.resource_dirs = mem_roots;
        assert_null(smalti_model_load_string(xml, models[k], &opt, &err));
        assert_non_null(strstr(err.message, "not found"));
        /* ... and with it every file comes from memory. */
        mem_files files = {0};
        resource_reader reader = {mem_read, &files};
        smalti_model *from_memory = model_load_string_from(xml, models[k], &opt, &reader, &err);
        if (!from_memory) fail_msg("%s", err.message);
        assert_true(files.count >= (k == 0 ? 9 : 1));
        size_t n1, n2;
        unsigned char *g1 = final_grid(from_disk, 5, &n1), *g2 = final_grid(from_memory, 5, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(g1, g2, n1);
        free(g1);
        free(g2);
        smalti_model_free(from_disk);
        smalti_model_free(from_memory);
        mem_free(&files);
        free(xml);
    }
}

/* A file the reader lacks is a missing file, whatever is on disk. */
static void reader_is_the_only_source(void **state)
{
    (void)state;
    mem_files files = {0};
    resource_reader reader = {mem_read, &files};
    smalti_load_options opt = smalti_load_defaults();
    const char *roots[] = {"models/resources"};
    opt.resource_dirs = roots;
    opt.resource_dir_count = 1;
    opt.quiet = 1;
    smalti_error err;
    /* models/resources/samples/Bricks.png exists, but the reader serves only mem/... paths. */
    smalti_model *m = model_load_string_from("<wfc sample=\"Bricks\" values=\"DNna\" n=\"3\" periodic=\"True\"/>", "t.xml",
                                             &opt, &reader, &err);
    assert_null(m);
    assert_non_null(strstr(err.message, "not found"));
    assert_true(files.asked >= 1);
    mem_free(&files);
}

/* A samples.xml entry loads its sample from memory as from the file, and renders the same picture. */
static void classic_entry_from_memory(void **state)
{
    (void)state;
    const char *xml = "<overlapping name=\"Bricks\" N=\"3\" size=\"20\" periodic=\"True\"/>";
    xmlDoc *doc = xmlReadMemory(xml, (int)strlen(xml), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    smalti_error err;
    memset(&err, 0, sizeof err);
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    assert_true(wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e));
    mem_files files = {0};
    resource_reader reader = {mem_read, &files};
    wfc_classic *from_disk = wfc_classic_load(&d, "models/resources", &e);
    wfc_classic *from_memory = wfc_classic_load_from(&d, "mem", &reader, &e);
    assert_non_null(from_disk);
    assert_non_null(from_memory);
    assert_int_equal(files.count, 1);
    assert_int_equal(wfc_classic_run(from_disk, 7, -1), wfc_classic_run(from_memory, 7, -1));
    int w1, h1, w2, h2;
    uint32_t *p1 = wfc_classic_render(from_disk, &w1, &h1), *p2 = wfc_classic_render(from_memory, &w2, &h2);
    assert_true(p1 && p2 && w1 == w2 && h1 == h2);
    assert_memory_equal(p1, p2, (size_t)w1 * h1 * sizeof *p1);
    free(p1);
    free(p2);
    wfc_classic_free(from_disk);
    wfc_classic_free(from_memory);
    mem_free(&files);
    xmlFreeDoc(doc);
}

/* A subset asked of a tileset that has no <subsets> is an error, not a crash (found by fuzz_wfc). */
static void subset_of_a_tileset_without_subsets(void **state)
{
    (void)state;
    const char *xml = "<simpletiled name=\"Lines\" subset=\"a\"/>";
    static const char tileset[] = "<set><tiles><tile name=\"x\"/></tiles><neighbors/></set>";
    xmlDoc *doc = xmlReadMemory(xml, (int)strlen(xml), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    smalti_error err;
    memset(&err, 0, sizeof err);
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    assert_true(wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e));
    mem_files files = {.count = 1};
    files.path[0] = strdup("mem/tilesets/Lines.xml");
    files.data[0] = (unsigned char *)strdup(tileset);
    files.size[0] = strlen(tileset);
    resource_reader reader = {mem_read, &files};
    assert_null(wfc_classic_load_from(&d, "mem", &reader, &e));
    assert_non_null(strstr(err.message, "subset \"a\" is not in"));
    mem_free(&files);
    xmlFreeDoc(doc);
}

int run_memres_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_resources_from_memory),
        cmocka_unit_test(reader_is_the_only_source),
        cmocka_unit_test(classic_entry_from_memory),
        cmocka_unit_test(subset_of_a_tileset_without_subsets),
    };
    return cmocka_run_group_tests_name("memory resources", tests, NULL, NULL);
}
