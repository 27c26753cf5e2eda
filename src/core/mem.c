/* mem.c — allocation counted against the current run's budget. A block's size is what malloc_usable_size
   says, so blocks need no header and any of them may still be released with free(). */
#include "mem.h"
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* The one piece of mutable state outside runs and models: which budget the
   calling thread works for. It is thread-local and set only for the length
   of an API call (mem_enter), so runs stay independent of each other.
   initial-exec: one load from the thread pointer instead of a call to
   __tls_get_addr, which the -fPIC build would otherwise make per access
   (a step enters and leaves its run's budget). */
static _Thread_local mem_budget *current __attribute__((tls_model("initial-exec")));
/* The budget of the thread's whole task (mem_enter_whole), counted as well as `current`. */
static _Thread_local mem_budget *whole __attribute__((tls_model("initial-exec")));

mem_budget *mem_enter(mem_budget *b)
{
    mem_budget *previous = current;
    current = b;
    return previous;
}

mem_budget *mem_enter_whole(mem_budget *b)
{
    mem_budget *previous = whole;
    whole = b;
    return previous;
}

bool mem_whole_spent(void) { return whole && whole->spent; }
bool mem_any_spent(void) { return (current && current->spent) || mem_whole_spent(); }

/* Whether `more` bytes fit in the budget; when not, the budget is spent. */
static bool fits(mem_budget *b, size_t more)
{
    if (!b->limit || (b->used <= b->limit && more <= b->limit - b->used)) return true;
    b->spent = true;
    return false;
}

/* Whether `more` bytes fit in both budgets; when not, both are spent, so that a run stopped
   by the whole task's budget reports it as its own out-of-memory. */
static bool fits_both(mem_budget *b, mem_budget *w, size_t more)
{
    bool ok = (!b || fits(b, more)) && (!w || w == b || fits(w, more));
    if (!ok && b) b->spent = true;
    if (!ok && w) w->spent = true;
    return ok;
}

static void add(mem_budget *b, size_t size) { b->used += size; }

static void take(mem_budget *b, size_t size)
{
    /* A block made before the budget was current is not in `used`. */
    b->used = b->used > size ? b->used - size : 0;
}

static void count(mem_budget *b, mem_budget *w, void *p)
{
    size_t size = malloc_usable_size(p);
    if (b) add(b, size);
    if (w && w != b) add(w, size);
}

static void uncount(mem_budget *b, mem_budget *w, void *p)
{
    size_t size = malloc_usable_size(p);
    if (b) take(b, size);
    if (w && w != b) take(w, size);
}

void *mem_malloc(size_t size)
{
    mem_budget *b = current, *w = whole;
    if (!b && !w) return malloc(size);
    if (!fits_both(b, w, size)) return NULL;
    void *p = malloc(size);
    if (p) count(b, w, p);
    return p;
}

void *mem_calloc(size_t count_, size_t size)
{
    mem_budget *b = current, *w = whole;
    if (!b && !w) return calloc(count_, size);
    if (size && count_ > (size_t)-1 / size) return NULL;
    if (!fits_both(b, w, count_ * size)) return NULL;
    void *p = calloc(count_, size);
    if (p) count(b, w, p);
    return p;
}

void *mem_realloc(void *p, size_t size)
{
    mem_budget *b = current, *w = whole;
    if (!b && !w) return realloc(p, size);
    size_t old = p ? malloc_usable_size(p) : 0;
    if (size > old && !fits_both(b, w, size - old)) return NULL;
    if (p) uncount(b, w, p);
    void *q = realloc(p, size);
    if (q) count(b, w, q);
    else if (p) count(b, w, p); /* the old block stays */
    return q;
}

void mem_free(void *p)
{
    if (!p) return;
    if (current || whole) uncount(current, whole, p);
    free(p);
}

char *mem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = mem_malloc(n);
    if (copy) memcpy(copy, s, n);
    return copy;
}
