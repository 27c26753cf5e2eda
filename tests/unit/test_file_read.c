/* test_file_read.c — input files opened beneath a folder follow no symbolic link, and only bounded regular files are read. */
#include "unit.h"
#include "../../src/core/file_read.h"
#include "../../src/core/resource.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char folder[64];

static void put(const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", folder, rel);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int open_folder(void)
{
    snprintf(folder, sizeof folder, "/tmp/smalti-unit-file-read-XXXXXX");
    assert_non_null(mkdtemp(folder));
    char path[256];
    snprintf(path, sizeof path, "%s/sub", folder);
    assert_int_equal(mkdir(path, 0755), 0);
    put("sub/a.txt", "inside\n");
    put("secret.txt", "secret\n");
    snprintf(path, sizeof path, "%s/sub/link.txt", folder);
    assert_int_equal(symlink("a.txt", path), 0); /* a link that stays inside is refused too */
    snprintf(path, sizeof path, "%s/linkdir", folder);
    assert_int_equal(symlink("sub", path), 0);
    snprintf(path, sizeof path, "%s/sub/zero", folder);
    assert_int_equal(symlink("/dev/zero", path), 0);
    snprintf(path, sizeof path, "%s/sub/pipe", folder);
    assert_int_equal(mkfifo(path, 0600), 0);
    /* For file_open_within: links that stay inside sub (one absolute), and links out of it. */
    char target[256];
    snprintf(target, sizeof target, "%s/sub/a.txt", folder);
    snprintf(path, sizeof path, "%s/sub/absolute.txt", folder);
    assert_int_equal(symlink(target, path), 0);
    snprintf(path, sizeof path, "%s/sub/out.txt", folder);
    assert_int_equal(symlink("../secret.txt", path), 0);
    snprintf(path, sizeof path, "%s/sub/up", folder);
    assert_int_equal(symlink("..", path), 0);
    snprintf(path, sizeof path, "%s/sub", folder);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    return fd;
}

static void close_folder(int fd)
{
    close(fd);
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    assert_int_equal(system(command), 0);
}

static void a_plain_file_beneath_is_read_whole(void **state)
{
    (void)state;
    int root = open_folder();
    int fd = file_open_part_by_part(root, "a.txt");
    assert_true(fd >= 0);
    close(fd);
    fd = file_open_beneath(root, "a.txt");
    assert_true(fd >= 0);
    size_t len = 0;
    file_read_status status;
    unsigned char *data = file_read_fd(fd, 100, &len, &status);
    close(fd);
    assert_int_equal(status, FILE_READ_OK);
    assert_int_equal(len, 7);
    assert_string_equal((char *)data, "inside\n");
    free(data);
    fd = file_open_beneath(root, "a.txt");
    assert_null(file_read_fd(fd, 6, &len, &status)); /* one byte over the bound */
    assert_int_equal(status, FILE_READ_TOO_LARGE);
    close(fd);
    close_folder(root);
}

static void no_link_and_no_climb_is_followed(void **state)
{
    (void)state;
    int root = open_folder();
    const char *refused[] = {"link.txt", "zero", "../secret.txt", "../linkdir/a.txt"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        for (int fallback = 0; fallback < 2; fallback++) {
            errno = 0;
            int fd = fallback ? file_open_part_by_part(root, refused[i]) : file_open_beneath(root, refused[i]);
            if (fd >= 0) fail_msg("%s was opened%s", refused[i], fallback ? " by the fallback" : "");
            assert_true(errno == ELOOP || errno == EXDEV);
        }
    }
    close_folder(root);
}

static void a_fifo_opens_without_waiting_and_is_not_read(void **state)
{
    (void)state;
    int root = open_folder();
    int fd = file_open_beneath(root, "pipe"); /* non-blocking: no writer needed */
    assert_true(fd >= 0);
    size_t len;
    file_read_status status;
    assert_null(file_read_fd(fd, 100, &len, &status));
    assert_int_equal(status, FILE_READ_NOT_REGULAR);
    close(fd);
    fd = file_open_named("/dev/zero");
    assert_true(fd >= 0);
    assert_null(file_read_fd(fd, 100, &len, &status));
    assert_int_equal(status, FILE_READ_NOT_REGULAR);
    close(fd);
    close_folder(root);
}

/* Resource folders may link inside themselves: such links are followed, by openat2 and by its fallback
   alike, and a link (or "..") that leads out of the folder is refused with EXDEV. */
static void links_within_are_followed_and_links_out_refused(void **state)
{
    (void)state;
    int root = open_folder();
    for (int fallback = 0; fallback < 2; fallback++) {
        const char *inside[] = {"a.txt", "link.txt", "absolute.txt", "up/sub/a.txt"};
        for (size_t i = 0; i < sizeof inside / sizeof *inside; i++) {
            int fd = fallback ? file_open_within_checked(root, inside[i]) : file_open_within(root, inside[i]);
            if (fd < 0) fail_msg("%s (fallback %d): %s", inside[i], fallback, strerror(errno));
            size_t len;
            file_read_status status;
            unsigned char *data = file_read_fd(fd, 100, &len, &status);
            assert_non_null(data);
            assert_string_equal((char *)data, "inside\n");
            free(data);
            close(fd);
        }
        const char *outside[] = {"out.txt", "../secret.txt", "up/secret.txt", "zero"};
        for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) {
            errno = 0;
            int fd = fallback ? file_open_within_checked(root, outside[i]) : file_open_within(root, outside[i]);
            if (fd >= 0) fail_msg("%s (fallback %d) opened", outside[i], fallback);
            assert_int_equal(errno, EXDEV);
        }
        /* A FIFO inside opens without waiting for a writer, and is not read. */
        int fd = fallback ? file_open_within_checked(root, "pipe") : file_open_within(root, "pipe");
        assert_true(fd >= 0);
        size_t len;
        file_read_status status;
        assert_null(file_read_fd(fd, 100, &len, &status));
        assert_int_equal(status, FILE_READ_NOT_REGULAR);
        close(fd);
    }
    close_folder(root);
}

/* What the XML readers use for a name the user gave: a FIFO or /dev/zero is refused at once. */
static void a_named_fifo_or_device_is_refused_without_waiting(void **state)
{
    (void)state;
    int root = open_folder();
    char path[256];
    snprintf(path, sizeof path, "%s/sub/pipe", folder);
    size_t len;
    file_read_status status;
    assert_null(file_read_named(path, 100, &len, &status));
    assert_int_equal(status, FILE_READ_NOT_REGULAR);
    assert_null(file_read_named("/dev/zero", 100, &len, &status));
    assert_int_equal(status, FILE_READ_NOT_REGULAR);
    snprintf(path, sizeof path, "%s/sub/a.txt", folder);
    unsigned char *data = file_read_named(path, 100, &len, &status);
    assert_non_null(data);
    assert_int_equal(len, 7);
    free(data);
    close_folder(root);
}

/* A resource is read beneath its root in the one open, whatever resource_find saw before: a file
   swapped for a link out of the root after the check (here: a link there from the start, the path
   handed straight to the reader) is refused with the model's line; a link inside is read; and
   --allow-any-path reads the name as given. */
static void a_resource_read_beneath_its_root_refuses_a_link_out(void **state)
{
    (void)state;
    int root = open_folder();
    char res_root[128], path[256];
    snprintf(res_root, sizeof res_root, "%s/sub", folder);
    const char *roots[] = {res_root};
    resources res = {.roots = roots, .root_count = 1};
    smalti_error err = {0};
    diag d = {.file = "model.xml", .err = &err, .quiet = 1};
    size_t len;
    snprintf(path, sizeof path, "%s/out.txt", res_root);
    assert_null(resource_read_file(&res, &d, 5, path, "rule image", 100, &len));
    assert_true(d.failed);
    assert_int_equal(err.line, 5);
    if (!strstr(err.message, "leaves the resource folder")) fail_msg("%s", err.message);
    d.failed = 0;
    res.allow_any_path = true;
    unsigned char *data = resource_read_file(&res, &d, 5, path, "rule image", 100, &len);
    assert_non_null(data);
    assert_string_equal((char *)data, "secret\n");
    free(data);
    res.allow_any_path = false;
    snprintf(path, sizeof path, "%s/link.txt", res_root);
    data = resource_read_file(&res, &d, 5, path, "rule image", 100, &len);
    assert_non_null(data);
    assert_string_equal((char *)data, "inside\n");
    free(data);
    assert_false(d.failed);
    close_folder(root);
}

int run_file_read_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_plain_file_beneath_is_read_whole),
        cmocka_unit_test(no_link_and_no_climb_is_followed),
        cmocka_unit_test(a_fifo_opens_without_waiting_and_is_not_read),
        cmocka_unit_test(links_within_are_followed_and_links_out_refused),
        cmocka_unit_test(a_named_fifo_or_device_is_refused_without_waiting),
        cmocka_unit_test(a_resource_read_beneath_its_root_refuses_a_link_out),
    };
    return cmocka_run_group_tests_name("file_read", tests, NULL, NULL);
}
