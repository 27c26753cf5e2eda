/* pack_new.c — `smalti pack new DIR`: the skeleton of a pack (a manifest, one working model and a
   README), made in a temporary folder beside DIR and renamed into place, so that it appears whole. */
#include "../common/cli.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../core/diag.h"
#include "pack_cli.h"

static const char model_text[] =
    "<!--\n"
    "  Islands: a few specks of land grow over the sea, one cell at a time, until\n"
    "  the step limit; then a beach forms wherever land meets water.\n"
    "-->\n"
    "<sequence values=\"UGY\">\n"
    "  <one in=\"U\" out=\"G\" steps=\"5\" comment=\"specks of land\"/>\n"
    "  <one in=\"GU\" out=\"GG\" steps=\"900\" comment=\"the land grows\"/>\n"
    "  <all in=\"GU\" out=\"YU\" comment=\"beaches\"/>\n"
    "</sequence>\n";

/* %s: the pack's name, its name again, smalti's version. */
static const char manifest_format[] =
    "<!-- The manifest of the %s pack: docs/packs.md in smalti's documentation says what\n"
    "     each attribute means. Check the pack with `smalti pack check DIR`. -->\n"
    "<pack name=\"%s\" version=\"0.1.0\" description=\"An example pack: islands in the sea\"\n"
    "      license=\"CC0-1.0\" smalti=\"%s\">\n"
    "  <!-- <author name=\"Your Name\" email=\"you@example.org\"/> -->\n"
    "  <model file=\"models/islands.xml\" title=\"Islands\"\n"
    "         description=\"Specks of land grow over the sea; beaches where they meet it\"\n"
    "         tags=\"example 2d\" size=\"48\" seeds=\"1 2 3\" steps=\"2000\" pixelsize=\"6\">\n"
    "    <color symbol=\"U\" value=\"1D4E89\"/>\n"
    "    <color symbol=\"G\" value=\"3FA34D\"/>\n"
    "    <color symbol=\"Y\" value=\"E8D38A\"/>\n"
    "  </model>\n"
    "</pack>\n";

/* %s: the pack's name, eight times. */
static const char readme_format[] =
    "# %s\n"
    "\n"
    "A pack of models for smalti, the MarkovJunior interpreter. `pack.xml` lists them, with\n"
    "their titles, descriptions and default settings; `models/` holds the models, and\n"
    "`resources/` (if any) their rule images and samples.\n"
    "\n"
    "    smalti pack check %s              # the manifest is valid and every model runs\n"
    "    smalti pack list %s               # the models and their defaults\n"
    "    smalti run %s islands -o islands.png\n"
    "    smalti pack gallery %s -o gallery.html\n"
    "    smalti pack build %s              # %s-0.1.0.zip, to share\n"
    "\n"
    "Others run the zip as it is: `smalti run %s-0.1.0.zip islands -o islands.png`.\n";

/* A pack name from a folder name: letters, digits, '-', '_' and '.', starting with a letter or digit. */
static void name_from_dir(const char *dir, char *name, size_t size)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') len--;
    const char *start = dir + len;
    while (start > dir && start[-1] != '/') start--;
    size_t n = 0;
    for (const char *c = start; c < dir + len && n + 1 < size && n < 64; c++) {
        bool fits = isalnum((unsigned char)*c) || *c == '-' || *c == '_' || *c == '.';
        if (n == 0 && !isalnum((unsigned char)*c)) continue;
        name[n++] = fits ? *c : '-';
    }
    name[n] = 0;
    if (n == 0) snprintf(name, size, "my-pack");
}

static bool name_is_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64 || !isalnum((unsigned char)name[0])) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_' && name[i] != '.') return false;
    return true;
}

/* Whether path is missing or an empty folder; else why not, in err. */
static bool target_is_free(const char *path, smalti_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return true;
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot read: %s", strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        error_set(err, SMALTI_ERR_IO, path, 0, "exists and is not a folder; pack new makes a new pack folder");
        return false;
    }
    DIR *d = opendir(path);
    if (!d) {
        error_set(err, SMALTI_ERR_IO, path, 0, "cannot read the folder: %s", strerror(errno));
        return false;
    }
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d))) empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    if (!empty) {
        error_set(err, SMALTI_ERR_IO, path, 0, "the folder is not empty; pack new writes only into a new or empty folder");
        return false;
    }
    return true;
}

static bool write_text(const char *dir, const char *name, const char *text, smalti_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) error_set(err, SMALTI_ERR_IO, path, 0, "cannot write: %s", strerror(errno ? errno : EIO));
    return ok;
}

static void remove_skeleton(const char *tmp)
{
    static const char *const files[] = {"models/islands.xml", "pack.xml", "README.md"};
    char path[4200];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/models", tmp);
    rmdir(path);
    rmdir(tmp);
}

/* The files, in tmp (made here). */
static bool write_skeleton(const char *tmp, const char *name, smalti_error *err)
{
    char models[4200];
    snprintf(models, sizeof models, "%s/models", tmp);
    if (mkdir(tmp, 0777) != 0 || mkdir(models, 0777) != 0) {
        error_set(err, SMALTI_ERR_IO, tmp, 0, "cannot make the folder: %s", strerror(errno));
        return false;
    }
    /* Room for eight names as long as cmd_pack_new's buffer (a valid one is at most 64 characters). */
    char manifest[sizeof manifest_format + 200], readme[sizeof readme_format + 8 * 80];
    snprintf(manifest, sizeof manifest, manifest_format, name, name, SMALTI_VERSION);
    snprintf(readme, sizeof readme, readme_format, name, name, name, name, name, name, name, name);
    return write_text(tmp, "pack.xml", manifest, err) && write_text(tmp, "models/islands.xml", model_text, err) &&
           write_text(tmp, "README.md", readme, err);
}

int cmd_pack_new(int argc, char **argv)
{
    const char *dir = NULL, *given_name = NULL;
    bool quiet = false;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) quiet = true;
        else if (strcmp(arg, "--name") == 0) {
            if (i + 1 >= argc) return usage_error("%s needs a value", arg);
            given_name = argv[++i];
        } else if (arg[0] == '-' && arg[1]) return unknown_option("pack new", arg);
        else if (dir) return usage_error("unexpected argument %s", arg);
        else dir = arg;
    }
    if (!dir) return usage_error("%s", "pack new: missing DIR (the folder to make)");
    char name[80];
    if (given_name) {
        if (!name_is_valid(given_name))
            return usage_error("--name %s: a pack name has letters, digits, '-', '_' and '.', starts with a letter or "
                               "digit, and is at most 64 long",
                               given_name);
        snprintf(name, sizeof name, "%s", given_name);
    } else name_from_dir(dir, name, sizeof name);
    smalti_error err;
    memset(&err, 0, sizeof err);
    if (!target_is_free(dir, &err)) {
        print_error(&err);
        return exit_code_for(err.status);
    }
    char tmp[4096];
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') len--;
    if (snprintf(tmp, sizeof tmp, "%.*s.tmp%ld", (int)len, dir, (long)getpid()) >= (int)sizeof tmp) {
        error_set(&err, SMALTI_ERR_IO, dir, 0, "the path is too long");
        print_error(&err);
        return EXIT_IO;
    }
    /* An empty DIR is replaced by the renamed folder, as rename() allows for an empty one. */
    if (!write_skeleton(tmp, name, &err) || rename(tmp, dir) != 0) {
        if (err.status == SMALTI_OK) error_set(&err, SMALTI_ERR_IO, dir, 0, "cannot make the folder: %s", strerror(errno));
        remove_skeleton(tmp);
        print_error(&err);
        return exit_code_for(err.status);
    }
    if (!quiet)
        printf("%s: a new pack \"%s\": pack.xml, models/islands.xml, README.md\n"
               "Next: smalti pack check %s\n",
               dir, name, dir);
    return EXIT_OK;
}
