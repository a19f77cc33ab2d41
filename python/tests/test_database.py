#!/usr/bin/python3
"""webrank.Database and friends (docs/python.md): a database built from Python reads back as
its input (labels, links both ways), its arrays are views of the mapped files (checked against
/proc/self/maps: no copy, whatever the size), rank() equals NetworkX, runs without the GIL and
stops at Ctrl-C leaving the stored vectors as they were, errors are exceptions by kind, and
search works over the index built from Python.

Run:  build/venv/bin/python python/tests/test_database.py [-v]
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import warnings

import networkx as nx
import numpy as np

import webrank

LINKS = [
    ("http://a.example/", "http://a.example/docs/intro"),
    ("http://a.example/", "http://b.example/"),
    ("http://a.example/docs/intro", "http://a.example/"),
    ("http://b.example/", "http://a.example/"),
    ("http://b.example/", "http://b.example/pricing"),
    ("http://c.example/search-engines", "http://a.example/"),
    ("http://c.example/search-engines", "http://c.example/search-engines"),
]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def mapping_of(array):
    """The file /proc/self/maps says holds the array's first byte ('' if anonymous memory)."""
    address = array.__array_interface__["data"][0]
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split(maxsplit=5)
            lo, hi = (int(x, 16) for x in fields[0].split("-"))
            if lo <= address < hi:
                return fields[5].strip() if len(fields) == 6 else ""
    return ""


class DatabaseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-py-")
        edges = os.path.join(cls.tmp, "web.tsv")
        with open(edges, "w") as f:
            f.write("".join("%s\t%s\n" % link for link in LINKS))
        cls.path = os.path.join(cls.tmp, "web.db")
        cls.db, cls.report = webrank.build(edges, cls.path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_reads_back_its_input(self):
        db = self.db
        self.assertEqual(self.report["pages"], 5)
        self.assertEqual((db.pages, db.links, len(db)), (5, 7, 5))
        labels = db.labels()
        self.assertEqual(labels[0], "http://a.example/")
        got = set()
        for u in range(db.pages):
            self.assertEqual(db.label(u), labels[u])
            self.assertEqual(db.find(labels[u]), u)
            for v in db.out_links(u):
                got.add((labels[u], labels[v]))
                self.assertIn(u, db.backlinks(int(v)))
        self.assertEqual(got, set(LINKS))
        self.assertIsNone(db.find("http://nowhere.example/"))
        self.assertEqual(db.find("HTTP://A.EXAMPLE/docs/intro"), 1)  # normalized as crawled
        self.assertEqual(db.out_offsets[-1], db.links)
        with self.assertRaises(IndexError):
            db.label(5)

    def test_arrays_are_views_of_the_mapped_files(self):
        db = self.db
        db.rank("pagerank")
        for name, a in (("out_targets", db.out_targets), ("in_sources", db.in_sources),
                        ("out_offsets", db.out_offsets), ("out_links", db.out_links(0)),
                        ("backlinks", db.backlinks(0)), ("ranks", db.ranks())):
            with self.subTest(array=name):
                self.assertFalse(a.flags.owndata)
                self.assertFalse(a.flags.writeable)
                self.assertTrue(mapping_of(a).startswith(os.path.realpath(self.path)),
                                mapping_of(a))
        self.assertTrue(mapping_of(db.ranks()).endswith("ranks/pagerank.ranks"))
        # the view keeps its file mapped after the Database and the vector are gone
        r = webrank.Database(self.path).ranks()
        expected = r.copy()
        webrank.Database(self.path).delete_ranks("pagerank")
        self.assertTrue(np.array_equal(r, expected))

    def test_rank_equals_networkx(self):
        db = self.db
        G = nx.DiGraph(LINKS)
        for kw, nxkw in (({}, {}), ({"damping": 0.5}, {"alpha": 0.5}),
                         ({"personalization": {"http://b.example/": 1}},
                          {"personalization": {"http://b.example/": 1}})):
            ranks, info = db.rank("test", **kw)
            self.assertTrue(info["converged"])
            ref = nx.pagerank(G, tol=1e-15, max_iter=10000, **nxkw)
            self.assertLess(sum(abs(ranks[db.find(k)] - v) for k, v in ref.items()), 1e-9)
            self.assertTrue(np.array_equal(db.ranks("test"), ranks))
        self.assertIn("test", db.rank_names())
        top = db.top(3, ranks="test")
        self.assertEqual(len(top), 3)
        self.assertEqual(top[0]["label"], db.label(int(np.argmax(db.ranks("test")))))

    def test_float_vector_is_a_float32_view(self):
        ranks, _ = self.db.rank("f32", precision="float", tol=1e-6)
        view = self.db.ranks("f32")
        self.assertEqual(view.dtype, np.float32)
        self.assertTrue(mapping_of(view).endswith("ranks/f32.ranks"))
        self.assertLess(float(np.abs(view - ranks).sum()), 1e-6)

    def test_crawl_from_python(self):
        site = os.path.join(self.tmp, "site")
        os.makedirs(site, exist_ok=True)
        for name, target in (("a.html", "b.html"), ("b.html", "a.html"), ("c.html", "a.html")):
            with open(os.path.join(site, name), "w") as f:
                f.write('<html><head><title>Page %s</title></head><body><a href="%s">next</a> '
                        '<a href="c.html">c</a></body></html>' % (name, target))
        db, report = webrank.crawl("file://" + os.path.join(site, "a.html"),
                                   os.path.join(self.tmp, "site.db"), delay=0)
        self.assertEqual((db.pages, report["pages"]), (3, 3))
        a = db.find("file://" + os.path.join(site, "a.html"))
        self.assertEqual(db.title(a), "Page a.html")
        self.assertEqual(sorted(db.label(int(v)).rsplit("/", 1)[1] for v in db.out_links(a)),
                         ["b.html", "c.html"])

    def test_unconverged_warns_and_callback(self):
        seen = []
        with self.assertWarns(webrank.ConvergenceWarning):
            _, info = self.db.rank("short", max_iter=2, tol=1e-300,
                                   callback=lambda i, d: seen.append((i, d)))
        self.assertFalse(info["converged"])
        self.assertEqual([i for i, _ in seen], [1, 2])

    def test_errors_by_kind(self):
        with self.assertRaises(webrank.NotFoundError) as e:
            webrank.Database(os.path.join(self.tmp, "missing.db"))
        self.assertIsInstance(e.exception, FileNotFoundError)
        self.assertEqual(e.exception.kind, "not found")
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            self.db.rank("x", damping=2)
        self.assertEqual(e.exception.field, "damping")
        self.assertIn("damping", str(e.exception))
        with self.assertRaises(webrank.NotFoundError):
            self.db.ranks("no-such-vector")
        with self.assertRaises(webrank.ExistsError):
            webrank.build(os.path.join(self.tmp, "web.tsv"), self.path)
        bad = os.path.join(self.tmp, "bad.tsv")
        with open(bad, "w") as f:
            f.write("a\tb\nc\td\t2.5\n")
        with self.assertRaises(webrank.InvalidInputError) as e:
            webrank.build(bad, os.path.join(self.tmp, "bad.db"))
        self.assertIn("bad.tsv:2", str(e.exception))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "bad.db")))

    def test_wrong_types_and_misuse(self):
        # A wrong type is a TypeError naming the keyword, a wrong value a ValueError.
        with self.assertRaises(webrank.InvalidTypeError) as e:
            self.db.top(k="3")
        self.assertIsInstance(e.exception, TypeError)
        self.assertEqual(e.exception.field, "k")
        with self.assertRaises(webrank.InvalidTypeError):
            self.db.rank("x", damping="0.5")
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            self.db.top(k=2.5)
        self.assertIsInstance(e.exception, ValueError)
        # threads, the call's own keyword, alike (not pybind11's bare cast error)
        with self.assertRaises(webrank.InvalidTypeError) as e:
            self.db.rank("x", threads="2")
        self.assertEqual(e.exception.field, "threads")
        for bad in (2.5, -1):
            with self.assertRaises(webrank.InvalidArgumentError) as e:
                self.db.rank("x", threads=bad)
            self.assertEqual(e.exception.field, "threads")
        with self.assertRaises(webrank.InvalidTypeError):
            webrank.rank(webrank.Graph.from_arrays(3, [0, 1], [1, 2]), threads="1")
        with self.assertRaises(webrank.InvalidTypeError):
            self.db.top(k=3, threads="1")
        # Fractional page ids are refused, not truncated.
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            webrank.Graph.from_arrays(3, np.array([0.5, 1.0]), np.array([1, 2]))
        self.assertIn("src", str(e.exception))
        self.assertIn("position 0", str(e.exception))
        self.assertEqual(webrank.Graph.from_arrays(3, [0, 1], [1, 2]).links, 2)
        # A Database made without __init__ is an error, not a crash.
        blank = webrank.Database.__new__(webrank.Database)
        with self.assertRaises(TypeError):
            blank.top(3)
        with self.assertRaises(TypeError):
            blank.pages

    def test_removed_database_is_not_made_again(self):
        copy = os.path.join(self.tmp, "gone.db")
        shutil.copytree(self.path, copy)
        db = webrank.Database(copy)
        shutil.rmtree(copy)
        with self.assertRaises(webrank.NotFoundError):
            db.rank("after")
        self.assertFalse(os.path.exists(copy))

    def test_search(self):
        self.db.rank("pagerank")
        report = self.db.build_index()
        self.assertEqual(report["documents"], 5)
        hits = self.db.search("pricing")["hits"]
        self.assertEqual([h["url"] for h in hits], ["http://b.example/pricing"])
        res = self.db.search("example", k=2, mode="title")
        self.assertLessEqual(len(res["hits"]), 2)
        with self.assertRaises(webrank.InvalidArgumentError):
            self.db.search("x", mode="fuzzy")
        # did you mean: from the index's own words, in the JSON form Python gets
        self.assertIsNone(self.db.search("pricing")["suggestion"])
        miss = self.db.search("pricng")
        self.assertEqual(miss["hits"], [])
        self.assertEqual(miss["unknown_words"], ["pricng"])
        self.assertEqual(miss["suggestion"], "pricing")
        self.assertIsNone(self.db.search("qqqqqqqq")["suggestion"])


class SpamAndPersonalization(unittest.TestCase):
    """Personalization and spam from Python: TrustRank is NetworkX's personalized PageRank on the
    seeds, the spam masses follow from P and T, a planted star farm is reported, and a batch of
    personalized vectors equals NetworkX's one by one."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-py-")
        rnd = np.random.default_rng(3)
        links = {("h%d" % rnd.integers(60), "h%d" % rnd.integers(60)) for _ in range(400)}
        links |= {("h%d" % i, "h%d" % ((i + 1) % 60)) for i in range(60)}
        # a star farm: target T, 30 supporters linking only to it and linked from it
        links |= {("s%d" % i, "T") for i in range(30)} | {("T", "s%d" % i) for i in range(30)}
        links.add(("h5", "T"))
        cls.G = nx.DiGraph(sorted(links))
        edges = os.path.join(cls.tmp, "farm.tsv")
        with open(edges, "w") as f:
            f.write("".join("%s\t%s\n" % l for l in sorted(links)))
        cls.db, _ = webrank.build(edges, os.path.join(cls.tmp, "farm.db"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def vec(self, d):
        return np.array([d[self.db.label(u)] for u in range(self.db.pages)])

    def test_trust_mass_report(self):
        db = self.db
        seeds = ["h1", "h2", "h3"]
        listed = db.trust(seeds, good_fraction=0.9, k=5)
        t = self.vec(nx.pagerank(self.G, personalization={s: 1 for s in seeds}, tol=1e-15,
                                 max_iter=10000))
        p = self.vec(nx.pagerank(self.G, tol=1e-15, max_iter=10000))
        self.assertLess(float(np.abs(db.ranks("trustrank") - t).sum()), 1e-9)
        absolute, relative = db.ranks("spam-mass-absolute"), db.ranks("spam-mass")
        self.assertLess(float(np.abs(absolute - (p - 0.9 * t)).sum()), 1e-9)
        self.assertLess(float(np.abs(relative - (p - 0.9 * t) / p).sum()), 1e-8)
        # The pages listed (`webrank trust --json`): the farm's target, of highest PageRank,
        # and their masses as stored.
        self.assertIn("T", [p["label"] for p in listed])
        for p in listed:
            self.assertAlmostEqual(p["spam_mass"], relative[db.find(p["label"])], places=12)
        self.assertTrue({"trustrank", "spam-mass"} <= set(db.rank_names()))
        db.rank("pagerank")
        farms = db.spam_report()["farms"]
        self.assertEqual([db.label(f["target"]) for f in farms], ["T"])
        self.assertEqual(len(db.propose_seeds(5)), 5)

    def test_rank_batch(self):
        sources = [["h1"], ["h2", "T"], []]
        ranks, infos = self.db.rank_batch(sources)
        self.assertEqual(ranks.shape, (3, self.db.pages))
        for row, src in zip(ranks, sources):
            ref = nx.pagerank(self.G, personalization={s: 1 for s in src} or None, tol=1e-15,
                              max_iter=10000)
            self.assertLess(float(np.abs(row - self.vec(ref)).sum()), 1e-9)
        self.assertTrue(all(i["converged"] for i in infos))

    def test_rank_batch_in_memory(self):
        # Pages by id, by label, by URL-ish label; no file is written for the batch.
        fresh = tempfile.mkdtemp(prefix="webrank-py-")
        self.addCleanup(shutil.rmtree, fresh)
        before, tempfile.tempdir = tempfile.tempdir, fresh
        try:
            ranks, infos = self.db.rank_batch([[self.db.find("h1")], ["h1"]])
        finally:
            tempfile.tempdir = before
        self.assertEqual(os.listdir(fresh), [])
        self.assertTrue(np.array_equal(ranks[0], ranks[1]))
        self.assertEqual([i["name"] for i in infos], ["batch.0", "batch.1"])
        with self.assertRaises(webrank.InvalidArgumentError) as e:
            self.db.rank_batch([["h1"], ["nowhere"]])
        self.assertEqual(e.exception.field, "sources")
        self.assertIn("source 1", str(e.exception))
        with self.assertRaises(webrank.PageIdError):
            self.db.rank_batch([[self.db.pages]])

    def test_rank_batch_labels_a_file_could_not_hold(self):
        # A label starting with '@' (a batch file's weights file) and one with blanks: taken as
        # the pages they name.
        tmp = tempfile.mkdtemp(prefix="webrank-py-")
        self.addCleanup(shutil.rmtree, tmp)
        edges = os.path.join(tmp, "odd.tsv")
        links = [("@home", "a b"), ("a b", "@home"), ("a b", "c"), ("c", "@home")]
        with open(edges, "w") as f:
            f.write("".join("%s\t%s\n" % l for l in links))
        db, _ = webrank.build(edges, os.path.join(tmp, "odd.db"))
        ranks, _ = db.rank_batch([["@home"], ["a b"]])
        G = nx.DiGraph(links)
        for row, seed in zip(ranks, ["@home", "a b"]):
            ref = nx.pagerank(G, personalization={seed: 1}, tol=1e-15, max_iter=10000)
            self.assertLess(sum(abs(row[db.find(k)] - v) for k, v in ref.items()), 1e-9)


class StubsTest(unittest.TestCase):
    """The type stubs describe what the package has: every public name, every Database member."""

    def test_stubs_match_the_module(self):
        import ast

        path = os.path.join(os.path.dirname(webrank.__file__), "__init__.pyi")
        with open(path) as f:
            tree = ast.parse(f.read())
        top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        self.assertEqual(top, set(webrank.__all__))
        stub_db = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Database")
        members = {n.name for n in stub_db.body if isinstance(n, ast.FunctionDef)}
        members |= {n.target.id for n in stub_db.body if isinstance(n, ast.AnnAssign)}
        public = {m for m in dir(webrank.Database) if not m.startswith("_")}
        self.assertEqual({m for m in members if not m.startswith("__")}, public)
        for name in webrank.__all__:
            self.assertTrue(getattr(webrank, name).__doc__, name)

    def test_stubs_are_typed(self):
        # The methods written by hand over operations list their operation's keywords, typed
        # (no **options), as help() shows them.
        import ast
        import inspect

        path = os.path.join(os.path.dirname(webrank.__file__), "__init__.pyi")
        with open(path) as f:
            tree = ast.parse(f.read())
        db = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Database")
        stubs = {n.name: n for n in db.body if isinstance(n, ast.FunctionDef)}
        stubs["webrank.rank"] = next(n for n in tree.body
                                     if isinstance(n, ast.FunctionDef) and n.name == "rank")
        for name in ("rank", "rank_batch", "page", "trust", "top", "search", "webrank.rank"):
            with self.subTest(method=name):
                args = stubs[name].args
                self.assertIsNone(args.kwarg)
                for a in args.args + args.kwonlyargs:
                    if a.arg != "self":
                        self.assertIsNotNone(a.annotation, a.arg)
        keywords = {a.arg for a in stubs["rank"].args.kwonlyargs}
        self.assertTrue({"damping", "tol", "method", "personalize", "source", "callback"}
                        <= keywords)
        self.assertIn("damping", inspect.signature(webrank.Database.rank).parameters)
        self.assertNotIn("personalize", {a.arg for a in stubs["rank_batch"].args.kwonlyargs})

    def test_stubs_are_made_from_the_declarations(self):
        # The generated part of the stubs (every operation's keywords, types and defaults) is
        # what python/make_stubs.py makes from the C++ declarations now.
        tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "make_stubs.py")
        done = subprocess.run([sys.executable, tool, "--check"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)


class LongRanks(unittest.TestCase):
    """A web large enough to rank on the worker thread (> 200,000 links)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-py-")
        rng = np.random.default_rng(7)
        n, m = 60000, 400000
        src = np.minimum(rng.integers(0, n, m), rng.integers(0, n, m))
        dst = rng.integers(0, n, m)
        edges = os.path.join(cls.tmp, "big.tsv")
        np.savetxt(edges, np.stack([src, dst], axis=1), fmt="%d", delimiter="\t")
        cls.path = os.path.join(cls.tmp, "big.db")
        cls.db, _ = webrank.build(edges, cls.path)
        cls.db.rank("pagerank")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_releases_the_gil(self):
        done = threading.Event()
        counts = []

        def work():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.db.rank("spin", tol=1e-300, max_iter=200, save=False)
            done.set()

        t = threading.Thread(target=work)
        start = time.monotonic()
        t.start()
        n = 0
        while not done.is_set():
            n += 1
        t.join()
        counts.append(n)
        # Holding the GIL for the whole solve would leave this loop a handful of turns.
        self.assertGreater(n, 10000, "%d turns in %.2f s" % (n, time.monotonic() - start))

    def test_ctrl_c_stops_and_keeps_the_stored_vector(self):
        stored = os.path.join(self.path, "ranks", "pagerank.ranks")
        before = digest(stored)
        code = ("import sys, webrank\n"
                "db = webrank.Database(sys.argv[1])\n"
                "import time\n"
                "def cb(i, d):\n"
                "    if i == 1: print('started', flush=True)\n"
                "    time.sleep(0.05)  # slower than Ctrl-C: a small web would otherwise stall first\n"
                "db.rank('pagerank', tol=1e-300, max_iter=1000000, callback=cb)\n")
        p = subprocess.Popen([sys.executable, "-c", code, self.path], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ)
        self.assertEqual(p.stdout.readline().strip(), "started")
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("KeyboardInterrupt", err)
        self.assertLess(time.monotonic() - sent, 10)
        self.assertEqual(digest(stored), before)
        self.assertEqual(webrank.Database(self.path).rank_names(), ["pagerank"])



def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CtrlCOnAnySize(unittest.TestCase):
    """Ctrl-C stops a long call on a small web too (every operation runs on a worker thread while
    the caller waits, checking for signals): a batch of 2,000 personalized vectors on a
    20,000-page web, far below the size where ranking used to move to a worker thread."""

    def test_ctrl_c_stops_a_long_call_on_a_small_web(self):
        tmp = tempfile.mkdtemp(prefix="webrank-py-")
        self.addCleanup(shutil.rmtree, tmp)
        edges = os.path.join(tmp, "g.tsv")
        webrank.generate(pages=20000, links=150000, output=edges)
        path = os.path.join(tmp, "g.db")
        webrank.build(edges, path)
        code = ("import sys, webrank\n"
                "db = webrank.Database(sys.argv[1])\n"
                "print('started', flush=True)\n"
                "db.rank_batch([[i] for i in range(2000)], tol=1e-12, threads=1)\n"
                "print('finished', flush=True)\n")
        p = subprocess.Popen([sys.executable, "-c", code, path], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ)
        self.assertEqual(p.stdout.readline().strip(), "started")
        # Wait until the batch is under way: the process has spent CPU in it (seconds of the ~20
        # the whole batch takes), bounded by a deadline.
        deadline = time.monotonic() + 60
        while cpu_seconds(p.pid) < 1.0 and time.monotonic() < deadline:
            time.sleep(0.05)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        self.assertNotIn("finished", out)
        self.assertIn("KeyboardInterrupt", err)
        self.assertLess(time.monotonic() - sent, 5)


if __name__ == "__main__":
    unittest.main()
