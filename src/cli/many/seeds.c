/* seeds.c — seed lists ("1,5,9..20") and shards ("K/N") of many runs. */
#include "many.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number in the range of a seed at *p; false when there is none. */
static bool read_seed(const char **p, int64_t *out)
{
    const char *s = *p;
    if (*s != '-' && (*s < '0' || *s > '9')) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno || v < INT32_MIN || v > INT32_MAX) return false;
    *p = end;
    *out = v;
    return true;
}

static int by_first(const void *a, const void *b)
{
    const seed_range *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The running counts, and whether any seed is in two ranges (found on a sorted copy). */
static bool finish_list(seed_list *l, char *why, size_t why_size)
{
    l->total = 0;
    for (int i = 0; i < l->count; i++) {
        l->ranges[i].before = l->total;
        l->total += l->ranges[i].last - l->ranges[i].first + 1;
    }
    seed_range *sorted = malloc((size_t)l->count * sizeof *sorted);
    if (!sorted) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    memcpy(sorted, l->ranges, (size_t)l->count * sizeof *sorted);
    qsort(sorted, (size_t)l->count, sizeof *sorted, by_first);
    bool ok = true;
    for (int i = 1; i < l->count && ok; i++)
        if (sorted[i].first <= sorted[i - 1].last) {
            snprintf(why, why_size, "seed %lld is listed twice", (long long)sorted[i].first);
            ok = false;
        }
    free(sorted);
    return ok;
}

bool seed_list_parse(const char *text, seed_list *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    int cap = 1;
    for (const char *c = text; *c; c++) cap += *c == ',';
    out->ranges = calloc((size_t)cap, sizeof *out->ranges);
    if (!out->ranges) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    const char *p = text;
    for (;;) {
        seed_range r;
        const char *at = p;
        if (!read_seed(&p, &r.first)) {
            snprintf(why, why_size, "expected a seed (an integer from %ld to %ld) at \"%s\"", (long)INT32_MIN, (long)INT32_MAX, at);
            goto fail;
        }
        r.last = r.first;
        if (p[0] == '.' && p[1] == '.') {
            p += 2;
            at = p;
            if (!read_seed(&p, &r.last)) {
                snprintf(why, why_size, "expected the last seed of the range at \"%s\"", at);
                goto fail;
            }
            if (r.last < r.first) {
                snprintf(why, why_size, "a range goes up: %lld..%lld", (long long)r.first, (long long)r.last);
                goto fail;
            }
        }
        out->ranges[out->count++] = r;
        if (*p == 0) break;
        if (*p != ',') {
            snprintf(why, why_size, "expected ',' or '..' at \"%s\"", p);
            goto fail;
        }
        p++;
    }
    if (finish_list(out, why, why_size)) return true;
fail:
    seed_list_free(out);
    return false;
}

bool seed_list_of(const int32_t *seeds, int count, seed_list *out)
{
    memset(out, 0, sizeof *out);
    out->ranges = calloc((size_t)(count > 0 ? count : 1), sizeof *out->ranges);
    if (!out->ranges) return false;
    for (int i = 0; i < count; i++) out->ranges[i] = (seed_range){seeds[i], seeds[i], 0};
    out->count = count;
    char why[80];
    if (finish_list(out, why, sizeof why)) return true;
    seed_list_free(out);
    return false;
}

int32_t seed_list_at(const seed_list *l, int64_t k)
{
    /* The last range that starts at or before k. */
    int lo = 0, hi = l->count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (l->ranges[mid].before <= k) lo = mid;
        else hi = mid - 1;
    }
    return (int32_t)(l->ranges[lo].first + (k - l->ranges[lo].before));
}

void seed_list_free(seed_list *l)
{
    free(l->ranges);
    memset(l, 0, sizeof *l);
}

bool shard_parse(const char *text, long *k, long *n)
{
    if (!text) return false;
    char *end;
    errno = 0;
    long a = strtol(text, &end, 10);
    if (end == text || *end != '/' || errno) return false;
    const char *second = end + 1;
    long b = strtol(second, &end, 10);
    if (end == second || *end || errno || *second == '-' || *second == '+' || text[0] == '-' || text[0] == '+') return false;
    if (b < 1 || b > 1000000 || a < 1 || a > b) return false;
    *k = a;
    *n = b;
    return true;
}
