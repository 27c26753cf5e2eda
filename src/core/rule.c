/* rule.c — rewrite rules: parsing, symmetry variants, shift tables and matching. */
#include "rule.h"
#include "xmlutil.h"
#include "mem.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rule_free(rule *r)
{
    if (!r) return;
    mem_free(r->input);
    mem_free(r->output);
    mem_free(r->binput);
    mem_free(r->ishift_start);
    mem_free(r->ishifts);
    mem_free(r->ishift_offsets);
    mem_free(r->match);
    mem_free(r->write);
    mem_free(r);
}

/* Fill the derived tables of a rule whose input, output and sizes are set. */
static rule *rule_finish(rule *r)
{
    int n = r->imx * r->imy * r->imz;
    r->ishift_start = mem_calloc((size_t)r->c + 1, sizeof *r->ishift_start);
    r->binput = mem_malloc((size_t)n);
    if (!r->ishift_start || !r->binput) { rule_free(r); return NULL; }
    int total = 0;
    for (int v = 0; v < r->c; v++) {
        r->ishift_start[v] = total;
        for (int i = 0; i < n; i++) total += (r->input[i] >> v) & 1;
    }
    r->ishift_start[r->c] = total;
    r->ishifts = mem_malloc((size_t)(total ? total : 1) * sizeof *r->ishifts);
    if (!r->ishifts) { rule_free(r); return NULL; }
    int k = 0;
    for (int v = 0; v < r->c; v++)
        for (int z = 0; z < r->imz; z++)
            for (int y = 0; y < r->imy; y++)
                for (int x = 0; x < r->imx; x++)
                    if ((r->input[x + y * r->imx + z * r->imx * r->imy] >> v) & 1) {
                        r->ishifts[k][0] = (int16_t)x;
                        r->ishifts[k][1] = (int16_t)y;
                        r->ishifts[k][2] = (int16_t)z;
                        k++;
                    }
    wave_bits wildcard = wave_all(r->c);
    r->input_union = 0;
    for (int i = 0; i < n; i++) {
        wave_bits w = r->input[i];
        r->input_union |= w;
        r->binput[i] = w == wildcard ? RULE_KEEP : w == 0 ? GRID_MAX_VALUES : (uint8_t)__builtin_ctzll(w);
    }
    return r;
}

static rule *rule_new(int c, int imx, int imy, int imz, int omx, int omy, int omz, double p)
{
    rule *r = mem_calloc(1, sizeof *r);
    if (!r) return NULL;
    r->c = c;
    r->imx = imx; r->imy = imy; r->imz = imz;
    r->omx = omx; r->omy = omy; r->omz = omz;
    r->p = p;
    r->input = mem_malloc((size_t)imx * imy * imz * sizeof *r->input);
    r->output = mem_malloc((size_t)omx * omy * omz);
    if (!r->input || !r->output) { rule_free(r); return NULL; }
    return r;
}

/* Rotation about z: (x, y) -> the reference's ZRotated index map. */
static void *rule_rotated_z(void *ctx, const void *thing)
{
    (void)ctx;
    const rule *s = thing;
    rule *r = rule_new(s->c, s->imy, s->imx, s->imz, s->omy, s->omx, s->omz, s->p);
    if (!r) return NULL;
    for (int z = 0; z < s->imz; z++)
        for (int y = 0; y < s->imx; y++)
            for (int x = 0; x < s->imy; x++)
                r->input[x + y * s->imy + z * s->imx * s->imy] = s->input[s->imx - 1 - y + x * s->imx + z * s->imx * s->imy];
    for (int z = 0; z < s->omz; z++)
        for (int y = 0; y < s->omx; y++)
            for (int x = 0; x < s->omy; x++)
                r->output[x + y * s->omy + z * s->omx * s->omy] = s->output[s->omx - 1 - y + x * s->omx + z * s->omx * s->omy];
    return rule_finish(r);
}

static void *rule_rotated_y(void *ctx, const void *thing)
{
    (void)ctx;
    const rule *s = thing;
    rule *r = rule_new(s->c, s->imz, s->imy, s->imx, s->omz, s->omy, s->omx, s->p);
    if (!r) return NULL;
    for (int z = 0; z < s->imx; z++)
        for (int y = 0; y < s->imy; y++)
            for (int x = 0; x < s->imz; x++)
                r->input[x + y * s->imz + z * s->imz * s->imy] = s->input[s->imx - 1 - z + y * s->imx + x * s->imx * s->imy];
    for (int z = 0; z < s->omx; z++)
        for (int y = 0; y < s->omy; y++)
            for (int x = 0; x < s->omz; x++)
                r->output[x + y * s->omz + z * s->omz * s->omy] = s->output[s->omx - 1 - z + y * s->omx + x * s->omx * s->omy];
    return rule_finish(r);
}

static void *rule_reflected(void *ctx, const void *thing)
{
    (void)ctx;
    const rule *s = thing;
    rule *r = rule_new(s->c, s->imx, s->imy, s->imz, s->omx, s->omy, s->omz, s->p);
    if (!r) return NULL;
    for (int z = 0; z < s->imz; z++)
        for (int y = 0; y < s->imy; y++)
            for (int x = 0; x < s->imx; x++)
                r->input[x + y * s->imx + z * s->imx * s->imy] = s->input[s->imx - 1 - x + y * s->imx + z * s->imx * s->imy];
    for (int z = 0; z < s->omz; z++)
        for (int y = 0; y < s->omy; y++)
            for (int x = 0; x < s->omx; x++)
                r->output[x + y * s->omx + z * s->omx * s->omy] = s->output[s->omx - 1 - x + y * s->omx + z * s->omx * s->omy];
    return rule_finish(r);
}

bool rule_same(const void *a, const void *b)
{
    const rule *x = a, *y = b;
    if (x->imx != y->imx || x->imy != y->imy || x->imz != y->imz || x->omx != y->omx || x->omy != y->omy || x->omz != y->omz)
        return false;
    return memcmp(x->input, y->input, (size_t)x->imx * x->imy * x->imz * sizeof *x->input) == 0 &&
           memcmp(x->output, y->output, (size_t)x->omx * x->omy * x->omz) == 0;
}

static void rule_free_void(void *r) { rule_free(r); }

bool rule_expand(diag *d, rule *r, bool d2, symmetry_set subset, rule ***list, int *count)
{
    void *images[48];
    int n = symmetry_expand(d2, r, subset, NULL, rule_rotated_z, rule_rotated_y, rule_reflected, rule_same,
                            rule_free_void, images);
    if (n < 0) {
        rule_free(r);
        return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    rule **bigger = mem_realloc(*list, (size_t)(*count + n) * sizeof **list);
    if (!bigger) {
        for (int i = 0; i < n; i++) rule_free(images[i]);
        return diag_error(d, SMALTI_ERR_RUNTIME, 0, "out of memory");
    }
    *list = bigger;
    for (int i = 0; i < n; i++) (*list)[(*count)++] = images[i];
    return true;
}

bool rule_compile(rule *r, int mx, int my)
{
    int n = r->imx * r->imy * r->imz, m = r->omx * r->omy * r->omz;
    r->match = mem_malloc((size_t)(n ? n : 1) * sizeof *r->match);
    r->write = mem_malloc((size_t)(m ? m : 1) * sizeof *r->write);
    int shifts = r->ishift_start[r->c];
    r->ishift_offsets = mem_malloc((size_t)(shifts ? shifts : 1) * sizeof *r->ishift_offsets);
    if (!r->match || !r->write || !r->ishift_offsets) return false;
    for (int l = 0; l < shifts; l++)
        r->ishift_offsets[l] = r->ishifts[l][0] + r->ishifts[l][1] * mx + r->ishifts[l][2] * mx * my;
    wave_bits wildcard = wave_all(r->c);
    r->match_count = 0;
    for (int z = 0; z < r->imz; z++)
        for (int y = 0; y < r->imy; y++)
            for (int x = 0; x < r->imx; x++) {
                wave_bits w = r->input[x + y * r->imx + z * r->imx * r->imy];
                if ((w & wildcard) == wildcard) continue;
                r->match[r->match_count].offset = x + y * mx + z * mx * my;
                r->match[r->match_count].wave = w;
                r->match[r->match_count].dx = (unsigned)x;
                r->match[r->match_count].dy = (unsigned)y;
                r->match[r->match_count].dz = (unsigned)z;
                r->match_count++;
            }
    r->write_count = 0;
    for (int z = 0; z < r->omz; z++)
        for (int y = 0; y < r->omy; y++)
            for (int x = 0; x < r->omx; x++) {
                uint8_t v = r->output[x + y * r->omx + z * r->omx * r->omy];
                if (v == RULE_KEEP) continue;
                r->write[r->write_count].offset = x + y * mx + z * mx * my;
                r->write[r->write_count].value = v;
                r->write_count++;
            }
    return true;
}

/* Parse "AB/CD EF/GH": spaces separate z layers (listed top layer first),
   slashes separate rows. The result is indexed x + y*MX + z*MX*MY. */
static char *parse_pattern(diag *d, int line, const char *what, const char *s, int *MX, int *MY, int *MZ)
{
    int layers = 1, rows_in_first = 1, width = 0;
    for (const char *p = s; *p; p++) if (*p == ' ') layers++;
    for (const char *p = s; *p && *p != ' '; p++) if (*p == '/') rows_in_first++;
    while (s[width] && s[width] != '/' && s[width] != ' ') width++;
    if (width == 0) {
        diag_error(d, SMALTI_ERR_MODEL, line,
                   "%s pattern \"%s\" has an empty row: it starts with a space (which separates layers) or a '/' (which "
                   "separates rows)", what, s);
        return NULL;
    }
    *MX = width; *MY = rows_in_first; *MZ = layers;
    char *out = mem_malloc((size_t)width * rows_in_first * layers);
    if (!out) { diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory"); return NULL; }
    const char *p = s;
    for (int layer = 0; layer < layers; layer++) {
        int z = layers - 1 - layer;
        for (int y = 0; ; y++) {
            int x = 0;
            while (*p && *p != '/' && *p != ' ') {
                if (x < width && y < rows_in_first) out[x + y * width + z * width * rows_in_first] = *p;
                x++; p++;
            }
            if (x != width || y >= rows_in_first) {
                diag_error(d, SMALTI_ERR_MODEL, line, "%s pattern \"%s\" is not rectangular", what, s);
                mem_free(out);
                return NULL;
            }
            if (*p == '/') { p++; continue; }
            if (y != rows_in_first - 1) {
                diag_error(d, SMALTI_ERR_MODEL, line, "%s pattern \"%s\" is not rectangular", what, s);
                mem_free(out);
                return NULL;
            }
            if (*p == ' ') p++;
            break;
        }
    }
    return out;
}

/* Rule images are small drawings; these bound what a hostile one can cost
   (each symmetric variant of a rule copies its pattern). */
#define RULE_IMAGE_MAX_CELLS (1 << 18)
#define RULE_IMAGE_MAX_SIDE 4096

/* rules/NAME.png on a 2-D grid, .vox on a 3-D one; when only the other kind
   exists, the model was meant for the other dimension, and the error says so. */
static char *find_rule_image(diag *d, const resources *res, int line, const char *subdir, const char *name, bool d2)
{
    diag probe = {.quiet = 1};
    char *path = resource_find(res, &probe, line, "rule image", subdir, name, d2 ? ".png" : ".vox");
    if (path) return path;
    diag other_probe = {.quiet = 1};
    char *other = resource_find(res, &other_probe, line, "rule image", subdir, name, d2 ? ".vox" : ".png");
    if (other) {
        diag_error(d, SMALTI_ERR_MODEL, line, "rule image \"%s\" is %s (%s), and the grid is %s: run the model %s", name,
                   d2 ? "3-D" : "2-D", other, d2 ? "2-D" : "3-D", d2 ? "with --dim 3" : "on a 2-D grid (without --dim 3)");
        mem_free(other);
        return NULL;
    }
    return resource_find(res, d, line, "rule image", subdir, name, d2 ? ".png" : ".vox");
}

/* The reference's LoadResource: a PNG (2-D input grid) or VOX (3-D) under
   rules/<folder of the output grid>/, whose colours, numbered in order of
   first appearance in x, y, z order, stand for the symbols of the legend.
   PNG rows are y from the top and VOX layers are z from the bottom, both as
   stored: unlike text patterns nothing is reversed. */
static char *load_pattern_image(diag *d, const resources *res, int line, const char *name, const char *legend,
                                const grid_def *gin, const grid_def *gout, int *MX, int *MY, int *MZ)
{
    if (!legend) {
        diag_error(d, SMALTI_ERR_MODEL, line,
                   "rule image \"%s\" needs a legend: the symbols its colours stand for, in order of first appearance",
                   name);
        return NULL;
    }
    bool d2 = gin->mz == 1;
    const char *folder = gout->folder;
    size_t subdir_len = strlen("rules/") + (folder ? strlen(folder) : 0) + 1;
    char *subdir = mem_malloc(subdir_len);
    if (!subdir) { diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory"); return NULL; }
    snprintf(subdir, subdir_len, "rules%s%s", folder ? "/" : "", folder ? folder : "");
    char *path = find_rule_image(d, res, line, subdir, name, d2);
    mem_free(subdir);
    if (!path) return NULL;
    int w = 0, h = 0, depth = 1;
    /* Only equality of colours matters, so VOX palette indices (-1 for empty) serve as colours too. */
    uint32_t *colors = d2 ? resource_load_image(res, d, line, path, &w, &h)
                          : (uint32_t *)resource_load_vox(res, d, line, path, &w, &h, &depth);
    char *pattern = NULL;
    if (!colors) goto done;
    if (w > RULE_IMAGE_MAX_SIDE || h > RULE_IMAGE_MAX_SIDE || (long)w * h * depth > RULE_IMAGE_MAX_CELLS) {
        diag_error(d, SMALTI_ERR_MODEL, line, "%s: a %dx%dx%d rule image is absurd (at most %d cells, %d per side)", path, w, h,
                   depth, RULE_IMAGE_MAX_CELLS, RULE_IMAGE_MAX_SIDE);
        goto done;
    }
    size_t cells = (size_t)w * h * depth, legend_len = strlen(legend);
    /* The reference numbers colours with a byte; more than 256 is refused. */
    size_t most = legend_len < 256 ? legend_len : 256;
    uint32_t seen[256];
    size_t amount = 0;
    pattern = mem_malloc(cells);
    if (!pattern) { diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory"); goto done; }
    for (size_t i = 0; i < cells; i++) {
        size_t k = 0;
        while (k < amount && seen[k] != colors[i]) k++;
        if (k == amount) {
            if (amount == most) {
                if (most < legend_len) diag_error(d, SMALTI_ERR_MODEL, line, "%s has more than 256 colours", path);
                else diag_error(d, SMALTI_ERR_MODEL, line, "%s has more colours than legend \"%s\" has symbols", path, legend);
                mem_free(pattern);
                pattern = NULL;
                goto done;
            }
            seen[amount++] = colors[i];
        }
        pattern[i] = legend[k];
    }
    *MX = w;
    *MY = h;
    *MZ = depth;
done:
    mem_free(colors);
    mem_free(path);
    return pattern;
}

/* file="name": one image with the input on its left half and the output on its right half. */
static bool load_glued_image(diag *d, const resources *res, int line, const char *name, const char *legend,
                             const grid_def *gin, const grid_def *gout, char **inr, char **outr, int *MX, int *MY, int *MZ)
{
    int FX, FY, FZ;
    char *whole = load_pattern_image(d, res, line, name, legend, gin, gout, &FX, &FY, &FZ);
    if (!whole) return false;
    if (FX % 2 != 0) {
        mem_free(whole);
        return diag_error(d, SMALTI_ERR_MODEL, line,
                          "rule image \"%s\" has odd width %d: file= needs the input as its left half and the output as its right half",
                          name, FX);
    }
    int half = FX / 2;
    *inr = mem_malloc((size_t)half * FY * FZ);
    *outr = mem_malloc((size_t)half * FY * FZ);
    if (!*inr || !*outr) {
        mem_free(whole);
        mem_free(*inr);
        mem_free(*outr);
        *inr = *outr = NULL;
        return diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
    }
    for (int z = 0; z < FZ; z++)
        for (int y = 0; y < FY; y++)
            for (int x = 0; x < half; x++) {
                size_t row = (size_t)y * FX + (size_t)z * FX * FY;
                (*inr)[x + y * half + z * half * FY] = whole[row + x];
                (*outr)[x + y * half + z * half * FY] = whole[row + half + x];
            }
    mem_free(whole);
    *MX = half;
    *MY = FY;
    *MZ = FZ;
    return true;
}

/* The likeliest slip in a symbol is its case: "; did you mean 'B'?" into buf when only that differs. */
static const char *case_hint(const grid_def *g, unsigned char ch, char *buf, size_t size)
{
    unsigned char other = (unsigned char)(isupper(ch) ? tolower(ch) : toupper(ch));
    if (other != ch && g->value_of[other] >= 0) snprintf(buf, size, "; did you mean '%c'?", other);
    else buf[0] = 0;
    return buf;
}

rule *rule_load(diag *d, const resources *res, const xmlNode *el, const grid_def *gin, const grid_def *gout)
{
    int line = xml_line(el);
    const char *in = xml_attr(el, "in"), *out = xml_attr(el, "out");
    const char *fin = xml_attr(el, "fin"), *fout = xml_attr(el, "fout"), *file = xml_attr(el, "file");
    const char *legend = xml_attr(el, "legend");
    int IMX = 0, IMY = 0, IMZ = 0, OMX = 0, OMY = 0, OMZ = 0;
    char *inr = NULL, *outr = NULL;
    if (file) {
        if (in || out || fin || fout) {
            diag_error(d, SMALTI_ERR_MODEL, line, "a rule with file=\"%s\" cannot also have in, out, fin or fout", file);
            return NULL;
        }
        if (!load_glued_image(d, res, line, file, legend, gin, gout, &inr, &outr, &IMX, &IMY, &IMZ)) return NULL;
        OMX = IMX; OMY = IMY; OMZ = IMZ;
    } else {
        /* As in the reference, a text pattern wins over an image given beside it. */
        if (!in && !fin) { diag_error(d, SMALTI_ERR_MODEL, line, "no input in a rule"); return NULL; }
        if (!out && !fout) { diag_error(d, SMALTI_ERR_MODEL, line, "no output in a rule"); return NULL; }
        inr = in ? parse_pattern(d, line, "input", in, &IMX, &IMY, &IMZ)
                 : load_pattern_image(d, res, line, fin, legend, gin, gout, &IMX, &IMY, &IMZ);
        if (!inr) return NULL;
        outr = out ? parse_pattern(d, line, "output", out, &OMX, &OMY, &OMZ)
                   : load_pattern_image(d, res, line, fout, legend, gin, gout, &OMX, &OMY, &OMZ);
        if (!outr) { mem_free(inr); return NULL; }
    }
    double p = 1.0;
    rule *r = NULL;
    if (gin == gout && (OMX != IMX || OMY != IMY || OMZ != IMZ)) {
        diag_error(d, SMALTI_ERR_MODEL, line, "non-matching pattern sizes: in is %dx%dx%d, out is %dx%dx%d", IMX, IMY, IMZ, OMX, OMY, OMZ);
        goto done;
    }
    if (IMX > RULE_MAX_SIDE || IMY > RULE_MAX_SIDE || IMZ > RULE_MAX_SIDE || OMX > RULE_MAX_SIDE || OMY > RULE_MAX_SIDE ||
        OMZ > RULE_MAX_SIDE) {
        diag_error(d, SMALTI_ERR_MODEL, line, "a rule is at most %d cells on a side: in is %dx%dx%d, out is %dx%dx%d", RULE_MAX_SIDE,
                   IMX, IMY, IMZ, OMX, OMY, OMZ);
        goto done;
    }
    /* A 3-D pattern in a 2-D grid is allowed: it never matches (models use
       this to share one file between 2-D and 3-D runs). */
    if (!xml_get_double(d, el, "p", 1.0, &p)) goto done;
    r = rule_new(gin->c, IMX, IMY, IMZ, OMX, OMY, OMZ, p);
    if (!r) { diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory"); goto done; }
    char hint[32];
    for (int i = 0; i < IMX * IMY * IMZ; i++) {
        unsigned char ch = (unsigned char)inr[i];
        if (!gin->has_wave[ch]) {
            diag_error(d, SMALTI_ERR_MODEL, line, "input symbol '%c' is not in values=\"%s\" (nor a union or '*')%s", ch,
                       gin->chars, case_hint(gin, ch, hint, sizeof hint));
            rule_free(r); r = NULL; goto done;
        }
        r->input[i] = grid_symbol_wave(gin, ch);
    }
    for (int i = 0; i < OMX * OMY * OMZ; i++) {
        unsigned char ch = (unsigned char)outr[i];
        if (ch == '*') { r->output[i] = RULE_KEEP; continue; }
        if (gout->value_of[ch] < 0) {
            diag_error(d, SMALTI_ERR_MODEL, line, "output symbol '%c' is not in values=\"%s\"%s", ch, gout->chars,
                       case_hint(gout, ch, hint, sizeof hint));
            rule_free(r); r = NULL; goto done;
        }
        r->output[i] = (uint8_t)gout->value_of[ch];
    }
    r = rule_finish(r);
    if (!r) diag_error(d, SMALTI_ERR_RUNTIME, line, "out of memory");
    else r->original = true;
done:
    mem_free(inr);
    mem_free(outr);
    return r;
}
