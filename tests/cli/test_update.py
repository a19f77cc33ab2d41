#!/usr/bin/python3
"""`webrank update DB --add FILE --remove FILE` and `webrank rank --warm-start NAME`.

An update gives the web a rebuild of the edited edge list gives (same pages, links, weights and
ranks to 1e-12, compared by label), with the kept pages in their old order and the new ones
after; stored vectors are carried over, stale, and a warm start from them reaches the cold
start's vector in fewer iterations, reported; --warm-start-db maps a vector of another database
by label; page data of crawled webs is carried; bad input fails with FILE:LINE and leaves the
database as it was; kill -9 during an update leaves the database and its vectors intact.

Run:  /usr/bin/python3 tests/cli/test_update.py --webrank build/webrank [-v]
"""

import json
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402


def random_links(rnd, n, m, weighted=False):
    links = {}
    for i in range(m):
        u, v = "p%d" % rnd.randrange(n), "p%d" % rnd.randrange(n * 9 // 10)
        if i % 50 == 0:
            v = u  # self-links
        w = rnd.randint(1, 4) if weighted else 1
        links[(u, v)] = links.get((u, v), 0) + w
    return links


def edge_text(links, weighted=False, pages=()):
    lines = [p for p in pages]
    lines += ["%s\t%s" % k + ("\t%d" % w if weighted else "") for k, w in links.items()]
    return "\n".join(lines) + "\n"


class Update(WebrankTestCase):
    def links_of(self, db, weighted=False):
        """The web as {(source, target): weight} and the page labels in id order."""
        out = self.wr("export", db, "--links").out
        links = {}
        for line in out.splitlines():
            s, t = line.split("\t")[:2]
            links[(s, t)] = 1
        if weighted:
            # Weights are not exported: read them from the sections directly.
            labels = self.labels(db)
            off = np.fromfile(os.path.join(db, "fwd.offsets"), dtype=np.uint64, offset=64,
                              count=len(labels) + 1)
            tgt = np.fromfile(os.path.join(db, "fwd.targets"), dtype=np.uint32, offset=64,
                              count=int(off[-1]))
            wts = np.fromfile(os.path.join(db, "fwd.weights"), dtype=np.float64, offset=64,
                              count=int(off[-1]))
            links = {}
            for u in range(len(labels)):
                for k in range(int(off[u]), int(off[u + 1])):
                    links[(labels[u], labels[int(tgt[k])])] = float(wts[k])
        return links

    def labels(self, db):
        self.wr("rank", db, "--name", "labels-probe", "--max-iter", "1", "--out", "probe.tsv",
                "-q", expect=(0, 3))
        with open(self.path("probe.tsv")) as f:
            return [line.split("\t")[0] for line in f.read().splitlines()]

    def test_update_equals_rebuild(self):
        rnd = random.Random(7)
        # With pages removed (ids renumbered) and without (untouched lists copied whole).
        for weighted, removed_pages in ((False, ["p5", "p77", "lonely"]), (True, ["p5"]),
                                        (False, []), (True, [])):
            links = random_links(rnd, 300, 2500, weighted)
            pages = ["p%d" % i for i in range(300)] + ["lonely"]
            self.write("web.tsv", edge_text(links, weighted, pages))
            extra = ("--weighted",) if weighted else ()
            self.build("web.tsv", "u.db", extra=extra + ("--force",))
            # Removals: links (some absent), pages; additions: links, new pages, a page again.
            items = list(links)
            gone = rnd.sample(items, 60)
            remove = ["%s\t%s" % k for k in gone] + ["p1\tnowhere", "ghost"] + removed_pages
            add = []
            for _ in range(80):
                u = rnd.choice(["p%d" % rnd.randrange(300), "new%d" % rnd.randrange(20)])
                v = rnd.choice(["p%d" % rnd.randrange(300), "new%d" % rnd.randrange(20)])
                add.append((u, v, rnd.randint(1, 3) if weighted else 1))
            add.append(("p77", "p3", 2 if weighted else 1))  # a removed page again: a new page
            add.append(items[0] + (5 if weighted else 1,))  # an existing link (weight grows)
            self.write("rm.tsv", "\n".join(remove) + "\n")
            self.write("add.tsv", "\n".join("%s\t%s" % (u, v) + ("\t%d" % w if weighted else "")
                                            for u, v, w in add) + "\nsolo\n")
            res = self.wr("update", "u.db", "--remove", "rm.tsv", "--add", "add.tsv", "--json")
            report = json.loads(res.out)
            self.assertEqual(report["removals_not_found"], 2)

            # The expected web, by the documented rules.
            want = {k: w for k, w in links.items() if k not in set(gone)}
            want = {k: w for k, w in want.items()
                    if k[0] not in removed_pages and k[1] not in removed_pages}
            for u, v, w in add:
                want[(u, v)] = want.get((u, v), 0) + w
            want_pages = [p for p in pages if p not in removed_pages]
            for u, v, _ in add:
                for x in (u, v):
                    if x not in want_pages:
                        want_pages.append(x)
            want_pages.append("solo")
            self.assertEqual(self.labels("u.db"), want_pages)
            got = self.links_of(self.path("u.db"), weighted)
            if not weighted:
                want = {k: 1 for k in want}
            self.assertEqual(got, want)
            self.assertEqual(report["pages"], len(want_pages))
            self.assertEqual(report["links"], len(want))

            # The rebuild of the edited edge list ranks the same.
            self.write("edited.tsv", edge_text(want, weighted, want_pages))
            self.build("edited.tsv", "r.db", extra=extra + ("--force",))
            _, a = self.rank("u.db", "--name", "x", out="a.tsv")
            _, b = self.rank("r.db", "--name", "x", out="b.tsv")
            self.assertRanksClose(a, b, 1e-12)
            self.wr("check", "u.db")
            info = [json.loads(self.wr("info", d, "--json").out) for d in ("u.db", "r.db")]
            for key in ("pages", "links", "dangling_pages", "self_links", "isolated_pages"):
                self.assertEqual(info[0][key], info[1][key], key)

    def test_stale_vectors_and_warm_start(self):
        rnd = random.Random(3)
        links = random_links(rnd, 3000, 30000)
        self.write("web.tsv", edge_text(links))
        self.build("web.tsv", "w.db")
        self.wr("rank", "w.db", "-q")
        self.wr("rank", "w.db", "--name", "gs", "--method", "gauss-seidel", "-q")
        items = list(links)
        self.write("rm.tsv", "\n".join("%s\t%s" % k for k in rnd.sample(items, 300)) + "\n")
        self.write("add.tsv", "\n".join("p%d\tp%d" % (rnd.randrange(3100), rnd.randrange(3000))
                                        for _ in range(300)) + "\n")
        res = self.wr("update", "w.db", "--remove", "rm.tsv", "--add", "add.tsv")
        self.assertIn("pagerank", res.err)
        with open(self.path("w.db/ranks/pagerank.json")) as f:
            meta = json.load(f)
        self.assertIn("stale", meta)
        # stale: not this web's vector, and said so (not "outside its tolerance")
        res = self.wr("check", "w.db", "--ranks", "pagerank", expect=1)
        self.assertIn("rank vector 'pagerank' is stale: computed before an update", res.err)
        self.assertNotIn("tolerance", res.out + res.err)
        verdict = json.loads(self.wr("check", "w.db", "--ranks", "pagerank", "--json",
                                     expect=1).out)[0]
        self.assertEqual((verdict["checkable"], verdict["stale"]), (False, True), verdict)
        # a plain check (checksums: intact, exit 0) still says the vector is stale
        res = self.wr("check", "w.db")
        self.assertIn("warning: rank vector 'pagerank' is stale: computed before an update", res.err)
        # every reader of the vector says so
        for args in (("top", "w.db", "-k", "3"), ("page", "w.db", "p1"),
                     ("backlinks", "w.db", "p1"), ("links", "w.db", "p1")):
            self.assertIn("rank vector 'pagerank' is stale: computed before an update",
                          self.wr(*args).err, args)
        listed = {r["name"]: r for r in json.loads(self.wr("ranks", "w.db", "--json").out)}
        self.assertTrue(listed["pagerank"]["stale"])
        self.assertIn("stale", self.wr("ranks", "w.db").out)

        res = self.wr("rank", "w.db", "--warm-start", "pagerank", "--name", "warm")
        self.assertIn("iterations saved", res.err)
        self.wr("rank", "w.db", "--name", "cold", "-q")
        with open(self.path("w.db/ranks/warm.json")) as f:
            warm = json.load(f)
        with open(self.path("w.db/ranks/cold.json")) as f:
            cold = json.load(f)
        self.assertLess(warm["iterations"], cold["iterations"])
        self.assertEqual(warm["warm_start"]["from"], "pagerank")
        self.assertEqual(warm["warm_start"]["cold_iterations"], meta["iterations"])
        self.assertEqual(warm["warm_start"]["iterations_saved"],
                         meta["iterations"] - warm["iterations"])
        x, y = wrcli.stored_vector(self.path("w.db"), "warm"), wrcli.stored_vector(
            self.path("w.db"), "cold")
        self.assertLess(float(np.abs(x - y).sum()), 2 * 0.85 / 0.15 * 1e-10)
        self.wr("check", "w.db", "--ranks", "warm")
        # gauss-seidel warm-started, and a warm start's warm start keeps the cold count.
        self.wr("rank", "w.db", "--warm-start", "gs", "--method", "gauss-seidel", "--name",
                "gs2", "-q")
        self.wr("rank", "w.db", "--warm-start", "warm", "--name", "warm2", "-q")
        with open(self.path("w.db/ranks/warm2.json")) as f:
            self.assertEqual(json.load(f)["warm_start"]["cold_iterations"], meta["iterations"])
        # Another database, by label: a rebuild with its pages in another order.
        self.write("rev.tsv", "\n".join(reversed(self.wr("export", "w.db").out.splitlines()))
                   + "\n")
        self.build("rev.tsv", "rev.db")
        self.wr("rank", "rev.db", "--name", "cold", "-q")
        res = self.wr("rank", "rev.db", "--warm-start", "cold", "--warm-start-db", "w.db",
                      "--name", "from-w")
        with open(self.path("rev.db/ranks/from-w.json")) as f:
            fw = json.load(f)
        self.assertLessEqual(fw["iterations"], 3)
        self.wr("rank", "rev.db", "--warm-start", "nope", expect=1)
        self.wr("rank", "rev.db", "--warm-start-db", "w.db", expect=2)

    def test_page_data_is_carried(self):
        site = self.path("site")
        os.makedirs(site)
        for i in range(4):
            nxt = (i + 1) % 4
            self.write("site/p%d.html" % i,
                       "<title>Page %d</title><a href='p%d.html'>next</a> text %d" % (i, nxt, i))
        self.wr("import", site, "--format", "html-dir", "-o", "c.db")
        labels = self.labels("c.db")
        self.write("rm.tsv", labels[3] + "\n")
        self.write("add.tsv", "%s\thttp://example.org/\n" % labels[0])
        self.wr("update", "c.db", "--remove", "rm.tsv", "--add", "add.tsv")
        rows = [line.split("\t") for line in
                self.wr("export", "c.db", "--pages").out.splitlines()[1:]]
        titles = {r[0]: r[2] for r in rows}
        self.assertEqual(titles[labels[0]], "Page 0")
        self.assertEqual(titles[labels[2]], "Page 2")
        self.assertNotIn(labels[3], titles)
        self.assertEqual([r[1] for r in rows if r[0] == "http://example.org/"], ["0"])
        self.wr("check", "c.db")

    def test_the_search_index_is_published_with_the_new_version(self):
        """The index is rebuilt inside the new version before it replaces the old, so
        that the database is never seen without it (polled while updates run), the command says
        so, its JSON has the index's report; --no-index publishes without one."""
        import threading
        site = self.path("site")
        os.makedirs(site)
        for i in range(60):
            self.write("site/p%d.html" % i, "<title>Page %d</title><a href='p%d.html'>next</a> "
                       "<a href='p%d.html'>skip</a> words of page %d " % (i, (i + 1) % 60,
                                                                          (i * 7) % 60, i) * 20)
        self.wr("import", site, "--format", "html-dir", "-o", "s.db", "-q")
        labels = self.labels("s.db")
        index = self.path("s.db/search.xapian")
        self.assertTrue(os.path.exists(index))
        missing, done = [], threading.Event()

        def poll():
            while not done.is_set():
                if not os.path.exists(index):
                    missing.append(time.monotonic())

        t = threading.Thread(target=poll)
        t.start()
        try:
            for i in range(8):
                self.write("add.tsv", "%s\thttp://example.org/new%d\n" % (labels[i], i))
                res = self.wr("update", "s.db", "--add", "add.tsv", "--json")
        finally:
            done.set()
            t.join()
        self.assertEqual(len(missing), 0, "the database was seen without its search index")
        report = json.loads(res.out)
        self.assertEqual(report["index"]["pages"], len(labels) + 8)
        self.assertEqual(report["index"]["documents"], len(labels))  # the new pages: no text
        hits = self.wr("search", "s.db", "page 17", "--format", "json").out
        self.assertIn([l for l in labels if l.endswith("/p17.html")][0],
                      [h["url"] for h in json.loads(hits)["hits"]])
        self.write("add.tsv", "%s\thttp://example.org/said\n" % labels[1])
        res = self.wr("update", "s.db", "--add", "add.tsv")
        self.assertIn("published with its index in one step", res.err)
        self.wr("check", "s.db")

        self.write("add.tsv", "%s\thttp://example.org/last\n" % labels[0])
        res = self.wr("update", "s.db", "--add", "add.tsv", "--no-index", "--json")
        self.assertIsNone(json.loads(res.out)["index"])
        self.assertFalse(os.path.exists(index))
        res = self.wr("search", "s.db", "page", expect=1)
        self.assertIn("webrank index", res.err)
        # A database without an index stays without one, and says so.
        res = self.wr("update", "s.db", "--add", "add.tsv")
        self.assertIn("had no search index", res.err)
        self.assertFalse(os.path.exists(index))

    def test_errors_leave_the_database_as_it_was(self):
        self.write("web.tsv", "a\tb\nb\tc\n")
        self.build("web.tsv", "e.db")
        self.wr("rank", "e.db", "-q")
        before = wrcli.snapshot(self.path("e.db"))
        self.write("bad.tsv", "a\tb\nx\ty\tz\tw\n")
        res = self.wr("update", "e.db", "--add", "bad.tsv", expect=1)
        self.assertIn("bad.tsv:2", res.err)
        res = self.wr("update", "e.db", "--add", "missing.tsv", expect=1)
        self.assertIn("missing.tsv", res.err)
        self.wr("update", "e.db", expect=2)
        self.write("all.tsv", "a\nb\nc\n")
        res = self.wr("update", "e.db", "--remove", "all.tsv", expect=2)
        self.assertIn("every page", res.err)
        self.assertEqual(wrcli.snapshot(self.path("e.db")), before)
        self.assertEqual([n for n in os.listdir(self.dir) if "webrank-tmp" in n], [])

    def test_kill_during_update_keeps_everything(self):
        self.wr("generate", "--model", "web", "--pages", "60000", "--links", "2000000", "--seed",
                "4", "-o", "big.tsv")
        self.build("big.tsv", "k.db")
        self.wr("rank", "k.db", "--max-iter", "3", "-q", expect=3)
        self.write("add.tsv", "x\ty\n")
        before = wrcli.snapshot(self.path("k.db"))
        argv = [wrcli.WEBRANK, "update", self.path("k.db"), "--add", self.path("add.tsv"),
                "--progress", "json", "--no-verify"]
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for line in p.stderr:
                if b'"links"' in line:
                    break
            p.send_signal(signal.SIGKILL)
        finally:
            p.wait()
            p.stderr.close()
        self.assertEqual(p.returncode, -signal.SIGKILL, "the update ended before the kill")
        self.assertEqual(wrcli.snapshot(self.path("k.db")), before)
        self.wr("check", "k.db")
        # The next update of the same database removes what the killed one left.
        self.wr("update", "k.db", "--add", "add.tsv", "-q")
        self.assertEqual([n for n in os.listdir(self.dir) if "webrank-tmp" in n], [])


if __name__ == "__main__":
    wrcli.main()
