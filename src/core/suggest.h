/* suggest.h — "did you mean": the nearest of a list of valid names to a misspelt one. */
#ifndef SMALTI_SUGGEST_H
#define SMALTI_SUGGEST_H
#include <stddef.h>

/* Edit distance (insertions, deletions, substitutions, swaps of neighbours; a
   difference of case costs nothing) between two short names; names past 63
   characters count as far. */
int suggest_distance(const char *a, const char *b);
/* The valid name closest to `word` among the NULL-terminated `names`: the
   smallest edit distance if it is small for the word's length, else the longest
   name that the word starts with ("probability" -> "p"), else the name that
   starts with the word (at least two letters of it). NULL when none is close. */
const char *suggest_nearest(const char *word, const char *const *names);
/* "; did you mean 'X'?" for the nearest name into buf, or "" when none is close. */
const char *suggest_phrase(char *buf, size_t size, const char *word, const char *const *names);
#endif
