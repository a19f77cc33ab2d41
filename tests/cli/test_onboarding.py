#!/usr/bin/python3
"""What a newcomer stumbles on: `compare` with long titles, `top` on a web of
many sites and on a host database, `trust`'s empty table, a port that cannot be had,
`usage --counts` naming pages outside the database; a page among its own backlinks, an `update`
whose added links were already there, words given where a command takes an option, `top`'s
titles on a wide terminal, and the progress line of a build's stages.

Run:  /usr/bin/python3 tests/cli/test_onboarding.py --webrank build/webrank [-v]
"""
import fcntl
import json
import os
import pty
import select
import struct
import termios
import shutil
import signal
import subprocess
import sys
import urllib.parse

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402


def long_title_site(root):
    """Pages whose titles are long, some not ASCII, linking in a ring and to a hub."""
    os.makedirs(root)
    titles = ["Chapter %d. A very long title about data definition, tables and constraints %s"
              % (i, "é" * (i % 5) + "—" * (i % 3)) for i in range(12)]
    titles[3] = "Short"
    for i, title in enumerate(titles):
        links = "".join("<a href='p%d.html'>x</a>" % j for j in ((i + 1) % 12, 0, (i * 5) % 12))
        with open(os.path.join(root, "p%d.html" % i), "w", encoding="utf-8") as f:
            f.write("<html><head><title>%s</title></head><body>%s</body></html>" % (title, links))


class Compare(wrcli.WebrankTestCase):
    def test_columns_stay_aligned_with_long_titles(self):
        long_title_site(self.path("site"))
        self.wr("import", self.path("site"), "-o", "t.db", "-q")
        self.wr("rank", "t.db", "-q")
        home = "file://" + self.path("site/p3.html")
        self.wr("rank", "t.db", "--personalize", home, "--name", "a-rather-long-view-name", "-q")
        out = self.wr("compare", "t.db", "--views", "pagerank,a-rather-long-view-name").out
        lines = out.splitlines()
        table = lines[:lines.index(next(l for l in lines if l.startswith("(percentile")))]
        self.assertGreater(len(table), 10)
        # Every row as wide as the header, and each percentile ends where its name ends.
        widths = {len(line) for line in table}
        self.assertEqual(len(widths), 1, "\n".join(table))
        header = table[0]
        ends = [header.index(name) + len(name) for name in ("pagerank", "a-rather-long-view-name")]
        for row in table[1:]:
            for end in ends:
                self.assertEqual(row[end - 1], "%", row)
        self.assertTrue(any("..." in row for row in table[1:]))


class Top(wrcli.WebrankTestCase):
    def test_many_sites_keep_their_hosts_whole(self):
        hosts = ["www.docs-%d.example.org" % i for i in range(6)]
        lines = []
        for i, h in enumerate(hosts):
            for j in range(5):
                page = "https://%s/manual/current/reference/section-%d/page-%d.html" % (h, j, j)
                lines.append("%s\thttps://%s/\n" % (page, hosts[(i + 1) % 6]))
                lines.append("https://%s/\t%s\n" % (h, page))
        self.write("web.tsv", "".join(lines))
        self.wr("build", "web.tsv", "-o", "w.db", "-q")
        self.wr("rank", "w.db", "-q")
        top = json.loads(self.wr("top", "w.db", "-k", "30", "--json").out)
        rows = self.wr("top", "w.db", "-k", "30").out.splitlines()[1:]
        self.assertEqual(len(rows), len(top))
        for row, page in zip(rows, top):
            self.assertLessEqual(len(row), 100, row)
            host = urllib.parse.urlsplit(page["label"]).hostname
            self.assertIn(host, row)
            if page["label"].endswith(".html"):  # both ends of the path: its last segment
                self.assertTrue(row.endswith(page["label"].rsplit("/", 1)[1]), row)

    def test_a_host_database_without_ranks_option(self):
        self.wr("generate", "--model", "web", "--pages", "2000", "--links", "20000", "--seed", "3",
                "-o", "web.tsv")
        self.wr("build", "web.tsv", "-o", "w.db", "-q")
        self.wr("hosts", "w.db", "-o", "h.db", "-q")
        res = self.wr("top", "h.db", "-k", "3")
        self.assertIn("showing 'hostrank', the only rank vector of h.db", res.err)
        self.assertEqual(len(res.out.splitlines()), 4)
        self.wr("backlinks", "h.db", "host0.example")
        res = self.wr("top", "h.db", "--ranks", "nosuch", expect=1)
        self.assertIn("hostrank", res.err)  # what the database has

    def test_a_csv_is_not_taken_silently_for_pages(self):
        self.write("web.csv", "a,b\nb,c\n")
        res = self.wr("build", "web.csv", "-o", "w.db")
        self.assertIn("2 pages, 0 links", res.err)
        self.assertIn("warning: no links read: every line held one field", res.err)
        self.write("web.tsv", "a\tb\nb\tc\n")
        self.assertNotIn("warning", self.wr("build", "web.tsv", "-o", "t.db").err)

    def test_check_of_a_missing_vector_says_only_the_error(self):
        # Before: "ok" on stdout, then the error.
        self.write("fig3.tsv", "A\tB\nB\tC\nC\tA\n")
        self.wr("build", "fig3.tsv", "-o", "fig3.db", "-q")
        self.wr("rank", "fig3.db", "-q")
        res = self.wr("check", "fig3.db", "--ranks", "nosuch", expect=1)
        self.assertEqual(res.out, "")
        self.assertIn("no rank vector named 'nosuch' (stored: pagerank)", res.err)


class Trust(wrcli.WebrankTestCase):
    def test_an_empty_table_says_why(self):
        self.write("fig3.tsv", "A\tB\nB\tC\nC\tA\nA\tC\n")
        self.wr("build", "fig3.tsv", "-o", "fig3.db", "-q")
        self.write("seeds.txt", "A\n")
        res = self.wr("trust", "fig3.db", "--seeds", "seeds.txt", "--out", "trust.tsv")
        self.assertIn("(none: only pages with PageRank at least 10x the average", res.out)
        self.assertIn("the highest has 1.", res.err)
        self.assertIn("10x the average", res.err)
        with open(self.path("trust.tsv")) as f:
            self.assertEqual(len(f.read().splitlines()), 4)


class Port(wrcli.WebrankTestCase):
    def setUp(self):
        super().setUp()
        self.write("web.tsv", "a\tb\nb\ta\n")
        self.wr("build", "web.tsv", "-o", "p.db", "-q")

    def test_a_port_in_use_says_so(self):
        first = subprocess.Popen([wrcli.WEBRANK, "serve", "p.db", "--port", "0"], cwd=self.dir,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([first.stderr], [], [], 30)
            line = first.stderr.readline() if ready else ""
            self.assertIn("serving", line)
            port = line.rsplit(":", 1)[1].split("/")[0]
            res = self.wr("serve", "p.db", "--port", port, expect=1)
            self.assertIn("port %s is in use by another process" % port, res.err)
        finally:
            os.kill(first.pid, signal.SIGTERM)
            first.wait(timeout=20)
            first.stderr.close()
        res = self.wr("serve", "p.db", "--bind", "192.0.2.1", "--port", "0", expect=1)
        self.assertIn("not an address of this machine", res.err)

    def test_a_privileged_port_says_so(self):
        # Root without the capability to bind ports below 1024, rather than another user: another
        # user could not run the binaries of a clone only its owner can read (mktemp -d, /root).
        setpriv = shutil.which("setpriv")
        if os.geteuid() != 0 or not setpriv:
            self.skipTest("needs root and setpriv to run the server without CAP_NET_BIND_SERVICE")
        res = subprocess.run([setpriv, "--bounding-set=-net_bind_service",
                              "--inh-caps=-net_bind_service", wrcli.WEBRANK, "serve", "p.db",
                              "--port", "1"], cwd=self.dir, capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(res.returncode, 1, res.stderr)
        self.assertIn("permission denied: port 1 is below 1024", res.stderr)


class UsageCounts(wrcli.WebrankTestCase):
    def test_pages_outside_the_database_are_counted_and_listed(self):
        self.write("web.tsv", "http://a.example/\thttp://a.example/x\n"
                   "http://a.example/x\thttp://a.example/\n")
        self.wr("build", "web.tsv", "-o", "u.db", "-q")
        self.wr("rank", "u.db", "-q")
        self.write("counts.tsv", "http://a.example/\t5\nhttp://b.example/gone\t3\n"
                   "# a comment\nhttp://a.example/x\t2\nhttp://b.example/gone\t1\n"
                   "http://c.example/\t7\n")
        res = self.wr("usage", "u.db", "--counts", "counts.tsv", "--json")
        report = json.loads(res.out)
        self.assertEqual(report["visits"], 7)
        missing = report["not_in_database"]
        self.assertEqual((missing["lines"], missing["visits"]), (3, 11))
        self.assertEqual(missing["pages"],
                         [{"label": "http://b.example/gone", "visits": 4, "line": 2},
                          {"label": "http://c.example/", "visits": 7, "line": 6}])
        res = self.wr("usage", "u.db", "--counts", "counts.tsv")
        self.assertIn("3 lines (2 pages, 11 visits) name no page of u.db", res.err)
        res = self.wr("usage", "u.db", "--counts", "counts.tsv", "--strict", expect=1)
        self.assertIn("counts.tsv:2: page 'http://b.example/gone' is not in the database", res.err)
        self.write("none.tsv", "http://z.example/\t1\n")
        res = self.wr("usage", "u.db", "--counts", "none.tsv", expect=1)
        self.assertIn("none of its 1 lines names a page", res.err)



def on_a_terminal(args, cwd, columns):
    """Runs webrank with stdout and stderr on a pseudo-terminal `columns` wide; its output."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    proc = subprocess.Popen([wrcli.WEBRANK] + list(args), cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    proc.wait(timeout=60)
    return out.decode("utf-8", "replace")


class Stumbles(wrcli.WebrankTestCase):
    def test_a_page_is_not_among_its_own_backlinks(self):
        self.write("web.tsv", "a\ta\nb\ta\nc\ta\na\tb\n")
        self.build("web.tsv", "w.db")
        self.wr("rank", "w.db", "-q")
        rows = self.wr("backlinks", "w.db", "a", "--format", "tsv").out.splitlines()
        self.assertEqual(sorted(r.split("\t")[0] for r in rows), ["b", "c"])
        j = json.loads(self.wr("backlinks", "w.db", "a", "--json").out)
        self.assertEqual(j["total"], 2, j)
        self.assertEqual([r.split("\t")[0] for r in
                          self.wr("links", "w.db", "a", "--format", "tsv").out.splitlines()], ["b"])
        page = json.loads(self.wr("page", "w.db", "a", "--json").out)
        self.assertTrue(page["self_link"], page)  # still said, and still ranked
        self.assertEqual(page["out_links"], 2, page)

    def test_update_says_why_added_links_count_less(self):
        self.write("web.tsv", "a\tb\nb\tc\nc\ta\n")
        self.build("web.tsv", "w.db")
        self.write("add.tsv", "a\tb\nc\td\nc\td\nd\ta\n")  # one there, one twice
        res = self.wr("update", "w.db", "--add", "add.tsv", "--no-index")
        self.assertIn("(+2, -0)", res.err)
        self.assertIn("2 of the 4 links added were already in the web or listed twice", res.err)
        j = json.loads(self.wr("update", "w.db", "--add", "add.tsv", "--no-index", "--json").out)
        self.assertEqual((j["links_added"], j["additions_read"]), (0, 4), j)

    def test_words_where_an_option_is_meant_are_named_in_order(self):
        self.write("web.tsv", "a\tb\nb\ta\n")
        self.build("web.tsv", "w.db")
        res = self.wr("compare", "w.db", "pagerank", "vac", expect=2)
        self.assertIn("unexpected arguments 'pagerank' 'vac' for 'webrank compare' (it takes DB)",
                      res.err)
        self.assertIn("did you mean '--views pagerank,vac'?", res.err)
        res = self.wr("top", "w.db", "extra", expect=2)
        self.assertIn("unexpected argument 'extra' for 'webrank top'", res.err)

    def test_top_gives_titles_the_width_of_the_terminal(self):
        long_title_site(self.path("site"))
        self.wr("import", self.path("site"), "-o", "t.db", "-q")
        self.wr("rank", "t.db", "-q")
        narrow = self.wr("top", "t.db", "-k", "3").out  # a pipe: 100 columns
        self.assertTrue(all(len(l) <= 100 for l in narrow.splitlines()), narrow)
        wide = on_a_terminal(["top", "t.db", "-k", "3"], self.dir, 220)
        lines = [l for l in wide.splitlines() if "A very long title" in l]
        self.assertTrue(lines, wide)
        self.assertTrue(any(len(l) > 100 for l in lines), wide)
        self.assertTrue(all(len(l) <= 220 for l in wide.splitlines()), wide)

    def test_the_build_progress_names_stages_that_count_no_bytes_alone(self):
        self.write("web.tsv", "".join("p%d\tp%d\n" % (i, (i * 7) % 3000) for i in range(300000)))
        out = on_a_terminal(["build", "web.tsv", "-o", "w.db", "--progress", "auto"], self.dir, 120)
        self.assertIn("reading", out)
        self.assertNotRegex(out, r"(sorting|ordering|writing) [0-9.]+ ?[kMG]?B", out)


if __name__ == "__main__":
    wrcli.main()
