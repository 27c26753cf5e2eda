/* tempfiles.c — the temporary files of this process, removed when SIGINT,
   SIGTERM, SIGHUP or SIGPIPE (the reader of "-" or of a FIFO gone) ends it.
   Outputs are written as NAME.tmpPID and renamed when complete (io/atomic.c);
   a signal in between would leave the temporary file, and a GIF's or a
   trace's is being written all through a run. The writers tell
   temp_files_hook() of each name before making the file and once the name is
   free again; the handler unlinks the names still listed, then dies of the
   signal as the process would have without it.

   The list is global mutable state, the one piece in smalti: a signal handler
   can reach nothing else. It belongs to the command, not to the library, whose
   runs share nothing. Threads of many runs change it at once; a slot's state
   is an atomic, so the handler never sees half a name. A signal ignored when smalti starts (nohup, a
   background job of a script) stays ignored. --watch blocks SIGINT and SIGTERM
   itself and ends the run in order (watch.c); the handler then never runs. */
#include "cli.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A command has at most one temporary file per output open at a time: the
   result, the GIF, the trace and a PNG frame; many runs (many/workers.c) have one per
   thread, and at most 256 threads. A name beyond the slots would go unlisted
   (and be left by a signal), but cannot happen. */
#define TEMP_SLOTS 264

/* Each slot is free, being filled or emptied by one thread, or listed. Threads
   take a free slot with a compare-and-swap, so that two never share one, and
   the handler (on whichever thread the signal lands) reads only the listed
   slots it takes, whose names are complete: the name is written before the
   slot is marked listed, and the mark is taken off before the name changes. Lock-free atomics
   are safe in a signal handler; a mutex would not be. */
enum { SLOT_FREE, SLOT_BUSY, SLOT_LISTED };
static char temp_names[TEMP_SLOTS][sizeof ((atomic_file *)0)->tmp];
static atomic_int temp_state[TEMP_SLOTS];
/* Which thread listed each slot's name (the address of its thread_mark). Only the thread that
   listed a name takes it off, and it looks at no other thread's name: another thread may be
   writing a new name into a slot at any moment after it was listed. */
static atomic_uintptr_t temp_owner[TEMP_SLOTS];
static _Thread_local char thread_mark;

/* A name is told before its file is made. Other threads go on while the handler runs, so one could
   make its file after the handler has looked at its slot, and leave it behind. So a thread keeps the
   ending signals blocked from telling a name until the file is made (claim to made), counted in
   temp_making; the handler sets temp_ending, which keeps any thread from making a new file, and
   waits for temp_making to reach 0 before it removes the files. */
static atomic_int temp_ending, temp_making;
static _Thread_local sigset_t making_mask; /* the thread's signal mask before claim */
/* How long the handler waits for files being made (busy turns; a file is made in microseconds). */
#define MAKING_WAIT 200000000L

static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define ENDING_SIGNAL_COUNT (int)(sizeof ending_signals / sizeof *ending_signals)

static void ending_set(sigset_t *set)
{
    sigemptyset(set);
    for (int i = 0; i < ENDING_SIGNAL_COUNT; i++) sigaddset(set, ending_signals[i]);
}

/* Put tmp in a free slot of the list, or take it off, with the ending signals
   blocked on this thread (so that its own handler never sees its slot busy). */
static void change_list(const char *tmp, bool add)
{
    sigset_t set, old;
    ending_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    const uintptr_t me = (uintptr_t)&thread_mark;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expected = add ? SLOT_FREE : SLOT_LISTED;
        if (!add && (atomic_load(&temp_state[i]) != SLOT_LISTED || atomic_load(&temp_owner[i]) != me ||
                     strcmp(temp_names[i], tmp) != 0))
            continue;
        if (!atomic_compare_exchange_strong(&temp_state[i], &expected, SLOT_BUSY)) continue;
        if (add) {
            snprintf(temp_names[i], sizeof temp_names[i], "%s", tmp);
            atomic_store(&temp_owner[i], me);
            atomic_store(&temp_state[i], SLOT_LISTED);
        } else {
            atomic_store(&temp_state[i], SLOT_FREE);
        }
        break;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The ending signals stay blocked until made(). Once the handler has begun, no file is made: this
   thread waits for the end of the process, which the handler's thread brings. */
static void claim(void *ctx, const char *tmp)
{
    (void)ctx;
    sigset_t set;
    ending_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, &making_mask);
    atomic_fetch_add(&temp_making, 1);
    if (atomic_load(&temp_ending)) {
        atomic_fetch_sub(&temp_making, 1);
        for (;;) pause();
    }
    change_list(tmp, true);
}

static void made(void *ctx, const char *tmp)
{
    (void)ctx;
    (void)tmp;
    atomic_fetch_sub(&temp_making, 1);
    pthread_sigmask(SIG_SETMASK, &making_mask, NULL);
}

static void release(void *ctx, const char *tmp)
{
    (void)ctx;
    change_list(tmp, false);
}

bool temp_files_ending(void) { return atomic_load(&temp_ending) != 0; }

const temp_hook *temp_files_hook(void)
{
    static const temp_hook hook = {claim, release, NULL, made};
    return &hook;
}

/* Only async-signal-safe calls here: unlink, sigaction, raise, and lock-free
   atomics. The signal raised again is blocked until the handler returns, and
   then, with its default action back, ends the process. Other threads go on
   meanwhile, so the handler takes each listed slot (listed -> busy) before it
   reads the name: no thread can then take that name off and list another in
   its place while it is read, which could make a name half old, half new. */
static void remove_temp_files(int sig)
{
    atomic_store(&temp_ending, 1);
    /* The threads making a file have this signal blocked, so none of them is this one. */
    for (long turn = 0; turn < MAKING_WAIT && atomic_load(&temp_making) > 0; turn++) continue;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expected = SLOT_LISTED;
        if (atomic_compare_exchange_strong(&temp_state[i], &expected, SLOT_BUSY)) unlink(temp_names[i]);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

void temp_files_guard(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temp_files;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < ENDING_SIGNAL_COUNT; i++) sigaddset(&sa.sa_mask, ending_signals[i]);
    for (int i = 0; i < ENDING_SIGNAL_COUNT; i++) {
        struct sigaction was;
        if (sigaction(ending_signals[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN) sigaction(ending_signals[i], &sa, NULL);
    }
}
