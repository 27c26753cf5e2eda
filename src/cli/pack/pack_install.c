/* pack_install.c — `pack install` (a checked pack copied whole, atomically, into the installed packs'
   folder), `pack uninstall`, and `pack list --installed`. */
#define _XOPEN_SOURCE 700
#include "pack_cli.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../core/diag.h"
#include "../../pack/zip_write.h"

/* Go on past an entry that cannot be removed (nftw stops at a non-zero return), so that one
   failure does not leave the rest of the tree behind; a folder nftw could not read is still
   removed as a folder. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (type == FTW_DP || type == FTW_DNR || type == FTW_D) rmdir(path);
    else unlink(path);
    return 0;
}

/* Remove the folder and everything in it, never following a link; a second pass takes what the
   first could not (a folder whose entries were still being removed). */
static void remove_tree(const char *path)
{
    struct stat st;
    for (int pass = 0; pass < 2 && lstat(path, &st) == 0; pass++) nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of path's parent folders below base (which exists). */
static bool make_parents(const char *base, const char *name)
{
    char path[8400];
    for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
        snprintf(path, sizeof path, "%s/%.*s", base, (int)(slash - name), name);
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return false;
    }
    return true;
}

/* Write each member under dir, a folder made just now and empty: O_EXCL and O_NOFOLLOW, so that
   nothing is written through a link or over another file, and names were checked as pack names. */
static bool write_members(const char *dir, const zip_member *members, size_t count, smalti_error *err)
{
    for (size_t i = 0; i < count; i++) {
        char path[8400];
        snprintf(path, sizeof path, "%s/%s", dir, members[i].name);
        const char *why;
        if (!pack_name_is_safe(members[i].name, &why)) {
            error_set(err, SMALTI_ERR_MODEL, members[i].name, 0, "unsafe entry name: it %s; refused", why);
            return false;
        }
        int fd = make_parents(dir, members[i].name) ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644) : -1;
        bool ok = fd >= 0;
        for (size_t at = 0; ok && at < members[i].size;) {
            ssize_t n = write(fd, members[i].data + at, members[i].size - at);
            if (n < 0 && errno == EINTR) continue;
            ok = n > 0;
            if (ok) at += (size_t)n;
        }
        int e = errno;
        if (fd >= 0 && close(fd) != 0 && ok) ok = false, e = errno;
        if (!ok) {
            error_set(err, SMALTI_ERR_IO, path, 0, "cannot write: %s", strerror(e ? e : EIO));
            return false;
        }
    }
    return true;
}

/* The files to install: a zip's entries as they are, a folder's as pack build takes them. */
static bool install_members(const pack *p, uint64_t max_unpacked, zip_member **members, size_t *count, smalti_error *err)
{
    if (!pack_is_zip(p)) return pack_folder_members(pack_path(p), max_unpacked, members, count, err);
    size_t n = pack_entry_count(p);
    *members = calloc(n + 1, sizeof **members);
    *count = 0;
    for (size_t i = 0; *members && i < n; i++) {
        zip_member *m = &(*members)[i];
        const unsigned char *data = pack_entry_data(p, pack_entry_name(p, i), &m->size);
        m->name = strdup(pack_entry_name(p, i));
        m->data = malloc(m->size + 1); /* with the NUL after it, as pack build's members have */
        (*count)++;
        if (!m->name || !m->data) break;
        memcpy(m->data, data, m->size + 1);
    }
    if (*members && *count == n && (!n || (*members)[n - 1].data)) return true;
    zip_members_free(*members, *count);
    error_set(err, SMALTI_ERR_RUNTIME, pack_path(p), 0, "out of memory");
    return false;
}

typedef struct install_args {
    const char *path;
    uint64_t max_unpacked;
    bool force, quiet;
} install_args;

/* One option with its value val (NULL: none left): the arguments it took (1 or 2), or -1 after a usage error. */
static int parse_install_option(void *args, const char *arg, const char *val)
{
    install_args *a = args;
    if (strcmp(arg, "--force") == 0 || strcmp(arg, "-f") == 0) return a->force = true, 1;
    if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) return a->quiet = true, 1;
    if (strcmp(arg, "--max-unpacked") == 0) return parse_max_unpacked(val, &a->max_unpacked) ? 2 : -1;
    return unknown_option("pack install", arg), -1;
}

/* What the options say together; EXIT_OK or the usage error. */
static int check_install_args(const install_args *a)
{
    if (!a->path) return usage_error("%s", "pack install needs PACK (a folder or a .zip)");
    if (a->path[0] == '@') return usage_error("%s is installed already; pack install takes a folder or a .zip", a->path);
    return EXIT_OK;
}

static int parse_install_args(int argc, char **argv, install_args *a)
{
    int rc = cli_parse_args(argc, argv, parse_install_option, a, &a->path, usage_error);
    if (rc != EXIT_OK) return rc;
    return check_install_args(a);
}

/* The files to install, read into members, and the folder of installed packs into root; EXIT_OK or the error in err.
   What goes in is checked as pack build checks it: plain files with safe names, every file the
   manifest names present, every model loading from them. Models are not run. */
static int gather_members(const pack *p, const char *path, uint64_t max_unpacked, char *root, size_t root_size,
                          zip_member **members, size_t *count, smalti_error *err)
{
    const pack_manifest *man = pack_manifest_of(p);
    if (!pack_name_is_valid(man->name)) {
        error_set(err, SMALTI_ERR_MODEL, path, 0, "the pack's name \"%s\" cannot name an installed pack (letters, digits, '-', "
                  "'_' and '.'); give it a pack.xml", man->name);
        return EXIT_MODEL;
    }
    if (!pack_installed_root(root, root_size, err)) return EXIT_IO;
    if (!install_members(p, max_unpacked, members, count, err) || !pack_members_usable(p, pack_path(p), *members, *count, err))
        return exit_code_for(err->status);
    return EXIT_OK;
}

/* Puts the written folder temp at target. The new version appears whole, by a rename; one it
   replaces is moved aside first and put back if the rename fails. EXIT_OK or the error in err. */
static int swap_in(const char *dir, const char *version, const char *temp, const char *target, smalti_error *err)
{
    int rc = EXIT_OK;
    char old[4500];
    snprintf(old, sizeof old, "%s/.%s.old-XXXXXX", dir, version);
    bool moved = false, made_old = false;
    struct stat st;
    if (lstat(target, &st) == 0) {
        made_old = mkdtemp(old) != NULL;
        moved = made_old && rename(target, old) == 0;
        if (!moved) {
            error_set(err, SMALTI_ERR_IO, target, 0, "cannot replace it: %s", strerror(errno));
            rc = EXIT_IO;
        }
    }
    if (rc == EXIT_OK && rename(temp, target) != 0) {
        error_set(err, SMALTI_ERR_IO, target, 0, "cannot install: %s", strerror(errno));
        rc = EXIT_IO;
        if (moved) rename(old, target);
        moved = false;
    }
    if (rc != EXIT_OK) remove_tree(temp);
    /* The replaced version, or mkdtemp's empty folder. (Not told by the name's last
       letter: mkdtemp's random letters may end in X, one time in 62.) */
    if (made_old) remove_tree(old);
    return rc;
}

/* Writes members into a new folder beside the version's and swaps it in, naming its place in target;
   EXIT_OK or the error in err. */
static int place_version(const pack_manifest *man, const char *root, bool force, const zip_member *members, size_t count,
                         char *target, size_t target_size, smalti_error *err)
{
    char dir[4300], temp[4500];
    snprintf(dir, sizeof dir, "%s/%s", root, man->name);
    snprintf(target, target_size, "%s/%s", dir, man->version);
    snprintf(temp, sizeof temp, "%s/.%s.new-XXXXXX", dir, man->version);
    struct stat st;
    if (lstat(target, &st) == 0 && !force) {
        error_set(err, SMALTI_ERR_IO, target, 0, "%s %s is installed already; --force replaces it", man->name, man->version);
        return EXIT_IO;
    }
    if (!make_parents("", dir + 1) || (mkdir(dir, 0755) != 0 && errno != EEXIST) || !mkdtemp(temp)) {
        error_set(err, SMALTI_ERR_IO, dir, 0, "cannot make the folder: %s", strerror(errno));
        return EXIT_IO;
    }
    if (chmod(temp, 0755) != 0 || !write_members(temp, members, count, err)) {
        remove_tree(temp);
        return err->status ? exit_code_for(err->status) : EXIT_IO;
    }
    return swap_in(dir, man->version, temp, target, err);
}

int cmd_pack_install(int argc, char **argv)
{
    install_args a = {0};
    int rc = parse_install_args(argc, argv, &a);
    if (rc != EXIT_OK) return rc;
    pack *p = cli_pack_open(a.path, a.max_unpacked, PACK_MAX_MEMORY, a.quiet, &rc);
    if (!p) return rc;
    const pack_manifest *man = pack_manifest_of(p);
    smalti_error err;
    char root[4096], target[4400];
    zip_member *members = NULL;
    size_t count = 0;
    rc = gather_members(p, a.path, a.max_unpacked, root, sizeof root, &members, &count, &err);
    if (rc == EXIT_OK) rc = place_version(man, root, a.force, members, count, target, sizeof target, &err);
    if (rc != EXIT_OK) print_error(&err);
    else if (!a.quiet)
        printf("installed %s %s (%zu %s) in %s; run its models as 'smalti run @%s/MODEL'\n", man->name, man->version, count,
               plural((long)count, "file", "files"), target, man->name);
    zip_members_free(members, count);
    pack_close(p);
    return rc;
}

int cmd_pack_uninstall(int argc, char **argv)
{
    const char *spec = NULL;
    bool quiet = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) quiet = true;
        else if (argv[i][0] == '-' && argv[i][1]) return unknown_option("pack uninstall", argv[i]);
        else if (spec) return usage_error("unexpected argument %s", argv[i]);
        else spec = argv[i];
    }
    if (!spec) return usage_error("%s", "pack uninstall needs NAME or NAME@VERSION");
    char at_spec[256], target[4400], aside[4500];
    snprintf(at_spec, sizeof at_spec, "%s%s", spec[0] == '@' ? "" : "@", spec);
    smalti_error err;
    if (!pack_installed_find(at_spec, target, sizeof target, &err)) {
        print_error(&err);
        return err.status == SMALTI_ERR_USAGE ? EXIT_USAGE : exit_code_for(err.status);
    }
    /* Out of sight by one rename, then removed. */
    const char *slash = strrchr(target, '/');
    snprintf(aside, sizeof aside, "%.*s/.%s.gone-XXXXXX", (int)(slash - target), target, slash + 1);
    const bool made_aside = mkdtemp(aside) != NULL;
    if (!made_aside || rename(target, aside) != 0) {
        error_set(&err, SMALTI_ERR_IO, target, 0, "cannot remove it: %s", strerror(errno));
        print_error(&err);
        if (made_aside) rmdir(aside);
        return EXIT_IO;
    }
    remove_tree(aside);
    snprintf(aside, sizeof aside, "%.*s", (int)(slash - target), target);
    rmdir(aside); /* the pack's folder, when that was its last version */
    if (!quiet) printf("removed %s\n", target);
    return EXIT_OK;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The visible entries of a folder, sorted; NULL when it cannot be read. */
static char **folder_names(const char *path, size_t *count)
{
    DIR *d = opendir(path);
    if (!d) return NULL;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **grown = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        if (!(names[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    *count = n;
    return names ? names : calloc(1, sizeof *names);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

int pack_list_installed(void)
{
    char root[4096];
    smalti_error err;
    if (!pack_installed_root(root, sizeof root, &err)) {
        print_error(&err);
        return EXIT_IO;
    }
    size_t pack_count = 0, shown = 0;
    char **packs = folder_names(root, &pack_count);
    int rc = EXIT_OK;
    for (size_t i = 0; packs && i < pack_count; i++) {
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, packs[i]);
        size_t version_count = 0;
        char **versions = folder_names(dir, &version_count);
        for (size_t v = 0; versions && v < version_count; v++) {
            char spec[400];
            long parts[3];
            if (!pack_parse_version(versions[v], parts)) continue;
            snprintf(spec, sizeof spec, "@%s@%s", packs[i], versions[v]);
            pack_options opt = {.quiet = true};
            pack *p = pack_open(spec, &opt, &err);
            if (p) {
                const pack_manifest *man = pack_manifest_of(p);
                printf("%-20s %-10s %s  (%s)\n", packs[i], versions[v], man->description, pack_path(p));
                pack_close(p);
            } else {
                printf("%-20s %-10s cannot be read:\n", packs[i], versions[v]);
                print_error(&err);
                rc = exit_code_for(err.status);
            }
            shown++;
        }
        free_names(versions, version_count);
    }
    free_names(packs, pack_count);
    if (!shown) printf("no packs installed in %s ('smalti pack install PACK' installs one)\n", root);
    return rc;
}
