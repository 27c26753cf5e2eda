/* suggest.c — "did you mean": the nearest of a list of valid names to a misspelt one. */
#include "suggest.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SUGGEST_MAX_LEN 63

int suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN) return SUGGEST_MAX_LEN + 1;
    int row[SUGGEST_MAX_LEN + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int above = row[j];
            /* A case slip (Moore for moore) is a substitution like any other; it keeps the sum simple. */
            int cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            int best = diagonal + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *suggest_nearest(const char *word, const char *const *names)
{
    size_t len = strlen(word);
    /* Up to a third of the word may be wrong (at least one letter): "prll" -> "prl", "sumn" -> "sum". */
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
