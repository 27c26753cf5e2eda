/* symmetry.c — the square (8) and cube (48) symmetry groups and their named subgroups. */
#include "symmetry.h"
#include <string.h>

typedef struct named_subgroup {
    const char *name;
    symmetry_set set;
} named_subgroup;

/* Square elements: 0 e, 1 b, 2 a, 3 ba, 4 a2, 5 ba2, 6 a3, 7 ba3 (a: rotation, b: reflection). */
static const named_subgroup square_subgroups[] = {
    {"()", 0x01}, {"(x)", 0x03}, {"(y)", 0x21}, {"(x)(y)", 0x33}, {"(xy+)", 0x55}, {"(xy)", 0xff},
};

static symmetry_set cube_set(int which)
{
    symmetry_set s = 0;
    for (int l = 0; l < 48; l++) {
        bool in = which == 0 ? l == 0 : which == 1 ? (l == 0 || l == 1) : which == 2 ? (l == 0 || l == 17)
                : which == 3 ? l < 8 : which == 4 ? l % 2 == 0 : true;
        if (in) s |= (symmetry_set)1 << l;
    }
    return s;
}

static const char *const cube_names[] = {"()", "(x)", "(z)", "(xy)", "(xyz+)", "(xyz)"};

symmetry_set symmetry_all(bool d2) { return d2 ? 0xff : cube_set(5); }

bool symmetry_lookup(bool d2, const char *name, symmetry_set *out)
{
    if (d2) {
        for (size_t i = 0; i < sizeof square_subgroups / sizeof *square_subgroups; i++)
            if (strcmp(square_subgroups[i].name, name) == 0) { *out = square_subgroups[i].set; return true; }
        return false;
    }
    for (int i = 0; i < 6; i++)
        if (strcmp(cube_names[i], name) == 0) { *out = cube_set(i); return true; }
    return false;
}

const char *symmetry_names(bool d2)
{
    return d2 ? "(), (x), (y), (x)(y), (xy+), (xy)" : "(), (x), (z), (xy), (xyz+), (xyz)";
}

const char *symmetry_dim_hint(bool d2, const char *name)
{
    symmetry_set unused;
    if (!symmetry_lookup(!d2, name, &unused)) return "";
    return d2 ? "; it is a 3-D symmetry: run the model with --dim 3" : "; it is a 2-D symmetry: run the model on a 2-D grid (without --dim 3)";
}

int symmetry_expand(bool d2, void *thing, symmetry_set subset, void *ctx, symmetry_map_fn a,
                    symmetry_map_fn b, symmetry_map_fn r, symmetry_same_fn same,
                    symmetry_free_fn free_thing, void **out)
{
    void *s[48] = {0};
    int n = d2 ? 8 : 48;
    /* Generation recipe: (source index, operation) in the reference's order;
       operation 0 = reflect, 1 = rotate about z (a), 2 = rotate about y (b). */
    static const signed char recipe[48][2] = {
        {-1, 0}, {0, 0},  {0, 1},  {2, 0},  {2, 1},  {4, 0},  {4, 1},  {6, 0},
        {0, 2},  {8, 0},  {2, 2},  {10, 0}, {4, 2},  {12, 0}, {6, 2},  {14, 0},
        {8, 2},  {16, 0}, {10, 2}, {18, 0}, {12, 2}, {20, 0}, {14, 2}, {22, 0},
        {16, 2}, {24, 0}, {18, 2}, {26, 0}, {20, 2}, {28, 0}, {22, 2}, {30, 0},
        {8, 1},  {32, 0}, {10, 1}, {34, 0}, {12, 1}, {36, 0}, {14, 1}, {38, 0},
        {24, 1}, {40, 0}, {26, 1}, {42, 0}, {28, 1}, {44, 0}, {30, 1}, {46, 0},
    };
    s[0] = thing;
    bool failed = false;
    for (int i = 1; i < n && !failed; i++) {
        symmetry_map_fn f = recipe[i][1] == 0 ? r : recipe[i][1] == 1 ? a : b;
        s[i] = f(ctx, s[(int)recipe[i][0]]);
        if (!s[i]) failed = true;
    }
    int count = 0;
    bool kept[48] = {0};
    if (!failed) {
        for (int i = 0; i < n; i++) {
            if (!((subset >> i) & 1)) continue;
            bool dup = false;
            for (int k = 0; k < count && !dup; k++) dup = same(out[k], s[i]);
            if (!dup) { out[count++] = s[i]; kept[i] = true; }
        }
    }
    for (int i = 1; i < n; i++)
        if (s[i] && !kept[i]) free_thing(s[i]);
    if (failed) return -1;
    if (!kept[0]) free_thing(thing);
    return count;
}
