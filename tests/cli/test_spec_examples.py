#!/usr/bin/python3
"""SPEC §2 worked examples, checked through the `webrank` command line.

Run:  /usr/bin/python3 tests/cli/test_spec_examples.py --webrank build/webrank [-v] [-k NAME]

Every example is built from an edge list (`webrank build`), ranked (`webrank rank ... --out`)
and the `label<TAB>rank` file is compared
  * to the published figures at their stated precision (1e-6 max abs for rounded figures,
    2.1 as percentages rounded to one decimal, compared exactly),
  * to the exact fractions at 1e-12 (power/paper with --tol 1e-14, or --method direct),
  * to an independent numpy dense solve of the SPEC 1.1 equation (L1 <= 1e-11),
with every applicable --method (power, paper, direct) and with --precision float (power,
--tol 1e-7, exit 3 accepted, see FLOAT) at a loose 1e-6 max abs against the exact values.  `paper` is only run where W = E (the paper's computation
re-injects all lost mass through E, SPEC 1.2), i.e. not with --dangling-weights or `remove`.

Also: the output is in id order (= order of first appearance in the input) and every value is
written with 17 significant digits (docs/cli-contract.md); 2.8 spam farm.
"""

import os
import random
import re
import sys

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase, reference_pagerank  # noqa: E402

POWER = ("--method", "power", "--tol", "1e-14", "--max-iter", "100000")
PAPER = ("--method", "paper", "--tol", "1e-14", "--max-iter", "100000")
DIRECT = ("--method", "direct")
# Float storage cannot always push the L1 change below 1e-7: on 2.1 the float iteration ends in
# an ulp-level limit cycle with an L1 change of ~2.4e-7.  The float runs therefore iterate to
# --tol 1e-7 with a cap of 3000 iterations and accept exit 3 (not converged: the change is
# stuck at float noise); what is checked is the accuracy, max abs <= 1e-6 against the exact
# values (or the numpy solve), not the published rounded figures (whose own rounding of up to
# 5e-7 would eat half of that budget).
FLOAT = ("--method", "power", "--precision", "float", "--tol", "1e-7", "--max-iter", "3000")

ALL_METHODS = {"power": POWER, "paper": PAPER, "direct": DIRECT}
NO_PAPER = {"power": POWER, "direct": DIRECT}


def lines_of(links, isolated=(), weights=None):
    """Edge-list text: one `SRC<TAB>DST[<TAB>W]` line per link, then one-field lines."""
    out = []
    for k, (u, v) in enumerate(links):
        if weights is None:
            out.append("%s\t%s" % (u, v))
        else:
            out.append("%s\t%s\t%s" % (u, v, weights[k]))
    out.extend(str(p) for p in isolated)
    return "\n".join(out) + "\n"


def first_appearance(links, isolated=()):
    seen = []
    s = set()
    for u, v in links:
        for x in (str(u), str(v)):
            if x not in s:
                s.add(x)
                seen.append(x)
    for x in isolated:
        if str(x) not in s:
            s.add(str(x))
            seen.append(str(x))
    return seen


def sig_digits(s):
    mant = re.split(r"[eE]", s)[0].lstrip("+-").replace(".", "").lstrip("0")
    return len(mant)


# The webs of SPEC §2 -------------------------------------------------------------------------
WIKI = ([("B", "C"), ("C", "B"), ("D", "A"), ("D", "B"), ("E", "B"), ("E", "D"), ("E", "F"),
         ("F", "B"), ("F", "E")]
        + [(x, y) for x in "GHI" for y in "BE"] + [("J", "E"), ("K", "E")])
NX_TEST = [(1, 2), (1, 3), (3, 1), (3, 2), (3, 5), (4, 5), (4, 6), (5, 4), (5, 6), (6, 4)]
ARTICLE4 = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "A"), ("B", "C"), ("C", "D"),
            ("D", "A"), ("D", "B")]
DEAD_END = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "A"), ("B", "C"), ("C", "D")]
TRAP = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "A"), ("B", "C"), ("C", "D"), ("D", "D")]
FIG3 = [("A", "B"), ("A", "C"), ("B", "C"), ("C", "A")]
K4 = [(i, j) for i in range(4) for j in range(4) if i != j]
IGRAPH_W = [(0, 5, 4), (1, 5, 5), (2, 0, 5), (3, 1, 4), (5, 4, 4), (5, 7, 4), (6, 0, 3),
            (8, 0, 4), (8, 1, 4)]
MMDS_TRAP = [("y", "y"), ("y", "a"), ("a", "y"), ("a", "m"), ("m", "m")]
MMDS_TOPIC = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "A"), ("B", "D"), ("C", "A"),
              ("D", "B"), ("D", "C")]


class SpecExamples(WebrankTestCase):

    # -- the generic check ---------------------------------------------------------------------
    def check_example(self, links, expected, tol, flags=(), methods=ALL_METHODS, isolated=(),
                      weights=None, files=None, ref=None, float_tol=1e-6, build_flags=(),
                      expected_sum=1.0, compare=None):
        """Build the web, rank it with every method in `methods` plus --precision float, and
        compare each result to `expected` (max abs <= tol, or compare(got) for 2.1) and to the
        numpy reference `ref` (dict, L1 <= 1e-11 for double precision)."""
        for name, content in (files or {}).items():
            self.write(name, content)
        self.write("web.tsv", lines_of(links, isolated, weights))
        self.build("web.tsv", extra=build_flags)
        order = first_appearance(links, isolated)
        expected = {str(k): v for k, v in expected.items()}
        runs = dict(methods)
        runs["float"] = FLOAT
        for mname, mflags in runs.items():
            with self.subTest(method=mname):
                rows, got = self.rank("db", *flags, *mflags, out="ranks-%s.tsv" % mname,
                                      expect=(0, 3) if mname == "float" else 0)
                self.assertEqual([r[0] for r in rows], order,
                                 "--out must list pages in id order = first appearance")
                if compare is not None:
                    compare(got)
                elif mname != "float":
                    self.assertRanksClose(got, expected, tol, metric="max")
                if mname == "float":
                    exact = {str(k): v for k, v in (ref or expected).items()}
                    self.assertRanksClose(got, exact, float_tol, metric="max",
                                          msg="(--precision float)")
                if ref is not None and mname != "float":
                    self.assertRanksClose(got, {str(k): v for k, v in ref.items()}, 1e-11,
                                          msg="(numpy reference)")
                if expected_sum is not None:
                    self.assertAlmostEqual(sum(got.values()), expected_sum,
                                           delta=1e-6 if mname == "float" else 1e-12)
                if mname != "float":
                    for label, s in rows:
                        self.assertTrue(s == "%.17g" % float(s) or sig_digits(s) == 17,
                                        "rank %r of %r is not written with 17 significant "
                                        "digits" % (s, label))
        return got

    # -- 2.1 ------------------------------------------------------------------------------------
    def test_2_1_wikipedia_11_pages(self):
        pct = {"A": 3.3, "B": 38.4, "C": 34.3, "D": 3.9, "E": 8.1, "F": 3.9, "G": 1.6,
               "H": 1.6, "I": 1.6, "J": 1.6, "K": 1.6}

        def compare(got):
            rounded = {k: round(100 * v, 1) for k, v in got.items()}
            self.assertEqual(rounded, pct)

        ref = reference_pagerank(list("ABCDEFGHIJK"), {e: 1.0 for e in WIKI}, 0.85,
                                 W="uniform")
        # A is dangling and E is uniform, so `uniform` == `source`; the paper's computation
        # (SPEC 1.2) is W = E, so it runs with the default dangling mode (same result).
        self.check_example(WIKI, {}, None, ("--damping", "0.85", "--dangling", "uniform"),
                           methods=NO_PAPER, compare=compare, ref=ref)
        rows, got = self.rank("db", "--damping", "0.85", *PAPER, out="paper.tsv")
        compare(got)
        self.assertRanksClose(got, ref, 1e-11)

    # -- 2.2 ------------------------------------------------------------------------------------
    def test_2_2_networkx_test_graph(self):
        exp = {1: 0.03721197, 2: 0.05395735, 3: 0.04150565, 4: 0.37508082, 5: 0.20599833,
               6: 0.28624589}
        ref = reference_pagerank([str(i) for i in range(1, 7)],
                                 {(str(u), str(v)): 1.0 for u, v in NX_TEST}, 0.9)
        self.check_example(NX_TEST, exp, 1e-6, ("--damping", "0.9"), ref=ref)

    # -- 2.3 ------------------------------------------------------------------------------------
    def test_2_3_article_four_pages_no_damping(self):
        exp = {"A": 9 / 34, "B": 8 / 34, "C": 7 / 34, "D": 10 / 34}
        self.check_example(ARTICLE4, exp, 1e-12, ("--damping", "1"), ref=exp)

    # -- 2.4 ------------------------------------------------------------------------------------
    def test_2_4_dead_end_remove(self):
        exp = {"A": 1 / 2, "B": 1 / 2, "C": 5 / 12, "D": 7 / 12}
        self.check_example(DEAD_END, exp, 1e-12, ("--damping", "1", "--dangling", "remove"),
                           methods=NO_PAPER, expected_sum=None)

    # -- 2.5 / 2.6 ------------------------------------------------------------------------------
    def test_2_5_spider_trap(self):
        exp = {"A": 0.078358, "B": 0.070896, "C": 0.099254, "D": 0.751493}
        ref = reference_pagerank(list("ABCD"), {e: 1.0 for e in TRAP}, 0.8)
        self.check_example(TRAP, exp, 1e-6, ("--damping", "0.8"), ref=ref)

    def test_2_6_topic_computers(self):
        exp = {"A": 0.044776, "B": 0.111940, "C": 0.156716, "D": 0.686567}
        ref = reference_pagerank(list("ABCD"), {e: 1.0 for e in TRAP}, 0.8, E={"B": 1, "C": 1})
        got = self.check_example(TRAP, exp, 1e-6, ("--damping", "0.8", "--personalize", "B",
                                                   "--personalize", "C"), ref=ref)
        # B and C rise versus 2.5
        self.assertGreater(got["B"], 0.070896)
        self.assertGreater(got["C"], 0.099254)

    # -- 2.7 ------------------------------------------------------------------------------------
    def test_2_7_paper_figure_3(self):
        exp = {"A": 0.4, "B": 0.2, "C": 0.4}
        self.check_example(FIG3, exp, 1e-12, ("--damping", "1"), ref=exp)

    # -- 2.9 ------------------------------------------------------------------------------------
    def test_2_9_networkx_custom_dangling(self):
        exp = {1: 0.10844518, 2: 0.18618601, 3: 0.0710892, 4: 0.2683668, 5: 0.15919783,
               6: 0.20671497}
        ref = reference_pagerank([str(i) for i in range(1, 7)],
                                 {(str(u), str(v)): 1.0 for u, v in NX_TEST}, 0.85,
                                 W={"1": 2, "2": 3})
        self.check_example(NX_TEST, exp, 1e-6,
                           ("--damping", "0.85", "--dangling-weights", "dw.tsv"),
                           files={"dw.tsv": "1\t2\n2\t3\n"}, methods=NO_PAPER, ref=ref)

    def test_2_9_networkx_personalization_weights(self):
        exp = {0: 0.232467, 1: 0.232467, 2: 0.267533, 3: 0.267533}
        exact = {"0": 179 / 770, "1": 179 / 770, "2": 206 / 770, "3": 206 / 770}
        self.check_example(K4, exp, 1e-6, ("--damping", "0.85", "--source", "e.tsv"),
                           files={"e.tsv": "0\t1\n1\t1\n2\t4\n3\t4\n"}, ref=exact)

    def test_2_9_networkx_personalization_single(self):
        exp = {0: 0.220779, 1: 0.220779, 2: 0.220779, 3: 0.337662}
        exact = {"0": 17 / 77, "1": 17 / 77, "2": 17 / 77, "3": 26 / 77}
        # explicit zeros for the other pages must be accepted and mean "no rank source"
        self.check_example(K4, exp, 1e-6, ("--damping", "0.85", "--source", "e.tsv"),
                           files={"e.tsv": "0\t0\n3\t1\n1\t0\n"}, ref=exact)

    def test_2_9_igraph_weighted(self):
        exp = {0: 0.143734, 1: 0.104639, 2: 0.045995, 3: 0.045995, 4: 0.155268, 5: 0.257112,
               6: 0.045995, 7: 0.155268, 8: 0.045995}
        ref = reference_pagerank([str(i) for i in range(9)],
                                 {(str(u), str(v)): w for u, v, w in IGRAPH_W}, 0.85)
        self.check_example([(u, v) for u, v, w in IGRAPH_W], exp, 1e-6, ("--damping", "0.85"),
                           weights=[w for u, v, w in IGRAPH_W], build_flags=("--weighted",),
                           ref=ref)

    def test_2_9_igraph_isolated_pages(self):
        exp = {0: 0.1, 1: 0.2, 2: 0.3, 3: 0.4}
        # no links at all: every page is dangling and its rank follows E, so R = E exactly
        self.check_example([], exp, 1e-12, ("--damping", "0.85", "--source", "e.tsv"),
                           isolated=[0, 1, 2, 3], files={"e.tsv": "0\t1\n1\t2\n2\t3\n3\t4\n"},
                           ref=exp)

    def test_2_9_igraph_one_link_two_isolated_directed(self):
        # SPEC 2.9 states 0.36036, 0.38038, 0.111111, 0.148148 for "one link 0->1 plus two
        # isolated pages".  Those figures are igraph's test for an UNDIRECTED edge 0-1
        # (igraph's personalized_pagerank(directed=False)), i.e. links 0->1 AND 1->0; see
        # test_2_9_igraph_one_link_two_isolated_undirected.  For the directed link 0->1 with
        # dangling rank following E the exact result is (20, 57, 60, 80)/217 (also what
        # igraph 0.10 PRPACK and NetworkX give for the directed graph).
        exact = {"0": 20 / 217, "1": 57 / 217, "2": 60 / 217, "3": 80 / 217}
        self.check_example([(0, 1)], exact, 1e-12,
                           ("--damping", "0.85", "--source", "e.tsv"), isolated=[2, 3],
                           files={"e.tsv": "0\t1\n1\t2\n2\t3\n3\t4\n"}, ref=exact)

    def test_2_9_igraph_one_link_two_isolated_undirected(self):
        exp = {0: 0.36036, 1: 0.38038, 2: 0.111111, 3: 0.148148}
        exact = {"0": 360 / 999, "1": 380 / 999, "2": 111 / 999, "3": 148 / 999}
        self.check_example([(0, 1), (1, 0)], exp, 1e-6,
                           ("--damping", "0.85", "--source", "e.tsv"), isolated=[2, 3],
                           files={"e.tsv": "0\t1\n1\t2\n2\t3\n3\t4\n"}, ref=exact)

    def test_2_9_mmds_spider_trap(self):
        exact = {"y": 7 / 33, "a": 5 / 33, "m": 21 / 33}
        self.check_example(MMDS_TRAP, exact, 1e-12, ("--damping", "0.8"), ref=exact)

    def test_2_9_mmds_topic_sensitive(self):
        exact = {"A": 54 / 210, "B": 59 / 210, "C": 38 / 210, "D": 59 / 210}
        self.check_example(MMDS_TOPIC, exact, 1e-12,
                           ("--damping", "0.8", "--personalize", "B", "--personalize", "D"),
                           ref=exact)

    def test_2_9_mmds_topic_sensitive_as_source_file(self):
        # the same E given as a --source file with unequal but proportional weights
        exact = {"A": 54 / 210, "B": 59 / 210, "C": 38 / 210, "D": 59 / 210}
        self.check_example(MMDS_TOPIC, exact, 1e-12, ("--damping", "0.8", "--source", "e.tsv"),
                           files={"e.tsv": "B\t0.25\nD\t0.25\n"}, ref=exact)

    # -- 2.8 spam farm --------------------------------------------------------------------------
    def test_2_8_spam_farm(self):
        """A random base web of N pages (no dangling pages, uniform E, d = 0.8), 5% of them
        also linking to a target T; T links to m supporters, each linking only to T.

        x = d * sum over base pages v linking to T of R(v)/L(v) (the rank the accessible pages
        send to T), beta = 1 - d.  SPEC 1.8: R(T) ~ y = x / (2 beta - beta^2), neglecting the
        beta/N terms.  Exactly (no dangling pages, Nt = N + m + 1 pages):
            R(T) = x/(2beta - beta^2) + (1 + d m) / (Nt (2 - beta)),
        so the relative error (R(T) - y)/R(T) is positive and shrinks as N grows for fixed m."""
        d, beta = 0.8, 0.2
        for m in (10, 100):
            errs = []
            for N in (1000, 4000, 16000):
                with self.subTest(m=m, N=N):
                    rng = random.Random(1000 * N + m)
                    links = []
                    outdeg = {}
                    base = ["p%d" % i for i in range(N)]
                    for i in range(N):
                        targets = rng.sample(range(N), rng.randint(3, 12))
                        for j in targets:
                            links.append((base[i], base[j]))
                        outdeg[base[i]] = len(targets)
                    accessible = rng.sample(range(N), N // 20)
                    for i in accessible:
                        links.append((base[i], "T"))
                        outdeg[base[i]] += 1
                    for k in range(m):
                        links.append(("T", "S%d" % k))
                        links.append(("S%d" % k, "T"))
                    rng.shuffle(links)
                    name = "farm-%d-%d.tsv" % (N, m)
                    self.write(name, lines_of(links))
                    db = "farm-%d-%d.db" % (N, m)
                    self.build(name, db=db)
                    rows, R = self.rank(db, "--damping", "0.8", "--tol", "1e-13",
                                        "--max-iter", "100000", out=db + ".tsv")
                    Nt = N + m + 1
                    self.assertEqual(len(R), Nt)
                    x = d * sum(R[base[i]] / outdeg[base[i]] for i in accessible)
                    y = x / (2 * beta - beta ** 2)
                    exact = y + (1 + d * m) / (Nt * (2 - beta))
                    self.assertGreater(R["T"], y)
                    self.assertAlmostEqual(R["T"] / exact, 1.0, delta=1e-9,
                                           msg="R(T)=%.17g, exact formula %.17g" % (R["T"], exact))
                    errs.append((R["T"] - y) / R["T"])
            if len(errs) == 3:
                self.assertTrue(errs[0] > errs[1] > errs[2],
                                "relative error must shrink as N grows (m=%d): %r" % (m, errs))
                if m == 10:
                    self.assertLess(errs[-1], 0.05, errs)


if __name__ == "__main__":
    wrcli.main()
