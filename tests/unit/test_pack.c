/* test_pack.c — the pack layer: safe entry names, semantic versions, and the pack.xml and models.xml manifest parsers. */
#include "unit.h"
#include <string.h>
#include "../../src/pack/pack.h"

static void entry_names(void **state)
{
    (void)state;
    const char *why;
    assert_true(pack_name_is_safe("pack.xml", &why));
    assert_true(pack_name_is_safe("models/a.b/keep.xml", &why));
    assert_true(pack_name_is_safe("models/", &why)); /* a zip's folder entry */
    const char *unsafe[] = {"../evil.xml", "models/../../evil", "a/..", "/etc/passwd", "models\\evil.xml", "C:/evil.xml",
                            "c:evil", "a//b", "./a", "", "a/./b", "bad\nname"};
    for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++) {
        why = NULL;
        assert_false(pack_name_is_safe(unsafe[i], &why));
        assert_non_null(why);
    }
    assert_false(pack_name_is_safe("../x", &why));
    assert_non_null(strstr(why, "\"..\""));
    assert_false(pack_name_is_safe("D:/x", &why));
    assert_non_null(strstr(why, "drive letter"));
}

static void versions(void **state)
{
    (void)state;
    long v[3];
    assert_true(pack_parse_version("1.20.3", v));
    assert_int_equal(v[1], 20);
    assert_true(pack_parse_version("1.0.0-rc.1+build.5", v));
    const char *bad[] = {"1.0", "1.0.0.0", "01.0.0", "1.a.0", "v1.0.0", "1.0.0-", "", "1..0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) assert_false(pack_parse_version(bad[i], v));
    assert_true(pack_compare_versions("0.1.0", "0.2.0") < 0);
    assert_true(pack_compare_versions("1.10.0", "1.9.9") > 0);
    assert_true(pack_compare_versions("1.0.0-rc1", "1.0.0") < 0);
    assert_int_equal(pack_compare_versions("1.0.0+a", "1.0.0"), 0);
}

static pack_manifest *parse(const char *xml, smalti_error *err)
{
    pack_options opt = {.quiet = true};
    memset(err, 0, sizeof *err);
    return pack_manifest_parse(xml, strlen(xml), "p/pack.xml", &opt, err);
}

static void manifest_fields(void **state)
{
    (void)state;
    smalti_error err;
    pack_manifest *m = parse("<pack name=\"castles\" version=\"1.2.0\" description=\"Keeps\" license=\"MIT OR Apache-2.0\"\n"
                             "      homepage=\"https://example.org\" smalti=\"0.1.0\">\n"
                             "  <author name=\"A\" email=\"a@example.org\"/><author name=\"B\"/>\n"
                             "  <model file=\"models/keep.xml\" title=\"Keep\" tags=\"castle 3d\" length=\"24\" width=\"20\"\n"
                             "         height=\"16\" d=\"3\" seeds=\"1 7 -42\" steps=\"2000\" pixelsize=\"6\" iso=\"True\">\n"
                             "    <color symbol=\"W\" value=\"A0A0A0\"/>\n"
                             "  </model>\n"
                             "  <model file=\"wall.xml\" name=\"wall2\"/>\n"
                             "</pack>\n",
                             &err);
    assert_non_null(m);
    assert_string_equal(m->name, "castles");
    assert_string_equal(m->version, "1.2.0");
    assert_string_equal(m->license, "MIT OR Apache-2.0");
    assert_string_equal(m->min_smalti, "0.1.0");
    assert_string_equal(m->resources, "resources");
    assert_int_equal(m->author_count, 2);
    assert_null(m->authors[1].email);
    assert_int_equal(m->model_count, 2);
    const pack_model *k = &m->models[0];
    assert_string_equal(k->name, "keep");
    assert_string_equal(k->file, "models/keep.xml");
    assert_int_equal(k->tag_count, 2);
    assert_string_equal(k->tags[1], "3d");
    assert_int_equal(k->length, 24);
    assert_int_equal(k->height, 16);
    assert_int_equal(k->dim, 3);
    assert_int_equal(k->seed_count, 3);
    assert_int_equal(k->seeds[2], -42);
    assert_true(k->has_steps);
    assert_int_equal(k->steps, 2000);
    assert_int_equal(k->iso, 1);
    assert_int_equal(k->color_count, 1);
    assert_int_equal(k->color_rgb[0], 0xA0A0A0);
    assert_int_equal(k->line, 5); /* libxml2 gives a start tag the line where it ends */
    assert_string_equal(m->models[1].name, "wall2");
    assert_int_equal(m->models[1].iso, -1);
    assert_false(m->models[1].has_steps);
    pack_manifest_free(m);
}

static void manifest_errors(void **state)
{
    (void)state;
    static const struct {
        const char *xml, *message;
        int line;
    } cases[] = {
        {"<pack name=\"a\" version=\"1.0\" description=\"d\"><model file=\"a.xml\"/></pack>", "semantic version", 1},
        {"<pack version=\"1.0.0\" description=\"d\"><model file=\"a.xml\"/></pack>", "needs a name", 1},
        {"<pack name=\"a b\" version=\"1.0.0\" description=\"d\"><model file=\"a.xml\"/></pack>", "letters, digits", 1},
        {"<pack name=\"a\" version=\"1.0.0\"><model file=\"a.xml\"/></pack>", "one-line description", 1},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\"/>", "lists no <model>", 1},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\" smalti=\"9.0.0\"><model file=\"a.xml\"/></pack>",
         "needs smalti 9.0.0 or newer", 1},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\" license=\"MIT;rm\"><model file=\"a.xml\"/></pack>", "SPDX", 1},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\" homepage=\"ftp://x\"><model file=\"a.xml\"/></pack>", "http", 1},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"../a.xml\"/></pack>", "\"..\" part", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"a.png\"/></pack>", "an .xml file", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"a.xml\" thumbnail=\"/x.png\"/></pack>", "absolute", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"a.xml\"/>\n<model file=\"b/a.xml\"/></pack>",
         "a second model named \"a\"", 3},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"a.xml\" size=\"70000\" d=\"3\"/></pack>",
         "more than the cap", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"a.xml\" seeds=\"1 x\"/></pack>", "seeds=", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<model file=\"a.xml\" d=\"4\"/></pack>", "2 or 3", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n<models/></pack>", "unknown element <models>", 2},
        {"<pack name=\"a\" version=\"1.0.0\" description=\"d\">\n\n<model file=\"a.xml\"></pack>", "malformed XML", 3},
        {"<models><model name=\"a\"/></models>", "expected <pack>", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        smalti_error err;
        pack_manifest *m = parse(cases[i].xml, &err);
        if (m || !strstr(err.message, cases[i].message) || err.line != cases[i].line)
            fail_msg("case %zu: %s:%d: %s", i, err.file, err.line, err.message);
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_string_equal(err.file, "p/pack.xml");
    }
}

static void models_list(void **state)
{
    (void)state;
    const char *xml = "<models>\n  <model name=\"Maze\" size=\"24\" steps=\"-1\"/>\n  <!-- <model name=\"Gone\"/> -->\n"
                      "  <model name=\"Maze\" length=\"8\" width=\"9\" height=\"4\" amount=\"4\" iso=\"True\"/>\n</models>\n";
    pack_options opt = {.quiet = true};
    smalti_error err;
    pack_manifest *m = pack_manifest_from_models_list(xml, strlen(xml), "mj/models.xml", "mj", &opt, &err);
    assert_non_null(m);
    assert_true(m->from_models_list);
    assert_string_equal(m->name, "mj");
    assert_int_equal(m->model_count, 2); /* the same model twice, as the corpus lists it */
    assert_string_equal(m->models[1].file, "models/Maze.xml");
    assert_int_equal(m->models[0].steps, -1);
    assert_int_equal(m->models[1].height, 4);
    pack_manifest_free(m);
    const char *bad = "<models>\n<model name=\"../x\"/></models>";
    assert_null(pack_manifest_from_models_list(bad, strlen(bad), "mj/models.xml", "mj", &opt, &err));
    assert_int_equal(err.line, 2);
}

int run_pack_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entry_names),
        cmocka_unit_test(versions),
        cmocka_unit_test(manifest_fields),
        cmocka_unit_test(manifest_errors),
        cmocka_unit_test(models_list),
    };
    return cmocka_run_group_tests_name("packs", tests, NULL, NULL);
}
