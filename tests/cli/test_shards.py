"""A sharded index (docs/search.md, "A sharded index"): `index --shard I/N --output FILE` and
`search`/`eval`/`serve --shards LIST`.

A generated text web (2,000 pages, with sites whose pages share chrome) is indexed whole and as
shards built from the same database, and every query of a set (in full, text and title mode, with
phrases, OR, site:, a second page of results) must give the same top 10 through the shards as
through the whole index: the same pages in the same order, scores within 1e-9, the same
snippets. Local shards (a stub of two files, and of three), two xapian-tcpsrv servers on
127.0.0.1 and 127.0.0.2 (skipped when xapian-tools is not installed), and the server's JSON API.
Every refusal names the shard: out of order, of another database, missing, unreachable.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402

MODES = ("full", "text", "title")


def queries_of(db_titles):
    """Queries made of the test web's titles: the first word, the first two, a phrase."""
    out = []
    for title in db_titles:
        words = [w for w in title.lower().split() if w.isalpha()]
        if len(words) >= 2:
            out += [words[0], " ".join(words[:2]), '"%s %s"' % (words[0], words[1])]
    return out


def free_port(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_for_port(host, port, proc, deadline=30.0):
    """Returns once `host:port` accepts a connection; fails when the server exits first."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError("xapian-tcpsrv on %s:%d exited: %s"
                                 % (host, port, proc.stdout.read()))
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            # Not listening yet: wait for the process (a bounded wait on its exit, not a sleep).
            try:
                proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
    raise AssertionError("xapian-tcpsrv on %s:%d did not accept in %.0f s" % (host, port, deadline))


class ShardedWeb(wrcli.WebrankTestCase):
    """One web, indexed whole and in shards, searched both ways."""

    @classmethod
    def setUpClass(cls):
        import tempfile
        cls._cls_tmp = tempfile.TemporaryDirectory(prefix="webrank-shards-")
        cls.root = cls._cls_tmp.name

        def wr(*args):
            res = wrcli.run_webrank(args, cwd=cls.root)
            if res.rc != 0:
                raise AssertionError(res.describe())
            return res

        wr("generate", "--text", "--pages", "2000", "--links", "12000", "-o", "w.warc")
        wr("import", "w.warc", "-o", "w.db", "-q")  # indexes the whole web
        wr("rank", "w.db", "-q")
        for n in (2, 3):
            for i in range(n):
                wr("index", "w.db", "--shard", "%d/%d" % (i, n), "--output",
                   "s%d-of-%d.xapian" % (i, n), "-q")
            with open(os.path.join(cls.root, "local%d.shards" % n), "w") as f:
                f.write("# the shards of w.db, in order\n")
                f.writelines("auto s%d-of-%d.xapian\n" % (i, n) for i in range(n))
        hits = json.loads(wr("search", "w.db", "site:host1.example", "-k", "40", "--json").out)
        cls.queries = queries_of([h["title"] for h in hits["hits"] if h.get("title")])[:24]
        cls.queries += ["site:host2.example", "%s OR %s" % (cls.queries[0], cls.queries[3])]
        assert len(cls.queries) >= 20, cls.queries

    @classmethod
    def tearDownClass(cls):
        cls._cls_tmp.cleanup()

    def search(self, query, *extra, expect=0):
        res = self.wr("search", "w.db", query, "--json", *extra, expect=expect, cwd=self.root)
        return json.loads(res.out) if expect == 0 else res

    def assertSameHits(self, got, want, where):
        key = lambda r: [h["url"] for h in r["hits"]]  # noqa: E731
        self.assertEqual(key(got), key(want), where)
        for g, w in zip(got["hits"], want["hits"]):
            self.assertAlmostEqual(g["score"], w["score"], delta=1e-9, msg=where)
            self.assertEqual(g.get("snippet"), w.get("snippet"), where)

    def assertSameTop10(self, shards, queries=None):
        compared = 0
        for q in queries or self.queries:
            for mode in MODES:
                want = self.search(q, "--mode", mode)
                got = self.search(q, "--mode", mode, "--shards", shards)
                self.assertSameHits(got, want, "%s, %s mode" % (q, mode))
                compared += len(want["hits"])
        self.assertGreater(compared, 10 * len(queries or self.queries))
        # the second page
        q = self.queries[0]
        self.assertSameHits(self.search(q, "--offset", "10", "--shards", shards),
                            self.search(q, "--offset", "10"), q + ", offset 10")

    def test_two_local_shards_give_the_same_top_10(self):
        self.assertSameTop10("local2.shards")

    def test_three_local_shards_give_the_same_top_10(self):
        self.assertSameTop10("local3.shards")

    def test_refusals_name_the_shard(self):
        # out of order
        with open(os.path.join(self.root, "swapped.shards"), "w") as f:
            f.write("auto s1-of-2.xapian\nauto s0-of-2.xapian\n")
        res = self.search("roses", "--shards", "swapped.shards", expect=1)
        self.assertIn("shard 0 (auto s1-of-2.xapian) of swapped.shards: holds shard 1/2", res.err)
        # one missing
        with open(os.path.join(self.root, "missing.shards"), "w") as f:
            f.write("auto s0-of-2.xapian\nauto nowhere.xapian\n")
        res = self.search("roses", "--shards", "missing.shards", expect=1)
        self.assertIn("shard 1 (auto nowhere.xapian) of missing.shards", res.err)
        self.assertIn("no such file", res.err)
        # a shard of another database
        other = os.path.join(self.root, "other.db")
        if not os.path.exists(other):
            self.wr("generate", "--text", "--pages", "300", "--links", "1000", "-o", "o.warc",
                    cwd=self.root)
            self.wr("import", "o.warc", "-o", "other.db", "-q", "--no-index", cwd=self.root)
            self.wr("index", "other.db", "--shard", "1/2", "--output", "o1.xapian", "-q",
                    cwd=self.root)
        with open(os.path.join(self.root, "mixed.shards"), "w") as f:
            f.write("auto s0-of-2.xapian\nauto o1.xapian\n")
        res = self.search("roses", "--shards", "mixed.shards", expect=1)
        self.assertIn("shard 1 (auto o1.xapian) of mixed.shards: built for another database",
                      res.err)
        # unreachable
        port = free_port("127.0.0.1")
        with open(os.path.join(self.root, "down.shards"), "w") as f:
            f.write("auto s0-of-2.xapian\nremote 127.0.0.1:%d\n" % port)
        res = self.search("roses", "--shards", "down.shards", expect=1)
        self.assertIn("shard 1 (remote 127.0.0.1:%d) of down.shards: unreachable" % port, res.err)
        # not a shard list
        with open(os.path.join(self.root, "bad.shards"), "w") as f:
            f.write("tcp 127.0.0.1 4000\n")
        res = self.search("roses", "--shards", "bad.shards", expect=1)
        self.assertIn("bad.shards:1: unknown kind 'tcp'", res.err)
        # a shard must not replace the database's index
        res = self.wr("index", "w.db", "--shard", "0/2", expect=2, cwd=self.root)
        self.assertIn("--output", res.err)

    def test_serve_searches_the_shards(self):
        import test_serve
        server = test_serve.Server("w.db", "--shards", "local2.shards", cwd=self.root)
        try:
            for q in self.queries[:6]:
                for mode in MODES:
                    want = self.search(q, "--mode", mode)
                    status, got = server.json("/api/v1/search?" + urllib.parse.urlencode(
                        {"q": q, "mode": mode}))
                    self.assertEqual(status, 200, got)
                    self.assertEqual([h["url"] for h in got["hits"]],
                                     [h["url"] for h in want["hits"]], q)
        finally:
            server.stop()

    @unittest.skipUnless(shutil.which("xapian-tcpsrv"),
                         "xapian-tcpsrv is not installed (Debian's xapian-tools: "
                         "scripts/install-deps.sh installs it)")
    def test_two_remote_hosts_give_the_same_top_10(self):
        servers = []
        try:
            lines = []
            for i, host in enumerate(("127.0.0.1", "127.0.0.2")):
                port = free_port(host)
                proc = subprocess.Popen(
                    [shutil.which("xapian-tcpsrv"), "--quiet", "--interface", host, "--port",
                     str(port), os.path.join(self.root, "s%d-of-2.xapian" % i)],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                    # xapian-tcpsrv stops on SIGTERM by sending it to its process group (its
                    # connections' children): a group of its own, not the test's.
                    start_new_session=True)
                servers.append(proc)
                wait_for_port(host, port, proc)
                lines.append("remote %s:%d\n" % (host, port))
            with open(os.path.join(self.root, "remote.shards"), "w") as f:
                f.writelines(lines)
            self.assertSameTop10("remote.shards", self.queries[:12] + self.queries[-2:])
            # a host that stops answering is named
            os.kill(servers[1].pid, signal.SIGTERM)
            servers[1].wait(timeout=20)
            res = self.search(self.queries[0], "--shards", "remote.shards", expect=1)
            self.assertIn("shard 1 (%s) of remote.shards: unreachable" % lines[1].strip(),
                          res.err)
        finally:
            for proc in servers:
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=20)
                proc.stdout.close()


if __name__ == "__main__":
    wrcli.main()
