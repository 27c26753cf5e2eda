"""smalti.py — Python binding of libsmalti (the smalti MarkovJunior interpreter) through ctypes.

No compiler is needed: the module loads the shared library, found (in this order) at $SMALTI_LIB,
beside this file, in the source tree's build/ (bindings/python/../../build), in the lib/ of the
prefix this file is installed under (PREFIX/share/smalti/python/../../../lib), through the
system's loader, and in /usr/local/lib.

    import smalti
    model = smalti.Model.load("models/maze.xml", size=(21, 21))
    run = model.run(seed=42)
    run.on_step(lambda event: print(event.step, len(event.changed)))
    run.to_end(50000)
    print(run.text())

Errors raise smalti.Error (ModelError, IOError, ...) whose str() is "file:line: message".
docs/python.md is the manual.
"""
import ctypes
import ctypes.util
import math
import numbers
import os

__all__ = ["Model", "Run", "StepEvent", "Error", "ModelError", "FileError", "RunError", "UsageError",
           "TimeoutError", "CancelledError", "MemoryError", "LayoutError", "load_library", "check_layouts",
           "count_xml_memory", "run"]

# --- the C types of include/smalti.h ---------------------------------------------------------

class _Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("file", ctypes.c_char * 512), ("line", ctypes.c_int),
                ("message", ctypes.c_char * 512)]


_WarningFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p)


class _LoadOptions(ctypes.Structure):
    _fields_ = [("mx", ctypes.c_int), ("my", ctypes.c_int), ("mz", ctypes.c_int),
                ("resource_dirs", ctypes.POINTER(ctypes.c_char_p)), ("resource_dir_count", ctypes.c_int),
                ("allow_any_path", ctypes.c_int), ("warn", _WarningFn), ("warn_userdata", ctypes.c_void_p),
                ("quiet", ctypes.c_int), ("max_memory", ctypes.c_size_t), ("timeout_seconds", ctypes.c_double),
                ("params", ctypes.POINTER(ctypes.c_char_p)), ("param_count", ctypes.c_int)]


class _StepEvent(ctypes.Structure):
    _fields_ = [("step", ctypes.c_long), ("node_id", ctypes.c_int), ("changed", ctypes.POINTER(ctypes.c_int32)),
                ("changed_count", ctypes.c_size_t), ("grid", ctypes.POINTER(ctypes.c_ubyte))]


_ObserverFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_StepEvent))


class _RunOptions(ctypes.Structure):
    _fields_ = [("timeout_seconds", ctypes.c_double), ("max_memory", ctypes.c_size_t), ("max_work", ctypes.c_longlong)]


class _ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("default_value", ctypes.c_char_p), ("value", ctypes.c_char_p),
                ("overridden", ctypes.c_int), ("line", ctypes.c_int)]


class _NodeInfo(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_char_p), ("line", ctypes.c_int), ("parent", ctypes.c_int), ("depth", ctypes.c_int),
                ("attributes", ctypes.c_char_p)]


class _Settings(ctypes.Structure):
    _fields_ = [("size", ctypes.c_int), ("length", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("dim", ctypes.c_int), ("has_steps", ctypes.c_int), ("steps", ctypes.c_long),
                ("has_seed", ctypes.c_int), ("seed", ctypes.c_int32), ("pixel_size", ctypes.c_int),
                ("iso", ctypes.c_int), ("color_count", ctypes.c_int), ("color_symbols", ctypes.c_char * 257),
                ("color_rgb", ctypes.c_uint32 * 256)]


# Each struct above by its C name: load_library checks each one's size against the library's
# (smalti_struct_size), so that a field added to smalti.h and not here is an error at load time
# rather than memory read or written past a struct's end.
_STRUCTS = [("smalti_error", _Error), ("smalti_load_options", _LoadOptions), ("smalti_step_event", _StepEvent),
            ("smalti_run_options", _RunOptions), ("smalti_node_info", _NodeInfo), ("smalti_settings", _Settings),
            ("smalti_param_info", _ParamInfo)]


# smalti's defaults, as smalti.h's SMALTI_DEFAULT_STEPS, SMALTI_DEFAULT_SIDE_2D and
# SMALTI_DEFAULT_SIDE_3D give them to the command line and the studio (a test holds them equal).
DEFAULT_STEPS = 50000
DEFAULT_SIDE_2D = 64
DEFAULT_SIDE_3D = 24


class LayoutError(OSError):
    """The binding's declaration of a C struct does not match the loaded library's (another version)."""


# --- errors ----------------------------------------------------------------------------------

class Error(Exception):
    """A failure of the library: status (smalti_status), file, line (0: none) and message;
    str() gives "file:line: message" as the command line prints it."""

    def __init__(self, status, file, line, message):
        self.status, self.file, self.line, self.message = status, file, line, message
        where = "%s:%d" % (file, line) if file and line else file
        super().__init__("%s: %s" % (where, message) if where else message)


class ModelError(Error):
    """The model is wrong: XML, node, attribute, rule (SMALTI_ERR_MODEL)."""


class FileError(Error):
    """A file could not be read or written (SMALTI_ERR_IO)."""


class RunError(Error):
    """A run failed (SMALTI_ERR_RUNTIME)."""


class UsageError(Error):
    """Bad arguments (SMALTI_ERR_USAGE)."""


class TimeoutError(Error):  # noqa: A001 - the library's name for it
    """A run passed its deadline (SMALTI_ERR_TIMEOUT)."""


class CancelledError(Error):
    """A run was cancelled (SMALTI_ERR_CANCELLED), or a step callback raised."""


class MemoryError(Error):  # noqa: A001
    """A run or a load needed more than its memory budget (SMALTI_ERR_MEMORY)."""


class RequirementError(Error):
    """A <require> failed on every attempt its tries allow (SMALTI_ERR_REQUIREMENT)."""


_ERRORS = {1: ModelError, 2: FileError, 3: RunError, 4: UsageError, 5: TimeoutError, 6: CancelledError,
           7: MemoryError, 8: RequirementError}


def _raise(err):
    cls = _ERRORS.get(err.status, Error)
    raise cls(err.status, err.file.decode("utf-8", "replace"), err.line, err.message.decode("utf-8", "replace"))


# --- the library -----------------------------------------------------------------------------

_lib = None
_SONAME = "libsmalti.so.0"


def _candidates():
    env = os.environ.get("SMALTI_LIB")
    if env:
        return [env]  # asked for: that one or none
    here = os.path.dirname(os.path.abspath(__file__))
    names = [os.path.join(here, _SONAME),
             os.path.join(here, "..", "..", "build", _SONAME),
             os.path.join(here, "..", "..", "..", "lib", _SONAME)]
    found = ctypes.util.find_library("smalti")
    return names + [found or _SONAME, "/usr/local/lib/" + _SONAME]


def load_library(path=None):
    """The ctypes handle of libsmalti (loaded once); path overrides the search."""
    global _lib
    if _lib is not None and path is None:
        return _lib
    tried = []
    for name in [path] if path else _candidates():
        if os.sep in name and not os.path.exists(name):
            tried.append(name)
            continue
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError as e:
            tried.append("%s (%s)" % (name, e))
    else:
        raise OSError("smalti: libsmalti not found; build it (make) or set SMALTI_LIB. Tried: " + "; ".join(tried))
    _declare(lib)
    check_layouts(lib)
    _lib = lib
    return lib


def check_layouts(lib, structs=None):
    """Raise LayoutError, naming the struct and both sizes, if a ctypes struct (structs: (C name,
    ctypes class) pairs; default: all the binding declares) is not the size libsmalti says."""
    for name, cls in _STRUCTS if structs is None else structs:
        want = lib.smalti_struct_size(name.encode())
        if want != ctypes.sizeof(cls):
            raise LayoutError("smalti: the binding's %s is %d bytes but libsmalti's (%s) is %d: the binding "
                              "and the library are of different versions" % (name, ctypes.sizeof(cls), lib._name, want))


def _declare(lib):
    P, I, L, V = ctypes.c_void_p, ctypes.c_int, ctypes.c_long, None
    E = ctypes.POINTER(_Error)
    pi = ctypes.POINTER(ctypes.c_int)
    for name, res, args in [
        ("smalti_load_defaults", _LoadOptions, []),
        ("smalti_model_load", P, [ctypes.c_char_p, ctypes.POINTER(_LoadOptions), E]),
        ("smalti_model_load_string", P, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_LoadOptions), E]),
        ("smalti_model_free", V, [P]),
        ("smalti_count_xml_memory", I, []),
        ("smalti_version", ctypes.c_char_p, []),
        ("smalti_struct_size", ctypes.c_size_t, [ctypes.c_char_p]),
        ("smalti_model_node_count", I, [P]),
        ("smalti_model_node_info", I, [P, I, ctypes.POINTER(_NodeInfo)]),
        ("smalti_model_legend", ctypes.c_char_p, [P]),
        ("smalti_model_grid_size", V, [P, pi, pi, pi]),
        ("smalti_model_settings", V, [P, ctypes.POINTER(_Settings)]),
        ("smalti_model_param_count", I, [P]),
        ("smalti_model_param", I, [P, I, ctypes.POINTER(_ParamInfo)]),
        ("smalti_run_defaults", _RunOptions, []),
        ("smalti_run_new_with", P, [P, ctypes.c_int32, ctypes.POINTER(_RunOptions), E]),
        ("smalti_run_cancel", V, [P]),
        ("smalti_run_reset", V, [P, ctypes.c_int32]),
        ("smalti_run_free", V, [P]),
        ("smalti_run_step", I, [P]),
        ("smalti_run_to_end", L, [P, L]),
        ("smalti_run_finished", I, [P]),
        ("smalti_run_error", I, [P, E]),
        ("smalti_run_counter", L, [P]),
        ("smalti_run_attempts", I, [P]),
        ("smalti_run_requirement", I, [P, I, pi, pi, ctypes.POINTER(ctypes.c_char_p)]),
        ("smalti_run_work", ctypes.c_longlong, [P]),
        ("smalti_run_last_node", I, [P, ctypes.POINTER(L)]),
        ("smalti_run_grid", ctypes.POINTER(ctypes.c_ubyte), [P, pi, pi, pi]),
        ("smalti_run_legend", ctypes.c_char_p, [P]),
        ("smalti_run_set_observer", V, [P, _ObserverFn, P]),
        ("smalti_run_set_warn", V, [P, _WarningFn, P]),
        ("smalti_run_warning_count", I, [P]),
    ]:
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


def _numpy():
    try:
        import numpy
        return numpy
    except ImportError:
        return None


# The ranges of the C types the numbers go into: ctypes would cut a larger number silently.
_INT_MAX = 2 ** 31 - 1
_LONG_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_long) - 1) - 1
_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_LLONG_MAX = 2 ** 63 - 1


def _integer(value, low, high, what):
    """value as an int if it is an integer in low..high; else TypeError or ValueError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("smalti: %s must be an integer, not %r" % (what, value))
    value = int(value)
    if not low <= value <= high:
        raise ValueError("smalti: %s %d is out of range (%d to %d)" % (what, value, low, high))
    return value


def _seconds(value, what):
    """value as a float if it is a finite number of seconds, 0 or more; else ValueError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise ValueError("smalti: %s must be a finite number of seconds, 0 or more, not %r" % (what, value))
    return float(value)


def _c_string(data, what):
    """data (bytes) for a char * argument: C would end it at a NUL byte, so one is refused."""
    if b"\0" in data:
        raise ValueError("smalti: %s has a NUL byte" % what)
    return data


def _grid_size(size):
    """size: None (the model's own settings), N (N×N, 2-D), (X, Y) or (X, Y, Z)."""
    if size is None:
        return 0, 0, 0
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        sides = (size, size, 1)
    else:
        sides = tuple(size) if isinstance(size, (tuple, list)) else ()
        if len(sides) == 2:
            sides += (1,)
        elif len(sides) != 3:
            raise ValueError("size is N, (X, Y) or (X, Y, Z), not %r" % (size,))
    return tuple(_integer(side, 1, _INT_MAX, "size") for side in sides)


# --- models ----------------------------------------------------------------------------------

def _param_setting(name, value):
    """ "name=value" for the load options; the name a str (the library checks its letters)."""
    if not isinstance(name, str):
        raise TypeError("smalti: a parameter's name is a str, not %r" % (name,))
    return _c_string(("%s=%s" % (name, value)).encode("utf-8"), "a parameter")


class Model:
    """A loaded, compiled model for one grid size; immutable, shared by any number of runs."""

    def __init__(self, handle, lib, keep):
        self._handle, self._lib, self._keep = handle, lib, keep
        # Runs still open: the model is freed only after the last (the garbage collector may
        # finalize a model before a run that refers to it, when they are in a cycle).
        self._live_runs, self._closing = 0, False

    @classmethod
    def load(cls, path, size=None, resources=None, allow_any_path=False, quiet=False, warnings=None,
             max_memory=0, library=None, timeout=0, params=None):
        """Load a model file. size: None (the model's <smalti> settings, else 64 per side, 24 in 3-D), N, (X, Y)
        or (X, Y, Z). resources: folders searched for rule images, samples and tilesets.
        params: a dict overriding the model's parameters ({"rooms": 12}; each value is given as str(value)),
        a name the model does not declare raising UsageError.
        warnings: a function(file, line, message) given each load warning (default: stderr;
        quiet=True drops them). max_memory (bytes) and timeout (seconds) bound the load; 0: none.
        Raises ModelError, FileError, TimeoutError, ... with "file:line: message"."""
        return cls._load(None, os.fsencode(path), size, resources, allow_any_path, quiet, warnings, max_memory, library,
                         timeout, params)

    @classmethod
    def from_string(cls, xml, name="model.xml", size=None, resources=None, allow_any_path=False, quiet=False,
                    warnings=None, max_memory=0, library=None, timeout=0, params=None):
        """Load a model from XML text; name stands for the file in messages."""
        return cls._load(xml, name, size, resources, allow_any_path, quiet, warnings, max_memory, library, timeout,
                         params)

    @classmethod
    def _load(cls, xml, name, size, resources, allow_any_path, quiet, warnings, max_memory, library, timeout, params):
        lib = load_library(library)
        opt = lib.smalti_load_defaults()
        opt.mx, opt.my, opt.mz = _grid_size(size)
        keep = []
        if resources:
            dirs = (ctypes.c_char_p * len(resources))(*[_c_string(os.fsencode(d), "a resource folder's name")
                                                         for d in resources])
            keep.append(dirs)
            opt.resource_dirs = ctypes.cast(dirs, ctypes.POINTER(ctypes.c_char_p))
            opt.resource_dir_count = len(resources)
        opt.allow_any_path = 1 if allow_any_path else 0
        opt.quiet = 1 if quiet else 0
        opt.max_memory = _integer(max_memory or 0, 0, _SIZE_MAX, "max_memory")
        opt.timeout_seconds = _seconds(timeout, "timeout")
        if params:
            sets = (ctypes.c_char_p * len(params))(*[_param_setting(k, v) for k, v in params.items()])
            keep.append(sets)
            opt.params = ctypes.cast(sets, ctypes.POINTER(ctypes.c_char_p))
            opt.param_count = len(params)
        if warnings is not None:
            def warn(_userdata, file, line, message):
                warnings(file.decode("utf-8", "replace") if file else "", line, message.decode("utf-8", "replace"))
            callback = _WarningFn(warn)
            keep.append(callback)
            opt.warn = callback
        err = _Error()
        if xml is None:
            handle = lib.smalti_model_load(_c_string(name, "the model's path"), ctypes.byref(opt), ctypes.byref(err))
        else:
            data = _c_string(xml.encode("utf-8") if isinstance(xml, str) else bytes(xml), "the model's XML")
            handle = lib.smalti_model_load_string(data, _c_string(name.encode("utf-8"), "the model's name"),
                                                  ctypes.byref(opt), ctypes.byref(err))
        if not handle:
            _raise(err)
        return cls(handle, lib, keep)

    def close(self):
        """Close the model: any later use of it raises ValueError; it is freed once its runs are
        closed too (they go on working until then)."""
        self._closing = True
        if self._handle and self._live_runs == 0:
            self._lib.smalti_model_free(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _open_handle(self):
        """The C handle; ValueError once close() was called (C would be handed NULL or a model
        about to be freed)."""
        if self._closing or not self._handle:
            raise ValueError("smalti: the model is closed")
        return self._handle

    @property
    def legend(self):
        """The model's values: legend[v] is the symbol of cell value v."""
        return self._lib.smalti_model_legend(self._open_handle()).decode("latin-1")

    @property
    def size(self):
        """(X, Y, Z), the grid the model was loaded for."""
        x, y, z = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        self._lib.smalti_model_grid_size(self._open_handle(), ctypes.byref(x), ctypes.byref(y), ctypes.byref(z))
        return x.value, y.value, z.value

    @property
    def params(self):
        """The model's parameters in the file's order: {name: value it was loaded with}."""
        return {p.name.decode("utf-8"): p.value.decode("utf-8") for p in self._param_infos()}

    @property
    def param_defaults(self):
        """The model's parameters in the file's order: {name: the <param>'s default value}."""
        return {p.name.decode("utf-8"): p.default_value.decode("utf-8") for p in self._param_infos()}

    def _param_infos(self):
        handle = self._open_handle()
        infos = []
        for i in range(self._lib.smalti_model_param_count(handle)):
            info = _ParamInfo()
            if self._lib.smalti_model_param(handle, i, ctypes.byref(info)):
                infos.append(info)
        return infos

    def settings(self):
        """The model's own <smalti> settings as a dict of what it gives (size, length, width, height,
        dim, steps, seed, pixel_size, iso, colors)."""
        s = _Settings()
        self._lib.smalti_model_settings(self._open_handle(), ctypes.byref(s))
        out = {k: getattr(s, k) for k in ("size", "length", "width", "height", "dim", "pixel_size") if getattr(s, k)}
        if s.has_steps:
            out["steps"] = s.steps
        if s.has_seed:
            out["seed"] = s.seed
        if s.iso >= 0:
            out["iso"] = bool(s.iso)
        if s.color_count:
            syms = s.color_symbols[:s.color_count].decode("latin-1")
            out["colors"] = {syms[i]: "%06X" % s.color_rgb[i] for i in range(s.color_count)}
        return out

    def nodes(self):
        """The compiled tree: a list of dicts (kind, line, parent, depth, attributes) by node id."""
        out = []
        handle = self._open_handle()
        for i in range(self._lib.smalti_model_node_count(handle)):
            info = _NodeInfo()
            if self._lib.smalti_model_node_info(handle, i, ctypes.byref(info)):
                out.append({"kind": info.kind.decode(), "line": info.line, "parent": info.parent,
                            "depth": info.depth, "attributes": info.attributes.decode("utf-8", "replace")})
        return out

    def run(self, seed=1, timeout=0, max_memory=0, max_work=0):
        """A new run with this seed, before its first step. timeout (seconds), max_memory (bytes)
        and max_work (units of about one cell visited: the same stopping point on every machine) are
        budgets; 0: none."""
        return Run(self, seed, timeout, max_memory, max_work)


class StepEvent:
    """What one step did: step (1-based), node_id (-1: none acted), changed (flat indices of the
    changed cells; one may appear twice) and run, whose grid is the grid after the step."""
    __slots__ = ("step", "node_id", "changed", "run")

    def __init__(self, step, node_id, changed, run):
        self.step, self.node_id, self.changed, self.run = step, node_id, changed, run


class RunWarning:
    """A run-time warning (smalti_run_set_warn): a <wfc> node that found no solution, after which
    the grid is as it was before the node. file and line name the node; step is the step that met it."""
    __slots__ = ("file", "line", "step", "message")

    def __init__(self, file, line, step, message):
        self.file, self.line, self.step, self.message = file, line, step, message

    def __repr__(self):
        return "%s:%d: warning: %s" % (self.file, self.line, self.message)


class Run:
    """One run of a model; used by one thread at a time. Any use of a closed run raises ValueError.
    warnings: the RunWarning list of the run since it was made or last reset (the library prints none)."""

    def __init__(self, model, seed, timeout=0, max_memory=0, max_work=0):
        self.model, self._lib, self._handle = model, model._lib, None
        self._observer, self._callback_error = None, None
        # Inside smalti_run_step/to_end (so inside a step callback, or another thread): the C run
        # must not be freed, reset or stepped again until the call returns; close() then waits.
        self._stepping, self._close_when_done = False, False
        model_handle = model._open_handle()
        seed = _integer(seed, -2 ** 31, 2 ** 31 - 1, "seed")
        opt = _RunOptions(_seconds(timeout, "timeout"), _integer(max_memory or 0, 0, _SIZE_MAX, "max_memory"),
                          _integer(max_work or 0, 0, _LLONG_MAX, "max_work"))
        err = _Error()
        self._handle = self._lib.smalti_run_new_with(model_handle, seed, ctypes.byref(opt), ctypes.byref(err))
        if not self._handle:
            _raise(err)
        model._live_runs += 1
        self.warnings = []

        def warned(_userdata, file, line, message):
            step = self._lib.smalti_run_counter(self._handle) + 1  # called while that step is made
            self.warnings.append(RunWarning(file.decode("utf-8", "replace") if file else "", line, step,
                                            message.decode("utf-8", "replace")))
        self._warned = _WarningFn(warned)  # kept alive as long as the run
        self._lib.smalti_run_set_warn(self._handle, self._warned, None)

    def close(self):
        """Free the run; idempotent. From a step callback it stops the run, which is freed when the
        step() or to_end() that called the callback returns."""
        if not self._handle:
            return
        if self._stepping:
            if not self._close_when_done:
                self._close_when_done = True
                self._lib.smalti_run_cancel(self._handle)
            return
        self._lib.smalti_run_free(self._handle)
        self._handle = None
        self.model._live_runs -= 1
        if self.model._closing:
            self.model.close()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _open_handle(self):
        """The C handle; ValueError once close() was called."""
        if not self._handle or self._close_when_done:
            raise ValueError("smalti: the run is closed")
        return self._handle

    def _idle_handle(self, what):
        """The C handle for a call that steps, resets or changes the observer: not inside a step."""
        handle = self._open_handle()
        if self._stepping:
            raise ValueError("smalti: %s cannot be called during a step (from a step callback)" % what)
        return handle

    def on_step(self, callback):
        """Call callback(StepEvent) after every step (None: stop). An exception in it cancels the
        run, and step() or to_end() raises it. The callback may read the run and cancel or close it,
        but not step, reset it or change its callback."""
        handle = self._idle_handle("on_step()")
        if callback is None:
            self._observer = None
            self._lib.smalti_run_set_observer(handle, _ObserverFn(), None)
            return

        def observe(_userdata, event_p):
            if self._callback_error is not None or self._close_when_done:
                return
            e = event_p.contents
            changed = e.changed[:e.changed_count] if e.changed_count else []
            try:
                callback(StepEvent(e.step, e.node_id, changed, self))
            except BaseException as exc:  # handed back to the caller of step()/to_end()
                self._callback_error = exc
                if self._handle:
                    self._lib.smalti_run_cancel(self._handle)
        self._observer = _ObserverFn(observe)
        self._lib.smalti_run_set_observer(handle, self._observer, None)

    def _stepped(self, call, *args):
        """call(handle, *args) (smalti_run_step or _to_end), then the callback's error or the run's."""
        handle = self._idle_handle("step() or to_end()")
        self._stepping = True
        try:
            result = call(handle, *args)
        finally:
            self._stepping = False
        if self._close_when_done:  # close() from the callback: freed now that C is done with it
            self._close_when_done = False
            self.close()
        if self._callback_error is not None:
            exc, self._callback_error = self._callback_error, None
            raise exc
        err = _Error()
        if self._handle and self._lib.smalti_run_error(self._handle, ctypes.byref(err)):
            _raise(err)
        return result

    def step(self):
        """Make one step; False once the run has ended."""
        return bool(self._stepped(self._lib.smalti_run_step))

    def to_end(self, limit=DEFAULT_STEPS):
        """Step until the model ends or limit steps are made (0 or None: no limit); the step count."""
        return self._stepped(self._lib.smalti_run_to_end, _integer(limit or 0, 0, _LONG_MAX, "limit"))

    def reset(self, seed):
        """Start over with another seed, reusing the memory."""
        handle = self._idle_handle("reset()")
        seed = _integer(seed, -2 ** 31, 2 ** 31 - 1, "seed")
        self._callback_error = None
        self.warnings = []
        self._lib.smalti_run_reset(handle, seed)

    def cancel(self):
        """Ask the run to stop (from any thread); it raises CancelledError."""
        self._lib.smalti_run_cancel(self._open_handle())

    @property
    def finished(self):
        """Whether the model ended by itself."""
        return bool(self._lib.smalti_run_finished(self._open_handle()))

    @property
    def counter(self):
        """Steps made so far."""
        return self._lib.smalti_run_counter(self._open_handle())

    @property
    def attempts(self):
        """The attempts the run has begun: 1, unless a <require> failed and the run started again."""
        return self._lib.smalti_run_attempts(self._open_handle())

    @property
    def failed_requirements(self):
        """[(line, times failed, what failed the last time)] of the requirements that threw attempts away."""
        out, line, count, what = [], ctypes.c_int(), ctypes.c_int(), ctypes.c_char_p()
        while self._lib.smalti_run_requirement(self._open_handle(), len(out), ctypes.byref(line), ctypes.byref(count),
                                               ctypes.byref(what)):
            out.append((line.value, count.value, what.value.decode("utf-8", "replace")))
        return out

    @property
    def work(self):
        """Work done so far, in units of about one cell visited (what max_work bounds); 0 without max_work."""
        return self._lib.smalti_run_work(self._open_handle())

    @property
    def last_node(self):
        """(node id, steps in a row) of the last step's actor; node id -1 when none acted."""
        steps = ctypes.c_long()
        node = self._lib.smalti_run_last_node(self._open_handle(), ctypes.byref(steps))
        return node, steps.value

    @property
    def legend(self):
        """The symbols of the cell values (the model's values)."""
        return self._lib.smalti_run_legend(self._open_handle()).decode("latin-1")

    def _grid(self):
        x, y, z = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        cells = self._lib.smalti_run_grid(self._open_handle(), ctypes.byref(x), ctypes.byref(y), ctypes.byref(z))
        return cells, x.value, y.value, z.value

    @property
    def size(self):
        """(X, Y, Z) of the current grid (a map or tile wfc node may change it)."""
        return self._grid()[1:]

    def grid_bytes(self):
        """A copy of the cells: cell (x, y, z) is at x + y*X + z*X*Y; each byte indexes legend."""
        cells, x, y, z = self._grid()
        return ctypes.string_at(cells, x * y * z)

    def grid_list(self):
        """The cells as nested lists, rows[y][x] in 2-D and layers[z][y][x] in 3-D."""
        data, (x, y, z) = self.grid_bytes(), self.size
        layers = [[list(data[(k * y + j) * x:(k * y + j + 1) * x]) for j in range(y)] for k in range(z)]
        return layers[0] if z == 1 else layers

    def grid_array(self):
        """The cells as a NumPy uint8 array of shape (Y, X) in 2-D, (Z, Y, X) in 3-D (needs NumPy)."""
        self._open_handle()
        np = _numpy()
        if np is None:
            raise ImportError("grid_array needs NumPy; grid_bytes() and grid_list() do not")
        data, (x, y, z) = self.grid_bytes(), self.size
        arr = np.frombuffer(data, dtype=np.uint8).reshape((z, y, x))
        return arr[0] if z == 1 else arr

    def text(self):
        """The grid in the model's symbols, a line per row (3-D: layers separated by a blank line)."""
        legend, data, (x, y, z) = self.legend, self.grid_bytes(), self.size
        layers = ["\n".join("".join(legend[c] for c in data[(k * y + j) * x:(k * y + j + 1) * x]) for j in range(y))
                  for k in range(z)]
        return "\n\n".join(layers) + "\n"


def count_xml_memory(library=None):
    """Count the model's XML tree against a load's max_memory too (smalti_count_xml_memory): it
    installs libxml2's process-wide allocator, so call it once, before loading models on other
    threads, and not when another module of the process (lxml) owns libxml2. False if refused."""
    return load_library(library).smalti_count_xml_memory() == 1


def run(path, seed=1, size=None, steps=DEFAULT_STEPS, **load_options):
    """Load a model, run it to its end (or steps), and return the finished Run."""
    model = Model.load(path, size=size, **load_options)
    r = model.run(seed)
    r.to_end(steps)
    return r
