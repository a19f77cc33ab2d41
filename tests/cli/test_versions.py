#!/usr/bin/python3
"""Versions of one database, files that are not files, and numbers at the edges
(docs/format.md, "Versions"; docs/hardening.md).

Run:  /usr/bin/python3 tests/cli/test_versions.py --webrank build/webrank [-v] [-k NAME]

- A vector computed on one version of a database is never stored into another: `rank` reading
  its rank source from a pipe (so that it has opened the database and waits) while `update`
  swaps in a new version fails with exit 4 and stores nothing; a vector of another version found
  in a database is refused by every reader.
- A FIFO in place of a database file (the manifest, a section, the stored HTML, the label index,
  a vector's record) is refused at once by info, top, page and check, naming the file.
- Rank sources whose weights are finite but whose sum is not (1e308 + 1e308) are normalized
  right, and `check --ranks` checks a vector's sum.
Nothing here sleeps: every wait is on a pipe or a process.
"""

import json
import os
import subprocess
import sys
import threading
import unittest

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

EXIT_CONFLICT = 4
LIMIT = 30  # seconds a refusal may take before it counts as a hang


def write_site(root):
    """A small site of static pages for a file:// crawl (page data and stored HTML)."""
    os.makedirs(root, exist_ok=True)
    pages = ["index.html", "a.html", "b.html", "c.html"]
    for i, p in enumerate(pages):
        links = "".join('<a href="%s">%s</a> ' % (t, t) for t in pages if t != p)
        with open(os.path.join(root, p), "w") as f:
            f.write("<html><head><title>Page %d</title></head><body><p>words %d</p>%s"
                    "</body></html>" % (i, i, links))


class NotFiles(WebrankTestCase):
    """A FIFO in place of a database file is refused, not waited on."""

    def setUp(self):
        super().setUp()
        write_site(self.path("site"))
        self.wr("crawl", "file://" + self.path("site") + "/index.html", "-o", "c.db", "-q")
        self.wr("rank", "c.db", "-q")
        self.url = "file://" + self.path("site") + "/a.html"

    def run_bounded(self, *args):
        try:
            proc = subprocess.run([wrcli.WEBRANK] + list(args), cwd=self.dir,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, timeout=LIMIT)
        except subprocess.TimeoutExpired:
            self.fail("webrank %s hung on a FIFO (no answer in %d s)" % (" ".join(args), LIMIT))
        return wrcli.Result(["webrank"] + list(args), proc)

    def check_refused(self, name):
        path = self.path(os.path.join("c.db", name))
        os.rename(path, path + ".real")
        os.mkfifo(path)
        try:
            for args in (["info", "c.db"], ["top", "c.db"], ["page", "c.db", self.url],
                         ["check", "c.db"]):
                res = self.run_bounded(*args)
                d = res.describe()
                self.assertFalse(wrcli.crashed(res.rc), d)
                # `page` shows each vector's rank, or why it cannot: a vector is flagged there.
                flagged = args[0] == "page" and name.startswith("ranks/")
                said = res.out if flagged else res.err
                self.assertEqual(res.rc, 0 if flagged else 1, d)
                self.assertIn(name.split("/")[-1], said, d)
                self.assertIn("FIFO", said, d)
        finally:
            os.unlink(path)
            os.rename(path + ".real", path)
        self.wr("check", "c.db")  # the real file back: all is well again

    def test_manifest(self):
        self.check_refused("manifest.json")

    def test_a_section(self):
        self.check_refused("fwd.targets")

    def test_the_label_index(self):
        self.check_refused("labels.index")

    def test_the_stored_html(self):
        self.check_refused("pages.html.bytes")

    def test_a_vectors_record(self):
        self.check_refused("ranks/pagerank.json")


class Versions(WebrankTestCase):
    """A vector is stored into the version of the database it was computed on, or not at all."""

    def setUp(self):
        super().setUp()
        self.write("web.tsv", "a\tb\nb\tc\nc\ta\nc\td\n")
        self.build("web.tsv", "w.db")
        self.wr("rank", "w.db", "-q")

    def rank_waiting_on_a_pipe(self, *extra):
        """`webrank rank w.db --source PIPE`: it opens the database, then waits for its rank
        source. Returns the process and the pipe's path."""
        pipe = self.path("source.fifo")
        os.mkfifo(pipe)
        proc = subprocess.Popen([wrcli.WEBRANK, "rank", "w.db", "--source", pipe, "-q", *extra],
                                cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return proc, pipe

    def test_rank_during_an_update_stores_nothing_and_says_so(self):
        # Removes b and adds e: the same number of pages, other pages behind the same ids.
        before = wrcli.stored_vector(self.path("w.db"), "pagerank")
        proc, pipe = self.rank_waiting_on_a_pipe("--name", "raced")
        opened = threading.Event()

        def feed():
            with open(pipe, "w") as f:  # returns once rank has opened its source
                opened.set()
                self.updated.wait()
                f.write("a\t1\n")

        self.updated = threading.Event()
        feeder = threading.Thread(target=feed)
        feeder.start()
        opened.wait(wrcli.TIMEOUT)
        self.write("remove.tsv", "b\n")
        self.write("add.tsv", "a\te\n")
        self.wr("update", "w.db", "--remove", "remove.tsv", "--add", "add.tsv", "-q")
        self.updated.set()
        out, err = proc.communicate(timeout=wrcli.TIMEOUT)
        feeder.join()
        d = "exit %d\n%s%s" % (proc.returncode, out.decode(), err.decode())
        self.assertEqual(proc.returncode, EXIT_CONFLICT, d)
        self.assertIn("replaced by a new version while this ran", err.decode(), d)
        self.assertIn("the vector 'raced' was not stored", err.decode(), d)
        # The new version holds what update carried, whole; nothing of the raced rank.
        res = self.wr("check", "w.db", "--ranks", "pagerank", expect=(0, 1))
        self.assertNotIn("raced", self.wr("ranks", "w.db").out)
        info = json.loads(self.wr("info", "w.db", "--json").out)
        self.assertEqual(sorted(v["name"] for v in info["ranks"]), ["pagerank"], res.out)
        carried = wrcli.stored_vector(self.path("w.db"), "pagerank")
        self.assertEqual(len(carried), len(before))
        self.assertEqual([n for n in os.listdir(self.path("w.db/ranks")) if "webrank-tmp" in n],
                         [])

    def test_a_vector_of_another_version_is_refused_by_readers(self):
        self.write("other.tsv", "a\tb\nb\tc\nc\ta\nd\ta\n")  # as many pages, other links
        self.build("other.tsv", "o.db")
        os.makedirs(self.path("o.db/ranks"), exist_ok=True)
        for ext in (".ranks", ".json"):
            with open(self.path("w.db/ranks/pagerank" + ext), "rb") as src, \
                    open(self.path("o.db/ranks/pagerank" + ext), "wb") as dst:
                dst.write(src.read())
        for args in (["top", "o.db"], ["check", "o.db"], ["info", "o.db"]):
            res = self.wr(*args, expect=1)
            self.assertIn("pagerank.json: computed on another version of the database",
                          res.err, res.describe())


class Weights(WebrankTestCase):
    """Weights whose sum is not finite, and the sum of a stored vector."""

    def setUp(self):
        super().setUp()
        self.write("web.tsv", "a\tb\nb\tc\nc\ta\nc\td\nd\ta\n")
        self.build("web.tsv", "w.db")

    def test_a_source_whose_sum_overflows_is_normalized(self):
        self.write("huge.tsv", "a\t1e308\nb\t1e308\n")
        self.write("unit.tsv", "a\t1\nb\t1\n")
        _, huge = self.rank("w.db", "--source", "huge.tsv", "--name", "huge", "--tol", "1e-12",
                            out="huge.out")
        _, unit = self.rank("w.db", "--source", "unit.tsv", "--name", "unit", "--tol", "1e-12",
                            out="unit.out")
        self.assertAlmostEqual(sum(huge.values()), 1.0, places=9)
        self.assertRanksClose(huge, unit, 1e-12)
        res = self.wr("check", "w.db", "--ranks", "huge", "--json")
        verdict = json.loads(res.out)[0]
        self.assertTrue(verdict["ok"], res.out)
        self.assertAlmostEqual(verdict["sum"], 1.0, places=9)

    def test_check_reports_the_sum_it_checked(self):
        # A vector summing to 5e-10 with a small residual is made in the unit tests
        # (Weights.CheckFailsAVectorThatDoesNotSumToOne): webrank itself no longer writes one.
        self.wr("rank", "w.db", "-q", "--name", "pr")
        res = self.wr("check", "w.db", "--ranks", "pr", "--json")
        verdict = json.loads(res.out)[0]
        self.assertTrue(verdict["sum_checked"], res.out)
        self.assertTrue(verdict["sum_ok"], res.out)
        self.assertLess(abs(verdict["sum"] - 1), verdict["sum_allowed"], res.out)
        self.assertLess(verdict["sum_allowed"], 1e-6, res.out)
        # Leaking rank needs no sum of 1.
        self.wr("rank", "w.db", "-q", "--name", "leak", "--dangling", "leak")
        res = self.wr("check", "w.db", "--ranks", "leak", "--json")
        self.assertFalse(json.loads(res.out)[0]["sum_checked"], res.out)


if __name__ == "__main__":
    wrcli.main()
