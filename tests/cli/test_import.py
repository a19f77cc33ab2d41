#!/usr/bin/python3
"""`webrank import` (and `build` with --format auto) on every import format.

Run:  /usr/bin/python3 tests/cli/test_import.py --webrank build/webrank [-v] [-k NAME]

ImportSmallFiles (always runs) imports hand-made Matrix Market, Pajek, Common Crawl and Web Data
Commons files and checks pages, labels, links and weights by reading the database sections
directly (docs/format.md), plus the command's usage errors (exit 2) and damaged input (exit 1).

ImportRealGraphs uses the web graphs of <repo>/../shared/data and skips with
"../shared/data not found: real-graph import tests skipped" when that directory is absent:
  - the LAW BVGraphs are decoded arc for arc and compared with their text copies:
      cnr-2000            cnr-2000.graph-txt.gz (ASCIIGraph) and cnr-2000.edges.tsv.zst
      wb-cs-stanford      wb-cs.stanford.edges.tsv.zst (no .offsets: sequential decoding)
      harvard500/bv       harvard500.edges.tsv.gz; harvard500-cc (a big-WebGraph class name)
                          against its .properties counts
      cnr-2000/llp-order  its transpose cnr-2000-t must be the transposed graph, and both must
                          have the natural order's out- and in-degree multisets
    with page labels "0".."N-1" equal to the node numbers (page id = node number);
  - PageRank of the imported cnr-2000 equals PageRank of the same graph built from
    cnr-2000.edges.tsv.zst (a different page order), per label, L1 <= 1e-12;
  - kleinberg-epa/epa.net.zst (Pajek, URL labels) gives the links of epa.edges.tsv.gz joined
    with epa.urls.tsv.gz, and all 4,772 vertices as pages;
  - damaged copies of a real .graph (truncated, bytes flipped, .properties not matching) fail
    with exit 1 naming the file and a byte offset, never crash.
"""

import gzip
import json
import os
import random
import struct
import subprocess
import sys
import time
import unittest
import warnings

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

import numpy as np  # noqa: E402

DATA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                     "..", "shared", "data"))
SKIP_MSG = "../shared/data not found: real-graph import tests skipped"
L1_PAGERANK = 1e-12


# --------------------------------------------------------------------------------------------
# reading a database directly (docs/format.md: 64-byte section header, payload at byte 64)
# --------------------------------------------------------------------------------------------
def section(db, name, dtype):
    with open(os.path.join(db, name), "rb") as f:
        data = f.read()
    if data[:8] != b"WRSECT01":
        raise AssertionError("%s/%s: not a webrank section" % (db, name))
    count = struct.unpack_from("<Q", data, 32)[0]
    return np.frombuffer(data, dtype=dtype, count=count, offset=64)


class Db:
    """Labels and forward links of a database: labels[i], and arrays src, dst (page ids)."""

    def __init__(self, db):
        offsets = section(db, "fwd.offsets", "<u8").astype(np.int64)
        self.dst = section(db, "fwd.targets", "<u4").astype(np.int64)
        self.src = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
        lo = section(db, "labels.offsets", "<u8")
        lb = section(db, "labels.bytes", "u1").tobytes()
        self.labels = [lb[lo[i]:lo[i + 1]].decode("utf-8") for i in range(len(lo) - 1)]
        wpath = os.path.join(db, "fwd.weights")
        self.weights = section(db, "fwd.weights", "<f8") if os.path.exists(wpath) else None

    def label_links(self):
        """Set of (source label, target label)."""
        return {(self.labels[s], self.labels[t]) for s, t in zip(self.src.tolist(),
                                                                  self.dst.tolist())}

    def weighted_links(self):
        return {(self.labels[s], self.labels[t]): w
                for s, t, w in zip(self.src.tolist(), self.dst.tolist(), self.weights.tolist())}

    def numeric_arcs(self):
        """Arcs as sorted (src node, dst node) int arrays, labels read as node numbers."""
        num = np.array([int(x) for x in self.labels], dtype=np.int64)
        s, d = num[self.src], num[self.dst]
        order = np.lexsort((d, s))
        return s[order], d[order]


def read_text(path):
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-q", "-d", "-c", path], stdout=subprocess.PIPE,
                              check=True).stdout.decode("utf-8")
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return f.read().decode("utf-8")
    with open(path, encoding="utf-8") as f:
        return f.read()


def parse_ints(text):
    """All whitespace-separated integers of `text` as an int64 array."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return np.fromstring(text, dtype=np.int64, sep=" ")


def edge_list_arcs(path):
    """Sorted (src, dst) int arrays of a 0-based `src<TAB>dst` edge list with '#' comments."""
    body = "\n".join(line for line in read_text(path).split("\n") if not line.startswith("#"))
    a = parse_ints(body).reshape(-1, 2)
    order = np.lexsort((a[:, 1], a[:, 0]))
    return a[order, 0], a[order, 1]


def ascii_graph_arcs(path):
    """Sorted arcs of a WebGraph ASCIIGraph: line 1 = number of nodes, then the successors of
    node i, separated by single spaces, on line i + 2."""
    lines = read_text(path).split("\n")
    n = int(lines[0])
    rows = lines[1:n + 1]
    counts = np.array([len(r.split()) if r.strip() else 0 for r in rows], dtype=np.int64)
    dst = parse_ints(" ".join(rows))
    if len(dst) != counts.sum():
        raise AssertionError("%s: could not parse the successor lists" % path)
    src = np.repeat(np.arange(n, dtype=np.int64), counts)
    order = np.lexsort((dst, src))
    return n, src[order], dst[order]


def properties(path):
    props = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                props[k.strip()] = v.strip()
    return props


# --------------------------------------------------------------------------------------------
class ImportCase(WebrankTestCase):

    def imp(self, inputs, db="db", extra=(), expect=0):
        if isinstance(inputs, str):
            inputs = [inputs]
        res = self.wr("import", *inputs, "-o", db, "-q", *extra, expect=expect)
        return os.path.join(self.dir, db), res

    def assertArcsEqual(self, got, want, what):
        gs, gd = got
        ws, wd = want
        self.assertEqual(len(gs), len(ws), "%s: %d arcs, expected %d" % (what, len(gs), len(ws)))
        same = np.array_equal(gs, ws) and np.array_equal(gd, wd)
        if not same:
            bad = np.nonzero((gs != ws) | (gd != wd))[0][:5]
            self.fail("%s: arcs differ, first at %s: got %s, want %s"
                      % (what, bad.tolist(), list(zip(gs[bad].tolist(), gd[bad].tolist())),
                         list(zip(ws[bad].tolist(), wd[bad].tolist()))))

    def assertError(self, res, *needles):
        self.assertRegex(res.err, r"(?m)^webrank: error: ", res.describe())
        for n in needles:
            self.assertIn(n, res.err, res.describe())


# --------------------------------------------------------------------------------------------
class ImportSmallFiles(ImportCase):

    def test_build_progress_json_names_every_stage(self):
        # a build this small takes milliseconds: each stage still gets its line, in order
        self.write("e.txt", "".join("%d %d\n" % (i, (i * 7) % 50) for i in range(200)))
        res = self.wr("build", "e.txt", "-o", "db", "--progress", "json")
        stages = []
        for line in res.err.splitlines():
            if line.startswith("{"):
                stage = json.loads(line)["stage"]
                if not stages or stages[-1] != stage:
                    stages.append(stage)
        self.assertEqual(stages, ["reading", "sorting", "writing"], res.err)

    def test_matrix_market(self):
        self.write("m.mtx", "%%MatrixMarket matrix coordinate real general\n% a comment\n"
                            "4 4 4\n1 2 0.5\n2 3 2\n3 1 1\n3 3 4\n")
        db, res = self.imp("m.mtx")
        d = Db(db)
        self.assertEqual(d.labels, ["1", "2", "3", "4"])  # page 4: an empty row and column
        self.assertEqual(d.label_links(), {("1", "2"), ("2", "3"), ("3", "1"), ("3", "3")})
        self.assertIsNone(d.weights)
        db, res = self.imp("m.mtx", db="w", extra=["--weighted"])
        self.assertEqual(Db(db).weighted_links(),
                         {("1", "2"): 0.5, ("2", "3"): 2.0, ("3", "1"): 1.0, ("3", "3"): 4.0})

    def test_matrix_market_symmetric_pattern_gzip(self):
        text = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n"
        self.write("s.mtx.gz", gzip.compress(text.encode()))
        d = Db(self.imp("s.mtx.gz")[0])
        self.assertEqual(d.label_links(), {("2", "1"), ("1", "2"), ("3", "3")})

    def test_pajek(self):
        self.write("n.net", '*Vertices 4\r\n 1 "http://a.example/"\r\n 2 "http://b.example/ x"'
                            '\r\n 3 c\r\n*Arcs\r\n 1 2 3\r\n 2 3\r\n*Edges\r\n 3 4\r\n'
                            '*Arcslist\r\n 4 1 2\r\n')
        d = Db(self.imp("n.net")[0])
        self.assertEqual(d.labels, ["http://a.example/", "http://b.example/ x", "c", "4"])
        self.assertEqual(d.label_links(), {
            ("http://a.example/", "http://b.example/ x"), ("http://b.example/ x", "c"),
            ("c", "4"), ("4", "c"), ("4", "http://a.example/"), ("4", "http://b.example/ x")})
        w = Db(self.imp("n.net", db="w", extra=["--weighted"])[0]).weighted_links()
        self.assertEqual(w[("http://a.example/", "http://b.example/ x")], 3.0)

    def test_common_crawl_hosts(self):
        self.write("g-vertices.txt.gz", gzip.compress(b"0\tcom.example\n1\tcom.example.www\n"
                                                      b"2\torg.wikipedia.en\n"))
        self.write("g-edges.txt.gz", gzip.compress(b"0\t1\n1\t2\n2\t0\n"))
        want = {("example.com", "www.example.com"), ("www.example.com", "en.wikipedia.org"),
                ("en.wikipedia.org", "example.com")}
        for arg in ("g-vertices.txt.gz", "g"):  # the vertices file, or the prefix
            d = Db(self.imp(arg, db="db-" + arg)[0])
            self.assertEqual(d.labels, ["example.com", "www.example.com", "en.wikipedia.org"])
            self.assertEqual(d.label_links(), want)
        os.makedirs(self.path("split/vertices"))
        os.makedirs(self.path("split/edges"))
        self.write("split/vertices/part-00000.gz", gzip.compress(b"0\tcom.example\n"))
        self.write("split/vertices/part-00001.gz",
                   gzip.compress(b"1\tcom.example.www\n2\torg.wikipedia.en\n"))
        self.write("split/edges/part-00000.gz", gzip.compress(b"0\t1\n1\t2\n2\t0\n"))
        self.write("split/edges/_SUCCESS", b"")
        self.assertEqual(Db(self.imp("split", db="split.db")[0]).label_links(), want)

    def test_web_data_commons(self):
        self.write("pld-index.gz", gzip.compress(b"a.com\t0\nb.org\t1\nc.net\t2\n"))
        self.write("pld-arc.gz", gzip.compress(b"0\t1\n0\t2\n2\t0\n"))
        d = Db(self.imp("pld-index.gz")[0])
        self.assertEqual(d.labels, ["a.com", "b.org", "c.net"])
        self.assertEqual(d.label_links(), {("a.com", "b.org"), ("a.com", "c.net"),
                                           ("c.net", "a.com")})

    def test_build_auto_detects_formats_too(self):
        self.write("m.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n")
        self.build("m.mtx")
        self.assertEqual(Db(self.path("db")).label_links(), {("2", "1")})

    def test_format_edges_and_explicit_formats(self):
        self.write("web.tsv", "A\tB\nB\tC\n")
        d = Db(self.imp("web.tsv", extra=["--format", "edges"])[0])
        self.assertEqual(d.label_links(), {("A", "B"), ("B", "C")})
        self.write("graph.txt", "*Vertices 2\n*Arcs\n1 2\n")  # a name that says nothing
        d = Db(self.imp("graph.txt", db="p", extra=["--format", "pajek"])[0])
        self.assertEqual(d.label_links(), {("1", "2")})

    def test_usage_errors(self):
        self.write("web.tsv", "A\tB\n")
        res = self.wr("import", "web.tsv", "-o", "db", expect=2)
        self.assertIn("--format", res.err)
        self.assertIn("web.tsv", res.err)
        self.assertFalse(os.path.exists(self.path("db")))
        res = self.wr("import", "web.tsv", "-o", "db", "--format", "bogus", expect=2)
        self.assertIn("bogus", res.err)
        self.wr("import", "-o", "db", expect=2)
        self.wr("import", "web.tsv", expect=2)
        res = self.wr("import", "-", "-o", "db", input=b"A\tB\n", expect=2)
        self.assertIn("--format", res.err)
        self.wr("import", "-", "-o", "db", "--format", "edges", input=b"A\tB\n")

    def test_damaged_inputs_exit_1_with_location(self):
        self.write("bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n")
        res = self.wr("import", "bad.mtx", "-o", "db", expect=1)
        self.assertError(res, "bad.mtx:3", "ends after 1 of the 2 entries")
        self.write("bad.net", "*Vertices 2\n*Arcs\n1 5\n")
        res = self.wr("import", "bad.net", "-o", "db", expect=1)
        self.assertError(res, "bad.net:3", "out of range")
        self.write("x-vertices.txt", "0\tcom.a\n")
        res = self.wr("import", "x-vertices.txt", "-o", "db", expect=1)
        self.assertError(res, "x-edges.txt", "no such file")
        self.write("g.graph", b"\x00\x00")
        self.write("g.properties", "nodes=3\narcs=0\nwindowsize=7\nminintervallength=4\n")
        res = self.wr("import", "g", "-o", "db", expect=1)
        self.assertError(res, "g.graph", "ends early", "2 bytes")
        self.assertFalse(os.path.exists(self.path("db")))

    def test_existing_database_needs_force(self):
        self.write("m.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n")
        self.imp("m.mtx")
        res = self.wr("import", "m.mtx", "-o", "db", expect=1)
        self.assertIn("--force", res.err)
        self.imp("m.mtx", extra=["--force"])


# --------------------------------------------------------------------------------------------
@unittest.skipUnless(os.path.isdir(DATA), SKIP_MSG)
class ImportRealGraphs(ImportCase):

    def test_cnr2000_arc_for_arc(self):
        base = os.path.join(DATA, "cnr-2000", "cnr-2000")
        t0 = time.time()
        db, res = self.imp(base)
        seconds = time.time() - t0
        d = Db(db)
        n, s, t = ascii_graph_arcs(base + ".graph-txt.gz")
        self.assertEqual(d.labels, [str(i) for i in range(n)])  # page id = node number
        self.assertArcsEqual((d.src, d.dst), (s, t), "cnr-2000 vs graph-txt")  # id order
        self.assertArcsEqual(d.numeric_arcs(), edge_list_arcs(base + ".edges.tsv.zst"),
                             "cnr-2000 vs edges.tsv.zst")
        sys.stderr.write("\n  cnr-2000: %d nodes, %d arcs imported in %.2f s (whole import)\n"
                         % (n, len(s), seconds))

    def test_wb_cs_stanford_without_offsets(self):
        folder = os.path.join(DATA, "wb-cs-stanford")
        self.assertFalse(os.path.exists(os.path.join(folder, "wb-cs.stanford.offsets")))
        d = Db(self.imp(os.path.join(folder, "wb-cs.stanford.graph"))[0])
        self.assertEqual(len(d.labels), 9914)
        self.assertArcsEqual(d.numeric_arcs(),
                             edge_list_arcs(os.path.join(folder, "wb-cs.stanford.edges.tsv.zst")),
                             "wb-cs.stanford")

    def test_harvard500(self):
        folder = os.path.join(DATA, "harvard500")
        d = Db(self.imp(os.path.join(folder, "bv", "harvard500"))[0])
        self.assertEqual(d.labels, [str(i) for i in range(500)])
        self.assertArcsEqual(d.numeric_arcs(),
                             edge_list_arcs(os.path.join(folder, "harvard500.edges.tsv.gz")),
                             "harvard500")
        cc = os.path.join(folder, "bv", "harvard500-cc")
        props = properties(cc + ".properties")
        d = Db(self.imp(cc + ".properties", db="cc")[0])
        self.assertEqual(len(d.labels), int(props["nodes"]))
        self.assertEqual(len(d.src), int(props["arcs"]))

    def test_llp_order_and_its_transpose(self):
        folder = os.path.join(DATA, "cnr-2000", "llp-order")
        g = Db(self.imp(os.path.join(folder, "cnr-2000"), db="llp")[0])
        t = Db(self.imp(os.path.join(folder, "cnr-2000-t"), db="llpt")[0])
        n = int(properties(os.path.join(folder, "cnr-2000.properties"))["nodes"])
        self.assertEqual(len(g.labels), n)
        self.assertEqual(len(t.labels), n)
        gs, gd = g.numeric_arcs()
        ts, td = t.numeric_arcs()
        order = np.lexsort((ts, td))  # the transpose's arcs reversed, sorted as (dst, src)
        self.assertArcsEqual((gs, gd), (td[order], ts[order]), "llp vs transpose of -t")
        # a pure renumbering of the natural order: same out- and in-degree multisets
        ns, nd = edge_list_arcs(os.path.join(DATA, "cnr-2000", "cnr-2000.edges.tsv.zst"))
        for what, a, b in (("out", gs, ns), ("in", gd, nd)):
            self.assertTrue(np.array_equal(np.sort(np.bincount(a, minlength=n)),
                                           np.sort(np.bincount(b, minlength=n))),
                            "%s-degree multisets differ from the natural order" % what)

    def test_pagerank_of_imported_equals_built(self):
        base = os.path.join(DATA, "cnr-2000", "cnr-2000")
        self.imp(base, db="bv.db")
        self.wr("build", base + ".edges.tsv.zst", "-o", "edges.db", "-q")
        self.assertNotEqual(Db(self.path("bv.db")).labels[:50],
                            Db(self.path("edges.db")).labels[:50],
                            "the two databases should number pages differently")
        _, a = self.rank("bv.db", "--tol", "1e-14", out="bv.tsv")
        _, b = self.rank("edges.db", "--tol", "1e-14", out="edges.tsv")
        self.assertEqual(len(a), 325557)
        self.assertRanksClose(a, b, L1_PAGERANK, msg="imported BV vs built edge list")
        sys.stderr.write("\n  cnr-2000 PageRank, imported BV vs built edge list: L1 = %.3g\n"
                         % wrcli.l1(a, b))

    def test_epa_pajek_urls(self):
        folder = os.path.join(DATA, "kleinberg-epa")
        d = Db(self.imp(os.path.join(folder, "epa.net.zst"))[0])
        urls = {}
        for line in read_text(os.path.join(folder, "epa.urls.tsv.gz")).split("\n"):
            if line and not line.startswith("#"):
                i, u = line.split("\t", 1)
                urls[int(i)] = u
        s, t = edge_list_arcs(os.path.join(folder, "epa.edges.tsv.gz"))
        want = {(urls[a], urls[b]) for a, b in zip(s.tolist(), t.tolist())}
        self.assertEqual(len(d.labels), 4772)
        self.assertEqual(set(d.labels), set(urls.values()))
        self.assertEqual(d.label_links(), want)

    def damaged_copy(self, mutate_graph=None, mutate_props=None):
        src = os.path.join(DATA, "wb-cs-stanford", "wb-cs.stanford")
        with open(src + ".graph", "rb") as f:
            graph = bytearray(f.read())
        with open(src + ".properties", encoding="utf-8") as f:
            props = f.read()
        if mutate_graph:
            graph = mutate_graph(graph)
        if mutate_props:
            props = mutate_props(props)
        self.write("d.graph", bytes(graph))
        self.write("d.properties", props)
        return self.wr("import", "d", "-o", "db", "-q", "--force", expect=None)

    def test_truncated_graph(self):
        for cut in (0, 1, 100, 12345, 24966):
            res = self.damaged_copy(mutate_graph=lambda g, c=cut: g[:c])
            self.assertEqual(res.rc, 1, res.describe())
            self.assertError(res, "d.graph", "ends early", "%d bytes" % cut)

    def test_flipped_bytes_never_crash(self):
        rng = random.Random(5)
        caught = 0
        for trial in range(40):
            def flip(g, rng=rng):
                for _ in range(1 + trial % 3):
                    g[rng.randrange(len(g))] ^= 1 << rng.randrange(8)
                return g
            res = self.damaged_copy(mutate_graph=flip)
            self.assertIn(res.rc, (0, 1), res.describe())
            if res.rc == 1:
                caught += 1
                self.assertError(res, "d.graph")
                self.assertRegex(res.err, r"byte \d+|\d+ bytes", res.describe())
        self.assertGreater(caught, 30)

    def test_properties_that_do_not_match(self):
        res = self.damaged_copy(mutate_props=lambda p: p.replace("nodes=9914", "nodes=9915"))
        self.assertEqual(res.rc, 1)
        self.assertError(res, "d.graph", "ends early")
        res = self.damaged_copy(mutate_props=lambda p: p.replace("nodes=9914", "nodes=9000"))
        self.assertError(res, "d.graph", "byte ")
        res = self.damaged_copy(mutate_graph=lambda g: g + b"\x55\x55")
        self.assertError(res, "d.graph", "2 bytes of data after")
        res = self.damaged_copy(mutate_props=lambda p: p.replace("arcs=36854", "arcs=36855"))
        self.assertError(res, "d.graph", "decoded 36854 arcs but the .properties say arcs=36855")
        res = self.damaged_copy(
            mutate_props=lambda p: p.replace("compressionflags=", "compressionflags=BLOCKS_GOLOMB"))
        self.assertError(res, "d.properties", "GOLOMB")
        res = self.damaged_copy(
            mutate_props=lambda p: p.replace("compressionflags=", "compressionflags=OUTDEGREES_DELTA"))
        self.assertEqual(res.rc, 1, res.describe())
        self.assertError(res, "d.graph")


if __name__ == "__main__":
    wrcli.main()
