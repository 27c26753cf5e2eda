/* pack_build.c — `smalti pack build DIR`: a pack folder as one reproducible zip (src/pack/zip_write.c),
   written atomically; what the folder holds is checked as a pack is checked when read. */
#include "../common/cli.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../core/diag.h"
#include "../../core/file_read.h"
#include "../../nodes/nodes.h"
#include "../../pack/pack.h"
#include "pack_cli.h"
#include "../../pack/zip_write.h"

#define WALK_MAX_DEPTH 32

typedef struct build_state {
    const char *root;          /* the folder, as given */
    int root_fd;               /* the folder, open: each file is opened beneath it, following no link */
    dev_t out_dev;             /* the output file when it already exists (inside the folder, it is left out) */
    ino_t out_ino;
    bool out_exists;
    zip_member *members;
    size_t count, cap;
    uint64_t total, cap_bytes; /* uncompressed bytes so far, and the most a pack may hold */
    long skipped;
    bool verbose;
    smalti_error *err;
} build_state;

/* What a pack zip leaves out of the folder: hidden files and folders (.git, .DS_Store),
   editor backups and leftovers (name~, #name#, *.swp, *.bak, *.orig, *.rej), desktop
   litter (Thumbs.db, desktop.ini), and a SHA256SUMS at the top, which is made afresh. */
static bool excluded(const char *rel, const char *name)
{
    size_t n = strlen(name);
    static const char *const suffixes[] = {"~", ".swp", ".bak", ".orig", ".rej"};
    if (name[0] == '.') return true;
    if (n >= 2 && name[0] == '#' && name[n - 1] == '#') return true;
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t k = strlen(suffixes[i]);
        if (n >= k && strcmp(name + n - k, suffixes[i]) == 0) return true;
    }
    if (strcmp(name, "Thumbs.db") == 0 || strcmp(name, "desktop.ini") == 0) return true;
    return strcmp(rel, PACK_CHECKSUMS_NAME) == 0;
}

static bool fail(build_state *b, const char *rel, const char *fmt, const char *arg)
{
    char message[512];
    snprintf(message, sizeof message, fmt, arg);
    char file[8200];
    snprintf(file, sizeof file, "%s/%s", b->root, rel);
    error_set(b->err, SMALTI_ERR_MODEL, file, 0, "%s", message);
    return false;
}

/* One file of the folder, read from the descriptor that opened it: opened beneath the folder with
   no link followed in any part of its name (file_open_beneath), then checked by fstat on that
   descriptor. So a file swapped for a link after walk's lstat is refused, not followed (no window
   between a check and the open), and a device or FIFO is never read. */
static bool add_file(build_state *b, const char *rel)
{
    int fd = file_open_beneath(b->root_fd, rel);
    if (fd < 0) {
        if (errno == ELOOP || errno == EXDEV) return fail(b, rel, "%s", "a symbolic link; a pack holds only plain files and folders");
        return fail(b, rel, "cannot read: %s", strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return fail(b, rel, "cannot read: %s", strerror(errno));
    }
    if (b->out_exists && st.st_dev == b->out_dev && st.st_ino == b->out_ino) {
        close(fd);
        b->skipped++;
        return true; /* the zip being made, from an earlier build */
    }
    const char *cap_name = b->cap_bytes == PACK_MAX_UNPACKED_DEFAULT ? "1 GiB" : "--max-unpacked";
    if (b->count >= PACK_MAX_ENTRIES) {
        close(fd);
        return fail(b, rel, "%s", "the pack has too many files for a pack reader");
    }
    if (b->count == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        zip_member *grown = realloc(b->members, cap * sizeof *grown);
        if (!grown) {
            close(fd);
            return fail(b, rel, "%s", "out of memory");
        }
        b->members = grown;
        b->cap = cap;
    }
    zip_member *m = &b->members[b->count];
    file_read_status status;
    /* total never passes cap_bytes: each file is read with what is left as its bound. */
    m->data = file_read_fd(fd, b->cap_bytes - b->total, &m->size, &status);
    int e = errno;
    close(fd);
    errno = e;
    if (status == FILE_READ_NOT_REGULAR)
        return fail(b, rel, "%s", "not a plain file (a device, FIFO or socket); a pack holds only plain files and folders");
    if (status == FILE_READ_TOO_LARGE)
        return fail(b, rel, "with this file the pack holds more than %s; a pack reader refuses that (--max-unpacked SIZE raises the cap)",
                    cap_name);
    if (status != FILE_READ_OK) return fail(b, rel, "cannot read: %s", file_read_status_text(status));
    m->name = strdup(rel);
    if (!m->name) {
        free(m->data);
        return fail(b, rel, "%s", "out of memory");
    }
    b->count++;
    b->total += m->size;
    if (b->verbose) printf("  %s\n", rel);
    return true;
}

/* Every file under rel (a folder inside the pack, "" for the top), by the rules a pack is read by. */
static bool walk(build_state *b, const char *rel, int depth)
{
    char dir_path[4096];
    snprintf(dir_path, sizeof dir_path, "%s%s%s", b->root, rel[0] ? "/" : "", rel);
    if (depth > WALK_MAX_DEPTH) return fail(b, rel, "folders nested more than %s deep", "32");
    DIR *dir = opendir(dir_path);
    if (!dir) {
        error_set(b->err, SMALTI_ERR_IO, dir_path, 0, "cannot read the folder: %s", strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(dir))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char child[4096], path[4096];
        if (snprintf(child, sizeof child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) >= (int)sizeof child ||
            snprintf(path, sizeof path, "%s/%s", b->root, child) >= (int)sizeof path) {
            ok = fail(b, rel, "%s", "a name inside is too long");
            break;
        }
        if (excluded(child, e->d_name)) {
            b->skipped++;
            continue;
        }
        const char *why;
        if (!pack_name_is_safe(child, &why)) {
            ok = fail(b, child, "the name %s; a pack reader refuses it", why);
            break;
        }
        struct stat st;
        if (lstat(path, &st) != 0) {
            error_set(b->err, SMALTI_ERR_IO, path, 0, "cannot read: %s", strerror(errno));
            ok = false;
        } else if (S_ISLNK(st.st_mode)) ok = fail(b, child, "%s", "a symbolic link; a pack holds only plain files and folders");
        else if (S_ISDIR(st.st_mode)) ok = walk(b, child, depth + 1);
        else if (S_ISREG(st.st_mode)) ok = add_file(b, child);
        else ok = fail(b, child, "%s", "not a plain file (a device, FIFO or socket); a pack holds only plain files and folders");
    }
    closedir(dir);
    return ok;
}

/* The whole folder, its files opened beneath the folder's own descriptor. */
static bool walk_root(build_state *b)
{
    b->root_fd = open(b->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (b->root_fd < 0) {
        error_set(b->err, SMALTI_ERR_IO, b->root, 0, "cannot read the folder: %s", strerror(errno));
        return false;
    }
    bool ok = walk(b, "", 0);
    close(b->root_fd);
    b->root_fd = -1;
    return ok;
}

/* The zip entries' time: SOURCE_DATE_EPOCH when set (reproducible-builds.org), else 1980-01-01. */
static int entry_time(uint16_t *dos_time, uint16_t *dos_date)
{
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    long seconds = 0;
    if (epoch && *epoch && !parse_int_arg(epoch, 0, 1L << 40, &seconds))
        return usage_error("SOURCE_DATE_EPOCH=%s: expected a whole number of seconds since 1970", epoch);
    pack_dos_time(seconds, dos_time, dos_date);
    return EXIT_OK;
}

static bool has_member(const build_state *b, const char *name)
{
    return zip_members_find(b->members, b->count, name) != NULL;
}

/* Every file the manifest names is in the zip: not left out as hidden or a backup. */
static bool manifest_files_kept(build_state *b, const pack *p)
{
    const pack_manifest *man = pack_manifest_of(p);
    for (int i = 0; i < man->model_count; i++) {
        const pack_model *m = &man->models[i];
        const char *missing = !has_member(b, m->file) ? m->file : m->thumbnail && !has_member(b, m->thumbnail) ? m->thumbnail : NULL;
        if (!missing) continue;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", b->root, man->file);
        error_set(b->err, SMALTI_ERR_MODEL, file, m->line, "%s is not in the pack, or is a file pack build leaves out (hidden files and backups)",
                  missing);
        return false;
    }
    return true;
}

/* What a model of the zip reads as a resource: the member of that name. */
static const unsigned char *member_read(void *userdata, const char *path, size_t *size)
{
    const build_state *b = userdata;
    const zip_member *m = zip_members_find(b->members, b->count, path);
    if (!m) return NULL;
    *size = m->size;
    return m->data;
}

/* Every model loads from the files going into the zip, as a reader of the zip loads it: with the
   pack's resource folder as the only root, read from those files and nothing else. Messages name
   the folder's file. Running them is `pack check`'s business. */
static bool models_load(build_state *b, const pack *p)
{
    const pack_manifest *man = pack_manifest_of(p);
    const char *roots[] = {man->resources};
    resource_reader reader = {member_read, b};
    for (int i = 0; i < man->model_count; i++) {
        const pack_model *m = &man->models[i];
        pack_defaults d;
        if (!pack_model_defaults(p, m, NULL, NULL, 0, &d, b->err)) return false;
        const zip_member *xml = zip_members_find(b->members, b->count, m->file);
        char label[4200];
        pack_entry_label(p, m->file, label, sizeof label);
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = d.mx;
        opt.my = d.my;
        opt.mz = d.mz;
        opt.resource_dirs = roots;
        opt.resource_dir_count = 1;
        opt.quiet = 1;
        smalti_model *model = model_load_bytes_from((const char *)xml->data, xml->size, label, &opt, &reader, b->err);
        if (!model) return false;
        smalti_model_free(model);
    }
    return true;
}

void zip_members_free(zip_member *members, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(members[i].name);
        free(members[i].data);
    }
    free(members);
}

static void free_members(build_state *b) { zip_members_free(b->members, b->count); }

bool pack_folder_members(const char *dir, uint64_t cap_bytes, zip_member **members, size_t *count, smalti_error *err)
{
    build_state b = {.root = dir, .cap_bytes = cap_bytes ? cap_bytes : PACK_MAX_UNPACKED_DEFAULT, .err = err};
    bool ok = walk_root(&b);
    if (!ok) {
        free_members(&b);
        return false;
    }
    zip_members_sort(b.members, b.count);
    *members = b.members;
    *count = b.count;
    return true;
}

bool pack_members_usable(const pack *p, const char *root, zip_member *members, size_t count, smalti_error *err)
{
    build_state b = {.root = root, .root_fd = -1, .members = members, .count = count, .err = err};
    return manifest_files_kept(&b, p) && models_load(&b, p);
}

static int write_zip(const char *output, const unsigned char *zip, size_t size, smalti_error *err)
{
    atomic_file af;
    if (!atomic_open(&af, output, temp_files_hook(), err)) return exit_code_for(err->status);
    if (fwrite(zip, 1, size, af.f) != size) {
        int e = errno;
        atomic_abort(&af);
        error_set(err, SMALTI_ERR_IO, output, 0, "cannot write: %s", strerror(e ? e : EIO));
        return EXIT_IO;
    }
    return atomic_commit(&af, err) ? EXIT_OK : exit_code_for(err->status);
}

int cmd_pack_build(int argc, char **argv)
{
    const char *dir = NULL, *output = NULL;
    bool quiet = false, verbose = false;
    uint64_t cap_bytes = PACK_MAX_UNPACKED_DEFAULT;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) quiet = true;
        else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) verbose = true;
        else if (strcmp(arg, "--max-unpacked") == 0) {
            if (!parse_max_unpacked(i + 1 < argc ? argv[i + 1] : NULL, &cap_bytes)) return EXIT_USAGE;
            i++;
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (i + 1 >= argc) return usage_error("%s needs a value", arg);
            output = argv[++i];
        } else if (arg[0] == '-' && arg[1]) return unknown_option("pack build", arg);
        else if (dir) return usage_error("unexpected argument %s", arg);
        else dir = arg;
    }
    if (!dir) return usage_error("%s", "pack build: missing DIR (a pack folder with a pack.xml)");
    if (output && strcmp(output, "-") == 0 && isatty(STDOUT_FILENO))
        return usage_error("%s", "-o -: a zip is binary, and stdout is a terminal");
    uint16_t dos_time, dos_date;
    int rc = entry_time(&dos_time, &dos_date);
    if (rc != EXIT_OK) return rc;
    smalti_error err;
    struct stat st;
    bool found = stat(dir, &st) == 0;
    if (!found || !S_ISDIR(st.st_mode)) { /* errno speaks only of a failed stat */
        error_set(&err, SMALTI_ERR_IO, dir, 0, "%s",
                  !found && errno == ENOENT ? "no such folder" : "not a folder; pack build makes a zip of a pack folder");
        print_error(&err);
        return EXIT_IO;
    }
    /* The manifest is read as any pack reader reads it: a pack that does not open is not built. */
    pack *p = cli_pack_open(dir, cap_bytes, PACK_MAX_MEMORY, quiet, &rc);
    if (!p) return rc;
    const pack_manifest *man = pack_manifest_of(p);
    char default_output[4096];
    if (!output) {
        snprintf(default_output, sizeof default_output, "%s-%s.zip", man->name, man->version);
        output = default_output;
    }
    build_state b = {.root = dir, .cap_bytes = cap_bytes, .verbose = verbose && !quiet, .err = &err};
    if (strcmp(output, "-") != 0 && stat(output, &st) == 0) {
        b.out_exists = true;
        b.out_dev = st.st_dev;
        b.out_ino = st.st_ino;
    }
    unsigned char *zip = NULL;
    size_t zip_size = 0;
    rc = EXIT_OK;
    if (!walk_root(&b) || (zip_members_sort(b.members, b.count), !manifest_files_kept(&b, p)) || !models_load(&b, p) ||
        !pack_zip_build(b.members, b.count, dos_time, dos_date, output, &zip, &zip_size, &err))
        rc = exit_code_for(err.status);
    else rc = write_zip(output, zip, zip_size, &err);
    if (rc != EXIT_OK) print_error(&err);
    else if (!quiet && strcmp(output, "-") != 0) {
        char hex[65];
        pack_sha256_hex(zip, zip_size, hex);
        printf("%s: %zu %s and %s, %zu bytes, sha256 %s\n", output, b.count, plural((long)b.count, "file", "files"),
               PACK_CHECKSUMS_NAME, zip_size, hex);
    }
    free(zip);
    free_members(&b);
    pack_close(p);
    return rc;
}
