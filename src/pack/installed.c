/* installed.c — where `pack install` puts packs ($XDG_DATA_HOME/smalti/packs/NAME/VERSION) and finding one by "@NAME[@VERSION]". */
#include "pack.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../core/diag.h"

bool pack_installed_root(char *buf, size_t size, smalti_error *err)
{
    /* The XDG base directory spec: a relative XDG_DATA_HOME is ignored. */
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (data && data[0] == '/') n = snprintf(buf, size, "%s/smalti/packs", data);
    else if (home && home[0] == '/') n = snprintf(buf, size, "%s/.local/share/smalti/packs", home);
    else {
        error_set(err, SMALTI_ERR_IO, "smalti", 0, "no folder for installed packs: set XDG_DATA_HOME or HOME to an absolute path");
        return false;
    }
    if (n < 0 || (size_t)n >= size) {
        error_set(err, SMALTI_ERR_IO, data && data[0] == '/' ? data : home, 0, "the folder for installed packs has too long a name");
        return false;
    }
    return true;
}

bool pack_name_is_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64 || !isalnum((unsigned char)name[0])) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_' && name[i] != '.') return false;
    return true;
}

static bool is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool pack_installed_find(const char *spec, char *buf, size_t size, smalti_error *err)
{
    char root[4096], name[80], version[80] = "";
    if (!pack_installed_root(root, sizeof root, err)) return false;
    const char *s = spec[0] == '@' ? spec + 1 : spec, *at = strchr(s, '@');
    size_t name_len = at ? (size_t)(at - s) : strlen(s);
    if (name_len >= sizeof name || (at && strlen(at + 1) >= sizeof version)) name_len = 0;
    else {
        memcpy(name, s, name_len);
        name[name_len] = 0;
        if (at) strcpy(version, at + 1);
    }
    long parts[3];
    if (!name_len || !pack_name_is_valid(name) || (at && !pack_parse_version(version, parts))) {
        error_set(err, SMALTI_ERR_USAGE, spec, 0, "not an installed pack's name: @NAME or @NAME@VERSION (1.2.0)");
        return false;
    }
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    if (!at) {
        /* The newest version installed: the largest folder name that is a version. */
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char path[4600];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (e->d_name[0] != '.' && strlen(e->d_name) < sizeof version && pack_parse_version(e->d_name, parts) &&
                is_folder(path) && (!version[0] || pack_compare_versions(e->d_name, version) > 0))
                strcpy(version, e->d_name);
        }
        if (d) closedir(d);
    }
    int n = snprintf(buf, size, "%s/%s", dir, version);
    if (!version[0] || !is_folder(buf)) {
        error_set(err, SMALTI_ERR_USAGE, spec, 0, "no such pack is installed in %s ('smalti pack list --installed' lists them; "
                  "'smalti pack install PACK' installs one)", root);
        return false;
    }
    if (n < 0 || (size_t)n >= size) {
        error_set(err, SMALTI_ERR_IO, spec, 0, "the installed pack's folder has too long a name");
        return false;
    }
    return true;
}
