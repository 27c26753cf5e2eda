/* fuzz_common.c — the fuzz targets' input container, in-memory resources and size bounds (fuzz_common.h). */
#define _GNU_SOURCE
#include "fuzz_common.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const uint8_t *find(const uint8_t *p, const uint8_t *end, const char *needle)
{
    size_t n = strlen(needle);
    if ((size_t)(end - p) < n) return NULL;
    const uint8_t *hit = memmem(p, (size_t)(end - p), needle, n);
    return hit;
}

bool fuzz_split(const uint8_t *data, size_t size, fuzz_input *in)
{
    memset(in, 0, sizeof *in);
    const uint8_t *p = data, *end = data + size;
    size_t mark = strlen(FUZZ_3D_MARK);
    if (size >= mark && memcmp(data, FUZZ_3D_MARK, mark) == 0) {
        in->three_d = true;
        p += mark;
    }
    const uint8_t *next = find(p, end, FUZZ_FILE_MARK);
    const uint8_t *main_end = next ? next : end;
    in->main = malloc((size_t)(main_end - p) + 1);
    if (!in->main) return false;
    memcpy(in->main, p, (size_t)(main_end - p));
    in->main[main_end - p] = 0;
    while (next) {
        const uint8_t *name = next + strlen(FUZZ_FILE_MARK);
        const uint8_t *nl = memchr(name, '\n', (size_t)(end - name));
        if (!nl) break;
        const uint8_t *body = nl + 1;
        next = find(body, end, FUZZ_FILE_MARK);
        if (in->count == FUZZ_MAX_FILES) continue;
        fuzz_file *f = &in->files[in->count];
        size_t len = (size_t)(nl - name);
        if (len == 0 || len >= sizeof f->name || memchr(name, 0, len)) continue;
        memcpy(f->name, name, len);
        f->name[len] = 0;
        f->data = body;
        f->size = (size_t)((next ? next : end) - body);
        in->count++;
    }
    return true;
}

void fuzz_input_free(fuzz_input *in)
{
    free(in->main);
    in->main = NULL;
}

const unsigned char *fuzz_read(void *userdata, const char *path, size_t *size)
{
    fuzz_input *in = userdata;
    size_t plen = strlen(path);
    for (int i = 0; i < in->count; i++) {
        const fuzz_file *f = &in->files[i];
        size_t n = strlen(f->name);
        if (n > plen || strcmp(path + plen - n, f->name) != 0) continue;
        if (n < plen && path[plen - n - 1] != '/') continue;
        in->reads++;
        *size = f->size;
        /* A file of no bytes is still a file; hand a valid pointer. */
        return f->size ? f->data : (const unsigned char *)"";
    }
    return NULL;
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

bool fuzz_png_size(const uint8_t *data, size_t size, long *width, long *height)
{
    static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (size < 8 || memcmp(data, sig, 8) != 0) return false;
    size_t pos = 8;
    /* stb_image takes an Apple CgBI chunk before IHDR; IHDR must come first otherwise. */
    while (size - pos >= 8) {
        uint32_t len = be32(data + pos);
        const uint8_t *type = data + pos + 4;
        if (memcmp(type, "IHDR", 4) == 0) {
            if (size - pos < 16) return false;
            *width = (long)be32(data + pos + 8);
            *height = (long)be32(data + pos + 12);
            return true;
        }
        if (memcmp(type, "CgBI", 4) != 0) return false;
        if (len > size - pos - 8 || size - pos - 8 - len < 4) return false;
        pos += 8 + (size_t)len + 4;
    }
    return false;
}

long fuzz_vox_max_side(const uint8_t *data, size_t size)
{
    long most = 0;
    size_t pos = 8;
    if (size < 8 || memcmp(data, "VOX ", 4) != 0) return 0;
    while (size - pos >= 12) {
        uint32_t content = le32(data + pos + 4);
        if (content > size - pos - 12) break;
        if (memcmp(data + pos, "SIZE", 4) == 0 && content >= 12)
            for (int k = 0; k < 3; k++) {
                long side = (long)le32(data + pos + 12 + 4 * k);
                if (side > most) most = side;
            }
        pos += 12 + (size_t)content;
    }
    return most;
}

bool fuzz_files_small(const fuzz_input *in, long max_pixels, long max_side)
{
    for (int i = 0; i < in->count; i++) {
        const fuzz_file *f = &in->files[i];
        long w, h;
        if (fuzz_png_size(f->data, f->size, &w, &h) && (w > max_pixels || h > max_pixels || w * h > max_pixels)) return false;
        if (fuzz_vox_max_side(f->data, f->size) > max_side) return false;
    }
    return true;
}

int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("smalti-fuzz", MFD_CLOEXEC);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}

/* Set attribute `name` of el to at most `most` (to `most` when absent or not a number). */
static bool cap_attr(xmlNode *el, const char *name, long most)
{
    xmlChar *value = xmlGetProp(el, (const xmlChar *)name);
    char *end = NULL;
    long v = value ? strtol((const char *)value, &end, 10) : -1;
    bool cap = !value || end == (char *)value || v < 0 || v > most;
    xmlFree(value);
    if (!cap) return false;
    char text[24];
    snprintf(text, sizeof text, "%ld", most);
    xmlSetProp(el, (const xmlChar *)name, (const xmlChar *)text);
    return true;
}

static void cap_work(xmlNode *el, bool *changed)
{
    for (; el; el = el->next) {
        if (el->type != XML_ELEMENT_NODE) continue;
        if (xmlHasProp(el, (const xmlChar *)"search")) *changed |= cap_attr(el, "limit", FUZZ_SEARCH_LIMIT);
        if (xmlStrcmp(el->name, (const xmlChar *)"wfc") == 0) *changed |= cap_attr(el, "tries", FUZZ_WFC_TRIES);
        cap_work(el->children, changed);
    }
}

char *fuzz_capped_model(const char *xml)
{
    if (!strstr(xml, "search") && !strstr(xml, "wfc")) return NULL;
    xmlDoc *doc = xmlReadMemory(xml, (int)strlen(xml), "fuzz.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) return NULL;
    bool changed = false;
    cap_work(xmlDocGetRootElement(doc), &changed);
    char *out = NULL;
    if (changed) {
        xmlChar *text = NULL;
        int len = 0;
        xmlDocDumpMemory(doc, &text, &len);
        if (text) out = strdup((const char *)text);
        xmlFree(text);
    }
    xmlFreeDoc(doc);
    return out;
}

long fuzz_run_bounded(smalti_run *run, long step_limit)
{
    long steps = smalti_run_counter(run), work = 0;
    while (steps < step_limit && !smalti_run_finished(run)) {
        int mx, my, mz;
        smalti_run_grid(run, &mx, &my, &mz);
        const long cells = (long)mx * my * mz > 0 ? (long)mx * my * mz : 1;
        long chunk = (FUZZ_WORK_LIMIT - work) / cells;
        if (chunk > 50) chunk = 50;
        if (chunk < 1) {
            if (work > 0) break;
            chunk = 1;
        }
        const long before = steps;
        steps = smalti_run_to_end(run, steps + chunk < step_limit ? steps + chunk : step_limit);
        if (steps == before) break; /* stopped: an error, or the end */
        work += (steps - before) * cells;
    }
    return steps;
}

void fuzz_drop_warning(void *userdata, const char *file, int line, const char *message)
{
    (void)userdata;
    (void)line;
    if (!message || !message[0]) {
        fprintf(stderr, "fuzz: a warning without a message (%s:%d)\n", file ? file : "?", line);
        abort();
    }
    /* Read both strings to their ends, so that a string without its NUL shows. */
    volatile size_t n = strlen(message) + (file ? strlen(file) : 0);
    (void)n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    xmlInitParser();
    return 0;
}
