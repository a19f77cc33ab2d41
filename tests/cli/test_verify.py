#!/usr/bin/python3
"""`webrank check DB --ranks NAME`: the verifier beside the solvers.

Every solver's converged vector passes (power, paper, gauss-seidel, blocked, float, leak,
personalized, custom dangling weights, weighted webs); a vector stopped early fails with exit 1;
vectors that are no fixed point (`--dangling remove`) are reported as not checkable; the
residual printed agrees with one computed here in numpy from the edge list alone.

Run:  /usr/bin/python3 tests/cli/test_verify.py --webrank build/webrank [-v]
"""

import json
import os
import random
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402


def random_web(seed, n=400, m=2400, weighted=False):
    rnd = random.Random(seed)
    lines = []
    for _ in range(m):
        u, v = rnd.randrange(3 * n // 4), rnd.randrange(n)  # the last quarter is dangling
        lines.append("p%d\tp%d" % (u, v) + ("\t%d" % rnd.randint(1, 5) if weighted else ""))
    return "\n".join(lines) + "\n"


class Verify(WebrankTestCase):
    def setUp(self):
        super().setUp()
        self.write("web.tsv", random_web(1))
        self.build("web.tsv", "db")

    def check(self, *names, expect=0):
        args = ["check", "db", "--json"]
        for n in names:
            args += ["--ranks", n]
        res = self.wr(*args, expect=expect)
        return {v["name"]: v for v in json.loads(res.out)}

    def test_every_solver_passes(self):
        variants = {
            "power": ("--method", "power"),
            "paper": ("--method", "paper"),
            "gs": ("--method", "gauss-seidel"),
            "blocked": ("--sweep", "blocked"),
            "float": ("--precision", "float", "--tol", "1e-6"),
            "leak": ("--dangling", "leak"),
            "uniform": ("--dangling", "uniform", "--personalize", "p1", "--personalize", "p2"),
            "pers": ("--personalize", "p3"),
            "damp": ("--damping", "0.5"),
        }
        for name, opts in variants.items():
            self.wr("rank", "db", "--name", name, "-q", *opts)
        verdicts = self.check(*variants)
        for name, v in verdicts.items():
            self.assertTrue(v["checkable"], name)
            self.assertTrue(v["ok"], "%s: %s" % (name, v))
            self.assertLessEqual(v["residual"], v["allowed"], name)
        self.assertLess(verdicts["leak"]["sum"], 0.99)
        self.assertAlmostEqual(verdicts["power"]["sum"], 1.0, places=12)

    def test_custom_dangling_and_weighted(self):
        self.write("w.tsv", random_web(2, weighted=True))
        self.build("w.tsv", "db", extra=("--weighted", "--force"))
        self.write("dw.tsv", "p1\t2\np7\t3\n")
        self.wr("rank", "db", "--name", "dw", "--dangling-weights", "dw.tsv", "-q")
        self.wr("rank", "db", "--name", "w", "-q")
        verdicts = self.check("dw", "w")
        self.assertTrue(verdicts["dw"]["ok"], verdicts["dw"])
        self.assertTrue(verdicts["w"]["ok"], verdicts["w"])

    def test_stopped_early_fails(self):
        self.wr("rank", "db", "--name", "early", "--max-iter", "2", "-q", expect=3)
        self.wr("rank", "db", "--name", "good", "-q")
        verdicts = self.check("good", "early", expect=1)
        self.assertTrue(verdicts["good"]["ok"])
        self.assertFalse(verdicts["early"]["ok"])
        self.assertGreater(verdicts["early"]["residual"], verdicts["early"]["allowed"])
        # the text form says which vector is outside its tolerance
        res = self.wr("check", "db", "--ranks", "early", expect=1)
        self.assertIn("NOT within its tolerance", res.out)

    def test_remove_is_not_checkable(self):
        self.wr("rank", "db", "--name", "rm", "--dangling", "remove", "-q")
        v = self.check("rm")["rm"]
        self.assertFalse(v["checkable"])
        self.assertIn("remove", v["reason"])

    def test_unknown_vector(self):
        res = self.wr("check", "db", "--ranks", "nope", expect=1)
        self.assertIn("nope", res.err)

    def test_residual_matches_numpy(self):
        """The residual ‖T(R) − R‖₁ recomputed here from the edge list and the --out file."""
        self.wr("rank", "db", "--name", "loose", "--tol", "1e-3", "--out", "r.tsv", "-q")
        rows = wrcli.read_rank_file(self.path("r.tsv"))
        labels = [label for label, _ in rows]
        index = {label: i for i, label in enumerate(labels)}
        r = np.array([float(value) for _, value in rows])
        n = len(labels)
        links = set()
        with open(self.path("web.tsv")) as f:
            for line in f:
                u, v = line.split()
                links.add((index[u], index[v]))
        out = np.zeros(n)
        for u, _ in links:
            out[u] += 1
        nxt = np.full(n, 0.15 / n)
        for u, v in links:
            nxt[v] += 0.85 * r[u] / out[u]
        nxt += 0.85 * r[out == 0].sum() / n
        want = np.abs(nxt - r).sum()
        got = self.check("loose")["loose"]["residual"]
        self.assertAlmostEqual(got, want, delta=1e-12 + 1e-9 * want)
        self.assertLessEqual(got, 1e-3)


if __name__ == "__main__":
    wrcli.main()
