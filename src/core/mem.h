/* mem.h — the library's allocator: every allocation a run makes counts against that run's memory budget,
   and fails cleanly (NULL, as when memory runs out) once the budget is spent. */
#ifndef SMALTI_MEM_H
#define SMALTI_MEM_H
#include <stdbool.h>
#include <stddef.h>

/* A run's budget: at most `limit` bytes live at once (0: no limit); `used` counts
   the blocks allocated while it was current and not yet freed. */
typedef struct mem_budget {
    size_t limit;
    size_t used;
    bool spent;      /* an allocation was refused: the run must stop */
} mem_budget;

void *mem_malloc(size_t size);
void *mem_calloc(size_t count, size_t size);
void *mem_realloc(void *p, size_t size);
void mem_free(void *p);
char *mem_strdup(const char *s);

/* Make `b` the budget that the calling thread's allocations count against
   (NULL: none) and return the one it replaces. The API entry points of a run
   (new, step, reset, free) enter its budget and restore the previous one on
   the way out, so a budget is current only inside calls made for its run,
   on the thread making them: runs on other threads are never affected. */
mem_budget *mem_enter(mem_budget *b);

/* Make `b` the budget of the calling thread's whole task (NULL: none) and return the one it
   replaces: every counted allocation counts against it as well as against the current budget,
   so a program that holds a run's budget and draws, unpacks or parses around the run stays within
   one bound in all (the smalti command does, for --max-memory). */
mem_budget *mem_enter_whole(mem_budget *b);
/* Whether the calling thread's whole-task budget (if any) has refused an allocation. */
bool mem_whole_spent(void);
/* Whether either of the calling thread's budgets (the current one or the whole task's) has refused an
   allocation: a failure that follows was the budget's, not the machine's. */
bool mem_any_spent(void);
#endif
