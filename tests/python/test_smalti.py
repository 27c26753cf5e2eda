"""test_smalti.py — the Python binding (bindings/python/smalti.py) against the library and the CLI.
Run by `make python-test` (in `make test`) with SMALTI_LIB=build/libsmalti.so and SMALTI=./smalti."""
import ctypes
import faulthandler
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
import smalti  # noqa: E402

SMALTI = os.environ.get("SMALTI", os.path.join(ROOT, "smalti"))
CORPUS = os.environ.get("SMALTI_MJ_CORPUS", os.path.join(ROOT, "..", "shared", "mj"))
MAZE_GROWTH = os.path.join(CORPUS, "models", "MazeGrowth.xml")
MAZE = os.path.join(ROOT, "models", "maze.xml")


def cli_grid(model, *args):
    """The rows of the CLI's .txt output of a run (the lines after its `size` header line)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "grid.txt")
        subprocess.run([SMALTI, "run", model, "-q", "-o", out] + list(args), check=True)
        with open(out) as f:
            lines = f.read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("size ")) + 1
    return [line for line in lines[start:] if line]


class CompareWithCli(unittest.TestCase):
    def check_same_as_cli(self, path, size, seed):
        run = smalti.Model.load(path, size=size, quiet=True).run(seed=seed)
        steps = run.to_end(50000)
        self.assertTrue(run.finished)
        self.assertGreater(steps, 0)
        rows = run.text().splitlines()
        self.assertEqual(rows, cli_grid(path, "--size", str(size), "--seed", str(seed)))
        # Each form of the grid says the same.
        data = run.grid_bytes()
        self.assertEqual(len(data), size * size)
        grid = run.grid_list()
        self.assertEqual(len(grid), size)
        self.assertEqual(["".join(run.legend[v] for v in row) for row in grid], rows)
        self.assertEqual(bytes(v for row in grid for v in row), data)
        try:
            import numpy
        except ImportError:
            if os.environ.get("SMALTI_REQUIRE_NUMPY"):
                raise
            return
        arr = run.grid_array()
        self.assertEqual(arr.shape, (size, size))
        self.assertEqual(arr.dtype, numpy.uint8)
        self.assertEqual(arr.tobytes(), data)

    def test_maze_growth_64_seed_1(self):
        if not os.path.exists(MAZE_GROWTH):
            self.skipTest("skipped: corpus not found (%s)" % MAZE_GROWTH)
        self.check_same_as_cli(MAZE_GROWTH, 64, 1)

    def test_bundled_maze(self):
        # The fallback when the corpus is absent, and a second model besides.
        self.check_same_as_cli(MAZE, 21, 7)

    def test_from_string_and_3d(self):
        xml = '<sequence values="BWR"><one in="B" out="W" steps="5"/><all in="B" out="R"/></sequence>'
        run = smalti.Model.from_string(xml, "inline.xml", size=(4, 3, 2)).run(seed=3)
        run.to_end()
        self.assertEqual(run.size, (4, 3, 2))
        layers = run.grid_list()
        self.assertEqual((len(layers), len(layers[0]), len(layers[0][0])), (2, 3, 4))
        flat = [v for layer in layers for row in layer for v in row]
        self.assertEqual(flat.count(1), 5)
        self.assertEqual(flat.count(2), 4 * 3 * 2 - 5)
        self.assertEqual(run.legend, "BWR")

    PARAMS_XML = ('<sequence values="BW"><smalti length="{side}" width="1"><param name="side" value="9"/>'
                  '<param name="n" value="3"/></smalti><one in="B" out="W" steps="{n}"/></sequence>')

    def test_params_override_and_list(self):
        model = smalti.Model.from_string(self.PARAMS_XML, "p.xml")
        self.assertEqual(model.params, {"side": "9", "n": "3"})
        self.assertEqual(list(model.params), ["side", "n"])
        self.assertEqual(model.size, (9, 1, 1))
        run = model.run(seed=1)
        run.to_end()
        self.assertEqual(run.grid_bytes().count(1), 3)
        model = smalti.Model.from_string(self.PARAMS_XML, "p.xml", params={"n": 5, "side": "12"})
        self.assertEqual(model.params, {"side": "12", "n": "5"})
        self.assertEqual(model.param_defaults, {"side": "9", "n": "3"})
        self.assertEqual(model.size, (12, 1, 1))
        run = model.run(seed=1)
        run.to_end()
        self.assertEqual(run.grid_bytes().count(1), 5)
        # smalti.run hands params to the load, and the CLI's --set gives the same grid.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "p.xml")
            with open(path, "w") as f:
                f.write(self.PARAMS_XML)
            run = smalti.run(path, seed=4, params={"n": 7})
            self.assertEqual(run.text().splitlines(), cli_grid(path, "--seed", "4", "--set", "n=7"))
        self.assertEqual(smalti.Model.from_string('<one values="BW" in="B" out="W"/>', size=4).params, {})

    def test_params_mistakes(self):
        with self.assertRaises(smalti.UsageError) as e:
            smalti.Model.from_string(self.PARAMS_XML, "p.xml", params={"nn": 2})
        self.assertIn("did you mean 'n'?", str(e.exception))
        with self.assertRaises(smalti.ModelError) as e:
            smalti.Model.from_string(self.PARAMS_XML.replace("{n}", "{m}"), "p.xml")
        self.assertEqual(e.exception.line, 1)
        with self.assertRaises(TypeError):
            smalti.Model.from_string(self.PARAMS_XML, "p.xml", params={1: 2})
        with self.assertRaises(ValueError):
            smalti.Model.from_string(self.PARAMS_XML, "p.xml", params={"n": "1\0"})


class Callbacks(unittest.TestCase):
    def test_every_step_seen(self):
        run = smalti.Model.load(MAZE, size=21, quiet=True).run(seed=42)
        seen = []
        run.on_step(lambda e: seen.append((e.step, e.node_id, len(e.changed))))
        steps = run.to_end(50000)
        self.assertEqual([s for s, _, _ in seen], list(range(1, steps + 1)))
        self.assertEqual(run.counter, steps)
        self.assertTrue(any(n for _, _, n in seen))
        kinds = {n["kind"] for n in run.model.nodes()}
        self.assertTrue(all(node == -1 or 0 <= node < len(run.model.nodes()) for _, node, _ in seen), kinds)

    def test_step_by_step_equals_to_end(self):
        model = smalti.Model.load(MAZE, size=21, quiet=True)
        a = model.run(seed=5)
        calls = []
        a.on_step(lambda e: calls.append(e.step))
        made = 0
        while a.step():
            made += 1
            self.assertEqual(calls[-1], made)
        b = model.run(seed=5)
        b.to_end()
        self.assertEqual(a.grid_bytes(), b.grid_bytes())
        self.assertEqual(made, b.counter)

    def test_grid_read_while_running_is_consistent(self):
        # In each callback, the grid differs from the one before the step only in the cells the step
        # reports changed, and the last callback's grid is the final grid.
        run = smalti.Model.load(MAZE, size=21, quiet=True).run(seed=9)
        before = [run.grid_bytes()]
        checked = []

        def observe(e):
            now = e.run.grid_bytes()
            diff = {i for i in range(len(now)) if now[i] != before[0][i]}
            self.assertLessEqual(diff, set(e.changed))
            self.assertEqual(len(e.run.grid_list()), 21)
            before[0] = now
            checked.append(e.step)
        run.on_step(observe)
        run.to_end()
        self.assertEqual(len(checked), run.counter)
        self.assertEqual(before[0], run.grid_bytes())

    def test_callback_error_stops_the_run(self):
        run = smalti.Model.load(MAZE, size=21, quiet=True).run(seed=1)

        def fail(e):
            if e.step == 3:
                raise ValueError("stop at 3")
        run.on_step(fail)
        with self.assertRaisesRegex(ValueError, "stop at 3"):
            run.to_end()
        self.assertLess(run.counter, 10)


class Errors(unittest.TestCase):
    def test_bad_model_file_has_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.xml")
            with open(path, "w") as f:
                f.write('<sequence values="BW">\n  <one in="B" out="W"/>\n  <one in="B" out="Q"/>\n</sequence>\n')
            with self.assertRaises(smalti.ModelError) as cm:
                smalti.Model.load(path, size=8)
        e = cm.exception
        self.assertEqual((e.file, e.line), (path, 3))
        self.assertRegex(str(e), r"^%s:3: .*'Q'" % path)

    def test_bad_string_and_missing_file(self):
        with self.assertRaisesRegex(smalti.ModelError, r"^inline\.xml:1: "):
            smalti.Model.from_string('<one values="BW" in="B" out="Q"/>', "inline.xml")
        with self.assertRaises(smalti.FileError) as cm:
            smalti.Model.load("/nonexistent/model.xml")
        self.assertIn("/nonexistent/model.xml", str(cm.exception))
        with self.assertRaises(ValueError):
            smalti.Model.load(MAZE, size=(1, 2, 3, 4))

    def test_warnings_go_to_the_callback(self):
        got = []
        smalti.Model.from_string('<one values="BW" in="B" out="W" colour="x"/>', "w.xml", size=4,
                                 warnings=lambda f, l, m: got.append((f, l, m)))
        self.assertTrue(got and got[0][0] == "w.xml" and got[0][1] == 1, got)

    def test_a_wfc_without_solution_is_a_run_warning(self):
        xml = ('<sequence values="BW">\n  <one in="B" out="W" steps="3"/>\n'
               '  <wfc sample="Bricks" values="ABCD" n="3" tries="3"/>\n</sequence>\n')
        model = smalti.Model.from_string(xml, "nosol.xml", size=8, resources=[os.path.join(ROOT, "models", "resources")])
        run = model.run(seed=1)
        self.assertEqual(run.to_end(), 4)
        self.assertEqual(len(run.warnings), 1, run.warnings)
        w = run.warnings[0]
        self.assertEqual((w.file, w.line, w.step), ("nosol.xml", 3, 4))
        self.assertIn("found no solution (a contradiction in each of its 3 tries) at step 4", w.message)
        self.assertEqual(run.size, (8, 8, 1))  # the grid from before the node
        run.reset(1)
        self.assertEqual(run.warnings, [])
        run.to_end()
        self.assertEqual(len(run.warnings), 1)

    def test_timeout_and_cancel(self):
        # A cancel from the step callback, at step 2: the same step on every machine.
        model = smalti.Model.load(MAZE, size=21, quiet=True)
        run = model.run(seed=1)
        run.on_step(lambda e: run.cancel() if e.step == 2 else None)
        with self.assertRaises(smalti.CancelledError):
            run.to_end()
        self.assertEqual(run.counter, 2)
        run.on_step(None)
        run.reset(1)
        run.to_end()
        self.assertTrue(run.finished)
        # A timeout, on a run that never ends by itself: only the deadline can end it. What holds at
        # any speed is asserted: the error, and that it did not come before the timeout had passed
        # since the run was made (the library's clock is this one, CLOCK_MONOTONIC); how many steps
        # fit in the time is not.
        endless = smalti.Model.from_string('<one values="BW"><rule in="B" out="W"/><rule in="W" out="B"/></one>',
                                           "endless.xml", size=16)
        # Hang guard: a deadline that never fires would leave to_end() running; after 300 s (far
        # beyond any loaded machine) faulthandler prints where it hung and exits with an error.
        faulthandler.dump_traceback_later(300, exit=True)
        try:
            start = time.monotonic_ns()
            run = endless.run(seed=1, timeout=0.2)
            with self.assertRaises(smalti.TimeoutError) as cm:
                run.to_end(0)
            took = time.monotonic_ns() - start
        finally:
            faulthandler.cancel_dump_traceback_later()
        self.assertIn("timeout of 0.2 s", str(cm.exception))
        self.assertGreaterEqual(took, 200_000_000)
        self.assertFalse(run.finished)

    def test_load_timeout(self):
        # timeout= bounds the load (issue 33, item 4 of the follow-up): a nanosecond is over before
        # the parse ends on any machine, so the load fails with the timeout's error; 0 is no limit.
        xml = '<sequence values="BW"><one in="B" out="W"/><one in="WB" out="WW"/></sequence>'
        with self.assertRaisesRegex(smalti.TimeoutError, "late.xml: loading the model took longer than its timeout"):
            smalti.Model.from_string(xml, "late.xml", size=4, timeout=1e-9)
        with self.assertRaises(smalti.TimeoutError):
            smalti.Model.load(MAZE, timeout=1e-9)
        smalti.Model.from_string(xml, "late.xml", size=4, timeout=0).close()
        for bad in [-1, float("nan"), float("inf"), True, "1"]:
            with self.assertRaisesRegex(ValueError, "timeout", msg=bad):
                smalti.Model.load(MAZE, timeout=bad)


# Misuse of closed objects, run in a child interpreter so that a crash (SIGSEGV) fails the test
# instead of killing the test runner. Every public method and property is tried on each state; the
# child prints "STATE OPERATION OUTCOME" per case (flushed, so a crash shows the last case).
MISUSE_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
import smalti
MAZE = sys.argv[2]
RUN_OPS = {
    "step": lambda r: r.step(), "to_end": lambda r: r.to_end(), "reset": lambda r: r.reset(2),
    "cancel": lambda r: r.cancel(), "on_step": lambda r: r.on_step(lambda e: None),
    "on_step_none": lambda r: r.on_step(None), "finished": lambda r: r.finished,
    "counter": lambda r: r.counter, "work": lambda r: r.work, "last_node": lambda r: r.last_node,
    "legend": lambda r: r.legend, "size": lambda r: r.size, "grid_bytes": lambda r: r.grid_bytes(),
    "grid_list": lambda r: r.grid_list(), "grid_array": lambda r: r.grid_array(), "text": lambda r: r.text(),
}
MODEL_OPS = {
    "legend": lambda m: m.legend, "size": lambda m: m.size, "settings": lambda m: m.settings(),
    "nodes": lambda m: m.nodes(), "run": lambda m: m.run(1),
}


def outcome(op, obj):
    try:
        op(obj)
        return "ok"
    except ValueError as e:
        return "closed" if " is closed" in str(e) else "ValueError:" + str(e)
    except Exception as e:
        return type(e).__name__


def report(state, ops, obj):
    for name, op in ops.items():
        print(state, name, outcome(op, obj), flush=True)


def model():
    return smalti.Model.load(MAZE, size=9, quiet=True)


m = model()
m.close()
report("closed_model", MODEL_OPS, m)
r = model().run(1)
r.close()
report("closed_run", RUN_OPS, r)
m = model()
r = m.run(1)
m.close()  # the run keeps it until the run is closed
report("model_closed_under_run", MODEL_OPS, m)
report("run_of_closed_model", RUN_OPS, r)
r.close()
report("run_of_closed_model_closed", RUN_OPS, r)
report("model_after_its_last_run", MODEL_OPS, m)
m = model()
r = m.run(1)
r.close()
r.close()
m.close()
m.close()
report("double_close", RUN_OPS, r)
with model() as m:
    with m.run(1) as r:
        r.to_end()
report("with_exit_run", RUN_OPS, r)
report("with_exit_model", MODEL_OPS, m)
# close() in a step callback: the call that made the step returns, then the run is closed.
r = model().run(1)
inside = {}


def close_at_3(e):
    if e.step == 3:
        e.run.close()
        for name, op in RUN_OPS.items():
            inside[name] = outcome(op, e.run)
r.on_step(close_at_3)
print("close_in_on_step_call", "to_end", outcome(lambda r: print("close_in_on_step_call", "steps", r.to_end()), r),
      flush=True)
for name, got in inside.items():
    print("inside_after_close", name, got, flush=True)
report("close_in_on_step", RUN_OPS, r)
# A step callback may read the run and cancel it, but not step, reset or change its callback.
for name in ("step", "to_end", "reset", "on_step", "on_step_none"):
    r = model().run(1)
    r.on_step(lambda e, op=RUN_OPS[name]: op(e.run))
    got = outcome(lambda r: r.to_end(), r)
    print("reentrant", name, "refused" if "during a step" in got else got, flush=True)
    print("reentrant_after", name, outcome(lambda r: r.on_step(None) or r.reset(1) or r.to_end(), r), flush=True)
print("done", flush=True)
"""


COUNT_XML_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
import smalti
xml = '<one values="BW" in="B" out="W">' + "<!--" + "x" * (4 << 20) + "-->" + "</one>"
def load():
    try:
        smalti.Model.from_string(xml, "big.xml", size=4, max_memory=2 << 20).close()
        return "loaded"
    except smalti.Error as e:
        return "%s %s" % (type(e).__name__, e)
print("before load", load(), flush=True)
print("count xml", smalti.count_xml_memory(), flush=True)
print("after load", load(), flush=True)
print("done", flush=True)
"""


class Defaults(unittest.TestCase):
    def test_defaults_are_the_headers(self):
        """The binding's defaults are smalti.h's, which the command line and the studio use."""
        header = open(os.path.join(ROOT, "include", "smalti.h")).read()
        for name, value in (("STEPS", smalti.DEFAULT_STEPS), ("SIDE_2D", smalti.DEFAULT_SIDE_2D),
                            ("SIDE_3D", smalti.DEFAULT_SIDE_3D)):
            self.assertIn("#define SMALTI_DEFAULT_%s %d\n" % (name, value), header)

    def test_a_model_without_settings_has_the_default_sides(self):
        model = smalti.Model.from_string('<one values="BW" in="B" out="W"/>')
        self.assertEqual(model.size, (smalti.DEFAULT_SIDE_2D, smalti.DEFAULT_SIDE_2D, 1))
        model.close()


class Requirements(unittest.TestCase):
    XML = '<sequence values="BWR"><one in="B" out="W" steps="3"/>\n<require connected="W" tries="200"/></sequence>'

    def test_attempts_and_what_failed(self):
        model = smalti.Model.from_string(self.XML, size=5)
        run = smalti.Run(model, seed=1)
        run.to_end()
        self.assertGreater(run.attempts, 1)
        (line, times, what), = run.failed_requirements
        self.assertEqual((line, times), (2, run.attempts - 1))
        self.assertIn('cells of "W" are not one region', what)
        run.close()
        model.close()

    def test_a_requirement_that_never_holds_raises(self):
        model = smalti.Model.from_string('<sequence values="BW"><all in="B" out="W"/>'
                                         '<require count="W" max="3" tries="2"/></sequence>', size=4)
        run = smalti.Run(model, seed=1)
        with self.assertRaises(smalti.RequirementError) as caught:
            run.to_end()
        self.assertIn("all 2 attempts", str(caught.exception))
        run.close()
        model.close()


class Layouts(unittest.TestCase):
    """The binding's ctypes structs are checked against the library's sizes when it is loaded."""

    def test_every_struct_matches_the_library(self):
        lib = smalti.load_library()
        smalti.check_layouts(lib)
        names = [name for name, _ in smalti._STRUCTS]
        self.assertEqual(sorted(names), ["smalti_error", "smalti_load_options", "smalti_node_info", "smalti_param_info",
                                         "smalti_run_options", "smalti_settings", "smalti_step_event"])
        for name, cls in smalti._STRUCTS:
            self.assertEqual(lib.smalti_struct_size(name.encode()), ctypes.sizeof(cls), name)
        self.assertRegex(lib.smalti_version().decode(), r"^[0-9]+\.[0-9]+\.[0-9]+$")

    def test_a_struct_missing_a_field_is_named_with_both_sizes(self):
        class ShortSettings(ctypes.Structure):  # smalti_settings without its last field, color_rgb
            _fields_ = smalti._Settings._fields_[:-1]
        lib = smalti.load_library()
        want = ctypes.sizeof(smalti._Settings)
        with self.assertRaises(smalti.LayoutError) as caught:
            smalti.check_layouts(lib, [("smalti_settings", ShortSettings)])
        message = str(caught.exception)
        self.assertIn("smalti_settings is %d bytes" % ctypes.sizeof(ShortSettings), message)
        self.assertIn("is %d:" % want, message)
        self.assertNotEqual(ctypes.sizeof(ShortSettings), want)

    def test_a_name_the_library_does_not_know_fails(self):
        with self.assertRaises(smalti.LayoutError):
            smalti.check_layouts(smalti.load_library(), [("smalti_no_such_struct", smalti._Error)])

    def test_loading_refuses_a_library_of_another_layout(self):
        class LongRunOptions(ctypes.Structure):  # as if the binding had a field the library has not
            _fields_ = smalti._RunOptions._fields_ + [("max_threads", ctypes.c_int)]
        path = smalti.load_library()._name
        saved = smalti._STRUCTS
        smalti._STRUCTS = [(n, LongRunOptions if n == "smalti_run_options" else c) for n, c in saved]
        try:
            with self.assertRaisesRegex(smalti.LayoutError, "smalti_run_options is %d bytes" % ctypes.sizeof(LongRunOptions)):
                smalti.load_library(path)
        finally:
            smalti._STRUCTS = saved
        self.assertIs(smalti.load_library(), smalti.load_library())  # the good handle is kept


class Misuse(unittest.TestCase):
    def child(self, script):
        env = dict(os.environ)
        proc = subprocess.run([sys.executable, "-c", script, os.path.join(ROOT, "bindings", "python"), MAZE],
                              env=env, capture_output=True, text=True, timeout=300)  # a hang guard only
        lines = proc.stdout.splitlines()
        self.assertEqual(proc.returncode, 0, "the child died (%d) after: %s\n%s" % (
            proc.returncode, lines[-1:] or "nothing", proc.stderr[-2000:]))
        self.assertEqual(lines[-1:], ["done"], proc.stderr[-2000:])
        return {tuple(line.split(" ", 2)[:2]): line.split(" ", 2)[2] for line in lines[:-1]}

    maxDiff = None

    def test_every_use_of_a_closed_object_raises(self):
        got = self.child(MISUSE_CHILD)
        run_ops = ["step", "to_end", "reset", "cancel", "on_step", "on_step_none", "finished", "counter", "work",
                   "last_node", "legend", "size", "grid_bytes", "grid_list", "grid_array", "text"]
        model_ops = ["legend", "size", "settings", "nodes", "run"]
        want = {}
        for state in ("closed_run", "run_of_closed_model_closed", "double_close", "with_exit_run",
                      "close_in_on_step", "inside_after_close"):
            want.update({(state, op): "closed" for op in run_ops})
        for state in ("closed_model", "model_closed_under_run", "model_after_its_last_run", "with_exit_model"):
            want.update({(state, op): "closed" for op in model_ops})
        # A run outlives the close() of its model: it works until it is closed itself.
        numpy_missing = got.get(("run_of_closed_model", "grid_array")) == "ImportError"
        want.update({("run_of_closed_model", op): "ok" for op in run_ops})
        if numpy_missing:
            want[("run_of_closed_model", "grid_array")] = "ImportError"
        want[("close_in_on_step_call", "to_end")] = "ok"
        want[("close_in_on_step_call", "steps")] = "3"
        for op in ("step", "to_end", "reset", "on_step", "on_step_none"):
            want[("reentrant", op)] = "refused"
            want[("reentrant_after", op)] = "ok"
        self.assertEqual(len(want), 6 * 16 + 4 * 5 + 16 + 2 + 10)  # 144 cases
        self.assertEqual(got, want)

    def test_count_xml_memory(self):
        # In a child, as it installs libxml2's allocator for the whole process: a model whose XML
        # tree (a 4 MiB comment) is past its 2 MiB budget loads before count_xml_memory() and is
        # refused as out of memory after it.
        got = self.child(COUNT_XML_CHILD)
        self.assertEqual(got, {("before", "load"): "loaded", ("count", "xml"): "True",
                               ("after", "load"): "MemoryError big.xml: loading the model needed more than its "
                                                  "memory budget of 2.0 MiB"})

    def test_out_of_range_numbers_and_nul_are_refused(self):
        model = smalti.Model.load(MAZE, size=9, quiet=True)
        for size in [(2 ** 31, 2 ** 31), 2 ** 31, (1, 2, 2 ** 31), (0, 5), -1, (5, -3), (2 ** 64 + 5, 5)]:
            with self.assertRaisesRegex(ValueError, r"size -?\d+ is out of range"):
                smalti.Model.load(MAZE, size=size)
        for size in [True, 1.5, "9", (9, 9.0)]:
            with self.assertRaises((TypeError, ValueError)):
                smalti.Model.load(MAZE, size=size)
        for seed in [2 ** 31, -2 ** 31 - 1, 2 ** 32 + 1]:
            with self.assertRaisesRegex(ValueError, "seed .* out of range"):
                model.run(seed)
            with self.assertRaisesRegex(ValueError, "seed .* out of range"):
                model.run(1).reset(seed)
        for bad in [dict(max_memory=-1), dict(max_work=-1), dict(max_work=2 ** 63), dict(timeout=-1),
                    dict(timeout=float("nan")), dict(timeout=float("inf"))]:
            with self.assertRaises(ValueError, msg=bad):
                model.run(1, **bad)
        with self.assertRaisesRegex(ValueError, "max_memory"):
            smalti.Model.load(MAZE, max_memory=-1)
        run = model.run(1)
        for limit in [-1, 2 ** 64]:
            with self.assertRaisesRegex(ValueError, "limit"):
                run.to_end(limit)
        self.assertEqual(run.counter, 0)
        xml = '<one values="BW" in="B" out="W"/>'
        with self.assertRaisesRegex(ValueError, "NUL"):
            smalti.Model.load(MAZE + "\0.txt")
        with self.assertRaisesRegex(ValueError, "NUL"):
            smalti.Model.from_string(xml, "a\0b.xml")
        with self.assertRaisesRegex(ValueError, "NUL"):
            smalti.Model.from_string(xml + "\0<junk/>", "a.xml")
        with self.assertRaisesRegex(ValueError, "NUL"):
            smalti.Model.load(MAZE, resources=["res\0x"])
        # The largest sides that fit reach the library, which refuses the grid by its own rule.
        with self.assertRaisesRegex(smalti.UsageError, "absurd"):
            smalti.Model.load(MAZE, size=(2 ** 31 - 1, 2 ** 31 - 1))


class Threads(unittest.TestCase):
    def test_runs_of_one_model_in_threads(self):
        model = smalti.Model.load(MAZE, size=21, quiet=True)
        want = {}
        for seed in range(4):
            r = model.run(seed)
            r.to_end()
            want[seed] = r.grid_bytes()
        got = {}

        def work(seed):
            r = model.run(seed)
            r.to_end()
            got[seed] = r.grid_bytes()
        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(got, want)


class Docs(unittest.TestCase):
    def test_python_md_scripts_run(self):
        # Every ```python block of docs/python.md runs from the repository's root.
        import contextlib
        import io
        import re
        with open(os.path.join(ROOT, "docs", "python.md")) as f:
            blocks = re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)
        self.assertGreaterEqual(len(blocks), 2)
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            for block in blocks:
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(compile(block, "docs/python.md", "exec"), {})
                self.assertTrue(out.getvalue())
        finally:
            os.chdir(cwd)
        self.assertRegex(out.getvalue(), r"^bad\.xml:1: output symbol 'Q'")


if __name__ == "__main__":
    unittest.main()
