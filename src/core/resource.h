/* resource.h — finding resource files (rule images, samples, tilesets) under the resource roots, without letting a model climb out. */
#ifndef SMALTI_RESOURCE_H
#define SMALTI_RESOURCE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "xmlutil.h"

/* Where the bytes of resource files come from when not from the file system: tests and
   fuzzers hand a model (or a samples.xml entry) rule images, samples and tilesets held in
   memory. read returns the bytes of the file at `path` (built as on disk, such as
   "root/rules/Maze.png"; they must stay valid until the load ends) or NULL when there is no
   such file. A NULL reader means the file system. Not part of the public API. */
typedef struct resource_reader {
    const unsigned char *(*read)(void *userdata, const char *path, size_t *size);
    void *userdata;
} resource_reader;

typedef struct resources {
    const char *const *roots; /* searched in order */
    int root_count;
    bool allow_any_path;      /* --allow-any-path: accept "..", absolute names */
    const resource_reader *reader; /* NULL: files; else every resource comes from it and none from disk */
} resources;

static inline const resource_reader *resource_reader_of(const resources *res) { return res ? res->reader : NULL; }

/* The path of the first existing <root>/<subdir>/<name><ext>, malloc'd; NULL
   after a model error at `line` when the name escapes the root (by "..", an
   absolute name, or a symbolic link leading out of it) or no root has it.
   `what` names the resource in messages ("rule image", "sample"). */
char *resource_find(const resources *res, diag *d, int line, const char *what, const char *subdir, const char *name,
                    const char *ext);

/* Whether `name` may become one file name (of a resource or an output): not empty, no '/' or '\\',
   not "." or "..", no control character. *why (when not NULL) says what is wrong. The one check of
   every name that reaches a path: models of a list or pack, samples, subsets, tiles, pictures. */
bool resource_name_is_plain(const char *name, const char **why);

/* Whether path, its symbolic links resolved, lies inside root (resolved too): a name without ".." may
   still go through a link that points anywhere. real gets where path leads, for a message. False
   also when either cannot be resolved (path does not exist). */
bool resource_inside_root(const char *root, const char *path, char *real, size_t real_size);

/* Why an input file given by name cannot be read: 0 when it opens for reading and is not a directory, EISDIR
   for a directory (which fopen opens, to fail only at the first read, and libxml2 reports raw), else fopen's errno. */
int input_file_error(const char *path);

/* A PNG of 2^24 pixels of noise is about 64 MiB; a file much larger is not one we want. */
#define IMAGE_MAX_BYTES (128L << 20)
/* A full 256^3 model is 64 MiB of voxel records; anything past this is not a .vox file we want. */
#define VOX_MAX_BYTES (80L << 20)
/* A tileset or a list: far more than any real one, little enough to hold in memory. */
#define RESOURCE_XML_MAX_BYTES (64L << 20)

/* The whole file at path, at most max_bytes, in *len bytes (free() it); NULL after a model error at `line`
   that names the file as `what` ("PNG image"): it cannot be opened or read, is not a regular file, or is larger.
   With res, path is one resource_find built and is opened beneath its root in one step (file_open_within:
   a link that leads out of the root is refused, unless --allow-any-path); NULL res: a name the user gave. */
unsigned char *resource_read_file(const resources *res, diag *d, int line, const char *path, const char *what,
                                  long max_bytes, size_t *len);

/* Decode a PNG into 0xAARRGGBB pixels, row by row from the top (the
   reference's LoadBitmap order). NULL after a model error at `line`. */
uint32_t *image_load_argb(diag *d, int line, const char *path, int *width, int *height);
/* The same from the bytes of a PNG file; `name` is used in messages. */
uint32_t *image_decode_argb(diag *d, int line, const char *name, const unsigned char *data, size_t size, int *width,
                            int *height);

/* Read a MagicaVoxel .vox model: the palette index (1..255) of each voxel,
   -1 where empty, indexed x + y*MX + z*MX*MY with no axis flipped (the
   reference's LoadVox). The last model (a SIZE chunk and the XYZI after
   it) wins when the file has several.
   NULL after a model error at `line`. */
int32_t *vox_load(diag *d, int line, const char *path, int *mx, int *my, int *mz);
/* The same from the bytes of a VOX file; `name` is used in messages. */
int32_t *vox_decode(diag *d, int line, const char *name, const unsigned char *data, size_t size, int *mx, int *my, int *mz);

/* The readers above, from the file at `path` as resource_find found it under res's roots: through
   res->reader when there is one, else read once beneath its root (resource_read_file). NULL res:
   the default root (resource_read.c). */
uint32_t *resource_load_image(const resources *res, diag *d, int line, const char *path, int *width, int *height);
int32_t *resource_load_vox(const resources *res, diag *d, int line, const char *path, int *mx, int *my, int *mz);
/* An XML resource (a tileset) parsed from its bytes with libxml2's `options` (no path reaches
   libxml2; path names the document in its messages); NULL after a model error at `line` when it
   cannot be read, or when it is not well formed, and then *fe (if not NULL) holds libxml2's first
   error, if it gave one, for the caller to report at the tileset's own line. */
xmlDoc *resource_load_xml(const resources *res, diag *d, int line, const char *path, int options, xml_first_error *fe);
#endif
