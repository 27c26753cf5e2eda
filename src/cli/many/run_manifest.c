/* run_manifest.c — the JSON-lines record of many runs: writing a line, and reading a manifest back
   for --resume (which pairs are done, with their outputs still there). */
#include "many.h"
#include "../common/cli.h"
#include "../../pack/zip_write.h"
#include "../../pack/ziplib.h"
#include "../../io/escape.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static bool put_text(char *buf, size_t size, size_t *n, const char *fmt_done)
{
    size_t len = strlen(fmt_done);
    if (*n + len + 1 >= size) return false;
    memcpy(buf + *n, fmt_done, len);
    *n += len;
    return true;
}

/* ,"params":{"rooms":"4","side":"20"}: the parameters of m, in the model's order; nothing when it has none. */
static bool put_params(char *buf, size_t size, size_t *n, const smalti_model *m)
{
    int count = m ? smalti_model_param_count(m) : 0;
    if (count == 0) return true;
    if (!put_text(buf, size, n, ",\"params\":{")) return false;
    for (int i = 0; i < count; i++) {
        smalti_param_info p;
        if (!smalti_model_param(m, i, &p)) return false;
        if ((i && !put_text(buf, size, n, ",")) || !json_append_string(buf, size, n, p.name) || !put_text(buf, size, n, ":") ||
            !json_append_string(buf, size, n, p.value))
            return false;
    }
    return put_text(buf, size, n, "}");
}

/* One parameter onto a resume key: "\x1e" before the first, "\x1f" between them (bytes no name holds). */
static bool key_add(char *buf, size_t size, size_t *n, bool first, const char *name, const char *value)
{
    int w = snprintf(buf + *n, size - *n, "%c%s=%s", first ? '\x1e' : '\x1f', name, value);
    if (w < 0 || (size_t)w >= size - *n) return false;
    *n += (size_t)w;
    return true;
}

bool manifest_key(const char *model, const smalti_model *params, char *buf, size_t size)
{
    size_t n = 0;
    if (!put_text(buf, size, &n, model)) return false;
    for (int i = 0; params && i < smalti_model_param_count(params); i++) {
        smalti_param_info p;
        if (!smalti_model_param(params, i, &p) || !key_add(buf, size, &n, i == 0, p.name, p.value)) return false;
    }
    buf[n] = 0;
    return true;
}

size_t manifest_format(const manifest_entry *e, char *buf, size_t size)
{
    size_t n = 0;
    char part[256];
    if (!put_text(buf, size, &n, "{\"model\":") || !json_append_string(buf, size, &n, e->model)) return 0;
    snprintf(part, sizeof part, ",\"seed\":%" PRId32 ",\"i\":%" PRId64 ",\"size\":[%d,%d,%d],\"steps\":%ld,\"finished\":%s,\"ms\":%.3f,\"outputs\":[",
             e->seed, e->i, e->mx, e->my, e->mz, e->steps, e->finished ? "true" : "false", e->ms);
    if (!put_text(buf, size, &n, part)) return 0;
    for (int k = 0; k < e->output_count; k++)
        if ((k && !put_text(buf, size, &n, ",")) || !json_append_string(buf, size, &n, e->outputs[k])) return 0;
    /* "warnings" only when the run had some, "params" only for a model with parameters: the lines
       of other runs are as they were. */
    const int attempts = e->attempts > 0 ? e->attempts : 1;
    snprintf(part, sizeof part, "],\"sha256\":\"%s\",\"attempts\":%d", e->sha256, attempts);
    if (!put_text(buf, size, &n, part)) return 0;
    if (e->warnings > 0) {
        snprintf(part, sizeof part, ",\"warnings\":%d", e->warnings);
        if (!put_text(buf, size, &n, part)) return 0;
    }
    if (!put_params(buf, size, &n, e->params) || !put_text(buf, size, &n, "}\n")) return 0;
    buf[n] = 0;
    return n;
}

bool manifest_append(int fd, const char *line, size_t len)
{
    /* One write of the whole line: with O_APPEND the line lands whole at the end, after the
       lines of other threads and processes. A short write (a full disk) is not retried, which
       would split the line; it is an error. */
    ssize_t w;
    do w = write(fd, line, len);
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)len;
}

void manifest_grid_sha256(const unsigned char *cells, int mx, int my, int mz, char hex[65])
{
    pack_sha256_hex(cells, (size_t)mx * (size_t)my * (size_t)mz, hex);
}

/* The set of done pairs: open addressing on (model, seed). */
struct manifest_done {
    struct done_slot { char *model; int32_t seed; } *slots;
    size_t cap, count;
};

static uint64_t pair_hash(const char *model, int32_t seed)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)model; *p; p++) h = (h ^ *p) * 1099511628211ull;
    h ^= (uint32_t)seed;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static bool done_insert(manifest_done *d, const char *model, int32_t seed)
{
    if ((d->count + 1) * 2 > d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 1024;
        struct done_slot *slots = calloc(cap, sizeof *slots);
        if (!slots) return false;
        for (size_t i = 0; i < d->cap; i++) {
            if (!d->slots[i].model) continue;
            size_t j = pair_hash(d->slots[i].model, d->slots[i].seed) & (cap - 1);
            while (slots[j].model) j = (j + 1) & (cap - 1);
            slots[j] = d->slots[i];
        }
        free(d->slots);
        d->slots = slots;
        d->cap = cap;
    }
    size_t j = pair_hash(model, seed) & (d->cap - 1);
    while (d->slots[j].model) {
        if (d->slots[j].seed == seed && strcmp(d->slots[j].model, model) == 0) return true;
        j = (j + 1) & (d->cap - 1);
    }
    d->slots[j].model = strdup(model);
    if (!d->slots[j].model) return false;
    d->slots[j].seed = seed;
    d->count++;
    return true;
}

manifest_done *manifest_done_new(void)
{
    return calloc(1, sizeof(manifest_done));
}

bool manifest_done_add(manifest_done *d, const char *model, int32_t seed)
{
    return done_insert(d, model, seed);
}

bool manifest_done_has(const manifest_done *d, const char *model, int32_t seed)
{
    if (!d || !d->cap) return false;
    size_t j = pair_hash(model, seed) & (d->cap - 1);
    while (d->slots[j].model) {
        if (d->slots[j].seed == seed && strcmp(d->slots[j].model, model) == 0) return true;
        j = (j + 1) & (d->cap - 1);
    }
    return false;
}

size_t manifest_done_capacity(const manifest_done *d)
{
    return d ? d->cap : 0;
}

const char *manifest_done_slot(const manifest_done *d, size_t i)
{
    return d->slots[i].model;
}

long manifest_done_count(const manifest_done *d)
{
    return d ? (long)d->count : 0;
}

void manifest_done_free(manifest_done *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->cap; i++) free(d->slots[i].model);
    free(d->slots);
    free(d);
}

/* The JSON string at *p (after optional spaces), unescaped into out; false when there is none. */
static bool read_json_string(const char **p, char *out, size_t size)
{
    const char *s = *p;
    while (*s == ' ') s++;
    if (*s++ != '"') return false;
    size_t n = 0;
    while (*s && *s != '"') {
        char c = *s++;
        if (c == '\\') {
            c = *s++;
            if (c == 'u') {
                unsigned v;
                if (sscanf(s, "%4x", &v) != 1 || v > 0xFF) return false;
                c = (char)v;
                s += 4;
            } else if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c == 'r') c = '\r';
            else if (c == 'b') c = '\b';
            else if (c == 'f') c = '\f';
            else if (c != '"' && c != '\\' && c != '/') return false;
        }
        if (n + 1 >= size) return false;
        out[n++] = c;
    }
    if (*s != '"') return false;
    out[n] = 0;
    *p = s + 1;
    return true;
}

/* The line's "params" object (after its sha256), appended to the key in model as manifest_key makes it;
   true when the line has none. */
static bool read_params(const char *line, char *model, size_t size)
{
    const char *p = strstr(line, "\"sha256\":");
    p = p ? strstr(p, ",\"params\":{") : NULL;
    if (!p) return true;
    p += 11;
    size_t n = strlen(model);
    for (bool first = true; *p != '}'; first = false) {
        char name[300], value[4200];
        if (!read_json_string(&p, name, sizeof name) || *p++ != ':' || !read_json_string(&p, value, sizeof value) ||
            !key_add(model, size, &n, first, name, value))
            return false;
        if (*p == ',') p++;
        else if (*p != '}') return false;
    }
    return true;
}

/* The model, seed and the outputs of one line; the outputs all exist as files. */
static bool line_is_done(const char *line, char *model, size_t model_size, int32_t *seed, bool *valid)
{
    *valid = false;
    const char *p = strstr(line, "\"model\":");
    if (!p) return false;
    p += 8;
    if (!read_json_string(&p, model, model_size) || !read_params(line, model, model_size)) return false;
    const char *s = strstr(p, "\"seed\":");
    if (!s) return false;
    char *end;
    long long v = strtoll(s + 7, &end, 10);
    if (end == s + 7 || v < INT32_MIN || v > INT32_MAX) return false;
    *seed = (int32_t)v;
    const char *o = strstr(p, "\"outputs\":[");
    if (!o) return false;
    o += 11;
    *valid = true;
    int outputs = 0;
    while (*o != ']') {
        char path[4200];
        if (!read_json_string(&o, path, sizeof path)) return *valid = false;
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return false;
        outputs++;
        if (*o == ',') o++;
    }
    return outputs > 0;
}

/* Read what is done, and cut off a torn last line (a process killed inside its write cannot
   leave one, but a full disk or a copy cut short can). */
static int read_done(const char *path, int fd, manifest_done *done)
{
    FILE *f = fdopen(dup(fd), "r");
    if (!f) {
        fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
        return EXIT_IO;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    off_t whole = 0; /* the end of the last line with its '\n' */
    long number = 0;
    int rc = EXIT_OK;
    while ((len = getline(&line, &cap, f)) > 0) {
        number++;
        if (line[len - 1] != '\n') {
            fprintf(stderr, "%s:%ld: note: a torn last line (a run cut short while writing it) is cut off\n", path, number);
            if (ftruncate(fd, whole) != 0) {
                fprintf(stderr, "%s: error: cannot cut off the torn line: %s\n", path, strerror(errno));
                rc = EXIT_IO;
            }
            break;
        }
        whole += len;
        char model[8192];
        int32_t seed;
        bool valid;
        if (line_is_done(line, model, sizeof model, &seed, &valid)) {
            if (!done_insert(done, model, seed)) {
                fprintf(stderr, "%s: error: out of memory\n", path);
                rc = EXIT_MEMORY;
                break;
            }
        } else if (!valid) {
            fprintf(stderr, "%s:%ld: warning: not a manifest line of smalti; ignored\n", path, number);
        }
    }
    free(line);
    fclose(f);
    return rc;
}

int manifest_open(const char *path, bool resume, int *fd, manifest_done **done)
{
    *done = NULL;
    /* Every line carries the grid's SHA-256: libcrypto is loaded now, before any run, or not at all. */
    smalti_error err = {0};
    if (!cryptolib_get(&err)) {
        *fd = -1;
        fprintf(stderr, "%s: error: %s\n", path, err.message);
        return EXIT_RUNTIME;
    }
    *fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (*fd < 0) {
        fprintf(stderr, "%s: error: cannot open the manifest: %s\n", path, strerror(errno));
        return EXIT_IO;
    }
    struct stat st;
    if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "%s: error: the manifest must be a regular file\n", path);
        close(*fd);
        return EXIT_IO;
    }
    /* Held until the descriptor is closed at the end of the run: a second process on the same
       manifest would read the same "done" pairs and make every missing output twice. */
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            fprintf(stderr, "%s: error: the manifest is in use by another smalti run; wait for it to end, or give this run its own manifest\n", path);
        else
            fprintf(stderr, "%s: error: cannot lock the manifest: %s\n", path, strerror(errno));
        close(*fd);
        return EXIT_IO;
    }
    if (!resume) {
        if (st.st_size == 0) return EXIT_OK;
        fprintf(stderr, "%s: error: the manifest exists already; add --resume to go on with its work, or remove it\n", path);
        close(*fd);
        return EXIT_USAGE;
    }
    /* The descriptor is write-only; read through another. */
    int rfd = open(path, O_RDWR | O_CLOEXEC);
    *done = calloc(1, sizeof **done);
    int rc = rfd < 0 ? EXIT_IO : !*done ? EXIT_MEMORY : read_done(path, rfd, *done);
    if (rfd < 0) fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
    else close(rfd);
    if (rc != EXIT_OK) {
        manifest_done_free(*done);
        *done = NULL;
        close(*fd);
    }
    return rc;
}
