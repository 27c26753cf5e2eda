/* rule.h — rewrite rules: parsing, symmetry variants, shift tables and matching. */
#ifndef SMALTI_RULE_H
#define SMALTI_RULE_H
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include "grid.h"
#include "resource.h"
#include "symmetry.h"

#define RULE_KEEP 0xff /* output cell that leaves the grid as it is ('*') */

/* The longest side of a rule's pattern: a cell's place in it then takes 10 bits a
   coordinate, which keeps an input cell 16 bytes with its 64-bit wave. */
#define RULE_MAX_SIDE 1023

/* An input cell the rule tests. */
typedef struct rule_cell {
    wave_bits wave; /* the values it accepts */
    int32_t offset; /* dx + dy*MX + dz*MX*MY in the grid the rule was compiled for */
    unsigned dx : 10, dy : 10, dz : 10;
} rule_cell;

/* An output cell the rule writes (not RULE_KEEP). */
typedef struct rule_write {
    int32_t offset; /* as rule_cell's */
    uint8_t value;
} rule_write;

typedef struct rule {
    int imx, imy, imz, omx, omy, omz;
    int c;              /* values of the input grid */
    wave_bits *input;   /* imx*imy*imz waves */
    uint8_t *output;    /* omx*omy*omz values, RULE_KEEP for '*' */
    uint8_t *binput;    /* input value (its lowest; GRID_MAX_VALUES for none), or RULE_KEEP when the wave is '*' */
    wave_bits input_union; /* the values that appear anywhere in the input */
    double p;
    bool original;      /* the rule as written, not a symmetric image */
    /* ishifts[ishift_start[v] .. ishift_start[v+1]) are the (x,y,z) input
       positions that accept value v, in z,y,x order. */
    int *ishift_start;
    int16_t (*ishifts)[3];
    int32_t *ishift_offsets; /* the same shifts as grid offsets (rule_compile) */
    /* Compiled for one grid size (rule_compile): the cells to test and write. */
    rule_cell *match;   /* input cells whose wave is not '*' */
    int match_count;
    rule_write *write;  /* output cells that are not RULE_KEEP */
    int write_count;
} rule;

/* Parse one rule element (or a node carrying in/out) against its grids:
   input symbols against gin, output symbols against gout. Rule images
   (fin/fout/file) are looked up under `res` in rules/<gout's folder>/, PNG
   when gin is 2-D, VOX when it is 3-D. */
rule *rule_load(diag *d, const resources *res, const xmlNode *el, const grid_def *gin, const grid_def *gout);
/* Expand by symmetry; rules are appended to *list (grown with realloc). */
bool rule_expand(diag *d, rule *r, bool d2, symmetry_set subset, rule ***list, int *count);
bool rule_compile(rule *r, int mx, int my);
void rule_free(rule *r);
bool rule_same(const void *a, const void *b);

static inline bool rule_matches(const rule *r, const uint8_t *state, int32_t at)
{
    for (int k = 0; k < r->match_count; k++)
        if (!((r->match[k].wave >> state[at + r->match[k].offset]) & 1)) return false;
    return true;
}
#endif
