#!/usr/bin/python3
"""Every argument of every function is checked before the extension sees it, and every error is
one of the module's typed errors (webrank.Error): fractional and NaN page ids of the drop-ins
refused with their position (not truncated, no NumPy warning), strings that are not text (a lone
surrogate, what os.fsdecode makes of a name that is not UTF-8) refused by name, threads storing,
reading and deleting one vector at once seeing it whole or not at all, and a fuzz of every
Database method and module function with hostile values (NaN, inf, -1, 2**70, floats for ints,
lone surrogates, bytes, None, huge lists), which must raise a webrank.Error or succeed.

Run:  build/venv/bin/python python/tests/test_arguments.py [-v]
"""
import contextlib
import inspect
import math
import os
import shutil
import sys
import tempfile
import threading
import time
import unittest
import warnings

import networkx as nx
import numpy as np
import scipy.sparse

import webrank
from webrank import _operations

LINKS = "a\tb\nb\tc\nc\ta\nc\td\nd\ta\n"


class Web(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-args-")
        edges = os.path.join(cls.tmp, "web.tsv")
        with open(edges, "w") as f:
            f.write(LINKS)
        cls.path = os.path.join(cls.tmp, "web.db")
        cls.db, _ = webrank.build(edges, cls.path)
        cls.db.build_index()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)


@contextlib.contextmanager
def no_numpy_warnings():
    """NumPy's floating-point complaints (a cast of NaN, an overflow) as exceptions, and its
    warnings recorded: a test fails on either."""
    with warnings.catch_warnings(record=True) as seen, np.errstate(all="raise"):
        warnings.simplefilter("always")
        yield seen


class DropInIds(unittest.TestCase):
    def test_fractional_ids_are_refused_with_argument_and_position(self):
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            webrank.pagerank_scipy((np.array([0.5, 1.0]), np.array([1.0, 0.0])))
        self.assertEqual(e.exception.field, "A")
        self.assertIn("A[0]", str(e.exception))
        self.assertIn("0.5 at position 0", str(e.exception))
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            webrank.pagerank_scipy((np.array([1, 0]), np.array([1.0, 2.25])))
        self.assertIn("A[1]", str(e.exception))
        self.assertIn("2.25 at position 1", str(e.exception))
        # whole values given as floats are the ids they name
        got = webrank.pagerank_scipy((np.array([0.0, 1.0]), np.array([1.0, 0.0])))
        self.assertTrue(np.allclose(got, [0.5, 0.5]))

    def test_nan_and_infinite_ids_are_refused_without_a_numpy_warning(self):
        for bad in (np.nan, np.inf, -np.inf, 2.0 ** 70):
            with self.subTest(id=bad), no_numpy_warnings() as seen:
                with self.assertRaises(webrank.InvalidArgumentError) as e:
                    webrank.pagerank_scipy((np.array([0.0, bad]), np.array([1.0, 0.0])))
                self.assertIn("position 1", str(e.exception))
                self.assertNotIn("9223372036854775808", str(e.exception))
                self.assertEqual(seen, [])

    def test_graph_from_arrays_and_csr_alike(self):
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            webrank.Graph.from_arrays(3, [0, 1], [1, np.nan])
        self.assertEqual(e.exception.field, "dst")
        with self.assertRaises(webrank.InvalidTypeError):
            webrank.Graph.from_arrays(3, [0, "1"], [1, 2])
        with self.assertRaises(webrank.InvalidArgumentError):
            webrank.Graph.from_arrays(-1, [0], [1])
        with self.assertRaises(webrank.InvalidArgumentError):
            webrank.Graph.from_arrays(3, [0, 2 ** 70], [1, 2])
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            webrank.Graph.from_csr(2, [0, 1.5, 2], [1, 0], [1.0, 1.0])
        self.assertEqual(e.exception.field, "indptr")


class Text(Web):
    def test_lone_surrogates_are_refused_by_name(self):
        name = os.fsdecode(b"\xff")  # '\udcff'
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            self.db.search(name)
        self.assertEqual(e.exception.field, "query")
        self.assertIn("position 0", str(e.exception))
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            self.db.rank(personalize=["a", "b" + name])
        self.assertEqual(e.exception.field, "personalize")
        self.assertIn("position 1", str(e.exception))
        for call in (lambda: self.db.find(name), lambda: self.db.ranks(name),
                     lambda: self.db.page(name), lambda: self.db.rank(name=name)):
            with self.assertRaises(webrank.InvalidArgumentError):
                call()

    def test_a_path_that_is_not_utf8_opens(self):
        # A database's own path may be any bytes (os.fsdecode's surrogates stand for them).
        odd = os.path.join(self.tmp, os.fsdecode(b"web-\xff.db"))
        shutil.copytree(self.path, odd)
        db = webrank.Database(odd)
        self.assertEqual(db.pages, self.db.pages)
        shutil.rmtree(odd)
        with self.assertRaises(webrank.NotFoundError):
            webrank.Database(odd)

    def test_page_ids_and_names(self):
        with self.assertRaises(webrank.PageIdError) as e:
            self.db.label(self.db.pages)
        self.assertIsInstance(e.exception, IndexError)
        self.assertEqual(self.db.label(1.0), self.db.label(1))
        with self.assertRaises(webrank.InvalidArgumentError):
            self.db.label(0.5)
        with self.assertRaises(webrank.InvalidTypeError):
            self.db.out_links("0")
        with self.assertRaises(webrank.InvalidTypeError):
            webrank.Database(None)
        closed = webrank.Database(self.path)
        closed.close()
        with self.assertRaises(webrank.InvalidArgumentError):
            closed.top(3)


class Concurrency(unittest.TestCase):
    """Threads of one process ranking one name while others read it, summarize the database and
    delete it: each sees the vector or none (NotFoundError), never another error nor a warning
    of a damaged vector."""

    def test_rank_read_delete_one_name(self):
        tmp = tempfile.mkdtemp(prefix="webrank-args-")
        self.addCleanup(shutil.rmtree, tmp)
        edges = os.path.join(tmp, "web.tsv")
        with open(edges, "w") as f:
            f.write("".join("%d\t%d\n" % (i, (i * 7 + 1) % 300) for i in range(300)))
        db, _ = webrank.build(edges, os.path.join(tmp, "web.db"))
        stop = time.monotonic() + 3
        failures = []

        def loop(step):
            while time.monotonic() < stop:
                try:
                    step()
                except webrank.NotFoundError:
                    pass
                except BaseException as e:  # noqa: B902 - anything else fails the test
                    failures.append(e)

        steps = [lambda: db.rank("m", method="power"), lambda: db.rank("m", method="power"),
                 db.info, lambda: db.rank_info("m"), lambda: db.ranks("m"), db.vectors,
                 lambda: db.delete_ranks("m")]
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            threads = [threading.Thread(target=loop, args=(s,)) for s in steps]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        self.assertEqual(failures, [])
        self.assertEqual([str(w.message) for w in seen], [])


# --- the fuzz ---------------------------------------------------------------------------------
HOSTILE = [math.nan, math.inf, -1, 2 ** 70, 0.5, 2.0, "\udcff", b"bytes", None,
           [None] * 100000, ["x"] * 100000, {"\udcff": 1.0}, np.array([np.nan]), object()]


def benign(spec, tmp):
    """A value of a required option that lets the call reach the option being fuzzed."""
    t = spec["type"]
    if t in ("text", "choice"):
        return os.path.join(tmp, "out-" + spec["name"]) if spec["value_name"] in (
            "DB", "FILE", "DIR") else (spec["choices"] or ["x"])[0]
    if t == "texts":
        return [os.path.join(tmp, "missing")]
    if t in ("whole", "size"):
        return 1
    if t == "weights":
        return ["a"]
    return spec["default"]


class Fuzz(Web):
    def call(self, fn, *args, **kwargs):
        """Runs fn; anything but success or a webrank.Error (or a NumPy warning) is a failure."""
        what = "%s(%s)" % (getattr(fn, "__qualname__", fn), ", ".join(
            [repr(a)[:40] for a in args] + ["%s=%s" % (k, repr(v)[:40]) for k, v in
                                           kwargs.items()]))
        with no_numpy_warnings() as seen:
            try:
                fn(*args, **kwargs)
            except webrank.Error:
                pass
            except Exception as e:  # noqa: B902
                self.failures.append("%s: %s: %s" % (what, type(e).__name__, e))
        for w in seen:
            if issubclass(w.category, webrank.ConvergenceWarning) or (
                    w.category in (UserWarning, RuntimeWarning)
                    and "encountered" not in str(w.message)):
                continue  # the library's notices, as warnings
            self.failures.append("%s: warning %s: %s" % (what, w.category.__name__, w.message))

    def fuzz(self, fn, params, fixed=None):
        fixed = dict(fixed or {})
        for name in params:
            for value in HOSTILE:
                args = dict(fixed, **{name: value})
                self.call(fn, **args)

    def setUp(self):
        self.failures = []
        self.work = tempfile.mkdtemp(prefix="webrank-fuzz-", dir=self.tmp)
        self.cwd = os.getcwd()
        os.chdir(self.work)  # outputs that default to the working folder go here
        # What an operation writes to standard output by default (export) goes nowhere.
        self.stdout = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)

    def tearDown(self):
        sys.stdout.flush()
        os.dup2(self.stdout, 1)
        os.close(self.stdout)
        os.chdir(self.cwd)

    def test_every_method_and_function(self):
        db = webrank.Database(shutil.copytree(self.path, os.path.join(self.work, "copy.db")))
        ops = {_operations.python_name(op["name"]): op for op in _operations.operations()}
        # The methods made from operations and those written by hand, every keyword.
        for name in sorted(m for m in dir(webrank.Database) if not m.startswith("_")):
            if name == "close":
                continue  # last
            member = getattr(db, name)
            if not callable(member):
                continue
            try:
                params = list(inspect.signature(member).parameters.values())
            except ValueError:  # an extension member without arguments
                self.call(member)
                continue
            names = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            op = ops.get(name[:-len("_operation")] if name.endswith("_operation") else name)
            fixed = {}
            if op:
                fixed = {s["name"]: benign(s, self.work) for s in op["options"] if s["required"]}
            else:
                fixed = {p.name: "a" for p in params
                         if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL,
                                                                    p.VAR_KEYWORD)}
            self.fuzz(member, names, fixed)
            for value in HOSTILE:  # the first argument by position too
                if names:
                    self.call(member, value)
        self.call(db.close)
        # The module's functions: operations, the drop-ins, in-memory graphs.
        for name in ("build", "import_graph", "crawl", "generate"):
            fn = getattr(webrank, name)
            params = [p.name for p in inspect.signature(fn).parameters.values()
                      if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            op = ops[name]
            fixed = {s["name"]: benign(s, self.work) for s in op["options"] if s["required"]}
            for p in params:
                fixed.setdefault(p, os.path.join(self.work, "missing.tsv"))
            self.fuzz(fn, [s["name"] for s in op["options"]] + params, fixed)
        G = nx.DiGraph([(0, 1), (1, 2), (2, 0)])
        A = scipy.sparse.csr_array(np.array([[0, 1.0], [1.0, 0]]))
        for fn, first in ((webrank.pagerank, G), (webrank.pagerank_scipy, A),
                          (webrank.pagerank_scipy, (np.array([0, 1]), np.array([1, 0]))),
                          (webrank.pagerank_numpy, G)):
            params = list(inspect.signature(fn).parameters)[1:]
            self.fuzz(fn, params, {list(inspect.signature(fn).parameters)[0]: first})
            for value in HOSTILE:
                self.call(fn, value)
        graph = webrank.Graph.from_arrays(3, [0, 1, 2], [1, 2, 0])
        rank_options = [s["name"] for s in ops["rank_operation" if "rank_operation" in ops
                                                else "rank"]["options"]]
        self.fuzz(webrank.rank, rank_options + ["callback"], {"graph": graph})
        for value in HOSTILE:
            self.call(webrank.rank, value)
        self.fuzz(webrank.Graph.from_arrays, ["pages", "src", "dst", "weight"],
                  {"pages": 3, "src": [0, 1], "dst": [1, 2]})
        self.fuzz(webrank.Graph.from_csr, ["pages", "indptr", "indices", "data"],
                  {"pages": 2, "indptr": [0, 1, 2], "indices": [1, 0], "data": [1.0, 1.0]})
        self.fuzz(webrank.Database, ["path", "verify"], {"path": self.path})
        self.assertFalse(self.failures, "%d failures, the first ones:\n%s" % (
            len(self.failures), "\n".join(f[:300] for f in self.failures[:20])))


if __name__ == "__main__":
    unittest.main()
