#!/usr/bin/python3
"""`bench/serve/run.py`, the paired server benchmark of docs/search.md ("Speed"), on a small text
web it makes itself: the table it prints (both binaries, JSON and HTML, the ratio column, no
errors), the baseline's own copy of the web with an index the baseline built, an index left in
the scratch by another build rebuilt before it is served, and its refusals. The servers listen on
127.0.0.1 and wrk runs for one second per page kind and binary.

Run:  /usr/bin/python3 tests/cli/test_bench_serve.py --webrank build/webrank [-v]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVE_BENCH = os.path.join(REPO, "bench", "serve", "run.py")
WEBRANK = os.path.join(REPO, "build", "webrank")


def bench(*args):
    return subprocess.run([sys.executable, SERVE_BENCH] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=600)


class ServeBench(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.scratch = os.path.join(cls.dir.name, "scratch")
        cls.args = ["--webs", "text300", "--runs", "1", "--seconds", "1", "--connections", "2",
                    "--threads", "2", "--scratch", cls.scratch, "--webrank", WEBRANK]

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def rows(self, out, paired=True):
        lines = out.splitlines()
        head = [i for i, l in enumerate(lines) if l.startswith("web ")]
        self.assertEqual(len(head), 1, out)
        self.assertEqual(lines[head[0]].rstrip().endswith("ratio"), paired, lines[head[0]])
        return [l.split() for l in lines[head[0] + 1:] if l.strip()]

    def test_a_paired_run_and_the_baselines_copy(self):
        r = bench(*self.args, "--baseline", WEBRANK)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = self.rows(r.stdout)
        self.assertEqual([(x[0], x[1], x[2]) for x in rows],
                         [("text300", "webrank", "json"), ("text300", "baseline", "json"),
                          ("text300", "webrank", "html"), ("text300", "baseline", "html")])
        for x in rows:
            self.assertEqual(x[3], "200")  # queries of the web's query set
            errors, requests = x[9].split("/")
            self.assertEqual(errors, "0", x)
            self.assertGreater(int(requests), 0, x)
        # The ratio on the measured binary's rows, nothing on the baseline's.
        self.assertEqual([len(x) for x in rows], [11, 10, 11, 10])
        self.assertGreater(float(rows[0][10]), 0)
        # The baseline's copy (default SCRATCH-baseline): the database, its query set and an index
        # it built itself.
        copy = os.path.join(self.scratch + "-baseline", "text300.db")
        self.assertTrue(os.path.isfile(os.path.join(copy, "search.xapian")), copy)
        self.assertTrue(os.path.isfile(copy + ".queries.tsv"))
        info = subprocess.run([WEBRANK, "info", copy], stdout=subprocess.PIPE, text=True,
                              check=True).stdout
        self.assertIn("search index", info)

    def test_b_an_index_left_by_another_build_is_rebuilt(self):
        db = os.path.join(self.scratch, "text300.db")
        if not os.path.isdir(db):
            self.assertEqual(bench(*self.args).returncode, 0)
        # What another build's index looks like to this one: not an index it can read.
        with open(os.path.join(db, "search.xapian"), "wb") as f:
            f.write(b"not a search index of this build")
        r = bench(*self.args)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([(x[1], x[2]) for x in self.rows(r.stdout, paired=False)],
                         [("webrank", "json"), ("webrank", "html")])

    def test_c_refusals(self):
        r = bench(*self.args, "--baseline", WEBRANK, "--baseline-scratch", self.scratch)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--baseline-scratch must differ from --scratch", r.stderr)
        r = bench("--webs", "textual", "--scratch", self.scratch, "--webrank", WEBRANK)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("unknown web 'textual' (pgdoc, or textN for a text web of N pages)", r.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--webrank", default=WEBRANK)
    a, rest = ap.parse_known_args()
    WEBRANK = os.path.abspath(a.webrank)
    unittest.main(argv=[sys.argv[0]] + rest)
