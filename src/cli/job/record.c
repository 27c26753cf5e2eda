/* record.c — recording a run as a trace (`run --trace`, and studio's runs): the writer, with the
   model's text for the viewer. */
#include "pieces.h"
#include "../common/cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../core/file_read.h"

/* The model's text, kept in the trace so that the viewer can show its lines. A regular file only,
   read from the descriptor that checked it: a model swapped for a FIFO since it was loaded must not
   leave the run waiting for a writer. */
static char *read_source(const char *path, size_t *len)
{
    int fd = file_open_named(path);
    struct stat st;
    FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0) close(fd);
        return NULL;
    }
    size_t cap = 1 << 14, n = 0;
    char *text = malloc(cap);
    while (text) {
        n += fread(text + n, 1, cap - n, f);
        if (n < cap || cap >= (1u << 24)) break; /* a model over 16 MB is shown cut */
        char *bigger = realloc(text, cap * 2);
        if (!bigger) break;
        text = bigger;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return text;
}

trace_writer *trace_record_start(const char *trace_path, const char *model_path, smalti_run *run, const smalti_model *model,
                                 int32_t seed, long step_limit, const palette *pal, smalti_error *err)
{
    size_t source_len = 0;
    char *source = read_source(model_path, &source_len);
    trace_meta meta = {.model_path = model_path, .source = source, .source_len = source_len, .seed = seed,
                       .step_limit = step_limit};
    trace_writer *w = trace_writer_new(trace_path, run, model, &meta, pal, temp_files_hook(), err);
    free(source);
    return w;
}
