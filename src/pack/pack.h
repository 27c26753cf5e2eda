/* pack.h — model packs: a folder or a .zip with a manifest (pack.xml, or a MarkovJunior models.xml), read as untrusted input.

   A PACK is a folder or a .zip file. Its manifest is `pack.xml` at the top; a folder or zip without
   one but with a MarkovJunior `models.xml` is a pack too (its entries name models/NAME.xml, its
   resources are in resources/). Every name in a pack is relative to the pack's top, with `/` between
   parts.

   pack.xml (docs/formats.md has the same with a worked example):

       <pack name="castles" version="1.2.0" description="Castles, keeps and walls"
             license="MIT" homepage="https://example.org/castles" smalti="0.1.0" resources="resources">
         <author name="A. Builder" email="a@example.org"/>
         <model file="models/keep.xml" title="Keep" description="A keep on a hill"
                tags="castle 3d" length="24" width="24" height="16" d="3" seeds="1 7 42" steps="20000"
                pixelsize="6" iso="True" thumbnail="thumbs/keep.png">
           <color symbol="W" value="A0A0A0"/>
         </model>
       </pack>

   <pack> attributes:
     name         required; letters, digits, '-', '_' and '.', starting with a letter or digit (at most 64)
     version      required; semantic version MAJOR.MINOR.PATCH (a -pre or +build tail allowed)
     description  required; one line
     license      an SPDX licence id or expression ("MIT", "CC0-1.0", "MIT OR Apache-2.0")
     homepage     an http:// or https:// address
     smalti       the oldest smalti that runs the pack, MAJOR.MINOR.PATCH; a newer one is refused
     resources    the pack's folder of rule images, samples and tilesets (default "resources")
   <author name="..." email="..."/>: any number.
   <model> attributes (one element per model, in the order they are listed and run):
     file         required; the model's XML inside the pack
     name         what `smalti run PACK NAME` calls it; default: file's base name without .xml
     title, description, tags (separated by spaces), thumbnail (a PNG inside the pack)
     size, length, width, height, d   the default grid, as in a models.xml entry (within the grid caps)
     seeds        the seeds to show, separated by spaces; the first is the default (else 1)
     steps        the step limit (0 or negative: none; default 50000)
     pixelsize, iso, and <color symbol="X" value="RRGGBB"/> children: how pictures are drawn
   Settings the entry leaves out come from the model's own <smalti> element, then the defaults.

   A pack is untrusted: opening one refuses (with the entry's name in the message) names with "..",
   absolute names, backslashes or drive letters, symbolic links (in a zip; in a folder, those that
   lead out of the pack), duplicate names, more than max_unpacked bytes in all, an entry inflating
   more than PACK_BOMB_RATIO times its compressed size past PACK_BOMB_MIN bytes, malformed XML
   (file:line, "PACK.zip:pack.xml:3"), sizes over the grid caps, a pack that needs a newer
   smalti, and a zip whose SHA256SUMS (pack build writes one) does not match its entries. A zip's entries are inflated into memory once, at open (counting the bytes as they come,
   not trusting the sizes in its headers); nothing is ever written to disk. After pack_open a pack
   is not changed, so threads may load and run its models at once. */
#ifndef SMALTI_PACK_H
#define SMALTI_PACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../core/resource.h"
#include "../nodes/settings.h"

#define PACK_MAX_UNPACKED_DEFAULT ((uint64_t)1 << 30) /* 1 GiB in all */
#define PACK_BOMB_RATIO 1000                           /* uncompressed : compressed */
#define PACK_BOMB_MIN ((uint64_t)1 << 20)              /* the ratio counts for entries past 1 MiB */
#define PACK_MAX_ENTRIES 100000

/* One model of a pack, as its manifest entry gives it. */
typedef struct pack_model {
    char *name;        /* "keep" */
    char *file;        /* "models/keep.xml", checked as a safe pack name */
    char *title, *description, *thumbnail; /* NULL when not given */
    char **tags;
    int tag_count;
    int size, length, width, height, dim; /* the default grid as the entry gives it; 0: not given */
    int32_t *seeds;    /* seed_count of them; the first is the default */
    int seed_count;
    bool has_steps;
    long steps;
    int pixel_size;    /* 0: not given */
    int iso;           /* 1, 0, or -1 when not given */
    int color_count;   /* symbol color_symbols[i] is drawn color_rgb[i] (0xRRGGBB) */
    char color_symbols[257];
    uint32_t color_rgb[256];
    /* The entry's <param name value/> children, "name=value" in order: the first of each name is
       the entry's value of that model parameter (over the model's default, under a command's
       --set); a name listed again gives more values, for `pack gallery`'s pictures. */
    char **params;
    int param_count;
    int line;          /* the entry's line in the manifest */
} pack_model;
/* The most pictures an entry's parameter lists may ask of `pack gallery`: the combinations of the
   values listed for each name. */
#define PACK_MAX_SETTINGS 64
/* How many combinations of its listed values the entry gives (1 without <param>). */
long pack_model_setting_count(const pack_model *m);
/* Combination k (0 <= k < the count; 0 is the entry's values, the first of each name): one
   "name=value" of the entry's per name into out (pointers into m), the first name's value changing
   slowest; how many. */
int pack_model_setting(const pack_model *m, long k, const char **out);
/* Read el's <param> children into pm (entry_params.c); false after the error (a bad one, a value
   listed twice, more than PACK_MAX_SETTINGS combinations). */
bool pack_entry_read_params(diag *d, const xmlNode *el, pack_model *pm);

typedef struct pack_author {
    char *name, *email; /* email may be NULL */
} pack_author;

typedef struct pack_manifest {
    char *name, *version, *description; /* for a models.xml pack: the folder's name, "0.0.0", "" */
    char *license, *homepage, *min_smalti; /* NULL when not given */
    pack_author *authors;
    int author_count;
    char *resources;   /* the resource folder inside the pack: "resources" */
    pack_model *models;
    int model_count;
    const char *file;  /* "pack.xml", or "models.xml" for a MarkovJunior folder */
    bool from_models_list; /* read from a MarkovJunior models.xml */
} pack_manifest;

/* How a pack is opened: the limit of what it may hold, and where warnings about its manifest go. */
typedef struct pack_options {
    uint64_t max_unpacked;  /* bytes of all entries together; 0: PACK_MAX_UNPACKED_DEFAULT */
    smalti_warning_fn warn; /* NULL: "file:line: warning: ..." on stderr */
    void *warn_userdata;
    bool quiet;             /* drop warnings */
} pack_options;

typedef struct pack pack;

/* Whether path names a pack: a folder with pack.xml or models.xml, or a file ending in .zip. */
bool pack_path_is_pack(const char *path);

/* Open the folder or .zip at path and read its manifest; NULL with err set ("PACK/pack.xml:4: ...",
   SMALTI_ERR_MODEL for a bad pack, SMALTI_ERR_IO when it cannot be read). opt may be NULL (the defaults). */
pack *pack_open(const char *path, const pack_options *opt, smalti_error *err);
void pack_close(pack *p);

const pack_manifest *pack_manifest_of(const pack *p);
const char *pack_path(const pack *p); /* as given to pack_open */
bool pack_is_zip(const pack *p);

/* The model called name (its name, or its file), the first entry when several share it; NULL if none. */
const pack_model *pack_find_model(const pack *p, const char *name);

/* The bytes of the entry at name (a pack name such as "models/keep.xml"), with a NUL after them,
   in *size bytes; malloc'd, free() them. NULL with err set when the name is unsafe, missing, leads
   out of the pack (a folder's symbolic link) or is larger than the pack's limit. */
unsigned char *pack_read(const pack *p, const char *name, size_t *size, smalti_error *err);

/* A zip's entries, sorted by name (a folder has none here: its files are read when asked for). */
size_t pack_entry_count(const pack *p);
const char *pack_entry_name(const pack *p, size_t i);
/* Entry i's index by name, (size_t)-1 when the zip has none; and the bytes of the entry name
   (NULL if none), owned by the pack. */
size_t pack_entry_index(const pack *p, const char *name);
const unsigned char *pack_entry_data(const pack *p, const char *name, size_t *size);

/* The checksum list a built zip holds (checksums.c): "HEX  NAME" lines, as sha256sum prints them. */
#define PACK_CHECKSUMS_NAME "SHA256SUMS"
/* The SHA-256 of data as 64 lowercase hex digits and a NUL. libcrypto is loaded at first use:
   call cryptolib_get (ziplib.h) first, which says when it cannot be; without it the digits are zeros. */
void pack_sha256_hex(const void *data, size_t size, char hex[65]);
/* A zip with a SHA256SUMS: every entry but the list itself is listed once, with its SHA-256, and
   every listed entry is there; false with err naming the entry otherwise. true without a list.
   pack_open calls it for every zip. */
bool pack_verify_checksums(const pack *p, smalti_error *err);

/* How model loading reads the pack's resources: a zip's reader, or NULL for a folder (the files themselves). */
const resource_reader *pack_resource_reader(const pack *p);

/* "PACK/NAME" for a folder, "PACK.zip:NAME" for a zip: how messages name an entry. */
void pack_entry_label(const pack *p, const char *name, char *buf, size_t size);

/* Load a model of the pack for the grid (mx, my, mz: all 0 for the entry's default), with the pack's
   resources and nothing outside it. opt's grid and resource fields are replaced; its warn callback
   is kept. Messages name the file as pack_entry_label does. */
smalti_model *pack_load_model(const pack *p, const pack_model *m, const smalti_load_options *opt, smalti_error *err);

/* The settings a model runs with: the grid of `over` (a caller's options; NULL or all 0: none)
   when it gives a side, else the entry's; then the model's own <smalti> element's; then 64 (2-D)
   or 24 (3-D) per side, seed 1, 50000 steps, pixel size 4. false with err set when the model
   cannot be read or its <smalti> element is bad. Colours: own.color_* under the entry's. The
   entry's parameter values (setting 0), then params ("name=value", param_count of them, or NULL),
   override the model's parameters, which its settings may name; pack_load_model loads with them
   too, before opt's. */
typedef struct pack_defaults {
    int mx, my, mz;
    int32_t seed;
    long steps;
    int pixel_size;
    bool iso;
    smalti_settings own; /* the model's own <smalti> settings */
} pack_defaults;
bool pack_model_defaults(const pack *p, const pack_model *m, const grid_request *over, const char *const *params, int param_count,
                         pack_defaults *out, smalti_error *err);

/* Installed packs (installed.c): `pack install` copies a pack to ROOT/NAME/VERSION, where ROOT is
   $XDG_DATA_HOME/smalti/packs, or ~/.local/share/smalti/packs when XDG_DATA_HOME is unset or not
   absolute. pack_open and pack_path_is_pack take "@NAME" (the newest version installed, by
   semantic version order) and "@NAME@VERSION" for such a folder. */
bool pack_installed_root(char *buf, size_t size, smalti_error *err);
/* The folder of the installed pack spec ("@castles", "@castles@1.2.0"); false with err set
   (SMALTI_ERR_USAGE) when it is not a pack name or not installed. */
bool pack_installed_find(const char *spec, char *buf, size_t size, smalti_error *err);
/* A pack name: letters, digits, '-', '_' and '.', starting with a letter or digit, at most 64. */
bool pack_name_is_valid(const char *name);

/* The manifest parser alone, for tests: parse pack.xml's bytes (label names it in messages). */
pack_manifest *pack_manifest_parse(const char *xml, size_t size, const char *label, const pack_options *opt, smalti_error *err);
/* A MarkovJunior models.xml read as a manifest; pack_name names the pack. */
pack_manifest *pack_manifest_from_models_list(const char *xml, size_t size, const char *label, const char *pack_name,
                                              const pack_options *opt, smalti_error *err);
void pack_manifest_free(pack_manifest *m);

/* Whether name is a safe entry name: relative, '/'-separated, no "..", "." or empty part, no
   backslash, no drive letter, no control character; false with why ("has a \"..\" part"). */
bool pack_name_is_safe(const char *name, const char **why);

/* "1.2.3" (with an optional -pre or +build tail) into its numbers; false when not a semantic version. */
bool pack_parse_version(const char *text, long out[3]);
/* <0, 0, >0 as version a is older than, the same as, or newer than b (both valid). */
int pack_compare_versions(const char *a, const char *b);
#endif
