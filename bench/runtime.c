/* runtime.c — times one whole process for bench/side.sh: fork, exec, wait, as hyperfine -N does,
   with no shell or /usr/bin/time in the measured span, and takes its peak memory from wait4.
   Usage: runtime FILE CMD [ARG...]: runs CMD with its standard output sent to /dev/null and its
   standard error to FILE.err, and appends "MICROSECONDS PEAK_KIB CPU_MICROSECONDS" to FILE (CPU:
   user and system time, which a loaded machine stretches less than the wall clock). The exit status is CMD's
   (125 if it could not be started, 126 if it was killed by a signal). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: runtime FILE CMD [ARG...]\n");
        return 2;
    }
    char err_path[4096];
    if (snprintf(err_path, sizeof err_path, "%s.err", argv[1]) >= (int)sizeof err_path) {
        fprintf(stderr, "runtime: %s: path too long\n", argv[1]);
        return 2;
    }
    /* Opened before the clock starts, so that only the child's own start-up is timed. */
    int out = open("/dev/null", O_WRONLY), err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) {
        perror("runtime");
        return 2;
    }
    long long t0 = now_us();
    pid_t pid = fork();
    if (pid < 0) {
        perror("runtime: fork");
        return 2;
    }
    if (pid == 0) {
        dup2(out, 1);
        dup2(err, 2);
        execvp(argv[2], argv + 2);
        _exit(125);
    }
    int status = 0;
    struct rusage use;
    if (wait4(pid, &status, 0, &use) < 0) {
        perror("runtime: wait4");
        return 2;
    }
    long long t1 = now_us();
    FILE *f = fopen(argv[1], "a");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    long long cpu = (long long)use.ru_utime.tv_sec * 1000000 + use.ru_utime.tv_usec + (long long)use.ru_stime.tv_sec * 1000000 +
                    use.ru_stime.tv_usec;
    fprintf(f, "%lld %ld %lld\n", t1 - t0, use.ru_maxrss, cpu);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 2;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 126;
}
