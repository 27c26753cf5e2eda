/* view.c — `smalti view`: a trace turned into one self-contained HTML page (src/view/ compiled in; the trace embedded as base64). */
#include "commands.h"
#include "../../trace/trace.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../core/diag.h"
#include "../../core/file_read.h"
#include "../../io/escape.h"
#include "../common/viewer_assets.h"

/* The page: the template with its markers replaced by the styles, the
   scripts, the title and the trace. */
static bool write_page(FILE *f, const char *title, const uint8_t *trace, size_t trace_len)
{
    const char *p = viewer_html;
    for (;;) {
        const char *mark = strstr(p, "<!--@");
        if (!mark) {
            fputs(p, f);
            break;
        }
        fwrite(p, 1, (size_t)(mark - p), f);
        const char *close = strstr(mark, "@-->");
        if (!close) return false;
        size_t name_len = (size_t)(close - mark - 5);
        const char *name = mark + 5;
        if (name_len == 5 && memcmp(name, "TITLE", 5) == 0) html_write_text(f, title);
        else if (name_len == 6 && memcmp(name, "STUDIO", 6) == 0) { /* smalti studio's controls: none in a static page */ }
        else if (name_len == 3 && memcmp(name, "CSS", 3) == 0) fprintf(f, "<style>\n%s</style>", viewer_css);
        else if (name_len == 2 && memcmp(name, "JS", 2) == 0) fprintf(f, "<script>\n%s\n%s</script>", inflate_js, viewer_js);
        else if (name_len == 5 && memcmp(name, "TRACE", 5) == 0) {
            fputs("<script type=\"application/octet-stream\" id=\"trace-data\">", f);
            put_base64(f, trace, trace_len);
            fputs("</script>", f);
        } else return false;
        p = close + 4;
    }
    return !ferror(f);
}

static int view_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "smalti: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nUsage: smalti view RUN.trace [-o RUN.html] [-q]\n");
    return EXIT_USAGE;
}

int cmd_view(int argc, char **argv)
{
    const char *trace_path = NULL, *output = NULL;
    bool quiet = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) quiet = true;
        else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (i + 1 >= argc) return view_usage("%s needs a value", argv[i]);
            output = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) return unknown_option("view", argv[i]);
        else if (trace_path) return view_usage("unexpected argument %s", argv[i]);
        else trace_path = argv[i];
    }
    if (!trace_path) return view_usage("%s", "missing RUN.trace");
    char default_output[4096];
    if (!output) {
        const char *dot = strrchr(trace_path, '.'), *slash = strrchr(trace_path, '/');
        int stem = dot && (!slash || dot > slash) ? (int)(dot - trace_path) : (int)strlen(trace_path);
        if (snprintf(default_output, sizeof default_output, "%.*s.html", stem, trace_path) >= (int)sizeof default_output)
            return view_usage("%s", "the trace path is too long");
        output = default_output;
    }
    smalti_error err;
    trace_reader *r = trace_read_file(trace_path, &err);
    /* Replaying it all here means a damaged trace is refused now, not in the browser. */
    if (!r || !trace_verify(r, &err)) {
        print_error(&err);
        trace_reader_free(r);
        return exit_code_for(err.status);
    }
    const trace_info *info = trace_reader_info(r);
    const char *slash = strrchr(info->model_path, '/');
    char title[600];
    snprintf(title, sizeof title, "%s · smalti trace", slash ? slash + 1 : info->model_path);
    size_t len;
    const uint8_t *bytes = trace_reader_bytes(r, &len);
    atomic_file af;
    int rc = EXIT_OK;
    if (!atomic_open(&af, output, temp_files_hook(), &err)) rc = exit_code_for(err.status);
    else if (!write_page(af.f, title, bytes, len)) {
        atomic_abort(&af);
        error_set(&err, SMALTI_ERR_IO, output, 0, "cannot write: %s", strerror(errno ? errno : EIO));
        rc = EXIT_IO;
    } else if (!atomic_commit(&af, &err)) rc = exit_code_for(err.status);
    if (rc != EXIT_OK) print_error(&err);
    else if (!quiet && strcmp(output, "-") != 0) printf("%s\n", output); /* where the page is, for the browser */
    trace_reader_free(r);
    return rc;
}
