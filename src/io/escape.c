/* escape.c — the JSON string and HTML/XML text escapers: a rule per byte, written to a FILE or a bounded buffer. */
#include "escape.h"
#include <string.h>

/* What JSON writes for byte c, at most 6 characters and a NUL in `spare`; c itself when it stays. */
static const char *json_escape_of(unsigned char c, char spare[7])
{
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    case '\b': return "\\b";
    case '\f': return "\\f";
    default: break;
    }
    if (c < 0x20 || c == 0x7F || c == '<' || c == '>' || c == '&') {
        memcpy(spare, "\\u00", 4);
        spare[4] = hex[c >> 4], spare[5] = hex[c & 15], spare[6] = 0;
    } else spare[0] = (char)c, spare[1] = 0;
    return spare;
}

void json_write_chars(FILE *f, const char *s, size_t len)
{
    char spare[7];
    for (size_t i = 0; i < len; i++) fputs(json_escape_of((unsigned char)s[i], spare), f);
}

void json_write_string(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    json_write_chars(f, s, len);
    fputc('"', f);
}

bool json_append_string(char *buf, size_t size, size_t *n, const char *s)
{
    size_t k = *n;
    char spare[7];
    /* Room is checked before each piece, counting the closing quote and the NUL still to come. */
    if (k >= size || size - k < 3) return false;
    buf[k++] = '"';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *piece = json_escape_of(*p, spare);
        size_t len = strlen(piece);
        if (size - k < len + 2) return false;
        memcpy(buf + k, piece, len);
        k += len;
    }
    buf[k++] = '"';
    buf[k] = 0;
    *n = k;
    return true;
}

/* What HTML/XML writes for byte c; NULL when c stays as it is. */
static const char *html_escape_of(unsigned char c)
{
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\t': case '\n': case '\r': return NULL;
    default: return c < 0x20 ? "\xEF\xBF\xBD" : NULL;
    }
}

void html_write_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        const char *piece = html_escape_of(*p);
        if (piece) fputs(piece, f);
        else fputc(*p, f);
    }
}
