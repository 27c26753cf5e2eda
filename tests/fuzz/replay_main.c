/* replay_main.c — a main for a fuzz target without libFuzzer: runs the target once on each file named,
   or on each file of each folder named (make test replays tests/fuzz/seeds and regressions this way). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__SANITIZE_ADDRESS__)
#define REPLAY_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REPLAY_LSAN 1
#endif
#endif
#ifdef REPLAY_LSAN
#include <sanitizer/lsan_interface.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            uint8_t *bigger = realloc(buf, cap);
            if (!bigger) {
                fclose(f);
                free(buf);
                return 1;
            }
            buf = bigger;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (!got) break;
        len += got;
    }
    fclose(f);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    /* An exact-size copy, so that reading past the input is caught as it would be by libFuzzer. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) return 1;
    if (len) memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
#ifdef REPLAY_LSAN
    /* Leaks are checked after each input, so that each is blamed on its input. */
    if (__lsan_do_recoverable_leak_check()) {
        fprintf(stderr, "replay: %s leaks\n", path);
        return 1;
    }
#endif
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    int failed = 0, runs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            failed++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed += run_file(argv[i]);
            runs++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            perror(argv[i]);
            failed++;
            continue;
        }
        char **names = NULL;
        size_t n = 0;
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.') continue;
            char **more = realloc(names, (n + 1) * sizeof *names);
            if (!more) break;
            names = more;
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[n] = malloc(len);
            if (!names[n]) break;
            snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
        }
        closedir(dir);
        qsort(names, n, sizeof *names, cmp);
        for (size_t k = 0; k < n; k++) {
            failed += run_file(names[k]);
            runs++;
            free(names[k]);
        }
        free(names);
    }
    printf("%s: %d inputs replayed%s\n", argv[0], runs, failed ? ", some unreadable or leaking" : "");
    return failed ? 1 : 0;
}
