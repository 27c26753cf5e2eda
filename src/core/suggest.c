/* suggest.c — "did you mean": the nearest of a list of valid names to a misspelt one. */
#include "suggest.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SUGGEST_MAX_LEN 63

static bool same_letter(char x, char y)
{
    return tolower((unsigned char)x) == tolower((unsigned char)y);
}

/* Optimal string alignment: insertions, deletions, substitutions and swaps of two neighbours
   ("rnu" for "run") cost one each. A case slip (moore for Moore) costs nothing, so the name
   with the right letters wins over one a letter away. */
int suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN) return SUGGEST_MAX_LEN + 1;
    int d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (same_letter(a[i - 1], b[j - 1]) ? 0 : 1);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *suggest_nearest(const char *word, const char *const *names)
{
    size_t len = strlen(word);
    /* Up to a third of the word may be wrong (at least one letter): "vaues" -> "values", "sumn" -> "sum". */
    int allowed = len < 3 ? 1 : (int)len / 3;
    const char *best = NULL;
    int best_distance = allowed + 1;
    for (const char *const *n = names; *n; n++) {
        int dist = suggest_distance(word, *n);
        if (dist < best_distance) { best = *n; best_distance = dist; }
    }
    if (best) return best;
    for (const char *const *n = names; *n; n++) /* a written-out name: "probability" for "p" */
        if (starts_with(word, *n) && (!best || strlen(*n) > strlen(best))) best = *n;
    if (best || len < 2) return best;
    for (const char *const *n = names; *n; n++) /* a shortened one: "neigh" for "neighborhood" */
        if (starts_with(*n, word)) return *n;
    return NULL;
}

const char *suggest_phrase(char *buf, size_t size, const char *word, const char *const *names)
{
    const char *near = suggest_nearest(word, names);
    if (near) snprintf(buf, size, "; did you mean '%s'?", near);
    else if (size) buf[0] = 0;
    return buf;
}
