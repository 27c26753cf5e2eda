/* test_rulefiles.c — the VOX reader and rule images (fin/fout/file with a legend) in 2-D and 3-D. */
#include "unit.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/core/resource.h"
#include "../../src/core/rule.h"
#include "../../src/core/xmlutil.h"
#include "../../src/nodes/nodes.h"
#include "../../src/io/output.h"

/* ---- building files ---- */

typedef struct bytes {
    unsigned char data[4096];
    size_t len;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
    assert_true(b->len + n <= sizeof b->data);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u32(bytes *b, uint32_t v)
{
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put(b, le, 4);
}

static void put_chunk_header(bytes *b, const char *id, uint32_t content, uint32_t children)
{
    put(b, id, 4);
    put_u32(b, content);
    put_u32(b, children);
}

/* A .vox file: magic, MAIN, a PACK chunk to be ignored, SIZE, then XYZI last
   (so that every strict prefix of it is broken). voxels: x, y, z, colour. */
static void make_vox(bytes *b, uint32_t mx, uint32_t my, uint32_t mz, const unsigned char (*voxels)[4], int count)
{
    b->len = 0;
    put(b, "VOX ", 4);
    put_u32(b, 150);
    uint32_t pack = 12 + 4, size = 12 + 12, xyzi = 12 + 4 + 4 * (uint32_t)count;
    put_chunk_header(b, "MAIN", 0, pack + size + xyzi);
    put_chunk_header(b, "PACK", 4, 0);
    put_u32(b, 1);
    put_chunk_header(b, "SIZE", 12, 0);
    put_u32(b, mx);
    put_u32(b, my);
    put_u32(b, mz);
    put_chunk_header(b, "XYZI", 4 + 4 * (uint32_t)count, 0);
    put_u32(b, (uint32_t)count);
    for (int i = 0; i < count; i++) put(b, voxels[i], 4);
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A PNG whose pixels are cells[] coloured by index into a fixed set of colours. */
static void write_png(const char *path, const unsigned char *cells, int mx, int my)
{
    static const uint32_t colors[] = {0x102030, 0xff8000, 0x00ff00, 0x0000ff};
    grid_view g = {.cells = cells, .mx = mx, .my = my, .mz = 1, .legend = "abcd"};
    smalti_error err;
    assert_true(save_png(path, &g, colors, 1, NULL, &err));
}

typedef struct tmp {
    char dir[64];
    char path[256];
} tmp;

static const char *tmp_path(tmp *t, const char *name)
{
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
    return t->path;
}

static void tmp_make(tmp *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/smalti-rulefiles-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    mkdir(tmp_path(t, "rules"), 0700);
    mkdir(tmp_path(t, "rules/F"), 0700);
}

static void tmp_remove(tmp *t)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
    assert_int_equal(system(cmd), 0);
}

static diag quiet_diag(smalti_error *err)
{
    memset(err, 0, sizeof *err);
    diag d = {.file = "test.xml", .err = err, .quiet = 1};
    return d;
}

/* ---- the VOX reader ---- */

static const unsigned char some_voxels[][4] = {{0, 0, 0, 5}, {2, 1, 0, 7}, {1, 0, 1, 5}, {2, 1, 1, 9}};

static void vox_reads_voxels_in_stored_axis_order(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    bytes b;
    make_vox(&b, 3, 2, 2, some_voxels, 4);
    write_file(tmp_path(&t, "m.vox"), b.data, b.len);
    smalti_error err;
    diag d = quiet_diag(&err);
    int mx, my, mz;
    int32_t *v = vox_load(&d, 7, t.path, &mx, &my, &mz);
    assert_non_null(v);
    assert_int_equal(mx, 3);
    assert_int_equal(my, 2);
    assert_int_equal(mz, 2);
    int32_t expected[12];
    for (int i = 0; i < 12; i++) expected[i] = -1;
    expected[0] = 5;                  /* (0,0,0) */
    expected[2 + 1 * 3] = 7;          /* (2,1,0) */
    expected[1 + 1 * 6] = 5;          /* (1,0,1) */
    expected[2 + 1 * 3 + 1 * 6] = 9;  /* (2,1,1) */
    for (int i = 0; i < 12; i++) assert_int_equal(v[i], expected[i]);
    free(v);
    tmp_remove(&t);
}

/* Expect vox_load to fail on `b` with a message at line 7 containing `part`. */
static void expect_vox_error(tmp *t, const bytes *b, const char *part)
{
    write_file(tmp_path(t, "bad.vox"), b->data, b->len);
    smalti_error err;
    diag d = quiet_diag(&err);
    int mx = 0, my = 0, mz = 0;
    int32_t *v = vox_load(&d, 7, t->path, &mx, &my, &mz);
    if (v) fail_msg("a %zu-byte file loaded but should not", b->len);
    assert_int_equal(err.status, SMALTI_ERR_MODEL);
    assert_int_equal(err.line, 7);
    if (part && !strstr(err.message, part)) fail_msg("\"%s\" does not mention \"%s\"", err.message, part);
}

static void vox_every_truncation_is_an_error(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    bytes full;
    make_vox(&full, 3, 2, 2, some_voxels, 4);
    for (size_t len = 0; len < full.len; len++) {
        bytes cut = full;
        cut.len = len;
        expect_vox_error(&t, &cut, NULL);
    }
    tmp_remove(&t);
}

static void vox_malformed_files_are_errors(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    bytes b;
    make_vox(&b, 3, 2, 2, some_voxels, 4);
    memcpy(b.data, "VOXX", 4);
    expect_vox_error(&t, &b, "magic");

    make_vox(&b, 100000, 1, 1, some_voxels, 1);
    expect_vox_error(&t, &b, "absurd");
    make_vox(&b, 3, 0xffffffffu, 2, some_voxels, 1);
    expect_vox_error(&t, &b, "absurd");

    /* A voxel past the model's size. */
    make_vox(&b, 2, 2, 2, some_voxels, 2);
    expect_vox_error(&t, &b, "outside");

    /* A voxel count larger than the chunk. */
    make_vox(&b, 3, 2, 2, some_voxels, 4);
    memcpy(b.data + b.len - 4 * 4 - 4, "\xff\xff\xff\x7f", 4);
    expect_vox_error(&t, &b, "more voxels than bytes");

    /* A chunk claiming 2 GiB of content. */
    make_vox(&b, 3, 2, 2, some_voxels, 4);
    memcpy(b.data + 8 + 12 + 4, "\x00\x00\x00\x80", 4);
    expect_vox_error(&t, &b, "past the end");

    /* No XYZI at all. */
    b.len = 0;
    put(&b, "VOX ", 4);
    put_u32(&b, 150);
    put_chunk_header(&b, "MAIN", 0, 0);
    expect_vox_error(&t, &b, "no voxel data");

    smalti_error err;
    diag d = quiet_diag(&err);
    int mx, my, mz;
    assert_null(vox_load(&d, 3, tmp_path(&t, "missing.vox"), &mx, &my, &mz));
    assert_non_null(strstr(err.message, "cannot open"));
    tmp_remove(&t);
}

/* A SIZE chunk, and an XYZI chunk of `count` voxels after it unless count < 0. */
static void put_model(bytes *b, uint32_t mx, uint32_t my, uint32_t mz, const unsigned char (*voxels)[4], int count)
{
    put_chunk_header(b, "SIZE", 12, 0);
    put_u32(b, mx);
    put_u32(b, my);
    put_u32(b, mz);
    if (count < 0) return;
    put_chunk_header(b, "XYZI", 4 + 4 * (uint32_t)count, 0);
    put_u32(b, (uint32_t)count);
    for (int i = 0; i < count; i++) put(b, voxels[i], 4);
}

static void vox_start(bytes *b)
{
    b->len = 0;
    put(b, "VOX ", 4);
    put_u32(b, 150);
    put_chunk_header(b, "MAIN", 0, 0); /* the children's length is not read */
}

/* The size returned is the one the voxels were read with: with several
   models the last one wins, SIZE and XYZI together, and a SIZE chunk without
   its XYZI chunk is refused (it once gave 4x1x1 with the voxels of a 2x1x1 model). */
static void vox_size_goes_with_its_voxels(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    const unsigned char two[][4] = {{0, 0, 0, 1}, {1, 0, 0, 2}}, three[][4] = {{2, 0, 0, 9}};
    bytes b;
    vox_start(&b);
    put_model(&b, 2, 1, 1, two, 2);
    put_model(&b, 3, 1, 1, three, 1);
    write_file(tmp_path(&t, "m.vox"), b.data, b.len);
    smalti_error err;
    diag d = quiet_diag(&err);
    int mx, my, mz;
    int32_t *v = vox_load(&d, 7, t.path, &mx, &my, &mz);
    assert_non_null(v);
    assert_int_equal(mx, 3);
    assert_int_equal(my, 1);
    assert_int_equal(mz, 1);
    assert_int_equal(v[0], -1);
    assert_int_equal(v[1], -1);
    assert_int_equal(v[2], 9);
    free(v);

    vox_start(&b); /* SIZE 2x1x1, XYZI, SIZE 4x1x1 */
    put_model(&b, 2, 1, 1, two, 2);
    put_model(&b, 4, 1, 1, NULL, -1);
    expect_vox_error(&t, &b, "a SIZE chunk without its XYZI chunk");
    vox_start(&b); /* SIZE 4x1x1, SIZE 2x1x1, XYZI */
    put_model(&b, 4, 1, 1, NULL, -1);
    put_model(&b, 2, 1, 1, two, 2);
    expect_vox_error(&t, &b, "a SIZE chunk without its XYZI chunk");
    vox_start(&b); /* XYZI, then its SIZE */
    put_chunk_header(&b, "XYZI", 4, 0);
    put_u32(&b, 0);
    put_model(&b, 2, 1, 1, NULL, -1);
    expect_vox_error(&t, &b, "an XYZI chunk without a SIZE chunk before it");
    tmp_remove(&t);
}

/* ---- rule images ---- */

typedef struct loaded {
    xmlDoc *doc, *out_doc;
    grid_def gin, gout;
    smalti_error err;
    diag d;
    resources res;
    const char *roots[1];
} loaded;

/* Load the first <rule> of `xml` (whose root defines the grid) with `dir` as
   the resource root. When out_xml is given, its root defines the output grid. */
static rule *load_rule(loaded *l, const char *dir, const char *xml, const char *out_xml, int mx, int my, int mz)
{
    memset(l, 0, sizeof *l);
    l->d = quiet_diag(&l->err);
    l->roots[0] = dir;
    l->res.roots = l->roots;
    l->res.root_count = 1;
    l->doc = xmlReadMemory(xml, (int)strlen(xml), "test.xml", NULL, XML_PARSE_NONET);
    assert_non_null(l->doc);
    xmlNode *root = xmlDocGetRootElement(l->doc);
    assert_true(grid_load(&l->d, root, mx, my, mz, GRID_REFERENCE_MAX_VALUES, node_holds_unions, &l->gin));
    const grid_def *gout = &l->gin;
    if (out_xml) {
        l->out_doc = xmlReadMemory(out_xml, (int)strlen(out_xml), "out.xml", NULL, XML_PARSE_NONET);
        assert_non_null(l->out_doc);
        assert_true(grid_load(&l->d, xmlDocGetRootElement(l->out_doc), mx, my, mz, GRID_REFERENCE_MAX_VALUES, node_holds_unions, &l->gout));
        gout = &l->gout;
    }
    xmlNode *el = xml_first_child(xml_first_child(root));
    assert_true(el && xml_is(el, "rule"));
    return rule_load(&l->d, &l->res, el, &l->gin, gout);
}

static void loaded_free(loaded *l)
{
    grid_free(&l->gin);
    grid_free(&l->gout);
    xmlFreeDoc(l->doc);
    if (l->out_doc) xmlFreeDoc(l->out_doc);
}

/* fin and fout are separate images, each numbering its own colours by first
   appearance; rows run from the top; the grid's folder is part of the path. */
static void png_fin_fout_number_colours_by_first_appearance(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    const unsigned char in[] = {0, 1, 0, 2, 0, 1};
    const unsigned char out[] = {1, 1, 1, 0, 0, 2};
    write_png(tmp_path(&t, "rules/F/in.png"), in, 3, 2);
    write_png(tmp_path(&t, "rules/F/out.png"), out, 3, 2);
    loaded l;
    rule *r = load_rule(&l, t.dir,
                        "<sequence values=\"BWR\" folder=\"F\"><one><rule fin=\"in\" fout=\"out\" legend=\"WR*\"/></one></sequence>",
                        NULL, 8, 8, 1);
    if (!r) fail_msg("%s", l.err.message);
    assert_int_equal(r->imx, 3);
    assert_int_equal(r->imy, 2);
    assert_int_equal(r->imz, 1);
    /* in: W R W / * W R; out: W W W / R R * (B=1, W=2, R=4 as waves). */
    const uint32_t want_in[] = {2, 4, 2, 7, 2, 4};
    const uint8_t want_out[] = {1, 1, 1, 2, 2, RULE_KEEP};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(r->input[i], want_in[i]);
        assert_int_equal(r->output[i], want_out[i]);
    }
    rule_free(r);
    loaded_free(&l);
    tmp_remove(&t);
}

/* file= is one image: its left half is the input, its right half the output. */
static void png_file_is_split_into_halves(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    const unsigned char cells[] = {0, 1, 2, 2, 1, 1, 0, 2};
    write_png(tmp_path(&t, "rules/glued.png"), cells, 4, 2);
    loaded l;
    rule *r = load_rule(&l, t.dir, "<sequence values=\"BWR\"><one><rule file=\"glued\" legend=\"BWR\"/></one></sequence>",
                        NULL, 8, 8, 1);
    if (!r) fail_msg("%s", l.err.message);
    assert_int_equal(r->imx, 2);
    assert_int_equal(r->imy, 2);
    assert_int_equal(r->omx, 2);
    /* B W R R / W W B R -> in B W / W W, out R R / B R. */
    const uint32_t want_in[] = {1, 2, 2, 2};
    const uint8_t want_out[] = {2, 2, 0, 2};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(r->input[i], want_in[i]);
        assert_int_equal(r->output[i], want_out[i]);
    }
    rule_free(r);
    loaded_free(&l);
    tmp_remove(&t);
}

/* A 3-D grid reads VOX; empty voxels count as a colour; z is not reversed
   (text patterns list their top layer first, VOX layers are stored bottom up). */
static void vox_file_gives_a_3d_rule_without_reversing_z(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    /* z=0: (x0 empty, x1 colour 3); z=1: (x0 colour 3, x1 colour 5). */
    const unsigned char voxels[][4] = {{1, 0, 0, 3}, {0, 0, 1, 3}, {1, 0, 1, 5}};
    bytes b;
    make_vox(&b, 2, 1, 2, voxels, 3);
    write_file(tmp_path(&t, "rules/F/tall.vox"), b.data, b.len);
    loaded l;
    rule *r = load_rule(&l, t.dir,
                        "<sequence values=\"BWR\" folder=\"F\"><one><rule file=\"tall\" legend=\"BWR\"/></one></sequence>",
                        NULL, 8, 8, 8);
    if (!r) fail_msg("%s", l.err.message);
    assert_int_equal(r->imx, 1);
    assert_int_equal(r->imy, 1);
    assert_int_equal(r->imz, 2);
    /* Colours in x, y, z order: empty -> B, 3 -> W, 5 -> R. in = x0 column: B (z0), W (z1); out = x1: W, R. */
    assert_int_equal(r->input[0], 1);
    assert_int_equal(r->input[1], 2);
    assert_int_equal(r->output[0], 1);
    assert_int_equal(r->output[1], 2);
    rule_free(r);
    loaded_free(&l);
    tmp_remove(&t);
}

/* A PNG with an empty IDAT chunk before its data is read (stb, left to itself, called memcpy(NULL, ..., 0) on
   it, which UBSan rejects); every strict prefix of it is an error in printable words at the line given. */
static void png_empty_idat_reads_and_cut_files_fail_in_words(void **state)
{
    (void)state;
    smalti_error err;
    diag d = quiet_diag(&err);
    int w = 0, h = 0;
    uint32_t *px = image_load_argb(&d, 7, "tests/badinput/rules/empty_idat.png", &w, &h);
    if (!px) fail_msg("%s", err.message);
    assert_int_equal(w, 2);
    assert_int_equal(h, 1);
    assert_int_equal(px[0], 0xff000000u);
    assert_int_equal(px[1], 0xffffffffu);
    free(px);
    FILE *f = fopen("tests/badinput/rules/empty_idat.png", "rb");
    assert_non_null(f);
    bytes full;
    full.len = fread(full.data, 1, sizeof full.data, f);
    fclose(f);
    tmp t;
    tmp_make(&t);
    for (size_t len = 0; len < full.len; len++) {
        write_file(tmp_path(&t, "cut.png"), full.data, len);
        d = quiet_diag(&err);
        px = image_load_argb(&d, 7, t.path, &w, &h);
        if (px) fail_msg("a %zu-byte prefix loaded", len);
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, 7);
        for (const char *c = err.message; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) fail_msg("byte %02x in \"%s\"", (unsigned char)*c, err.message);
    }
    tmp_remove(&t);
}

/* With different input and output grids (as a map node has), input symbols
   resolve against the input grid, output symbols and the folder against the output grid. */
static void input_and_output_grids_are_kept_apart(void **state)
{
    (void)state;
    tmp t;
    tmp_make(&t);
    const unsigned char one[] = {0}, two[] = {0, 1};
    write_png(tmp_path(&t, "rules/F/i.png"), one, 1, 1);
    write_png(tmp_path(&t, "rules/F/o.png"), two, 2, 1);
    loaded l;
    rule *r = load_rule(&l, t.dir, "<sequence values=\"BY\"><one><rule fin=\"i\" fout=\"o\" legend=\"BY\"/></one></sequence>",
                        "<map values=\"YB\" folder=\"F\"/>", 8, 8, 1);
    if (!r) fail_msg("%s", l.err.message);
    assert_int_equal(r->imx, 1);
    assert_int_equal(r->omx, 2);
    assert_int_equal(r->input[0], 1);  /* B is value 0 of the input grid */
    assert_int_equal(r->output[0], 1); /* B is value 1 of the output grid */
    assert_int_equal(r->output[1], 0);
    rule_free(r);
    loaded_free(&l);

    /* Without the output grid's folder the images are not found. */
    r = load_rule(&l, t.dir, "<sequence values=\"BY\" folder=\"F\"><one><rule fin=\"i\" fout=\"o\" legend=\"BY\"/></one></sequence>",
                  "<map values=\"YB\"/>", 8, 8, 1);
    assert_null(r);
    assert_non_null(strstr(l.err.message, "not found"));
    loaded_free(&l);
    tmp_remove(&t);
}

int run_rulefile_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vox_reads_voxels_in_stored_axis_order),
        cmocka_unit_test(vox_every_truncation_is_an_error),
        cmocka_unit_test(vox_malformed_files_are_errors),
        cmocka_unit_test(vox_size_goes_with_its_voxels),
        cmocka_unit_test(png_fin_fout_number_colours_by_first_appearance),
        cmocka_unit_test(png_file_is_split_into_halves),
        cmocka_unit_test(png_empty_idat_reads_and_cut_files_fail_in_words),
        cmocka_unit_test(vox_file_gives_a_3d_rule_without_reversing_z),
        cmocka_unit_test(input_and_output_grids_are_kept_apart),
    };
    return cmocka_run_group_tests_name("rule images", tests, NULL, NULL);
}
