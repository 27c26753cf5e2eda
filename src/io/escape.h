/* escape.h — text made safe as a JSON string or as HTML/XML text: the one place where either rule lives. */
#ifndef SMALTI_ESCAPE_H
#define SMALTI_ESCAPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* JSON: '"' and '\\' as \" and \\; every byte below 0x20 as \n, \t, \r, \b, \f or \u00XX; 0x7F as \u007f;
   '<', '>' and '&' as \u003c, \u003e, \u0026, so that the string may sit in an HTML <script> too
   (a "</script>" in a name cannot end it); other bytes, UTF-8 included, as they are. */

/* The `len` bytes at s (NULs included) as one JSON string, quotes included. */
void json_write_string(FILE *f, const char *s, size_t len);

/* The same without the quotes: a piece of a string the caller opens and closes. */
void json_write_chars(FILE *f, const char *s, size_t len);

/* The string s as one JSON string, quotes included, at buf + *n, followed by a NUL; *n moves past
   the closing quote. False, with *n unchanged and nothing written at or beyond buf + size, when
   it and its NUL do not fit. */
bool json_append_string(char *buf, size_t size, size_t *n, const char *s);

/* HTML/XML: '&', '<', '>', '"' and '\'' as &amp; &lt; &gt; &quot; &#39; (right in element text and in
   attribute values quoted either way); bytes below 0x20 that XML 1.0 forbids (all but \t, \n, \r)
   as U+FFFD, the replacement character, so that an XML reader still takes the file; other bytes
   as they are. A NULL s writes nothing. */
void html_write_text(FILE *f, const char *s);

#endif
