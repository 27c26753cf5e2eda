/* test_file_read.c — input files opened beneath a folder follow no symbolic link, and only bounded regular files are read. */
#include "unit.h"
#include "../../src/core/file_read.h"
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

int run_file_read_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_plain_file_beneath_is_read_whole),
        cmocka_unit_test(no_link_and_no_climb_is_followed),
        cmocka_unit_test(a_fifo_opens_without_waiting_and_is_not_read),
    };
    return cmocka_run_group_tests_name("file_read", tests, NULL, NULL);
}
