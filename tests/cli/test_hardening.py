#!/usr/bin/python3
"""Hostile inputs and lying databases through the command line (docs/hardening.md).

Run:  /usr/bin/python3 tests/cli/test_hardening.py --webrank build/webrank [-v] [-k NAME]

Every input is made here. The memory bombs run with an address-space limit (RLIMIT_AS, 2 GiB)
and a time limit, so a regression fails fast instead of eating the shared machine's memory:
each must end in exit 1 with a message naming the file and the line or byte, well within both.
"""

import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import unittest
import zlib

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

MEMORY_LIMIT = 2 << 30  # bytes of address space a bomb may take before it is a failure
TIME_LIMIT = 60         # seconds


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


class Bounded(WebrankTestCase):
    """Claims and bombs: clear errors, at once, within the memory limit."""

    def run_limited(self, *args, stdin=None):
        start = time.monotonic()
        proc = subprocess.run([wrcli.WEBRANK] + [str(a) for a in args], cwd=self.dir,
                              stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=limited, timeout=TIME_LIMIT)
        res = wrcli.Result(["webrank"] + [str(a) for a in args], proc)
        res.seconds = time.monotonic() - start
        return res

    def assertRefused(self, res, *names):
        d = res.describe()
        self.assertFalse(wrcli.crashed(res.rc), "crashed\n" + d)
        self.assertEqual(res.rc, 1, d)
        self.assertNotIn("out of memory", res.err, d)
        self.assertRegex(res.err, r"(?m)^webrank: error: ", d)
        for name in names:
            self.assertIn(name, res.err, d)
        self.assertLess(res.seconds, 20, "took %.1f s\n%s" % (res.seconds, d))
        self.assertFalse(os.path.exists(self.path("db")), "a failed build left its output")
        leftovers = [f for f in os.listdir(self.dir) if "webrank-tmp" in f]
        self.assertEqual(leftovers, [], "a failed build left temporary files")

    def test_the_limit_lets_a_normal_build_through(self):
        self.write("web.tsv", "a\tb\nb\tc\n")
        res = self.run_limited("build", "web.tsv", "-o", "ok.db", "-q")
        self.assertEqual(res.rc, 0, res.describe())

    def write_bv(self, nodes, graph=b"\x80\x00\x00\x00\x00\x00", window=7):
        self.write("g.graph", graph)
        self.write("g.properties",
                   "graphclass=it.unimi.dsi.webgraph.BVGraph\nversion=0\nnodes=%d\narcs=0\n"
                   "windowsize=%d\nmaxrefcount=3\nminintervallength=4\nzetak=3\n"
                   % (nodes, window))

    def test_bv_node_count_beyond_the_graph_file(self):
        for nodes in (300000000, 4000000000):
            with self.subTest(nodes=nodes):
                self.write_bv(nodes)
                res = self.run_limited("import", "g", "--format", "bv", "-o", "db")
                self.assertRefused(res, "g.graph", "g.properties:3", "nodes=%d" % nodes,
                                    "6 bytes")

    def test_bv_window_larger_than_the_graph(self):
        # Six 1 bits: six nodes of outdegree 0 (gamma), whatever the window claims.
        self.write_bv(6, graph=b"\xfc", window=1000)
        res = self.run_limited("import", "g", "--format", "bv", "-o", "ok.db", "-q")
        self.assertEqual(res.rc, 0, res.describe())
        self.assertRegex(self.wr("info", "ok.db").out, r"(?m)^pages +6$")

    def test_matrix_market_and_pajek_claims_against_the_memory_budget(self):
        self.write("m.mtx", "%%MatrixMarket matrix coordinate pattern general\n"
                   "% a claim\n4000000000 4000000000 1\n1 2\n")
        self.assertRefused(self.run_limited("import", "m.mtx", "-o", "db"),
                           "m.mtx:3", "4000000000 pages", "memory budget")
        self.write("p.net", "*Vertices 4000000000\n*Arcs\n1 2\n")
        self.assertRefused(self.run_limited("import", "p.net", "-o", "db"),
                           "p.net:1", "4000000000 pages")
        # A claim the machine could hold is held to --memory-budget too.
        self.write("m2.mtx", "%%MatrixMarket matrix coordinate pattern general\n"
                   "20000000 20000000 1\n1 2\n")
        self.assertRefused(self.run_limited("import", "m2.mtx", "-o", "db",
                                            "--memory-budget", "100M"),
                           "m2.mtx:2", "--memory-budget")

    def gzip_one_line(self, name, mib, head=b"x y\n"):
        """A gzip file holding `head`, then one line of `mib` MiB (about mib KB compressed)."""
        c = zlib.compressobj(1, zlib.DEFLATED, 31)
        block = b"a" * (1 << 20)
        with open(self.path(name), "wb") as f:
            f.write(c.compress(head))
            for _ in range(mib):
                f.write(c.compress(block))
            f.write(c.compress(b"\n"))
            f.write(c.flush())

    def test_a_gzip_bomb_of_one_long_line(self):
        self.gzip_one_line("bomb.tsv.gz", 256)
        self.assertRefused(self.run_limited("build", "bomb.tsv.gz", "-o", "db"),
                           "bomb.tsv.gz", "longer than 64 MiB")
        self.gzip_one_line("bomb.mtx.gz", 256,
                           b"%%MatrixMarket matrix coordinate pattern general\n")
        self.assertRefused(self.run_limited("import", "bomb.mtx.gz", "-o", "db"),
                           "bomb.mtx.gz:2", "longer than 64 MiB")

    def test_a_gzip_bomb_in_a_warc_response(self):
        # A 1 GiB page sent with Content-Encoding: gzip (about 1 MB in the WARC) is decoded
        # to 10 MiB, as a crawl would cut it, and imported.
        c = zlib.compressobj(1, zlib.DEFLATED, 31)
        body = [c.compress(b"<html><title>bomb</title><body>")]
        block = b"a" * (1 << 20)
        body += [c.compress(block) for _ in range(1024)]
        body.append(c.flush())
        http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
                + b"".join(body))
        record = (b"WARC/1.1\r\nWARC-Type: response\r\n"
                  b"WARC-Target-URI: http://bomb.example/\r\n"
                  b"Content-Type: application/http; msgtype=response\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(http)) + http + b"\r\n\r\n"
        self.write("bomb.warc", record)
        res = self.run_limited("import", "bomb.warc", "-o", "ok.db", "-q")
        self.assertEqual(res.rc, 0, res.describe())
        self.assertLess(res.seconds, 20, res.describe())
        page = json.loads(self.wr("page", "ok.db", "http://bomb.example/", "--json").out)
        self.assertEqual(page["title"], "bomb")

    def sparse(self, name, size, head=b""):
        with open(self.path(name), "wb") as f:
            f.write(head)
            f.truncate(size)
        return self.path(name)

    def test_files_of_nul_bytes(self):
        # 10 GiB files of NUL bytes (sparse: they take no disk) through each line reader.
        big = 10 << 30
        cases = [("nul.mtx", ("import", "nul.mtx"), "nul.mtx:1"),
                 ("nul.net", ("import", "nul.net"), "nul.net:1"),
                 ("nul-vertices.txt", ("import", "nul-vertices.txt", "--format", "cc-hosts"),
                  "nul-vertices.txt:1"),
                 ("nul.tsv", ("build", "nul.tsv"), "nul.tsv:1")]
        self.write("nul-edges.txt", "0\t0\n")
        for name, args, where in cases:
            with self.subTest(file=name):
                # A plain edge list is memory-mapped: 10 GiB cannot be mapped within the limit.
                self.sparse(name, big if not name.endswith(".tsv") else 512 << 20)
                self.assertRefused(self.run_limited(*args, "-o", "db"), where, "NUL")
                os.unlink(self.path(name))
        with open(self.sparse("stdin.bin", big), "rb") as f:
            self.assertRefused(self.run_limited("build", "-", "-o", "db", stdin=f),
                               "<stdin>", "NUL")

    def test_a_huge_file_in_an_html_directory_is_read_up_to_the_limit(self):
        os.makedirs(self.path("site"))
        self.write("site/index.html", '<html><title>home</title><a href="big.html">big</a>')
        self.sparse("site/big.html", 2 << 30, b"<html><title>big</title><body>")
        res = self.run_limited("import", "site", "-o", "ok.db")
        self.assertEqual(res.rc, 0, res.describe())
        self.assertIn("read up to that size", res.err + res.out, res.describe())


class TruthfulDatabase(WebrankTestCase):
    """A manifest that cannot lie; vectors that cannot vanish; JSON that cannot fail."""

    def setUp(self):
        super().setUp()
        self.write("web.tsv", "a\tb\t1\nb\tc\t2\nc\tc\t1\nc\ta\t0.5\nd\n")
        self.wr("build", "web.tsv", "-o", "pristine.db", "--weighted", "-q")
        self.wr("rank", "pristine.db", "-q")

    def copy(self, name="case.db"):
        if os.path.exists(self.path(name)):
            shutil.rmtree(self.path(name))
        shutil.copytree(self.path("pristine.db"), self.path(name))
        return name

    def assertFails(self, db, *names, commands=("check", "info", "top", "rank", "export")):
        for cmd in commands:
            args = {"export": ["export", db, "--pages"],
                    "rank": ["rank", db, "-q", "--name", "again"]}.get(cmd, [cmd, db])
            res = self.wr(*args, expect=None)
            self.assertEqual(res.rc, 1, res.describe())
            for name in names:
                self.assertIn(name, res.err, res.describe())

    def test_hand_edits_of_the_manifest_are_caught_at_every_open(self):
        with open(self.path("pristine.db/manifest.json")) as f:
            pristine = json.load(f)
        for key, value in (("dangling_pages", 0), ("self_links", 0), ("page_data", False),
                           ("weighted", False), ("pages", 3), ("links", 9)):
            with self.subTest(key=key):
                db = self.copy()
                m = dict(pristine)
                m[key] = value
                with open(self.path(db + "/manifest.json"), "w") as f:
                    json.dump(m, f, indent=2)
                self.assertFails(db, "manifest.json", "checksum")

    def test_a_deleted_vector_fails_check_and_info(self):
        db = self.copy()
        os.unlink(self.path(db + "/ranks/pagerank.ranks"))
        self.assertFails(db, "pagerank.ranks", "missing", commands=("check", "info"))
        res = self.wr("top", db, expect=None)
        self.assertEqual(res.rc, 1, res.describe())
        # The half that is left can be dropped.
        self.wr("ranks", db, "--delete", "pagerank")
        self.wr("check", db)

    def test_a_rank_killed_between_its_two_files(self):
        # The states a kill -9 can leave while `rank` replaces a vector: the new metadata in place
        # under its pending name, and the new vector in place or not yet.
        old_json = open(self.path("pristine.db/ranks/pagerank.json"), "rb").read()
        old_vec = open(self.path("pristine.db/ranks/pagerank.ranks"), "rb").read()
        for vector_in_place, damping in ((True, 0.5), (False, 0.85)):
            with self.subTest(vector_in_place=vector_in_place):
                db = self.copy()
                self.wr("rank", db, "-q", "--damping", "0.5")
                ranks = self.path(db + "/ranks/")
                os.rename(ranks + "pagerank.json", ranks + ".pagerank.json.pending")
                with open(ranks + "pagerank.json", "wb") as f:
                    f.write(old_json)
                if not vector_in_place:
                    with open(ranks + "pagerank.ranks", "wb") as f:
                        f.write(old_vec)
                self.wr("check", db)
                info = json.loads(self.wr("info", db, "--json").out)
                self.assertEqual(info["ranks"][0]["damping"], damping)
                self.wr("top", db)
                with open(ranks + "pagerank.json") as f:
                    self.assertEqual(json.load(f)["damping"], damping)

    def test_a_first_rank_seen_between_its_two_files(self):
        # A vector stored for the first time, read after its values went in and before its
        # metadata took its name (a server drawing its charts meanwhile): the pending metadata
        # is the vector's own, and it is read with it.
        want = self.wr("top", "pristine.db", "--json").out
        db = self.copy()
        ranks = self.path(db + "/ranks/")
        os.rename(ranks + "pagerank.json", ranks + ".pagerank.json.pending")
        self.assertEqual(self.wr("top", db, "--json").out, want)

    def test_info_fails_on_a_damaged_vector(self):
        db = self.copy()
        p = self.path(db + "/ranks/pagerank.ranks")
        with open(p, "r+b") as f:
            f.seek(os.path.getsize(p) // 2)
            f.write(b"\xff\xff")
        res = self.wr("info", db, expect=1)
        self.assertIn("pagerank", res.out + res.err, res.describe())
        res = self.wr("info", db, "--json", expect=1)
        self.assertIn("error", json.loads(res.out)["ranks"][0], res.describe())

    def test_labels_that_are_not_utf8_are_escaped_in_json(self):
        self.write("bad.tsv", b"caf\xe9\tb\xff\xfe\nb\xff\xfe\tok\n")
        self.wr("build", "bad.tsv", "-o", "bad.db", "-q")
        self.wr("rank", "bad.db", "-q")
        top = json.loads(self.wr("top", "bad.db", "--json").out)
        labels = {p["label"]: p.get("label_hex") for p in top["pages"]} \
            if isinstance(top, dict) else {p["label"]: p.get("label_hex") for p in top}
        self.assertIn("caf\ufffd", labels)
        self.assertEqual(labels["caf\ufffd"], "636166e9")
        self.assertEqual(labels["ok"], None)
        page = json.loads(self.wr("page", "bad.db", os.fsdecode(b"b\xff\xfe"), "--json").out)
        self.assertEqual(page["label_hex"], "62fffe")
        # The text forms print the bytes as they are.
        self.assertIn(b"caf\xe9", self.wr("top", "bad.db").out_bytes)

    def test_a_repeated_common_crawl_id_names_both_lines(self):
        self.write("h-vertices.txt", "0\tcom.example\n1\tcom.example.www\n0\torg.example\n")
        self.write("h-edges.txt", "0\t1\n")
        res = self.wr("import", "h-vertices.txt", "-o", "h.db", expect=1)
        self.assertIn("h-vertices.txt:3", res.err, res.describe())
        self.assertIn("h-vertices.txt:1", res.err, res.describe())


STRACE = shutil.which("strace")


@unittest.skipUnless(STRACE, "strace not installed (scripts/install-deps.sh installs it)")
class CrashWindows(WebrankTestCase):
    """kill -9 at the worst moment (strace injects SIGKILL into a chosen system call), and the
    order of fsyncs and renames that makes outputs survive a power loss."""

    def traced(self, trace_file, *args, inject=None):
        cmd = [STRACE, "-f", "-y", "-qq", "-o", self.path(trace_file),
               "-e", "trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat"]
        if inject:
            cmd += ["-e", "inject=" + inject]
        cmd += [wrcli.WEBRANK] + [str(a) for a in args]
        return subprocess.run(cmd, cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=120)

    def lines(self, trace_file):
        with open(self.path(trace_file)) as f:
            return f.read().splitlines()

    def test_build_force_killed_after_the_exchange_keeps_a_database(self):
        self.write("old.tsv", "a\tb\n")
        self.write("new.tsv", "a\tb\nb\tc\nc\ta\n")
        self.wr("build", "old.tsv", "-o", "db", "-q")
        # The first unlinkat after the exchange removes the old database: killed there.
        proc = self.traced("t", "build", "new.tsv", "-o", "db", "--force", "-q",
                           inject="unlinkat:signal=KILL:when=1")
        self.assertNotEqual(proc.returncode, 0, proc.stderr.decode())
        self.assertRegex(self.wr("check", "db").out, r"3 pages")
        stale = [f for f in os.listdir(self.dir) if f.startswith(".db.webrank-tmp")]
        self.assertTrue(stale, "expected the old database under its temporary name")
        self.wr("build", "old.tsv", "-o", "db", "--force", "-q")
        self.assertEqual([f for f in os.listdir(self.dir) if "webrank-tmp" in f], [])

    def test_rank_killed_between_its_two_files_keeps_a_pair(self):
        self.write("web.tsv", "a\tb\nb\tc\nc\ta\nc\td\n")
        self.wr("build", "web.tsv", "-o", "db", "-q")
        self.wr("rank", "db", "-q")
        # Which rename puts the metadata in place: the last one of a rank run.
        self.traced("count", "rank", "db", "-q", "--damping", "0.7")
        renames = [l for l in self.lines("count") if "rename" in l and "= 0" in l]
        self.assertIn(".pagerank.json.pending", renames[-1])
        proc = self.traced("t", "rank", "db", "-q", "--damping", "0.5",
                           inject="rename:signal=KILL:when=%d" % sum("rename(" in l for l in renames))
        self.assertNotEqual(proc.returncode, 0, proc.stderr.decode())
        self.wr("check", "db")
        info = json.loads(self.wr("info", "db", "--json").out)
        self.assertEqual(info["ranks"][0]["damping"], 0.5)

    def test_outputs_are_on_the_disk_before_they_take_their_names(self):
        self.write("web.tsv", "a\tb\nb\tc\nc\ta\n")
        self.traced("build", "build", "web.tsv", "-o", "db", "-q")
        lines = self.lines("build")
        put = next(i for i, l in enumerate(lines) if "rename" in l and l.endswith('"db") = 0'))
        synced = [l for l in lines[:put] if l.split("(")[0].split()[-1] in ("fsync", "fdatasync")]
        for name in ("manifest.json", "fwd.targets", "labels.bytes"):
            self.assertTrue(any(name in l for l in synced), "%s not synced before the rename\n%s"
                            % (name, "\n".join(lines)))
        self.assertTrue(any("fsync" in l for l in lines[put + 1:]), "directory not synced after")
        self.traced("rank", "rank", "db", "-q")
        lines = self.lines("rank")
        put = next(i for i, l in enumerate(lines) if "rename" in l and "pagerank.ranks" in l)
        self.assertTrue(any("fsync" in l and "pagerank.ranks" in l for l in lines[:put]),
                        "\n".join(lines))

    def test_a_stored_or_deleted_vector_is_on_the_disk_when_the_command_returns(self):
        self.write("web.tsv", "a\tb\nb\tc\nc\ta\n")
        self.wr("build", "web.tsv", "-o", "db", "-q")
        ranks_dir = os.path.join(os.path.realpath(self.dir), "db", "ranks")
        # The record's last rename, then an fsync of ranks/ (the rename's own durability).
        for run in (("rank", "db", "-q"), ("rank", "db", "-q", "--damping", "0.6")):
            self.traced("rank", *run)
            lines = self.lines("rank")
            last = max(i for i, l in enumerate(lines) if "rename" in l and "pagerank.json" in l)
            self.assertTrue(any(l.startswith(("fsync(", "fdatasync(")) or " fsync(" in l
                                for l in lines[last + 1:] if "<%s>" % ranks_dir in l),
                            "ranks/ not synced after the last rename\n" + "\n".join(lines))
        self.traced("delete", "ranks", "db", "--delete", "pagerank", "-q")
        lines = self.lines("delete")
        last = max(i for i, l in enumerate(lines) if "unlink" in l and "pagerank" in l)
        self.assertTrue(any("fsync" in l and "<%s>" % ranks_dir in l for l in lines[last + 1:]),
                        "ranks/ not synced after the delete\n" + "\n".join(lines))


if __name__ == "__main__":
    wrcli.main()
