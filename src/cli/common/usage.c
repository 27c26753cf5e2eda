/* usage.c — the help texts of smalti and of each command, and "did you mean" for unknown options and commands. */
#include "cli.h"
#include "output_kinds.h"
#include "../../core/suggest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char overview_text[] =
    "smalti " SMALTI_VERSION " - a fast MarkovJunior interpreter\n"
    "\n"
    "Usage: smalti COMMAND [options]\n"
    "\n"
    "Commands:\n"
    "  run MODEL.xml       run a model once and write its final grid\n"
    "  check MODEL.xml     load a model and report problems, without running\n"
    "  batch MODELS.xml    run a models.xml list as MarkovJunior does\n"
    "  wfc SAMPLES.xml     the classic WaveFunctionCollapse sample list\n"
    "  view RUN.trace      a trace as one self-contained HTML viewer page\n"
    "  studio MODEL.xml    a local web page that re-runs the model each time you save it\n"
    "  pack COMMAND PACK   model packs (a folder or a .zip with pack.xml): check, list,\n"
    "                      new, build, gallery\n"
    "  help [COMMAND]      this list, or a command's options and examples\n"
    "  -h, --help          this list\n"
    "  --version           the version\n"
    "\n"
    "'smalti help COMMAND' or 'smalti COMMAND --help' shows a command's options.\n"
    "'smalti help outputs' lists the kinds of file -o writes.\n"
    "\n"
    "Exit codes: 0 success, 2 usage error, 3 model error, 4 runtime error, 5 I/O error,\n"
    "6 timeout, 7 memory budget spent, 9 a <require> failed on all its tries.\n"
    "\n"
    "Examples:\n"
    "  smalti run models/maze.xml -o maze.png\n"
    "  smalti run models/maze.xml --size 48 --seed 7 -o maze.png\n"
    "  smalti batch MarkovJunior/models.xml -o out/\n"
    "(MarkovJunior/: a clone of github.com/mxgmn/MarkovJunior, for its models.)\n";

static const char run_text[] =
    "Usage: smalti run MODEL.xml [options]\n"
    "       smalti run PACK MODEL [options]\n"
    "       smalti run @NAME/MODEL [options]\n"
    "\n"
    "Run a model once and write its final grid; MODEL of a pack (a folder or .zip,\n"
    "see 'smalti help pack') runs straight from it, with the pack's resources only\n"
    "and its manifest's settings under these options; @NAME/MODEL (or\n"
    "@NAME@VERSION/MODEL) is one of an installed pack ('smalti help pack install').\n"
    "A model's own settings, a <smalti size=\"48\" seed=\"3\" steps=\"2000\"\n"
    "pixelsize=\"6\"> element (with <color symbol=\"X\" value=\"RRGGBB\"/> children) as\n"
    "the first child of its root, fill in what these options leave out.\n"
    "\n"
    "Grid and run:\n"
    "  --size N              grid side (default 64 in 2-D, 24 in 3-D)\n"
    "  --length X --width Y  a 2-D grid of X by Y cells, overriding --size\n"
    "  --height Z            the third side: a 3-D grid (MarkovJunior's axes: length\n"
    "                        is x, width y, height z); say --dim 3 with it\n"
    "  --dim 3               a 3-D grid (height defaults to the size)\n"
    "  --seed S              random seed (default 1)\n"
    "  --steps N             step limit (default 50000; 0 or negative: none)\n"
    "  --set NAME=VALUE      a value for the model's parameter NAME (a <param> of its\n"
    "                        <smalti> element, named {NAME} in attributes); repeatable\n"
    "  --timeout SECONDS     stop after this much wall time, loading included (exit\n"
    "                        6, no output); checked within a bounded amount of work,\n"
    "                        inside a step as between steps\n"
    "  --max-memory SIZE     the most memory the run may hold, in bytes or with K, M\n"
    "                        or G (2G); past it the run stops (exit 7, no output).\n"
    "                        It bounds the whole command: unpacking a pack, the\n"
    "                        model's XML and images, the run and the pictures drawn\n"
    "  --resources DIR       resource root (repeatable; default ./resources, then\n"
    "                        resources/ in the model's folder, then ../resources)\n"
    "  --allow-any-path      let the model name resources outside the roots\n"
    "  --max-unpacked SIZE   with a PACK: the most it may unpack to (default 1G)\n"
    "\n"
    "Output:\n"
    "  -o, --output FILE     the final grid, its kind by the extension:\n"
    "@outputs\n"
    "                        ('smalti help outputs' says what each is); tile maps\n"
    "                        get NAME.tiles.png beside them. Without -o, or with\n"
    "                        -o -, the text form goes to stdout. A 3-D grid's .png\n"
    "                        is an isometric picture, as the reference draws it\n"
    "  --iso                 ask for that isometric PNG (models.xml iso=\"True\");\n"
    "                        needs -o FILE.png; a 2-D grid gets its normal PNG\n"
    "  --pixel-size N        pixels per cell in a 2-D PNG, cube size in an isometric\n"
    "                        one (default 4, as models.xml pixelsize)\n"
    "  --tiles TILES.xml     draw with your tile sheet: a tile, an autotile (edge16,\n"
    "                        blob47) or an object (a marker in the map's object\n"
    "                        layer, on its ground's tile) per symbol, for -o\n"
    "@tile_outputs\n"
    "  --palette FILE        colours over the built-in palette and the model's own:\n"
    "                        <colors><color symbol=\"X\" value=\"RRGGBB\"/>...</colors>\n"
    "  --trace FILE          record every step (acting node, changed cells) for\n"
    "                        `smalti view` (format: docs/trace-format.md); - for\n"
    "                        stdout, when the result goes to -o FILE\n"
    "  -q, --quiet           no progress line, notes or warnings\n"
    "  --strict              lint warnings are errors: report them and exit 3\n"
    "                        before running\n"
    "\n"
    "Many runs (docs/many-runs.md; only final grids, no --gif, --frames, --trace or\n"
    "--watch):\n"
    "  --seeds LIST          run every seed of LIST: 1..10000, 1,5,9..20 (no seed twice)\n"
    "  --set NAME=A,B,C      several values of a parameter: every combination of the\n"
    "                        lists runs for every seed\n"
    "  -o TEMPLATE           the file of each run, from the fields {model} {seed} {i}\n"
    "                        (the seed's place in LIST, from 0) {w} {h} {d} (the grid's\n"
    "                        sides) and {NAME}, a parameter's value (needed for each\n"
    "                        list of several): 'out/{model}_{seed}.png'; folders are made\n"
    "  -j, --jobs N          N runs at once on threads (default: the number of cores);\n"
    "                        the outputs do not depend on N\n"
    "  --manifest FILE       one JSON line per output: model, seed, i, size, steps,\n"
    "                        finished, ms, outputs, sha256 of the final grid's cells,\n"
    "                        and params (a model's parameters) when it has any\n"
    "  --resume              skip the (model, seed) pairs FILE holds whose outputs exist\n"
    "  --shard K/N           only the K-th of N parts of the list (items K, K+N, ...)\n"
    "\n"
    "Watching and recording (with any of them the final grid is written only when\n"
    "-o is given):\n"
    "  --gif FILE            an animated GIF of the run (3-D grids: isometric frames)\n"
    "  --frames DIR          DIR/STEP.png for each kept step, as the reference's gif\n"
    "                        mode names them (DIR is made if missing)\n"
    "  --every N             keep every N-th step (default 1); the start (step 0) and\n"
    "                        the last step are always kept\n"
    "  --delay CS            GIF frame delay in hundredths of a second (default 5); the\n"
    "                        last frame shows for at least 2 s\n"
    "  --watch               draw the run live in the terminal (24-bit colour, half\n"
    "                        blocks, at most 30 frames a second, fitted to the window);\n"
    "                        stdout must be a terminal. Ctrl-C stops the run: no GIF\n"
    "                        and no -o output then (PNG frames made so far stay)\n"
    "\n"
    "A run that reaches the step limit before the model finished says so on stderr\n"
    "(exit 0 still), naming the node that made the last steps and its line.\n"
    "\n"
    "Examples:\n"
    "  smalti run models/maze.xml -o maze.png\n"
    "  smalti run models/maze.xml --size 48 --seed 7 -o maze.png\n"
    "  smalti run models/maze.xml --length 160 --width 100 -o wide.png\n"
    "  smalti run models/tower3d.xml --dim 3 --length 21 --width 21 --height 32 --iso -o tower.png\n"
    "  smalti run MarkovJunior/models/Growth.xml --size 359 --steps 40000 -o growth.txt\n"
    "  smalti run MarkovJunior/models/MazeGrowth.xml --size 95 --every 20 --gif maze.gif\n"
    "  smalti run MarkovJunior/models/MazeGrowth.xml --size 255 --watch\n"
    "  smalti run models/maze.xml --trace maze.trace -o maze.png && smalti view maze.trace\n"
    "  smalti run models/ dungeon -o dungeon.png\n"
    "  smalti run castles-1.0.0.zip keep --seed 7 -o keep.png\n"
    "  smalti run models/maze.xml --seeds 1..10000 -o 'out/{model}_{seed}.png' --manifest runs.jsonl\n"
    "  smalti run models/maze.xml --seeds 1..10000 -o 'out/{seed}.png' --manifest runs.jsonl --resume\n"
    "(MarkovJunior/: a clone of github.com/mxgmn/MarkovJunior, for its models.)\n";

static const char check_text[] =
    "Usage: smalti check MODEL.xml [options]\n"
    "\n"
    "Load a model for a grid and report problems, without running it; prints\n"
    "\"MODEL.xml: ok (N nodes, values ...)\" when it loads, then its parameters and\n"
    "their values (\"params: rooms=12 (default 8), side=40\") if it has any. Warnings\n"
    "go to stderr.\n"
    "\n"
    "Options (as for run; the model's own <smalti> settings fill in the rest):\n"
    "  --size N, --length X, --width Y, --height Z, --dim 3\n"
    "                        the grid to load for (default 64 in 2-D, 24 in 3-D)\n"
    "  --resources DIR       resource root (repeatable)\n"
    "  --allow-any-path      let the model name resources outside the roots\n"
    "  --set NAME=VALUE      a value for one of the model's parameters (repeatable)\n"
    "  --palette FILE        check a palette file too\n"
    "  -q, --quiet           no warnings\n"
    "  --strict              lint warnings are errors: report them and exit 3\n"
    "\n"
    "Examples:\n"
    "  smalti check models/maze.xml\n"
    "  smalti check models/tower3d.xml --dim 3\n"
    "  smalti check MarkovJunior/models/MultiSokoban8.xml --size 9\n"
    "(MarkovJunior/: a clone of github.com/mxgmn/MarkovJunior, for its models.)\n";

static const char batch_text[] =
    "Usage: smalti batch MODELS.xml [options]\n"
    "       smalti batch PACK [options]\n"
    "\n"
    "With a PACK (a folder or .zip, see 'smalti help pack'), run each of its models for\n"
    "each seed its entry lists (else its default seed), straight from the pack.\n"
    "\n"
    "Run a models.xml list as MarkovJunior's Program.cs does: each <model name=\"X\">\n"
    "entry runs MODELS_DIR/X.xml with its size (or length, width, height), d, amount\n"
    "(default 2), seeds, steps, pixelsize, iso, gif and <color> children. What an entry\n"
    "leaves out comes from the model's own <smalti> settings (not its seed), then the\n"
    "reference's defaults. Outputs without a seed in `seeds` get random seeds, or with\n"
    "--seed S successive numbers of the seeded generator (same S, same outputs).\n"
    "gif=\"True\" runs one output (steps default 1000) and writes NAME_SEED.gif, an\n"
    "animation of every step, besides the final picture.\n"
    "\n"
    "Options:\n"
    "  --models DIR          folder of the model files (default: models/ beside MODELS.xml)\n"
    "  --seed S              master seed: the seeds of outputs without one are drawn, in\n"
    "                        list order, from .NET's System.Random(S), as the reference\n"
    "                        draws them from an unseeded one\n"
    "  --resources DIR       resource root (repeatable)\n"
    "  --allow-any-path      let models name resources outside the roots\n"
    "  -o, --output DIR      output folder (default: output); 2-D grids and iso=\"True\"\n"
    "                        entries give MODEL_SEED.png, other 3-D grids MODEL_SEED.vox\n"
    "  -q, --quiet           no per-output lines, progress line or warnings\n"
    "  --timeout SECONDS     the wall time each entry's load and each of its runs may\n"
    "                        take (exit 6); the other entries still run\n"
    "  --max-memory SIZE     the most memory each entry may hold: its load, runs and\n"
    "                        pictures (500M, 2G; exit 7); the other entries still run\n"
    "  --max-unpacked SIZE   with a PACK: the most it may unpack to (default 1G)\n"
    "  --set NAME=VALUE      a parameter's value for every entry (repeatable); an entry\n"
    "                        whose model does not declare NAME fails\n"
    "\n"
    "Many runs (docs/many-runs.md): with -o a file name template, every output of every\n"
    "entry is a work item, run on threads:\n"
    "  -o TEMPLATE           'out/{model}_{seed}.png': fields {model} {seed} {i} (the\n"
    "                        output's place in its entry, from 0) {w} {h} {d}; the\n"
    "                        extension picks the kind, as run's -o:\n"
    "@outputs\n"
    "                        the tile maps of a model in a folder share one\n"
    "                        MODEL.tiles.png\n"
    "  --tiles TILES.xml     draw with your tile sheet (as run's --tiles), for\n"
    "@tile_outputs\n"
    "  --palette FILE        colours over the built-in palette, the model's own and\n"
    "                        the entry's (as run's --palette)\n"
    "  -j, --jobs N          N runs at once (default: the number of cores)\n"
    "  --manifest FILE       one JSON line per output (as for run)\n"
    "  --resume              skip the outputs FILE holds that exist\n"
    "  --shard K/N           only the K-th of N parts of the work list\n"
    "\n"
    "Examples:\n"
    "  smalti batch MarkovJunior/models.xml -o out/\n"
    "  smalti batch models/ -o out/\n"
    "  smalti batch models/models.xml --seed 1 -o gallery/\n"
    "  smalti batch models/models.xml --seed 1 -o 'out/{model}_{seed}.png' -j 2 --manifest runs.jsonl\n"
    "(MarkovJunior/: a clone of github.com/mxgmn/MarkovJunior, for its models.)\n";

static const char wfc_text[] =
    "Usage: smalti wfc SAMPLES.xml [options]\n"
    "\n"
    "Run the overlapping and simpletiled entries of a WaveFunctionCollapse samples.xml.\n"
    "\n"
    "Options:\n"
    "  --samples DIR         folder holding samples/ and tilesets/ (default: beside SAMPLES.xml)\n"
    "  -o, --output DIR      output folder (default: output); files \"NAME N3 0.png\",\n"
    "                        \"NAME SUBSET 0.png\"\n"
    "  --seed S              first seed (default 1; an entry's seed attribute overrides it)\n"
    "  --runs N              outputs per entry (default: its screenshots, else 2)\n"
    "  --tries K             seeds tried per output before giving up (default 10)\n"
    "  --backtrack N         on a contradiction take back up to the N latest decisions\n"
    "                        (overrides the entries' backtrack attribute; 0: restart)\n"
    "  --blocks B            solve in blocks of B x B cells, for huge outputs (overrides\n"
    "                        the entries' blocks attribute; 0: the whole wave at once)\n"
    "  -j, --jobs N          an entry's outputs solved N at once, on threads (default:\n"
    "                        the cores, as half the memory holds their solvers);\n"
    "                        files and lines as with -j 1\n"
    "  --timeout SECONDS     stop after this much wall time, for the whole list (exit\n"
    "                        6; the output being solved is not written)\n"
    "  --max-memory SIZE     the most memory the command may hold (500M, 2G; exit 7);\n"
    "                        outputs are then solved on one thread; with -j N the\n"
    "                        solvers are made within SIZE, and each thread's solving\n"
    "                        grows by at most SIZE\n"
    "  -q, --quiet           no per-output lines and no warnings\n"
    "\n"
    "Examples:\n"
    "  smalti wfc WaveFunctionCollapse/samples.xml -o wfc-out/\n"
    "  smalti wfc WaveFunctionCollapse/samples.xml --runs 1 --backtrack 64 -o wfc-out/\n"
    "(WaveFunctionCollapse/: a clone of github.com/mxgmn/WaveFunctionCollapse.)\n";

static const char view_text[] =
    "Usage: smalti view RUN.trace [-o RUN.html] [-q]\n"
    "\n"
    "Make a trace (smalti run --trace) into one self-contained HTML page that replays\n"
    "the run in a browser, and print the path it wrote.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE     the page (default: RUN.html beside the trace; - for stdout)\n"
    "  -q, --quiet           do not print the path\n"
    "\n"
    "Examples:\n"
    "  smalti run models/maze.xml --trace maze.trace -o maze.png\n"
    "  smalti view maze.trace -o maze.html\n";

static const char studio_text[] =
    "Usage: smalti studio MODEL.xml [--size N] [--seed S] [--steps N] [--set NAME=VALUE]...\n"
    "                     [--timeout SECONDS] [--max-memory SIZE] [--port P]\n"
    "\n"
    "Serve a page on 127.0.0.1 that shows the model's run in the trace viewer, and print\n"
    "its URL (it holds a random token; requests without it are refused). Edit the model\n"
    "in your own editor: each save re-runs it and the page shows the new run; a model\n"
    "that fails to load shows its file:line message, its line marked, and the last good\n"
    "run. The page also sets the seed, the size, the caps and the model's parameters\n"
    "(a field each), and runs again. Ctrl-C stops the server. More: docs/studio.md.\n"
    "\n"
    "Options:\n"
    "  --size N              cells per side (default: the model's own, else 64)\n"
    "  --seed S              the first run's seed (default: the model's own, else 1, as run)\n"
    "  --steps N             the step cap of a run (default: the model's own, else 100000)\n"
    "  --set NAME=VALUE      a parameter's value for the first runs (repeatable)\n"
    "  --timeout SECONDS     the time cap of a run, and of its load (default 10)\n"
    "  --max-memory SIZE     the memory a run may hold with its load (default 2G)\n"
    "  --port P              listen on port P (default: a free port)\n"
    "\n"
    "Examples:\n"
    "  smalti studio models/maze.xml\n"
    "  smalti studio my.xml --size 128 --port 8800\n";

static const char pack_text[] =
    "Usage: smalti pack COMMAND PACK [options]\n"
    "\n"
    "A pack is a folder or a .zip file with a manifest, pack.xml (its format is in\n"
    "docs/formats.md), or a MarkovJunior folder (models.xml, models/, resources/).\n"
    "Making and sharing packs: docs/packs.md.\n"
    "A pack is untrusted: unsafe names, links, duplicate entries, zip bombs and\n"
    "resources outside it are refused. Run its models with 'smalti run PACK MODEL'\n"
    "and 'smalti batch PACK', straight from the folder or zip.\n"
    "\n"
    "Commands:\n"
    "  pack check PACK       check the manifest, and load, lint and run every model\n"
    "  pack list PACK        the models with their titles and defaults\n"
    "  pack new DIR          write a skeleton: pack.xml, one working model, a README\n"
    "  pack build DIR        a reproducible zip of a pack folder, to share\n"
    "  pack gallery PACK     one self-contained HTML page of every model's picture\n"
    "  pack install PACK     copy a checked pack to the installed packs: then\n"
    "                        'smalti run @NAME/MODEL' runs its models\n"
    "  pack uninstall NAME   remove an installed pack's newest version (NAME@VERSION:\n"
    "                        that one)\n"
    "\n"
    "'smalti help pack COMMAND' shows a command's options.\n"
    "\n"
    "Examples:\n"
    "  smalti pack check models/\n"
    "  smalti pack list ../shared/mj\n"
    "  smalti run models/ maze -o maze.png\n";

static const char pack_check_text[] =
    "Usage: smalti pack check PACK [options]\n"
    "\n"
    "Check a pack: its manifest, its names and links, and for each model (in the\n"
    "manifest's order) that it loads with the pack's resources only, its lint, its\n"
    "thumbnail, and a run at its default settings and first seed. One line per model:\n"
    "ok, warnings (listed under it), failed (with file:line) or capped (still going\n"
    "when its work budget was spent), then a summary. Exit 0 when none failed or was\n"
    "capped, 3 when one failed, 6 when none failed but one was capped.\n"
    "Work is counted, not timed (about one unit per cell or item a run visits), so\n"
    "the verdict is the same on every machine.\n"
    "A run still going at the step limit stops there, as 'smalti run' and MarkovJunior\n"
    "stop it (some models never finish: SmartSAW): ok at its own limit (the entry's or\n"
    "its <smalti> steps), a warning at the default one (--steps), so --strict fails it.\n"
    "\n"
    "Options:\n"
    "  --max-work N          work of each model's run (default 10G; k, M, G, T)\n"
    "  --timeout SECONDS     also a wall-time cap on each run (default none: a time\n"
    "                        cap makes the verdict depend on the machine)\n"
    "  --steps N             step limit of models that give none (default 50000)\n"
    "  --max-memory SIZE     the most memory each model's load and run may hold, and\n"
    "                        unpacking the pack (default 2G)\n"
    "  --max-unpacked SIZE   the most a pack may unpack to, in all (default 1G)\n"
    "  -j, --jobs N          check N models at once (default 1); the order stays\n"
    "  --strict              a model with warnings fails\n"
    "  -q, --quiet           no warning lines under the models\n"
    "\n"
    "Examples:\n"
    "  smalti pack check models/\n"
    "  smalti pack check ../shared/mj -j 2 --max-work 2G\n";

static const char pack_list_text[] =
    "Usage: smalti pack list PACK [options]\n"
    "       smalti pack list --installed\n"
    "\n"
    "The pack's name, version, description, licence and authors, then each model:\n"
    "its name (what 'smalti run PACK NAME' takes), default grid, seeds, step limit\n"
    "and title, and its tags. With --installed: each installed pack's name, version,\n"
    "description and folder (see 'smalti help pack install').\n"
    "\n"
    "Options:\n"
    "  --installed           list the installed packs instead\n"
    "  --max-unpacked SIZE   the most a pack may unpack to, in all (default 1G)\n"
    "\n"
    "Examples:\n"
    "  smalti pack list models/\n"
    "  smalti pack list castles-1.0.0.zip\n";

static const char pack_install_text[] =
    "Usage: smalti pack install PACK [--force] [options]\n"
    "\n"
    "Copy a pack (a folder or a .zip) into $XDG_DATA_HOME/smalti/packs/NAME/VERSION\n"
    "(~/.local/share/smalti/packs/... when XDG_DATA_HOME is unset), from its pack.xml's\n"
    "name and version. The pack is checked first as a reader checks it (manifest,\n"
    "names, links, sizes, a zip's SHA256SUMS) and as pack build checks a folder (plain\n"
    "files only, every file the manifest names present, every model loading with the\n"
    "pack's resources); models are not run: 'smalti pack check PACK' runs them. A\n"
    "folder's hidden files and backups are left out, as pack build leaves them out.\n"
    "The version appears whole, by a rename of a folder built beside it, or not at\n"
    "all; nothing is written elsewhere. Then 'smalti run @NAME/MODEL' runs a model of\n"
    "the newest version installed (@NAME@VERSION/MODEL of another), and @NAME works\n"
    "wherever a PACK does (batch, pack list, pack check, pack gallery).\n"
    "\n"
    "Options:\n"
    "  -f, --force           replace the same version when it is installed already\n"
    "  --max-unpacked SIZE   the most the pack may unpack to, in all (default 1G)\n"
    "  -q, --quiet           print nothing but errors\n"
    "\n"
    "Examples:\n"
    "  smalti pack install castles-1.2.0.zip && smalti run @castles/keep -o keep.png\n"
    "  smalti pack list --installed\n";

static const char pack_uninstall_text[] =
    "Usage: smalti pack uninstall NAME[@VERSION] [-q]\n"
    "\n"
    "Remove an installed pack: the version given, else the newest installed.\n"
    "\n"
    "Options:\n"
    "  -q, --quiet           print nothing but errors\n"
    "\n"
    "Examples:\n"
    "  smalti pack uninstall castles@1.2.0\n";

static const char pack_new_text[] =
    "Usage: smalti pack new DIR [--name NAME] [-q]\n"
    "\n"
    "Write the skeleton of a pack into DIR, which must be new or empty: pack.xml (the\n"
    "manifest), one working model (models/islands.xml) and a README.md. The folder\n"
    "appears whole or not at all.\n"
    "\n"
    "Options:\n"
    "  --name NAME           the pack's name (default: DIR's last part, made fit for a\n"
    "                        name: letters, digits, '-', '_' and '.')\n"
    "  -q, --quiet           print nothing but errors\n"
    "\n"
    "Examples:\n"
    "  smalti pack new castles && smalti pack check castles\n"
    "  smalti run castles islands -o islands.png\n";

static const char pack_build_text[] =
    "Usage: smalti pack build DIR [-o FILE.zip] [options]\n"
    "\n"
    "Make a pack folder into one reproducible zip to share: two builds of the same\n"
    "files give the same bytes. Entries are sorted by name, dated SOURCE_DATE_EPOCH\n"
    "(else 1980-01-01, in UTC), mode 0644, deflated at level 6, with no directory\n"
    "entries and no extra fields, and a SHA256SUMS list (as sha256sum -c reads it) is\n"
    "added. Left out: hidden files and folders (.git, .DS_Store), editor backups and\n"
    "leftovers (name~, #name#, *.swp, *.bak, *.orig, *.rej), Thumbs.db, desktop.ini,\n"
    "a SHA256SUMS at the top (made afresh) and the output itself. Refused, as a pack\n"
    "reader refuses them: a symbolic link, a special file, an unsafe name, a bad\n"
    "manifest, a model or thumbnail the manifest names but the zip would not hold, a\n"
    "model that does not load from the zip's files, and more than --max-unpacked in\n"
    "all. The zip is written whole or not at all. Models are loaded, not run: 'smalti\n"
    "pack check DIR' runs them.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE     the zip (default NAME-VERSION.zip from pack.xml, in the\n"
    "                        current folder; - for stdout)\n"
    "  --max-unpacked SIZE   the most the pack may hold, in all (default 1G)\n"
    "  -v, --verbose         list the files as they go in\n"
    "  -q, --quiet           print nothing but errors\n"
    "\n"
    "Examples:\n"
    "  smalti pack build castles                  # castles-0.1.0.zip\n"
    "  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) smalti pack build castles -o dist/castles.zip\n";

static const char pack_gallery_text[] =
    "Usage: smalti pack gallery PACK [-o FILE.html] [options]\n"
    "\n"
    "Write one self-contained HTML page of a pack (a folder or a .zip): for each model\n"
    "a picture of its run at its default settings and first seed (or the thumbnail\n"
    "its entry names), as an embedded PNG, with its title, description, tags and the\n"
    "command that makes the picture again. The page has no script, links nowhere and\n"
    "may load nothing but its own images (a Content-Security-Policy says so). A model\n"
    "that fails gets its error on the page and on stderr, and the exit code is its.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE     the page (default gallery.html; - for stdout)\n"
    "  --max-work N          work of each model's run (default 10G; k, M, G, T): past\n"
    "                        it, the card says the run was stopped\n"
    "  --timeout SECONDS     also a wall-time cap on each run (default none: a time\n"
    "                        cap makes the page depend on the machine)\n"
    "  --max-memory SIZE     the most memory each model's load, run and picture may\n"
    "                        hold, and unpacking the pack (default 2G)\n"
    "  --max-unpacked SIZE   the most a pack may unpack to, in all (default 1G)\n"
    "  -q, --quiet           no progress lines\n"
    "\n"
    "Examples:\n"
    "  smalti pack gallery models/ -o models.html\n"
    "  smalti pack gallery castles-0.1.0.zip -o castles.html\n";

static const char help_text[] =
    "Usage: smalti help [COMMAND]\n"
    "\n"
    "List the commands, or show a command's options and examples (as\n"
    "'smalti COMMAND --help' does).\n"
    "\n"
    "Examples:\n"
    "  smalti help\n"
    "  smalti help run\n";

static const struct {
    const char *name;
    const char *text;
} commands[] = {
    {"run", run_text}, {"check", check_text}, {"batch", batch_text}, {"wfc", wfc_text}, {"view", view_text}, {"studio", studio_text},
    {"help", help_text},
    {"pack", pack_text}, {"pack check", pack_check_text}, {"pack list", pack_list_text},
    {"pack new", pack_new_text}, {"pack install", pack_install_text}, {"pack uninstall", pack_uninstall_text}, {"pack build", pack_build_text}, {"pack gallery", pack_gallery_text},
};

const char *usage_overview(void) { return overview_text; }

const char *usage_of(const char *command)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(commands[i].name, command) == 0) return commands[i].text;
    return NULL;
}

/* The options a command's usage text names: the "-x" and "--word" in the left column of
   its option lines (those starting "  -"), so that the texts are the one list of options. */
static int options_of(const char *text, char names[][32], int max)
{
    int count = 0;
    for (const char *line = text; *line && count < max; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
        if (strncmp(line, "  -", 3) != 0) continue;
        const char *end = strstr(line + 2, "  "), *eol = strchr(line, '\n');
        if (!eol) eol = line + strlen(line);
        if (!end || end > eol) end = eol;
        for (const char *p = line + 2; p < end && count < max; p++) {
            if (p[0] != '-' || (p[-1] != ' ' && p[-1] != ',')) continue;
            size_t n = strspn(p, "-abcdefghijklmnopqrstuvwxyz0123456789");
            if (n < 2 || n >= 32 || (p[1] != '-' && n != 2)) continue;
            bool seen = false;
            for (int i = 0; i < count; i++) seen |= strlen(names[i]) == n && strncmp(names[i], p, n) == 0;
            if (!seen) {
                memcpy(names[count], p, n);
                names[count++][n] = 0;
            }
            p += n - 1;
        }
    }
    return count;
}

int unknown_option(const char *command, const char *option)
{
    char names[64][32];
    const char *list[65];
    const char *text = command ? usage_of(command) : overview_text;
    int count = text ? options_of(text, names, 64) : 0;
    for (int i = 0; i < count; i++) list[i] = names[i];
    list[count] = NULL;
    const char *near = suggest_nearest(option, list);
    if (near) fprintf(stderr, "smalti: unknown option '%s'; did you mean '%s'?\n", option, near);
    else fprintf(stderr, "smalti: unknown option '%s'\n", option);
    if (command) fprintf(stderr, "Run 'smalti help %s' for its options.\n", command);
    else fprintf(stderr, "Run 'smalti help' for the commands.\n");
    return EXIT_USAGE;
}

int unknown_command(const char *command)
{
    const char *list[sizeof commands / sizeof *commands + 1];
    size_t n = 0;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strchr(commands[i].name, ' ')) list[n++] = commands[i].name; /* not "pack check" */
    list[n] = NULL;
    const char *near = suggest_nearest(command, list);
    if (near) fprintf(stderr, "smalti: unknown command '%s'; did you mean '%s'?\n", command, near);
    else fprintf(stderr, "smalti: unknown command '%s'\n", command);
    fprintf(stderr, "Run 'smalti help' for the commands.\n");
    return EXIT_USAGE;
}

bool wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    return false;
}

/* A usage text with its "@outputs" and "@tile_outputs" lines made from the table of output kinds
   (output_kinds.c), so that the help names every kind there is. */
static void put_usage(const char *text, FILE *f)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        bool all = strncmp(line, "@outputs\n", len) == 0, tiles = strncmp(line, "@tile_outputs\n", len) == 0;
        if (all || tiles) {
            char kinds[200];
            output_kind_list(kinds, sizeof kinds, tiles);
            fprintf(f, "                        %s\n", kinds);
        } else fwrite(line, 1, len, f);
        line += len;
    }
}

int print_help(const char *command)
{
    if (!command) {
        fputs(overview_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(command, "outputs") == 0) {
        output_kinds_help(stdout);
        return EXIT_OK;
    }
    const char *text = usage_of(command);
    if (!text) return unknown_command(command);
    put_usage(text, stdout);
    return EXIT_OK;
}

const char *plural(long n, const char *one, const char *many) { return n == 1 || n == -1 ? one : many; }
