/* pack_gallery.c — `smalti pack gallery PACK`: one self-contained HTML page showing every model
   of a pack: a picture of its default run (or the pack's own thumbnail) embedded as a data: URI,
   its title, description and tags, and the command that makes the picture again. The page has
   no script and a Content-Security-Policy that lets it load nothing but its own data: images. */
#include "../common/cli.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/diag.h"
#include "../../io/escape.h"
#include "../../nodes/params.h"
#include "pack_cli.h"
#include "../job/job.h"

static const char page_style[] =
    "body{margin:0;font:15px/1.45 system-ui,sans-serif;background:#14161a;color:#e6e6e6}"
    "header{padding:24px 32px 8px}h1{margin:0;font-size:26px}h1 span{color:#9aa3ad;font-weight:normal;font-size:18px}"
    "header p{margin:6px 0;color:#c2c8cf}.meta{color:#9aa3ad;font-size:13px}"
    "main{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:20px;padding:16px 32px 40px}"
    ".card{margin:0;background:#1e2127;border-radius:8px;overflow:hidden;display:flex;flex-direction:column}"
    ".pic{background:#0c0d10;display:flex;align-items:center;justify-content:center;aspect-ratio:1}"
    ".pic img{width:100%;height:100%;object-fit:contain;image-rendering:pixelated}"
    ".failed{color:#ff8a7a;padding:16px;font-size:13px;white-space:pre-wrap}"
    "figcaption{padding:12px 14px 14px}h2{margin:0 0 4px;font-size:17px}figcaption p{margin:4px 0;color:#c2c8cf}"
    ".tags{list-style:none;padding:0;margin:6px 0;display:flex;flex-wrap:wrap;gap:6px}"
    ".tags li{background:#2c313a;color:#b8c4d0;border-radius:10px;padding:1px 9px;font-size:12px}"
    ".settings{font-size:12px;color:#9aa3ad}"
    "code{display:block;margin-top:8px;padding:6px 8px;background:#0c0d10;border-radius:4px;font-size:12px;"
    "overflow-x:auto;white-space:nowrap;user-select:all}";

typedef struct gallery_args {
    const char *pack_path, *output;
    double timeout;        /* 0: none (the default: a card from the clock differs by machine) */
    long long max_work;    /* each run's work budget */
    uint64_t max_unpacked; /* 0: the default cap */
    size_t max_memory;     /* each model's load, run and picture, and the unpacking */
    bool quiet;
} gallery_args;

/* An argument as a POSIX shell reads it back: as it is when it holds only safe characters, else in single quotes. */
static void put_shell_word(FILE *f, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-") == strlen(s)) {
        html_write_text(f, s);
        return;
    }
    fputc('\'', f);
    for (const char *c = s; *c; c++) {
        if (*c == '\'') fputs("'\\''", f);
        else {
            char one[2] = {*c, 0};
            html_write_text(f, one);
        }
    }
    fputc('\'', f);
}

static bool is_png(const unsigned char *data, size_t size)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    return size > 8 && memcmp(data, signature, 8) == 0;
}

/* The final grid of run as PNG bytes, as `smalti run -o X.png` draws it: palette colours at the
   pixel size, a 3-D grid isometrically. */
static bool render_png(const smalti_run *run, const palette *pal, int pixel_size, unsigned char **png, size_t *size,
                       smalti_error *err)
{
    grid_view g;
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(run);
    uint32_t colors[GRID_COLORS_MAX];
    char missing[64];
    palette_colors(pal, g.legend, colors, missing, sizeof missing);
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    if (!f) {
        error_set(err, SMALTI_ERR_MEMORY, "<png>", 0, "out of memory");
        return false;
    }
    bool ok;
    if (g.mz > 1) {
        int w, h;
        uint32_t *pixels = iso_render(&g, colors, pixel_size, &w, &h);
        ok = pixels && png_write_rgb(f, pixels, w, h, err);
        if (!pixels && !iso_size_ok(g.mx, g.my, g.mz, pixel_size))
            error_set(err, SMALTI_ERR_RUNTIME, "<png>", 0, "the isometric picture is too large; lower pixelsize");
        else if (!pixels) error_set(err, SMALTI_ERR_RUNTIME, "<png>", 0, "out of memory drawing the isometric picture");
        mem_free(pixels);
    } else ok = png_write_grid(f, &g, colors, pixel_size, err);
    if (fclose(f) != 0 && ok) {
        error_set(err, SMALTI_ERR_MEMORY, "<png>", 0, "out of memory");
        ok = false;
    }
    if (!ok) {
        free(buf);
        return false;
    }
    *png = (unsigned char *)buf;
    return true;
}

static void ignore_warning(void *userdata, const char *file, int line, const char *message)
{
    (void)userdata, (void)file, (void)line, (void)message; /* warnings are `pack check`'s business */
}

/* One of an entry's combinations of parameter values (pack_model_setting): one picture each. */
typedef struct gallery_setting {
    long k, of;                       /* combination k of `of` */
    const char *params[PARAMS_MAX];   /* "name=value" */
    int count;
} gallery_setting;

/* Run model m at its defaults (with set's values), through the pipeline of every command (job/), and draw it; false
   with err set ("PACK/models/x.xml:3: ..."). */
static bool model_picture(const pack *p, const pack_model *m, const gallery_setting *set, const gallery_args *a,
                          unsigned char **png, size_t *size, smalti_error *err)
{
    /* The load and the run each get the time cap; a deadline passed while loading is said as one in the run. */
    const job_request req = {.model = pack_path(p), .pk = p, .pm = m, .params = set->params, .param_count = set->count,
                             .iso = -1, .timeout = a->timeout,
                             .max_memory = a->max_memory, .max_work = a->max_work, .quiet = a->quiet,
                             .warn = ignore_warning, .keep_errors = true};
    job j;
    if (job_open(&j, &req) != EXIT_OK) {
        *err = j.error;
        return false;
    }
    job_run_spec spec = {.seed = j.seed, .who = m->name, .no_note = true, .keep_errors = true, .report = job_keep_error,
                         .report_userdata = err};
    smalti_run *run = NULL;
    job_result res;
    bool ok = job_run(&j, &run, &spec, &res) == EXIT_OK && render_png(run, &j.pal, j.pixel_size, png, size, err);
    if (run && res.error.status != SMALTI_OK) *err = res.error;
    smalti_run_free(run);
    job_close(&j);
    return ok;
}

/* model_picture with the whole of it, the picture drawn too, within the model's memory budget. */
static bool picture_within_budget(const pack *p, const pack_model *m, const gallery_setting *set, const gallery_args *a,
                                  unsigned char **png, size_t *size, smalti_error *err)
{
    mem_budget whole = {.limit = a->max_memory};
    mem_budget *outer = mem_enter_whole(&whole);
    bool ok = model_picture(p, m, set, a, png, size, err);
    mem_enter_whole(outer);
    if (!ok && whole.spent && err->status != SMALTI_ERR_MEMORY) {
        char what[sizeof err->message], file[sizeof err->file];
        snprintf(what, sizeof what, "%s", err->message);
        snprintf(file, sizeof file, "%s", err->file);
        error_set(err, SMALTI_ERR_MEMORY, file, err->line, "%s: needed more than the memory budget of %.1f MiB (--max-memory)",
                  what, (double)whole.limit / (1 << 20));
    }
    return ok;
}

static void put_header(FILE *f, const pack_manifest *man)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
          "<title>",
          f);
    html_write_text(f, man->name);
    fputs(" · smalti pack gallery</title>\n<style>", f);
    fputs(page_style, f);
    fputs("</style>\n</head>\n<body>\n<header>\n<h1>", f);
    html_write_text(f, man->name);
    fputs(" <span>", f);
    html_write_text(f, man->version);
    fputs("</span></h1>\n", f);
    if (man->description && *man->description) {
        fputs("<p>", f);
        html_write_text(f, man->description);
        fputs("</p>\n", f);
    }
    fputs("<p class=\"meta\">", f);
    fprintf(f, "%d %s", man->model_count, plural(man->model_count, "model", "models"));
    if (man->license) {
        fputs(" · licence ", f);
        html_write_text(f, man->license);
    }
    for (int i = 0; i < man->author_count; i++) {
        fputs(i ? ", " : " · by ", f);
        html_write_text(f, man->authors[i].name);
    }
    /* The homepage as text: the page links nowhere, so that nothing leaves it. */
    if (man->homepage) {
        fputs(" · ", f);
        html_write_text(f, man->homepage);
    }
    fputs("</p>\n</header>\n<main>\n", f);
}

/* One model's card: its picture (or why there is none), its words, and the command. */
static void put_card(FILE *f, const gallery_args *a, const pack_model *m, const gallery_setting *set, const pack_defaults *d,
                     const unsigned char *png, size_t png_size, const char *failure)
{
    const char *title = m->title ? m->title : m->name;
    const bool several = set->of > 1; /* one card per combination: each says its values */
    fputs("<figure class=\"card\" id=\"model-", f);
    html_write_text(f, m->name);
    if (set->k > 0) fprintf(f, "-%ld", set->k);
    fputs("\">\n<div class=\"pic\">", f);
    if (png) {
        fputs("<img alt=\"", f);
        html_write_text(f, title);
        fputs("\" src=\"data:image/png;base64,", f);
        put_base64(f, png, png_size);
        fputs("\">", f);
    } else {
        fputs("<div class=\"failed\">", f);
        html_write_text(f, failure);
        fputs("</div>", f);
    }
    fputs("</div>\n<figcaption>\n<h2>", f);
    html_write_text(f, title);
    fputs("</h2>\n", f);
    if (m->description) {
        fputs("<p>", f);
        html_write_text(f, m->description);
        fputs("</p>\n", f);
    }
    if (m->tag_count) {
        fputs("<ul class=\"tags\">", f);
        for (int i = 0; i < m->tag_count; i++) {
            fputs("<li>", f);
            html_write_text(f, m->tags[i]);
            fputs("</li>", f);
        }
        fputs("</ul>\n", f);
    }
    if (d) {
        fputs("<p class=\"settings\">", f);
        if (d->mz > 1) fprintf(f, "%d×%d×%d", d->mx, d->my, d->mz);
        else fprintf(f, "%d×%d", d->mx, d->my);
        fprintf(f, " · seed %ld · ", (long)d->seed);
        if (d->steps > 0) fprintf(f, "%ld %s", d->steps, plural(d->steps, "step", "steps"));
        else fputs("no step limit", f);
        for (int i = 0; i < set->count; i++) {
            fputs(i ? ", " : " · ", f);
            html_write_text(f, set->params[i]);
        }
        fputs("</p>\n", f);
    }
    fputs("<code>smalti run ", f);
    put_shell_word(f, a->pack_path);
    fputc(' ', f);
    put_shell_word(f, m->name);
    if (d) fprintf(f, " --seed %ld", (long)d->seed);
    for (int i = 0; several && i < set->count; i++) {
        fputs(" --set ", f);
        put_shell_word(f, set->params[i]);
    }
    fputs(" -o ", f);
    char file[300];
    if (several && set->k > 0) snprintf(file, sizeof file, "%s_%ld.png", m->name, set->k);
    else snprintf(file, sizeof file, "%s.png", m->name);
    put_shell_word(f, file);
    fputs("</code>\n</figcaption>\n</figure>\n", f);
}

/* The card of combination set->k of model m: its picture (its thumbnail, or a run), or why there is
   none (said on stderr too). EXIT_OK, or not with err set. */
static int put_model_card(FILE *f, const pack *p, const pack_model *m, gallery_setting *set, const gallery_args *a,
                          smalti_error *err)
{
    set->count = pack_model_setting(m, set->k, set->params);
    pack_defaults d;
    unsigned char *png = NULL;
    size_t png_size = 0;
    bool have_defaults = pack_model_defaults(p, m, NULL, set->params, set->count, &d, err), ok = have_defaults;
    if (ok && m->thumbnail) {
        png = pack_read(p, m->thumbnail, &png_size, err);
        if (png && !is_png(png, png_size)) {
            char label[4400];
            pack_entry_label(p, m->thumbnail, label, sizeof label);
            error_set(err, SMALTI_ERR_MODEL, label, 0, "the thumbnail is not a PNG");
            mem_free(png);
            png = NULL;
        }
        ok = png != NULL;
    } else if (ok) ok = picture_within_budget(p, m, set, a, &png, &png_size, err);
    char failure[1200] = "";
    if (!ok) {
        print_error(err);
        if (err->line > 0) snprintf(failure, sizeof failure, "%s:%d: %s", err->file, err->line, err->message);
        else snprintf(failure, sizeof failure, "%s: %s", err->file, err->message);
    } else if (!a->quiet) {
        fprintf(stderr, "%s", m->name);
        for (int i = 0; set->of > 1 && i < set->count; i++) fprintf(stderr, " %s", set->params[i]);
        fprintf(stderr, ": ok\n");
    }
    put_card(f, a, m, set, have_defaults ? &d : NULL, png, png_size, failure);
    mem_free(png);
    return ok ? EXIT_OK : EXIT_MODEL;
}

static int parse_gallery_args(int argc, char **argv, gallery_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) a->quiet = true;
        else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (i + 1 >= argc) return usage_error("%s needs a value", arg);
            a->output = argv[++i];
        } else if (strcmp(arg, "--max-unpacked") == 0) {
            if (!parse_max_unpacked(i + 1 < argc ? argv[i + 1] : NULL, &a->max_unpacked)) return EXIT_USAGE;
            i++;
        } else if (strcmp(arg, "--max-work") == 0) {
            if (!parse_max_work(i + 1 < argc ? argv[i + 1] : NULL, &a->max_work)) return EXIT_USAGE;
            i++;
        } else if (strcmp(arg, "--max-memory") == 0) {
            if (!parse_max_memory(i + 1 < argc ? argv[i + 1] : NULL, &a->max_memory)) return EXIT_USAGE;
            i++;
        } else if (strcmp(arg, "--timeout") == 0) {
            if (!parse_timeout(i + 1 < argc ? argv[i + 1] : NULL, &a->timeout)) return EXIT_USAGE;
            i++;
        } else if (arg[0] == '-' && arg[1]) return unknown_option("pack gallery", arg);
        else if (a->pack_path) return usage_error("unexpected argument %s", arg);
        else a->pack_path = arg;
    }
    if (!a->pack_path) return usage_error("%s", "pack gallery: missing PACK (a pack folder or .zip)");
    if (!a->output) a->output = "gallery.html";
    /* A stranger's model may run without end; a page should still come out, the same on every machine. */
    if (a->max_work == 0) a->max_work = PACK_MAX_WORK;
    if (a->max_memory == 0) a->max_memory = PACK_MAX_MEMORY;
    return EXIT_OK;
}

int cmd_pack_gallery(int argc, char **argv)
{
    gallery_args a;
    int rc = parse_gallery_args(argc, argv, &a);
    if (rc != EXIT_OK) return rc;
    smalti_error err;
    pack *p = cli_pack_open(a.pack_path, a.max_unpacked, a.max_memory, a.quiet, &rc);
    if (!p) return rc;
    const pack_manifest *man = pack_manifest_of(p);
    atomic_file af;
    if (!atomic_open(&af, a.output, temp_files_hook(), &err)) {
        print_error(&err);
        pack_close(p);
        return exit_code_for(err.status);
    }
    put_header(af.f, man);
    int failures = 0;
    for (int i = 0; i < man->model_count; i++) {
        const pack_model *m = &man->models[i];
        /* One picture per combination of the entry's listed parameter values; a thumbnail stands for them all. */
        gallery_setting set = {.of = m->thumbnail ? 1 : pack_model_setting_count(m)};
        for (set.k = 0; set.k < set.of; set.k++)
            if (put_model_card(af.f, p, m, &set, &a, &err) != EXIT_OK && !failures++) rc = exit_code_for(err.status);
    }
    fputs("</main>\n</body>\n</html>\n", af.f);
    if (ferror(af.f)) {
        int e = errno;
        atomic_abort(&af);
        error_set(&err, SMALTI_ERR_IO, a.output, 0, "cannot write: %s", strerror(e ? e : EIO));
        print_error(&err);
        rc = EXIT_IO;
    } else if (!atomic_commit(&af, &err)) {
        print_error(&err);
        rc = exit_code_for(err.status);
    } else if (!a.quiet && strcmp(a.output, "-") != 0) {
        printf("%s: %d %s%s\n", a.output, man->model_count, plural(man->model_count, "model", "models"),
               failures ? ", some without a picture (see above)" : "");
    }
    pack_close(p);
    return rc;
}
