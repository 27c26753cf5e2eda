/* test_atomic.c — atomic writes never write through a file or symbolic link already at their temporary name
   or at the output path, and keep the mode of the file they replace. */
#include "unit.h"
#include "../../src/io/output.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh folder per test (runs of the suite may overlap on one machine). */
static char folder[64];
static char *in_folder(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", folder, name);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static bool holds(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strcmp(buf, text) == 0;
}

/* Counts the names a writer claims and releases: every claimed name is released again. */
typedef struct claims {
    int claimed, released;
} claims;
static void on_claim(void *ctx, const char *tmp) { (void)tmp; ((claims *)ctx)->claimed++; }
static void on_release(void *ctx, const char *tmp) { (void)tmp; ((claims *)ctx)->released++; }

static void make_folder(void)
{
    snprintf(folder, sizeof folder, "/tmp/smalti-unit-atomic-XXXXXX");
    assert_non_null(mkdtemp(folder));
}

static void remove_folder(void)
{
    char path[256];
    const char *names[] = {"out.txt", "victim.txt", NULL};
    for (int i = 0; names[i]; i++) unlink(in_folder(path, sizeof path, names[i]));
    for (int k = 0; k < 20; k++) {
        if (k == 0) snprintf(path, sizeof path, "%s/out.txt.tmp%ld", folder, (long)getpid());
        else snprintf(path, sizeof path, "%s/out.txt.tmp%ld.%d", folder, (long)getpid(), k);
        unlink(path);
    }
    assert_int_equal(rmdir(folder), 0); /* nothing else was left in it */
}

static void a_link_planted_at_the_temporary_name_is_not_followed(void **state)
{
    (void)state;
    make_folder();
    char victim[128], out[128], tmp[256];
    in_folder(victim, sizeof victim, "victim.txt");
    in_folder(out, sizeof out, "out.txt");
    write_text(victim, "victim\n");
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
    assert_int_equal(symlink(victim, tmp), 0);

    claims c = {0};
    temp_hook hook = {on_claim, on_release, &c, NULL};
    atomic_file af;
    smalti_error err;
    assert_true(atomic_open(&af, out, &hook, &err));
    fputs("output\n", af.f);
    assert_true(atomic_commit(&af, &err));

    assert_true(holds(victim, "victim\n"));
    assert_true(holds(out, "output\n"));
    struct stat st;
    assert_int_equal(lstat(tmp, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* not ours: left as it was */
    assert_int_equal(c.claimed, c.released);
    assert_true(c.claimed >= 2);
    remove_folder();
}

static void a_file_left_at_the_temporary_name_is_not_overwritten(void **state)
{
    (void)state;
    make_folder();
    char out[128], tmp[256];
    in_folder(out, sizeof out, "out.txt");
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
    write_text(tmp, "left behind\n");
    atomic_file af;
    smalti_error err;
    assert_true(atomic_open(&af, out, NULL, &err));
    fputs("output\n", af.f);
    atomic_abort(&af); /* an aborted write removes its own temporary file only */
    assert_true(holds(tmp, "left behind\n"));
    assert_true(atomic_open(&af, out, NULL, &err));
    fputs("output\n", af.f);
    assert_true(atomic_commit(&af, &err));
    assert_true(holds(out, "output\n"));
    assert_true(holds(tmp, "left behind\n"));
    remove_folder();
}

static void a_link_at_the_output_path_is_refused_and_not_followed(void **state)
{
    (void)state;
    make_folder();
    char victim[128], out[128];
    in_folder(victim, sizeof victim, "victim.txt");
    in_folder(out, sizeof out, "out.txt");
    write_text(victim, "victim\n");
    assert_int_equal(symlink(victim, out), 0);
    atomic_file af;
    smalti_error err;
    assert_false(atomic_open(&af, out, NULL, &err));
    assert_non_null(strstr(err.message, "symbolic link"));
    assert_true(holds(victim, "victim\n"));
    struct stat st;
    assert_int_equal(lstat(out, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    remove_folder();
}

static void a_link_to_a_character_device_is_written_through(void **state)
{
    (void)state;
    make_folder();
    char out[128];
    in_folder(out, sizeof out, "out.txt");
    assert_int_equal(symlink("/dev/null", out), 0);
    atomic_file af;
    smalti_error err;
    assert_true(atomic_open(&af, out, NULL, &err));
    assert_int_equal(af.tmp[0], 0); /* written directly, never renamed over the link */
    fputs("output\n", af.f);
    assert_true(atomic_commit(&af, &err));
    struct stat st;
    assert_int_equal(lstat(out, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    remove_folder();
}

static void a_replaced_file_keeps_its_mode(void **state)
{
    (void)state;
    make_folder();
    char out[128];
    in_folder(out, sizeof out, "out.txt");
    write_text(out, "old\n");
    assert_int_equal(chmod(out, 0640), 0);
    atomic_file af;
    smalti_error err;
    assert_true(atomic_open(&af, out, NULL, &err));
    fputs("output\n", af.f);
    assert_true(atomic_commit(&af, &err));
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    assert_true(holds(out, "output\n"));
    remove_folder();
}

int run_atomic_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_link_planted_at_the_temporary_name_is_not_followed),
        cmocka_unit_test(a_file_left_at_the_temporary_name_is_not_overwritten),
        cmocka_unit_test(a_link_at_the_output_path_is_refused_and_not_followed),
        cmocka_unit_test(a_link_to_a_character_device_is_written_through),
        cmocka_unit_test(a_replaced_file_keeps_its_mode),
    };
    return cmocka_run_group_tests_name("atomic", tests, NULL, NULL);
}
