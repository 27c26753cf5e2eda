/* common.c — what the smalti commands share: error and warning printing, exit codes, numbers and paths from arguments. */
#include "cli.h"
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

int exit_code_for(smalti_status status)
{
    switch (status) {
    case SMALTI_OK: return EXIT_OK;
    case SMALTI_ERR_MODEL: return EXIT_MODEL;
    case SMALTI_ERR_IO: return EXIT_IO;
    case SMALTI_ERR_USAGE: return EXIT_USAGE;
    case SMALTI_ERR_TIMEOUT: return EXIT_TIMEOUT;
    case SMALTI_ERR_MEMORY: return EXIT_MEMORY;
    case SMALTI_ERR_CANCELLED: return EXIT_CANCELLED;
    case SMALTI_ERR_REQUIREMENT: return EXIT_REQUIREMENT;
    default: return EXIT_RUNTIME;
    }
}

void print_error(const smalti_error *err)
{
    if (err->file[0] && err->line > 0) fprintf(stderr, "%s:%d: error: %s\n", err->file, err->line, err->message);
    else if (err->file[0]) fprintf(stderr, "%s: error: %s\n", err->file, err->message);
    else fprintf(stderr, "smalti: error: %s\n", err->message);
}

void print_warning(void *userdata, const char *file, int line, const char *message)
{
    (void)userdata;
    fprintf(stderr, "%s:%d: warning: %s\n", file, line, message);
}

int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "smalti: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun 'smalti --help' for usage.\n");
    return EXIT_USAGE;
}

int cli_parse_args(int argc, char **argv, cli_option_parser *parse_option, void *args, const char **operand,
                   int (*usage)(const char *fmt, const char *arg))
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] == '-' && arg[1]) {
            int took = parse_option(args, arg, i + 1 < argc ? argv[i + 1] : NULL);
            if (took < 0) return EXIT_USAGE;
            i += took - 1;
        } else if (*operand) return usage("unexpected argument %s", arg);
        else *operand = arg;
    }
    return EXIT_OK;
}

bool parse_int_arg(const char *text, long min, long max, long *out)
{
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end || errno || v < min || v > max) return false;
    *out = v;
    return true;
}

bool parse_count_arg(const char *text, long long *out)
{
    if (!text || text[0] < '0' || text[0] > '9') return false;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    unsigned long long scale = 1;
    switch (*end) {
    case 'k': case 'K': scale = 1000ULL; end++; break;
    case 'm': case 'M': scale = 1000000ULL; end++; break;
    case 'g': case 'G': scale = 1000000000ULL; end++; break;
    case 't': case 'T': scale = 1000000000000ULL; end++; break;
    }
    if (*end || errno || n < 1 || n > (unsigned long long)LLONG_MAX / scale) return false;
    *out = (long long)(n * scale);
    return true;
}

const char *path_extension(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot : "";
}

bool is_special_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* path with "./" parts and doubled slashes dropped ("./out//x.png" and "out/x.png" are one). */
static void normalise_path(const char *path, char *buf, size_t size)
{
    size_t n = 0;
    for (const char *p = path; *p && n + 1 < size;) {
        const bool part_start = p == path || p[-1] == '/';
        if (part_start && p[0] == '.' && p[1] == '/') {
            p += 2; /* a "./" part */
            continue;
        }
        if (*p == '/' && n > 0 && buf[n - 1] == '/') {
            p++;
            continue;
        }
        buf[n++] = *p++;
    }
    buf[n] = 0;
}

bool outputs_collide(const char *a, const char *b)
{
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0) return false; /* stdout: check_stdout_use */
    struct stat sa, sb;
    const bool both_exist = stat(a, &sa) == 0 && stat(b, &sb) == 0;
    /* Two recordings into /dev/null (or one terminal) lose nothing. */
    if (both_exist && S_ISCHR(sa.st_mode) && S_ISCHR(sb.st_mode)) return false;
    if (both_exist && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino) return true;
    char na[4096], nb[4096];
    normalise_path(a, na, sizeof na);
    normalise_path(b, nb, sizeof nb);
    return strcmp(na, nb) == 0;
}

bool has_extension(const char *path, const char *ext)
{
    return strcasecmp(path_extension(path), ext) == 0;
}

const char *base_name(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(buf, size, "%s", slash ? slash + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = 0;
    return buf;
}

bool make_output_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) return true;
    fprintf(stderr, "%s: error: cannot create the output folder: %s\n", path, strerror(errno));
    return false;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double deadline_left(double timeout, double start)
{
    if (timeout <= 0) return 0;
    const double left = timeout - (now_seconds() - start);
    return left > 1e-9 ? left : 1e-9;
}

bool parse_size_arg(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (end == text || errno || text[0] == '-') return false;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end || n > (SIZE_MAX >> shift)) return false;
    *out = (size_t)n << shift;
    return *out >= ((size_t)1 << 20);
}

bool parse_max_memory(const char *val, size_t *out)
{
    if (val && parse_size_arg(val, out)) return true;
    usage_error("--max-memory takes a size such as 500M or 2G (at least 1M), not %s", val ? val : "nothing");
    return false;
}

bool parse_timeout(const char *val, double *out)
{
    char *end;
    double t = val ? strtod(val, &end) : 0;
    if (!val || end == val || *end || !(t > 0 && t <= 1e9)) {
        usage_error("--timeout takes a number of seconds above 0, not %s", val ? val : "nothing");
        return false;
    }
    *out = t;
    return true;
}

void say_timeout(smalti_error *err, long steps, double timeout)
{
    snprintf(err->message, sizeof err->message, "stopped after %ld steps: the run took longer than its timeout of %g s", steps,
             timeout);
}

int memory_verdict(const mem_budget *whole, int rc, const char *label)
{
    if (rc == EXIT_OK || rc == EXIT_MEMORY || !whole->spent) return rc;
    fprintf(stderr, "%s: error: needed more than the memory budget of %.1f MiB (--max-memory)\n", label ? label : "smalti",
            (double)whole->limit / (1 << 20));
    return EXIT_MEMORY;
}

void put_base64(FILE *f, const uint8_t *data, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char line[4 * 1024 + 1];
    size_t n = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        if (i + 1 < len) v |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < len) v |= data[i + 2];
        line[n++] = digits[v >> 18 & 63];
        line[n++] = digits[v >> 12 & 63];
        line[n++] = i + 1 < len ? digits[v >> 6 & 63] : '=';
        line[n++] = i + 2 < len ? digits[v & 63] : '=';
        if (n == sizeof line - 1) {
            fwrite(line, 1, n, f);
            n = 0;
        }
    }
    fwrite(line, 1, n, f);
}
