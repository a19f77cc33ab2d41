#!/usr/bin/python3
"""`webrank rank DB --memory-budget SIZE`: out-of-core ranking.

The links are streamed from the database's files in blocks (the JSON says how many); the vector
is the in-memory one to 1e-12 in L1 (bit for bit) for
power, paper, extrapolate, leak, personalized, weighted and float runs; a page with more
backlinks than a block is summed in pieces (bit for bit too); a budget too small for the vectors and methods that
need the web in memory are refused (exit 2); kill -9 during an out-of-core rank leaves the
database and its stored vectors intact. Peak memory is measured by the benchmarks, not here.

Run:  /usr/bin/python3 tests/cli/test_out_of_core.py --webrank build/webrank [-v]
"""

import json
import os
import re
import signal
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402


class OutOfCore(WebrankTestCase):
    @classmethod
    def setUpClass(cls):
        # One web for the whole class: 1.5M links, several blocks at the smallest budget.
        wrcli.build_class_web(cls, "webrank-ooc-", lambda path: wrcli.run_webrank(
            ["generate", "--model", "web", "--pages", "40000", "--links", "1500000", "--seed", "9",
             "-o", path]))

    def db(self):
        return os.path.join(self.shared, "web.db")

    def smallest_budget(self, db, *opts):
        """The budget the error message of a 1-byte budget asks for, plus 3 MB: a few blocks."""
        res = self.wr("rank", db, "--memory-budget", "1", "--name", "x", *opts, expect=2)
        m = re.search(r"give at least ([0-9.]+) (KB|MB|GB)", res.err)
        self.assertIsNotNone(m, res.describe())
        scale = {"KB": 1e3, "MB": 1e6, "GB": 1e9}[m.group(2)]
        return str(int(float(m.group(1)) * scale + 3e6))

    def pair(self, name, *opts, db=None):
        """Ranks in memory and out of core with the same options; returns both vectors and the
        out-of-core run's metadata."""
        db = db or self.db()
        self.wr("rank", db, "--name", name + "-mem", "-q", *opts)
        budget = self.smallest_budget(db, *opts)
        self.wr("rank", db, "--name", name + "-ooc", "-q", "--memory-budget", budget, *opts)
        with open(os.path.join(db, "ranks", name + "-ooc.json")) as f:
            meta = json.load(f)
        return (wrcli.stored_vector(db, name + "-mem"), wrcli.stored_vector(db, name + "-ooc"),
                meta)

    def test_same_vector_as_in_memory(self):
        variants = {
            "power": (),
            "paper": ("--method", "paper"),
            "extrapolate": ("--method", "extrapolate"),
            "leak": ("--dangling", "leak"),
            "float": ("--precision", "float", "--tol", "1e-6"),
        }
        with open(os.path.join(self.shared, "web.tsv")) as f:
            first = f.readline().split("\t")[0]
        variants["pers"] = ("--personalize", first, "--dangling", "uniform")
        for name, opts in variants.items():
            mem, ooc, meta = self.pair(name, *opts)
            self.assertGreater(meta["streamed_blocks"], 1, name)
            self.assertEqual(meta["sweep"], "streamed", name)
            l1 = float(abs(mem - ooc).sum())
            self.assertLessEqual(l1, 1e-12, name)

    def test_auto_runs_power(self):
        budget = self.smallest_budget(self.db())
        res = self.wr("rank", self.db(), "--method", "auto", "--memory-budget", budget,
                      "--name", "auto")
        self.assertIn("auto (power)", res.err)

    def test_weighted_and_a_page_larger_than_a_block(self):
        # Page "hub" has 400,000 backlinks (4.8 MB with weights): more than a block.
        lines = ["s%d\thub\t%d" % (i, 1 + i % 3) for i in range(400000)]
        lines += ["hub\ts%d\t1" % i for i in range(0, 400000, 7)]
        lines += ["s%d\ts%d\t2" % (i, (i * 7919) % 400000) for i in range(0, 400000, 3)]
        self.write("w.tsv", "\n".join(lines) + "\n")
        self.build("w.tsv", "w.db", extra=("--weighted",))
        db = self.path("w.db")
        mem, ooc, meta = self.pair("w", db=db)
        self.assertGreater(meta["streamed_blocks"], 1)
        self.assertLessEqual(float(abs(mem - ooc).sum()), 1e-12)

    def test_refusals(self):
        res = self.wr("rank", self.db(), "--memory-budget", "20M", "--name", "x", expect=2)
        self.assertIn("--memory-budget", res.err)
        self.assertIn("too small", res.err)
        for opts in (("--method", "gauss-seidel"), ("--method", "direct"),
                     ("--dangling", "remove"), ("--sweep", "blocked")):
            res = self.wr("rank", self.db(), "--memory-budget", "1G", "--name", "x", *opts,
                          expect=2)
            self.assertIn("whole web in memory", res.err, opts)
        self.wr("rank", self.db(), "--memory-budget", "lots", expect=2)
        self.assertFalse(os.path.exists(os.path.join(self.db(), "ranks", "x.ranks")))

    def test_kill_during_out_of_core_rank_keeps_everything(self):
        db = self.db()
        self.wr("rank", db, "--name", "kept", "-q")
        before = wrcli.snapshot(db)
        budget = self.smallest_budget(db)
        argv = [wrcli.WEBRANK, "rank", db, "--name", "kept", "--memory-budget", budget,
                "--tol", "1e-300", "--max-iter", "100000", "--progress", "json"]
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            # The second iteration line: streaming has started and gone round once.
            seen = 0
            for line in p.stderr:
                if line.startswith(b'{"delta"') or b'"iteration"' in line:
                    seen += 1
                    if seen == 2:
                        break
            self.assertEqual(seen, 2, "no progress from the out-of-core rank")
            p.send_signal(signal.SIGKILL)
        finally:
            p.wait()
            p.stderr.close()
        self.assertEqual(p.returncode, -signal.SIGKILL)
        self.assertEqual(wrcli.snapshot(db), before)
        self.wr("check", db, "--ranks", "kept")


if __name__ == "__main__":
    wrcli.main()
