/* symmetry.h — the square (8) and cube (48) symmetry groups and their named subgroups. */
#ifndef SMALTI_SYMMETRY_H
#define SMALTI_SYMMETRY_H
#include <stdbool.h>
#include <stdint.h>

/* A subgroup is a bitmask over the group's elements, numbered as the reference numbers them. */
typedef uint64_t symmetry_set;

symmetry_set symmetry_all(bool d2);
/* Look up a subgroup name such as "(xy)" or "(xyz+)"; false if unknown. */
bool symmetry_lookup(bool d2, const char *name, symmetry_set *out);
/* Names valid for the dimension, for error messages. */
const char *symmetry_names(bool d2);
/* For a name unknown in this dimension but valid in the other: a phrase that
   says so and how to run the model (else ""), to end the error with. */
const char *symmetry_dim_hint(bool d2, const char *name);

typedef void *(*symmetry_map_fn)(void *ctx, const void *thing);
typedef bool (*symmetry_same_fn)(const void *a, const void *b);
typedef void (*symmetry_free_fn)(void *thing);

/* Apply every group element in the reference's order to `thing` and keep the
   distinct images whose element is in `subset`, in order; out[0] is `thing`
   itself when element 0 is selected. Unkept images are freed. Returns the
   count kept, or -1 when a map returned NULL (out of memory). out must hold 48. */
int symmetry_expand(bool d2, void *thing, symmetry_set subset, void *ctx, symmetry_map_fn rot_z,
                    symmetry_map_fn rot_y, symmetry_map_fn reflect, symmetry_same_fn same,
                    symmetry_free_fn free_thing, void **out);
#endif
