/* smalti.h — public C API of smalti, an interpreter for MarkovJunior models.

   USAGE
   -----
   (docs/api.md has a complete program and the link flags.)

   A model is an XML file. Load it once for a grid size; the result is an
   immutable compiled program that many runs (many seeds, many threads) share:

       smalti_error err;
       smalti_load_options opt = smalti_load_defaults();
       opt.mx = 64; opt.my = 64; opt.mz = 1;
       smalti_model *model = smalti_model_load("models/maze.xml", &opt, &err);
       if (!model) { fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message); ... }

       smalti_run *run = smalti_run_new(model, 42, &err);      // seed 42
       smalti_run_to_end(run, SMALTI_DEFAULT_STEPS);        // or: while (smalti_run_step(run)) ...
       int mx, my, mz;
       const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
       const char *legend = smalti_run_legend(run);         // legend[cells[i]] is the symbol
       smalti_run_reset(run, 43);                           // reuse the buffers for another seed
       smalti_run_free(run);
       smalti_model_free(model);

   Cell (x, y, z) is cells[x + y*mx + z*mx*my]. Cell values are indices into
   the legend (the model's `values` string).

   THREADS
   A smalti_model is never modified after loading: any number of threads may each
   create their own smalti_run from one model and step it concurrently. A smalti_run
   must be used by one thread at a time. The library keeps no global state;
   libxml2 does, so a program that loads models from several threads calls
   libxml2's xmlInitParser() once before starting them.

   DETERMINISM
   The random stream is .NET's seeded System.Random, drawn in the reference
   interpreter's order, so a seed gives the grid MarkovJunior's C# gives.

   ERRORS
   Functions that can fail take a smalti_error* (may be NULL) and fill in the file,
   line (0 when not tied to a line) and message. Warnings during loading (for
   example an unknown attribute) go to opt.warn, or to stderr when it is NULL.

   BUDGETS
   A run stops at its step limit (smalti_run_to_end), and loading refuses grids
   past the cell limit. smalti_run_new_with adds a wall-time timeout and a
   memory budget, and smalti_run_cancel stops a run from another thread. A
   stopped run reports SMALTI_ERR_TIMEOUT, SMALTI_ERR_MEMORY or
   SMALTI_ERR_CANCELLED through smalti_run_error; the same run object can then
   be reset and run again.

   LIFETIMES
   Every pointer the library returns, or writes through an out-parameter, points
   into memory the library owns: never free it. Each function below says how long
   its pointers stay valid; in short, a model's strings live until
   smalti_model_free, a run's grid and geometry until the run's next step, reset
   or free, and a step event's arrays until the observer returns. Structs the
   library fills (smalti_error, smalti_settings, smalti_node_info) are the
   caller's, copied in; strings the caller passes (paths, XML, resource_dirs) are
   read during the call only, and opt.warn is called only during the load.

   OBSERVERS
   smalti_run_set_observer registers a callback called after every step with the
   acting node and the flat indices of the cells that step changed (an index
   can appear more than once). Traces, progress bars and live views are built
   on it.
*/
#ifndef SMALTI_H
#define SMALTI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version; SMALTI_VERSION_MAJOR is also the shared library's
   SONAME number (libsmalti.so.0) and changes when the ABI does. */
#define SMALTI_VERSION_MAJOR 0
#define SMALTI_VERSION_MINOR 1
#define SMALTI_VERSION_PATCH 0
#define SMALTI_VERSION "0.1.0"
#define SMALTI_VERSION_NUMBER (SMALTI_VERSION_MAJOR * 10000 + SMALTI_VERSION_MINOR * 100 + SMALTI_VERSION_PATCH)

/* Marks the public functions: the library is built with -fvisibility=hidden,
   so these are the only symbols libsmalti.so exports and the only global
   symbols libsmalti.a defines. */
#if defined(SMALTI_BUILD) && defined(__GNUC__)
#define SMALTI_API __attribute__((visibility("default")))
#else
#define SMALTI_API
#endif

/* Error categories; the CLI maps them to its exit codes. */
typedef enum smalti_status {
    SMALTI_OK = 0,
    SMALTI_ERR_MODEL = 1,   /* the model file is wrong: XML, node, attribute, rule */
    SMALTI_ERR_IO = 2,      /* a file could not be read or written */
    SMALTI_ERR_RUNTIME = 3, /* a run failed: out of memory, impossible state */
    SMALTI_ERR_USAGE = 4,   /* the caller passed bad arguments */
    SMALTI_ERR_TIMEOUT = 5, /* a run passed its deadline or its work budget (smalti_run_options) */
    SMALTI_ERR_CANCELLED = 6, /* a run was cancelled (smalti_run_cancel) */
    SMALTI_ERR_MEMORY = 7,  /* a run needed more than its memory budget (smalti_run_options.max_memory) */
    SMALTI_ERR_REQUIREMENT = 8 /* a <require> node failed on every attempt its `tries` allow */
} smalti_status;

typedef struct smalti_error {
    smalti_status status;
    char file[512];
    int line;           /* 1-based; 0 when the error has no line */
    char message[512];
} smalti_error;

typedef void (*smalti_warning_fn)(void *userdata, const char *file, int line, const char *message);

typedef struct smalti_load_options {
    int mx, my, mz;                  /* grid size; mz = 1 for 2-D; all 0: the model's own
                                        (smalti_settings) */
    const char *const *resource_dirs; /* roots searched for rule images etc. */
    int resource_dir_count;          /* 0: "resources" in the working directory,
                                        then "../resources" beside the model file */
    int allow_any_path;              /* nonzero: resource names may use ".." and
                                        absolute paths (the model is trusted) */
    smalti_warning_fn warn;              /* NULL: print "file:line: warning: ..." to stderr */
    void *warn_userdata;
    int quiet;                       /* nonzero: drop warnings */
    /* Bytes the loading may hold at once in the library's allocations (the model being built,
       and the rule images, samples and tilesets it reads and decodes); 0: none. Past it the
       load fails with SMALTI_ERR_MEMORY. (libxml2's own allocations, the parsed XML, are not
       counted.) */
    size_t max_memory;
    /* Wall time the loading may take (parsing aside: reading the rules, compiling them, the
       warnings); 0: none. Past it the load fails with SMALTI_ERR_TIMEOUT. A deadline that is to
       cover a load and its run gives the run what the load left. */
    double timeout_seconds;
    /* Overrides of the model's parameters (<param name value/> in its <smalti> element), each
       "name=value" (the value is all after the first '='; a later one of a name wins); param_count
       of them, or NULL and 0: the defaults. Overriding a parameter the model does not declare fails
       the load with SMALTI_ERR_USAGE naming it. Read during the load only. */
    const char *const *params;
    int param_count;
} smalti_load_options;

typedef struct smalti_model smalti_model;
typedef struct smalti_run smalti_run;

/* What one step did, handed to an observer. */
typedef struct smalti_step_event {
    long step;               /* 1-based number of the step just made */
    int node_id;             /* the leaf node that acted, or -1 if none did */
    const int32_t *changed;  /* flat indices of the cells changed by this step */
    size_t changed_count;
    const unsigned char *grid; /* the grid after the step (its size and legend: smalti_run_grid,
                                  smalti_run_legend, which an observer may call) */
} smalti_step_event;

/* The event and its changed and grid arrays are valid only until the observer returns: the next
   step reuses the change log and may replace the grid (a map or wfc node). Copy what is kept. */

typedef void (*smalti_observer_fn)(void *userdata, const smalti_step_event *event);

/* One node of the compiled tree, for viewers and tooling. */
typedef struct smalti_node_info {
    const char *kind;   /* the element name: "one", "all", "prl", "markov", "sequence", ...;
                           a static string, valid as long as the program */
    int line;           /* source line, 0 for the implicit root markov */
    int parent;         /* parent node id, -1 for the root */
    int depth;
    /* The element's attributes and its non-node children (rules, fields) as
       one short line, such as `in="WBB" out="WAW"` or `steps="5"; rule in="B"
       out="W"`; "" when there are none. Lives as long as the model. */
    const char *attributes;
} smalti_node_info;

SMALTI_API smalti_load_options smalti_load_defaults(void);

/* The version of the library loaded, which may differ from the header's when the shared library was
   replaced: a program checks smalti_version_number() == SMALTI_VERSION_NUMBER (or at least the same
   SMALTI_VERSION_MAJOR) at start-up. The string is static, valid as long as the program. */
SMALTI_API const char *smalti_version(void);
SMALTI_API int smalti_version_number(void);   /* MAJOR * 10000 + MINOR * 100 + PATCH */
/* sizeof the public struct of that C name ("smalti_error", "smalti_load_options",
   "smalti_step_event", "smalti_node_info", "smalti_settings", "smalti_run_options",
   "smalti_param_info") as the library
   was built; 0 for any other name. For bindings that declare the structs again in another language,
   to check their layouts against the library's. */
SMALTI_API size_t smalti_struct_size(const char *name);

/* Load and compile a model file for the grid size in opt. NULL on error. The model is the
   caller's until smalti_model_free, which must come after the free of every run made from it. */
SMALTI_API smalti_model *smalti_model_load(const char *path, const smalti_load_options *opt, smalti_error *err);
/* The same from an XML string; name is used in messages. */
SMALTI_API smalti_model *smalti_model_load_string(const char *xml, const char *name, const smalti_load_options *opt, smalti_error *err);
SMALTI_API void smalti_model_free(smalti_model *model);
/* Make libxml2 allocate through the library, so that a model's XML tree counts against the load's
   max_memory (without it, only what is built from the tree counts). It installs libxml2's
   process-wide allocator (xmlMemSetup), so the library never calls it by itself: a host that owns
   libxml2's allocator may, once, before starting threads; the smalti command does at start-up.
   Blocks made before or outside a budget are freed safely. 1 on success, 0 if libxml2 refused. */
SMALTI_API int smalti_count_xml_memory(void);

SMALTI_API int smalti_model_node_count(const smalti_model *model);
/* Fills *info (1), or returns 0 for an id out of range; its strings live as long as the model. */
SMALTI_API int smalti_model_node_info(const smalti_model *model, int node_id, smalti_node_info *info);
/* The model's values, one symbol a cell value, NUL-terminated; valid until smalti_model_free. */
SMALTI_API const char *smalti_model_legend(const smalti_model *model);
/* The grid size the model was loaded for (opt.mx, opt.my, opt.mz); a run may end on another
   grid (a map or wfc node makes one), whose size smalti_run_grid gives. */
SMALTI_API void smalti_model_grid_size(const smalti_model *model, int *mx, int *my, int *mz);

/* Settings a model file states for itself, in a <smalti> element that is the first
   child of its root element, with the attribute names of a models.xml entry:

       <sequence values="BWR">
         <smalti size="48" seed="3" steps="2000" pixelsize="6"><color symbol="R" value="D04030"/></smalti>
         ...

   (attributes size, length, width, height, d, steps, seed, pixelsize, iso; <color>
   children). The reference interpreter ignores the element. Loading checks it (a bad
   value is a SMALTI_ERR_MODEL with its line) and never treats it as a node. Each field
   is as the file gives it, so that a caller can let its own options win. Loading with
   opt.mx = opt.my = opt.mz = 0 takes the grid size from these settings (as a models.xml
   entry reads size, length, width, height and d), SMALTI_DEFAULT_SIDE_2D per side (3-D:
   SMALTI_DEFAULT_SIDE_3D) when they name none. */
#define SMALTI_DEFAULT_SIDE_2D 64
#define SMALTI_DEFAULT_SIDE_3D 24
/* The step limit of a run whose model and caller name none, in the smalti command, the studio and
   the Python binding (MarkovJunior's Program.cs stops every models.xml entry at 50000 steps). */
#define SMALTI_DEFAULT_STEPS 50000
typedef struct smalti_settings {
    int size, length, width, height; /* cells; 0 when not given */
    int dim;                 /* d: 2 or 3; 0 when not given */
    int has_steps;           /* nonzero when steps is given (0 or negative: no limit) */
    long steps;
    int has_seed;            /* nonzero when seed is given */
    int32_t seed;
    int pixel_size;          /* pixelsize; 0 when not given */
    int iso;                 /* 1 iso="True", 0 iso="False", -1 not given */
    int color_count;         /* symbol color_symbols[i] has colour color_rgb[i] (0xRRGGBB) */
    char color_symbols[257];
    uint32_t color_rgb[256];
} smalti_settings;
/* The settings of a loaded model (all fields "not given" when it has none). */
SMALTI_API void smalti_model_settings(const smalti_model *model, smalti_settings *out);

/* Parameters. A model declares them in its <smalti> element, each with a default:

       <smalti size="40"><param name="rooms" value="8"/></smalti>

   and any attribute value of the file may name one as {rooms}, replaced by its value before the
   attribute is read ({{ is a literal {). A reference to a parameter not declared is a
   SMALTI_ERR_MODEL with its line; the load options' params override the defaults. */
typedef struct smalti_param_info {
    const char *name;          /* letters, digits and '_' */
    const char *default_value; /* the <param>'s value */
    const char *value;         /* the value the model was loaded with: an override's, else the default */
    int overridden;            /* nonzero when the load options set it */
    int line;                  /* the <param>'s line */
} smalti_param_info;
/* How many parameters the model declares, in the order of the file. */
SMALTI_API int smalti_model_param_count(const smalti_model *model);
/* Fills *info (1), or returns 0 for an index out of range; its strings live as long as the model. */
SMALTI_API int smalti_model_param(const smalti_model *model, int index, smalti_param_info *info);

/* Runs. smalti_run_new seeds the run and puts it before its first step. */
/* The run is the caller's until smalti_run_free; the model must outlive it. NULL on error. */
SMALTI_API smalti_run *smalti_run_new(const smalti_model *model, int32_t seed, smalti_error *err);

/* Budgets of a run besides its step limit (smalti_run_to_end) and the grid's cell limit. */
typedef struct smalti_run_options {
    /* Wall time the run may take, counted from smalti_run_new and again from each
       smalti_run_reset; 0: none. The deadline is checked between steps and inside every long
       loop, within a bounded amount of work; a run past it stops with SMALTI_ERR_TIMEOUT. */
    double timeout_seconds;
    /* Bytes the run may hold at once in the library's allocations (its grids, node
       states, match lists, search and WFC memory; not the model, which runs share);
       0: none. An allocation past it fails, and the run stops with SMALTI_ERR_MEMORY. */
    size_t max_memory;
    /* Work the run may do, in units of about one cell or item visited; 0: none. A step
       costs 1 and each cell it writes 1; a long loop inside a step costs what it visits: a
       rule's scan the cells of each row, a cheap loop 1024 per 1024 items (cells, matches,
       symbols), a WFC observation or generator's heavy item 1024, a search board what its
       expansion and estimate visit. A run past it stops with SMALTI_ERR_TIMEOUT and a message naming the
       work budget. Unlike the timeout, it stops a run at the same step on every machine: the
       count depends only on the model, the seed and the calls that drive the run (a run made
       step by step rescans what each step changed, and so counts more than smalti_run_to_end). */
    long long max_work;
} smalti_run_options;
SMALTI_API smalti_run_options smalti_run_defaults(void);
/* smalti_run_new with budgets (opt may be NULL: none). */
SMALTI_API smalti_run *smalti_run_new_with(const smalti_model *model, int32_t seed, const smalti_run_options *opt,
                                           smalti_error *err);
/* Ask a run to stop, from any thread: it stops at its next check (between steps, or
   inside a long loop) with SMALTI_ERR_CANCELLED. smalti_run_reset clears the request. */
SMALTI_API void smalti_run_cancel(smalti_run *run);
SMALTI_API void smalti_run_reset(smalti_run *run, int32_t seed);
SMALTI_API void smalti_run_free(smalti_run *run);

/* Make one step. Returns 1 if a step was made, 0 if the run had already ended. */
SMALTI_API int smalti_run_step(smalti_run *run);
/* Step until the model ends or step_limit steps are made (step_limit <= 0:
   no limit). Returns the step counter. */
SMALTI_API long smalti_run_to_end(smalti_run *run, long step_limit);
SMALTI_API int smalti_run_finished(const smalti_run *run);
/* Nonzero when the run stopped because memory ran out. */
SMALTI_API int smalti_run_out_of_memory(const smalti_run *run);
/* Nonzero when the run stopped on an error (out of memory, a node's limit such as
   an L-system's maxLength, its deadline, a cancel); err, if not NULL, gets
   file:line: message and the status that says which. */
SMALTI_API int smalti_run_error(const smalti_run *run, smalti_error *err);
/* The steps made since the run was made or reset (every attempt's, when a requirement made the
   run start again). */
SMALTI_API long smalti_run_counter(const smalti_run *run);
/* Requirements (<require>, docs/language.md): the attempts the run has begun, 1 when no requirement
   failed. A failed requirement starts the run again from its first node with the seed of the next
   attempt (the k-th number of .NET's System.Random(seed)); past its `tries` the run stops with
   SMALTI_ERR_REQUIREMENT. */
SMALTI_API int smalti_run_attempts(const smalti_run *run);
/* The seed of attempt k (0: the first, which is seed itself) of a run given seed. */
SMALTI_API int32_t smalti_attempt_seed(int32_t seed, int attempt);
/* The requirements that failed in this run's attempts, index 0, 1, ... while it returns nonzero:
   the node's line, how many times it failed, and what failed the last time (a string the run owns,
   valid until its next step, reset or free). */
SMALTI_API int smalti_run_requirement(const smalti_run *run, int index, int *line, int *failures, const char **message);
/* The work the run has done since it was made or last reset, as smalti_run_options.max_work
   counts it; 0 for a run without a work budget, which counts none (a budget of LLONG_MAX
   counts without stopping). */
SMALTI_API long long smalti_run_work(const smalti_run *run);
/* The leaf node that acted in the last step made (an id for smalti_model_node_info), or -1
   when no step was made yet or no node acted in it (a branch handing control back, a node
   that keeps failing). steps, if not NULL, gets how many steps in a row, up to and including
   the last, had that same actor (0 before the first step). After a run that stopped at its
   step limit, this names the node that kept the model from finishing. */
SMALTI_API int smalti_run_last_node(const smalti_run *run, long *steps);

/* The run's grid now, mx * my * mz cell values (*mx, *my, *mz get its size). The buffer belongs to
   the run and is valid only until its next step, reset or free: a map or wfc node replaces the
   grid with one of another size and legend, and a reset puts back the first, so ask again after each
   step (also for the size) rather than keep the pointer. Cells change with every step. */
SMALTI_API const unsigned char *smalti_run_grid(const smalti_run *run, int *mx, int *my, int *mz);
/* The legend of the run's grid now (legend[cell] is the cell's symbol), NUL-terminated. It is the
   model's (smalti_model_legend) until a map or wfc node replaces the grid, the new grid's after,
   the model's again after a reset; ask again after a step. The string itself belongs to the model and
   stays readable until smalti_model_free. */
SMALTI_API const char *smalti_run_legend(const smalti_run *run);
/* The lattice a <growgrid> node fitted in this run: *points_x by *points_y points, row by row
   (point (i,j) at (*px)[i + j * *points_x], (*py)[...]), in lattice units, where the straight
   lattice has point (i,j) at (i,j). Each quad of four neighbouring points holds one block of
   grid cells, (grid width)/(points_x - 1) cells wide. Returns 1, or 0 (and NULL, 0) when the run
   has no geometry. The arrays belong to the run: valid until its next step, reset or free. */
SMALTI_API int smalti_run_geometry(const smalti_run *run, const double **px, const double **py, int *points_x, int *points_y);
/* Run-time warnings: the run goes on, but not as the model meant. Today one kind: a <wfc> node that
   found no solution (a contradiction in every try, after backtracking if it asks for it, or in the
   grid's cells before any try) does not act, so the run goes on, or ends, with the grid as it was
   before the node, as MarkovJunior's does. fn (NULL: none) is called with the model's file, the
   node's line and a message that names the step ("... at step 40; the grid is as it was before the
   node"), during the smalti_run_step or smalti_run_to_end call that met it, while that step is made
   (smalti_run_counter(run) + 1 is its number). The library never prints them itself. The channel
   stays set across resets; userdata is the caller's, handed back as it is. */
SMALTI_API void smalti_run_set_warn(smalti_run *run, smalti_warning_fn fn, void *userdata);
/* The run-time warnings since the run was made or last reset, said through the channel or not. */
SMALTI_API int smalti_run_warning_count(const smalti_run *run);
/* fn (NULL: none) is called at the end of every step with the event described at smalti_step_event;
   userdata is the caller's, handed back as it is. */
SMALTI_API void smalti_run_set_observer(smalti_run *run, smalti_observer_fn fn, void *userdata);

#ifdef __cplusplus
}
#endif
#endif
