/* pack.c — opening a pack (a folder, or a .zip inflated into memory through libzip) and reading its entries safely. */
#include "pack.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../core/diag.h"
#include "../core/file_read.h"
#include "../core/mem.h"
#include "ziplib.h"

typedef struct pack_entry {
    char *name;
    unsigned char *data; /* size bytes and a NUL */
    size_t size;
} pack_entry;

struct pack {
    char *path;          /* as given, without a trailing '/' */
    char *real_root;     /* a folder's real path */
    int root_fd;         /* a folder, open: its files are opened beneath it, following no link; -1 for a zip */
    bool zip;
    pack_entry *entries; /* a zip's files, sorted by name */
    size_t entry_count;
    uint64_t max_unpacked;
    pack_manifest *manifest;
    resource_reader reader;
};

static bool ends_with_zip(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".zip") == 0;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool folder_has(const char *dir, const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool pack_path_is_pack(const char *path)
{
    if (path[0] == '@') return true; /* an installed pack; pack_open says when there is none */
    if (is_dir(path)) return folder_has(path, "pack.xml") || folder_has(path, "models.xml");
    return ends_with_zip(path);
}

void pack_entry_label(const pack *p, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s", p->path, p->zip ? ":" : "/", name);
}

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const pack_entry *)a)->name, ((const pack_entry *)b)->name);
}

/* An entry under the file entry e's name taken as a folder ("a/b" beside "a"), or NULL: the sorted
   entries under "a/" are together, so the first name not below "a/" is the one to look at. */
static const pack_entry *entry_below_file(const pack *p, const pack_entry *e)
{
    size_t n = strlen(e->name), lo = 0, hi = p->entry_count;
    while (lo < hi) { /* the first entry whose name is not below "NAME/" */
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(p->entries[mid].name, e->name, n);
        if (c < 0 || (c == 0 && (unsigned char)p->entries[mid].name[n] < '/')) lo = mid + 1;
        else hi = mid;
    }
    const pack_entry *f = lo < p->entry_count ? &p->entries[lo] : NULL;
    return f && strncmp(f->name, e->name, n) == 0 && f->name[n] == '/' ? f : NULL;
}

static const pack_entry *zip_entry(const pack *p, const char *name)
{
    pack_entry key = {.name = (char *)name};
    return p->entry_count ? bsearch(&key, p->entries, p->entry_count, sizeof key, entry_cmp) : NULL;
}

/* The resource reader of a zip pack: paths are pack names ("resources/rules/x.png"). */
static const unsigned char *zip_resource_read(void *userdata, const char *path, size_t *size)
{
    const pack_entry *e = zip_entry(userdata, path);
    if (!e) return NULL;
    *size = e->size;
    return e->data;
}

/* Inflate entry i into e, counting bytes as they come: the sizes in a zip's headers can lie. */
static bool zip_inflate(const ziplib *zl, pack *p, zip_t *za, zip_uint64_t i, pack_entry *e, uint64_t *total, smalti_error *err)
{
    char label[PATH_MAX + 64];
    pack_entry_label(p, e->name, label, sizeof label);
    zip_stat_t st;
    zl->zip_stat_init(&st);
    uint64_t compressed = zl->zip_stat_index(za, i, 0, &st) == 0 && (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
    zip_file_t *zf = zl->zip_fopen_index(za, i, 0);
    if (!zf) {
        error_set(err, SMALTI_ERR_MODEL, label, 0, "cannot read the entry: %s", zl->zip_strerror(za));
        return false;
    }
    size_t cap = 1 << 12, n = 0;
    e->data = mem_malloc(cap + 1);
    bool ok = e->data != NULL;
    if (!ok) error_set(err, SMALTI_ERR_RUNTIME, label, 0, "out of memory");
    while (ok) {
        if (n == cap) {
            unsigned char *bigger = cap > SIZE_MAX / 4 ? NULL : mem_realloc(e->data, cap * 2 + 1);
            if (!bigger) {
                error_set(err, SMALTI_ERR_RUNTIME, label, 0, "out of memory");
                ok = false;
                break;
            }
            e->data = bigger;
            cap *= 2;
        }
        /* Never ask for more than the cap leaves, so that a bomb stops at the cap. */
        uint64_t left = p->max_unpacked - *total + 1, want = cap - n;
        zip_int64_t got = zl->zip_fread(zf, e->data + n, want < left ? want : left);
        if (got < 0) {
            error_set(err, SMALTI_ERR_MODEL, label, 0, "cannot inflate the entry: %s", zl->zip_file_strerror(zf));
            ok = false;
            break;
        }
        if (got == 0) break;
        n += (size_t)got;
        *total += (uint64_t)got;
        if (*total > p->max_unpacked) {
            error_set(err, SMALTI_ERR_MODEL, label, 0,
                      "the pack unpacks to more than %llu bytes (the cap; --max-unpacked SIZE raises it)",
                      (unsigned long long)p->max_unpacked);
            ok = false;
        } else if (n > PACK_BOMB_MIN && (uint64_t)n / PACK_BOMB_RATIO > compressed) {
            error_set(err, SMALTI_ERR_MODEL, label, 0,
                      "the entry inflates to more than %d times its compressed size (%llu bytes): a zip bomb, refused",
                      PACK_BOMB_RATIO, (unsigned long long)compressed);
            ok = false;
        }
    }
    zl->zip_fclose(zf);
    if (!ok) return false;
    e->data[n] = 0;
    e->size = n;
    return true;
}

static bool zip_open_entries(pack *p, smalti_error *err)
{
    const ziplib *zl = ziplib_get(err);
    if (!zl) return false;
    int code = 0;
    zip_t *za = zl->zip_open(p->path, ZIP_RDONLY | ZIP_CHECKCONS, &code);
    /* The consistency check refuses two entries of one name without saying which: open it
       without, so that the check below names the entry. */
    if (!za && code == ZIP_ER_EXISTS) za = zl->zip_open(p->path, ZIP_RDONLY, &code);
    if (!za) {
        zip_error_t ze;
        zl->zip_error_init_with_code(&ze, code);
        bool missing = code == ZIP_ER_NOENT || code == ZIP_ER_OPEN || code == ZIP_ER_READ;
        error_set(err, missing ? SMALTI_ERR_IO : SMALTI_ERR_MODEL, p->path, 0, "cannot open the pack: %s", zl->zip_error_strerror(&ze));
        zl->zip_error_fini(&ze);
        return false;
    }
    zip_int64_t count = zl->zip_get_num_entries(za, 0);
    bool ok = true;
    if (count < 0 || count > PACK_MAX_ENTRIES) {
        error_set(err, SMALTI_ERR_MODEL, p->path, 0, "the zip holds %lld entries; at most %d are allowed", (long long)count,
                  PACK_MAX_ENTRIES);
        ok = false;
    }
    p->entries = ok ? mem_calloc((size_t)count + 1, sizeof *p->entries) : NULL;
    if (ok && !p->entries) {
        error_set(err, SMALTI_ERR_RUNTIME, p->path, 0, "out of memory");
        ok = false;
    }
    /* First every name and kind, before a byte is inflated. */
    for (zip_int64_t i = 0; ok && i < count; i++) {
        const char *name = zl->zip_get_name(za, (zip_uint64_t)i, 0), *why;
        char label[PATH_MAX + 64];
        pack_entry_label(p, name ? name : "?", label, sizeof label);
        if (!name || !pack_name_is_safe(name, &why)) {
            error_set(err, SMALTI_ERR_MODEL, label, 0, "unsafe entry name: it %s; refused", name ? why : "cannot be read");
            ok = false;
            break;
        }
        zip_uint8_t opsys;
        zip_uint32_t attributes;
        if (zl->zip_file_get_external_attributes(za, (zip_uint64_t)i, 0, &opsys, &attributes) == 0 && opsys == ZIP_OPSYS_UNIX &&
            ((attributes >> 16) & S_IFMT) == S_IFLNK) {
            error_set(err, SMALTI_ERR_MODEL, label, 0, "the entry is a symbolic link; a pack may not hold links, refused");
            ok = false;
            break;
        }
        size_t len = strlen(name);
        if (name[len - 1] == '/') continue; /* a folder */
        if (!(p->entries[p->entry_count].name = mem_strdup(name))) {
            error_set(err, SMALTI_ERR_RUNTIME, p->path, 0, "out of memory");
            ok = false;
            break;
        }
        p->entry_count++;
    }
    if (ok) {
        /* Duplicate names: which one is meant depends on the tool; refuse both. */
        qsort(p->entries, p->entry_count, sizeof *p->entries, entry_cmp);
        for (size_t i = 1; i < p->entry_count; i++)
            if (strcmp(p->entries[i - 1].name, p->entries[i].name) == 0) {
                char label[PATH_MAX + 64];
                pack_entry_label(p, p->entries[i].name, label, sizeof label);
                error_set(err, SMALTI_ERR_MODEL, label, 0, "the zip holds two entries of this name; refused");
                ok = false;
                break;
            }
        /* A file "a" and an entry "a/b": no folder can hold both, so pack install would fail half-way. */
        for (size_t i = 0; ok && i < p->entry_count; i++) {
            const pack_entry *below = entry_below_file(p, &p->entries[i]);
            if (!below) continue;
            char label[PATH_MAX + 64];
            pack_entry_label(p, p->entries[i].name, label, sizeof label);
            error_set(err, SMALTI_ERR_MODEL, label, 0, "the zip holds both a file %s and an entry %s under it; refused",
                      p->entries[i].name, below->name);
            ok = false;
        }
    }
    uint64_t total = 0;
    for (size_t k = 0; ok && k < p->entry_count; k++) {
        zip_int64_t i = zl->zip_name_locate(za, p->entries[k].name, 0);
        if (i < 0) {
            error_set(err, SMALTI_ERR_MODEL, p->path, 0, "entry %s cannot be found again", p->entries[k].name);
            ok = false;
            break;
        }
        ok = zip_inflate(zl, p, za, (zip_uint64_t)i, &p->entries[k], &total, err);
    }
    zl->zip_discard(za); /* opened read-only: nothing to write */
    return ok;
}

/* Whether real (a resolved path) lies inside the pack folder. */
static bool inside_root(const pack *p, const char *real)
{
    size_t n = strlen(p->real_root);
    return strncmp(real, p->real_root, n) == 0 && (real[n] == '/' || real[n] == 0 || p->real_root[n - 1] == '/');
}

/* A file of a folder pack, opened beneath the folder with no symbolic link followed in any part
   of its name, and read from that descriptor (regular files only, at most the pack's cap): the
   name is resolved once, by the open, so nothing can be swapped in between a check and the read. */
static unsigned char *folder_read(const pack *p, const char *name, size_t *size, smalti_error *err)
{
    char label[PATH_MAX + 64];
    pack_entry_label(p, name, label, sizeof label);
    int fd = file_open_beneath(p->root_fd, name);
    if (fd < 0) {
        if (errno == ELOOP || errno == EXDEV)
            error_set(err, SMALTI_ERR_MODEL, label, 0, "a symbolic link; a pack folder is read without following links, refused");
        else error_set(err, errno == ENOENT ? SMALTI_ERR_MODEL : SMALTI_ERR_IO, label, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    file_read_status status;
    unsigned char *data = file_read_fd(fd, p->max_unpacked, size, &status);
    int e = errno;
    close(fd);
    errno = e;
    if (status == FILE_READ_TOO_LARGE)
        error_set(err, SMALTI_ERR_MODEL, label, 0, "the file is larger than the pack's cap of %llu bytes (--max-unpacked SIZE)",
                  (unsigned long long)p->max_unpacked);
    else if (status != FILE_READ_OK)
        error_set(err, status == FILE_READ_NO_MEMORY ? SMALTI_ERR_RUNTIME : SMALTI_ERR_IO, label, 0, "cannot read: %s",
                  file_read_status_text(status));
    return data;
}

unsigned char *pack_read(const pack *p, const char *name, size_t *size, smalti_error *err)
{
    const char *why;
    char label[PATH_MAX + 64];
    pack_entry_label(p, name ? name : "", label, sizeof label);
    if (!pack_name_is_safe(name, &why)) {
        error_set(err, SMALTI_ERR_MODEL, label, 0, "unsafe name: it %s; refused", why);
        return NULL;
    }
    if (!p->zip) return folder_read(p, name, size, err);
    const pack_entry *e = zip_entry(p, name);
    if (!e) {
        error_set(err, SMALTI_ERR_MODEL, label, 0, "no such entry in the pack");
        return NULL;
    }
    unsigned char *copy = mem_malloc(e->size + 1);
    if (!copy) {
        error_set(err, SMALTI_ERR_RUNTIME, label, 0, "out of memory");
        return NULL;
    }
    memcpy(copy, e->data, e->size + 1);
    *size = e->size;
    return copy;
}

static bool pack_has(const pack *p, const char *name)
{
    if (p->zip) return zip_entry(p, name) != NULL;
    return folder_has(p->path, name);
}

/* The pack's name for a models.xml pack: its folder's or zip's base name. */
static void base_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcasecmp(base + len - 4, ".zip") == 0) len -= 4;
    snprintf(buf, size, "%.*s", (int)len, base);
}

static bool read_manifest(pack *p, const pack_options *opt, smalti_error *err)
{
    const char *file = pack_has(p, "pack.xml") ? "pack.xml" : pack_has(p, "models.xml") ? "models.xml" : NULL;
    if (!file) {
        error_set(err, SMALTI_ERR_MODEL, p->path, 0,
                  "not a pack: it has no pack.xml (nor a MarkovJunior models.xml) at its top");
        return false;
    }
    size_t size;
    unsigned char *xml = pack_read(p, file, &size, err);
    if (!xml) return false;
    char label[PATH_MAX + 64];
    pack_entry_label(p, file, label, sizeof label);
    if (strcmp(file, "pack.xml") == 0) {
        p->manifest = pack_manifest_parse((const char *)xml, size, label, opt, err);
    } else {
        char name[256];
        base_of(p->real_root ? p->real_root : p->path, name, sizeof name);
        p->manifest = pack_manifest_from_models_list((const char *)xml, size, label, name, opt, err);
    }
    mem_free(xml);
    if (!p->manifest) return false;
    /* A folder's resource folder must not itself be a link out of the pack. */
    if (!p->zip) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", p->path, p->manifest->resources);
        char *real = realpath(path, NULL);
        bool inside = !real || inside_root(p, real);
        if (!inside) {
            pack_entry_label(p, p->manifest->resources, label, sizeof label);
            error_set(err, SMALTI_ERR_MODEL, label, 0, "the resource folder leads out of the pack (to %s); refused", real);
        }
        free(real);
        if (!inside) return false;
    }
    return true;
}

pack *pack_open(const char *path, const pack_options *opt, smalti_error *err)
{
    char installed[4096];
    if (path[0] == '@') {
        if (!pack_installed_find(path, installed, sizeof installed, err)) return NULL;
        path = installed;
    }
    pack *p = mem_calloc(1, sizeof *p);
    if (!p || !(p->path = mem_strdup(path))) {
        mem_free(p);
        error_set(err, SMALTI_ERR_RUNTIME, path, 0, "out of memory");
        return NULL;
    }
    size_t n = strlen(p->path);
    while (n > 1 && p->path[n - 1] == '/') p->path[--n] = 0;
    p->max_unpacked = opt && opt->max_unpacked ? opt->max_unpacked : PACK_MAX_UNPACKED_DEFAULT;
    bool ok;
    p->root_fd = -1;
    if (is_dir(p->path)) {
        p->real_root = realpath(p->path, NULL);
        p->root_fd = open(p->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        ok = p->real_root != NULL && p->root_fd >= 0;
        if (!ok) error_set(err, SMALTI_ERR_IO, path, 0, "cannot open the pack: %s", strerror(errno));
    } else {
        struct stat st;
        if (stat(p->path, &st) != 0) {
            error_set(err, SMALTI_ERR_IO, path, 0, "cannot open the pack: %s", strerror(errno));
            ok = false;
        } else if (!ends_with_zip(p->path)) {
            error_set(err, SMALTI_ERR_USAGE, path, 0, "not a pack: a pack is a folder or a .zip file");
            ok = false;
        } else {
            p->zip = true;
            ok = zip_open_entries(p, err);
        }
    }
    if (ok && p->zip && !pack_verify_checksums(p, err)) ok = false;
    if (ok && !read_manifest(p, opt, err)) ok = false;
    if (!ok) {
        pack_close(p);
        return NULL;
    }
    p->reader.read = zip_resource_read;
    p->reader.userdata = p;
    return p;
}

void pack_close(pack *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->entry_count; i++) mem_free(p->entries[i].name), mem_free(p->entries[i].data);
    mem_free(p->entries);
    pack_manifest_free(p->manifest);
    free(p->real_root);
    if (p->root_fd >= 0) close(p->root_fd);
    free(p->path);
    free(p);
}

const pack_manifest *pack_manifest_of(const pack *p) { return p->manifest; }
const char *pack_path(const pack *p) { return p->path; }
bool pack_is_zip(const pack *p) { return p->zip; }

const resource_reader *pack_resource_reader(const pack *p) { return p->zip ? &p->reader : NULL; }

const pack_model *pack_find_model(const pack *p, const char *name)
{
    for (int i = 0; i < p->manifest->model_count; i++)
        if (strcmp(p->manifest->models[i].name, name) == 0 || strcmp(p->manifest->models[i].file, name) == 0)
            return &p->manifest->models[i];
    return NULL;
}

size_t pack_entry_count(const pack *p) { return p->entry_count; }
const char *pack_entry_name(const pack *p, size_t i) { return i < p->entry_count ? p->entries[i].name : NULL; }

size_t pack_entry_index(const pack *p, const char *name)
{
    const pack_entry *e = zip_entry(p, name);
    return e ? (size_t)(e - p->entries) : (size_t)-1;
}

const unsigned char *pack_entry_data(const pack *p, const char *name, size_t *size)
{
    const pack_entry *e = zip_entry(p, name);
    if (!e) return NULL;
    *size = e->size;
    return e->data;
}
