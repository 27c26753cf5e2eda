/* trace_expect.c — what the viewer must show at chosen steps of a trace, worked out
   by the C reader, as JSON for the browser test: per step, the acting node, the
   grid's size, its cells (one legend index per character, '0' + value) and the
   palette colours. Usage: trace_expect RUN.trace STEP... */
#include <stdio.h>
#include <stdlib.h>
#include "smalti.h"
#include "../src/trace/trace.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: trace_expect RUN.trace STEP...\n");
        return 2;
    }
    smalti_error err;
    trace_reader *r = trace_read_file(argv[1], &err);
    if (!r) {
        fprintf(stderr, "%s: %s\n", err.file, err.message);
        return 1;
    }
    const trace_info *info = trace_reader_info(r);
    printf("{\"steps\": %ld, \"nodes\": %d, \"at\": [", info->steps, info->node_count);
    for (int a = 2; a < argc; a++) {
        long step = atol(argv[a]);
        int node = -1;
        if (step > 0) {
            trace_step st;
            if (!trace_seek(r, step - 1, &err) || !trace_next(r, &st, &err)) {
                fprintf(stderr, "%s: %s\n", err.file, err.message);
                return 1;
            }
            node = st.node;
        } else if (!trace_seek(r, 0, &err)) {
            fprintf(stderr, "%s: %s\n", err.file, err.message);
            return 1;
        }
        int mx, my, mz;
        const uint8_t *cells = trace_grid(r, &mx, &my, &mz);
        const uint32_t *colors = trace_colors(r);
        printf("%s\n {\"step\": %ld, \"node\": %d, \"mx\": %d, \"my\": %d, \"mz\": %d, \"colors\": [", a > 2 ? "," : "", step,
               node, mx, my, mz);
        for (int v = 0; trace_legend(r)[v]; v++) printf("%s\"%06x\"", v ? ", " : "", colors[v]);
        printf("], \"cells\": \"");
        for (long i = 0; i < (long)mx * my * mz; i++) putchar('0' + cells[i]);
        printf("\"}");
    }
    printf("]}\n");
    trace_reader_free(r);
    return 0;
}
