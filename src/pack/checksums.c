/* checksums.c — SHA-256 (libcrypto) and the SHA256SUMS list a built zip carries, verified when the zip is opened. */
#include "pack.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diag.h"
#include "ziplib.h"

void pack_sha256_hex(const void *data, size_t size, char hex[65])
{
    unsigned char md[32];
    unsigned int md_len = 0;
    const cryptolib *c = cryptolib_get(NULL); /* loaded already: see pack.h */
    if (!c || !c->EVP_Digest(data, size, md, &md_len, c->EVP_sha256(), NULL) || md_len != 32) memset(md, 0, sizeof md);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = 0;
}

static bool is_hex64(const char *s)
{
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F'))) return false;
    return true;
}

static bool refuse(const pack *p, const char *name, int line, smalti_error *err, const char *what)
{
    char label[4200];
    pack_entry_label(p, name, label, sizeof label);
    error_set(err, SMALTI_ERR_MODEL, label, line, "%s; refused", what);
    return false;
}

bool pack_verify_checksums(const pack *p, smalti_error *err)
{
    size_t count = pack_entry_count(p), sums_size = 0;
    const char *sums = (const char *)pack_entry_data(p, PACK_CHECKSUMS_NAME, &sums_size);
    if (!sums) return true;
    if (!cryptolib_get(err)) return false;
    bool *listed = calloc(count + 1, 1);
    if (!listed) {
        error_set(err, SMALTI_ERR_RUNTIME, pack_path(p), 0, "out of memory");
        return false;
    }
    bool ok = true;
    int line = 0;
    for (const char *at = sums; ok && at < sums + sums_size;) {
        const char *eol = memchr(at, '\n', (size_t)(sums + sums_size - at));
        size_t len = eol ? (size_t)(eol - at) : (size_t)(sums + sums_size - at);
        line++;
        char name[4096];
        /* "HEX  NAME", or "HEX *NAME" (sha256sum's binary mark). */
        if (len < 67 || len - 66 >= sizeof name || !is_hex64(at) || at[64] != ' ' || (at[65] != ' ' && at[65] != '*')) {
            ok = refuse(p, PACK_CHECKSUMS_NAME, line, err, "not a \"SHA256  NAME\" line");
            break;
        }
        memcpy(name, at + 66, len - 66);
        name[len - 66] = 0;
        size_t i = pack_entry_index(p, name);
        char hex[65];
        if (i == (size_t)-1) ok = refuse(p, name, 0, err, "SHA256SUMS lists this entry, but the zip does not hold it");
        else if (listed[i]) ok = refuse(p, PACK_CHECKSUMS_NAME, line, err, "lists an entry twice");
        else {
            size_t size;
            const unsigned char *data = pack_entry_data(p, name, &size);
            pack_sha256_hex(data, size, hex);
            if (strncasecmp(hex, at, 64) != 0)
                ok = refuse(p, name, 0, err, "the entry's SHA-256 is not the one SHA256SUMS lists: it was changed after the zip was built");
            listed[i] = true;
        }
        at += len + 1;
    }
    for (size_t i = 0; ok && i < count; i++)
        if (!listed[i] && strcmp(pack_entry_name(p, i), PACK_CHECKSUMS_NAME) != 0)
            ok = refuse(p, pack_entry_name(p, i), 0, err, "the zip holds this entry, but SHA256SUMS does not list it");
    free(listed);
    return ok;
}
