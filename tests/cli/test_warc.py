"""`webrank import` of web archives and HTML directories (formats warc and html-dir).

- The WARC fixtures of ../shared/data/warc-fixtures (warcio's and pywb's test data): the real
  iana.org capture gives its 16 HTML pages and 4 redirects with titles and a link graph; files that are
  deliberately broken (truncated, not WARC, bad status line, wrong Content-Length) exit 1 with
  a message naming the file and the byte offset; none crashes. Skipped with a message when
  ../shared/data is absent.
- A WARC written by `wget --warc-file` from a loopback crawl of a generated site gives the same
  link graph and titles as `--format html-dir` on the site's files (labels mapped
  http://127.0.0.1:PORT/ <-> file:///ROOT/), and nofollow links are recorded, not ranked.
- `webrank export --links/--pages`.
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testsite  # noqa: E402
import wrcli  # noqa: E402

FIXTURES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                        "data", "warc-fixtures"))
SKIP_MSG = "../shared/data/warc-fixtures not found: WARC fixture tests skipped"


def links_of(test, db):
    out = test.wr("export", db, "--links").out
    return sorted(tuple(line.split("\t")) for line in out.splitlines() if line)


def pages_of(test, db):
    out = test.wr("export", db, "--pages").out
    rows = [line.split("\t") for line in out.splitlines()[1:] if line]
    return {r[0]: r for r in rows}


@wrcli.unittest.skipUnless(os.path.isdir(FIXTURES), SKIP_MSG)
class WarcFixtures(wrcli.WebrankTestCase):
    def test_iana_capture(self):
        self.wr("import", os.path.join(FIXTURES, "pywb", "iana.warc.gz"), "-o", "iana.db")
        pages = pages_of(self, "iana.db")
        # 20 responses are text/html: 16 pages and 4 redirects (302) to them.
        html = [p for p in pages.values() if p[1] == "200" and p[2]]
        self.assertEqual(len(html), 16, sorted(p[0] for p in html))
        self.assertEqual(len([p for p in pages.values() if p[1] == "302"]), 4)
        home = pages["http://www.iana.org/"]
        self.assertEqual(home[2], "Internet Assigned Numbers Authority")
        self.assertGreater(int(home[3]), 10)
        # Revisits of the home page's resources are pages with their status.
        self.assertTrue(any(p[1] == "302" for p in pages.values()))
        rows, ranks = self.rank("iana.db")
        self.assertAlmostEqual(sum(ranks.values()), 1.0, places=9)
        top = max(ranks, key=ranks.get)
        self.assertTrue(top.startswith("http://www.iana.org/"), top)

    def test_every_fixture_imports_or_fails_cleanly(self):
        broken = {"example-trunc.warc", "example.warc", "example-extra.warc", "bad.arc",
                  "example.arc", "example.arc.gz", "example-space-in-url.arc"}
        for sub in ("warcio", "pywb"):
            for name in sorted(os.listdir(os.path.join(FIXTURES, sub))):
                if ".warc" not in name and ".arc" not in name:
                    continue
                path = os.path.join(FIXTURES, sub, name)
                db = "%s-%s.db" % (sub, name)
                res = self.wr("import", "--format", "warc", path, "-o", db, expect=(0, 1))
                if sub == "pywb" and name == "example.warc" or name in broken - {"example.warc"}:
                    self.assertEqual(res.rc, 1, "%s/%s should be refused\n%s"
                                     % (sub, name, res.describe()))
                if res.rc == 1:
                    self.assertRegex(res.err, r"%s(: byte \d+|: no links or pages)" %
                                     name.replace(".", r"\."), res.describe())

    def test_chunked_capture(self):
        self.wr("import", os.path.join(FIXTURES, "warcio", "example-iana.org-chunked.warc"),
                "-o", "c.db")
        pages = pages_of(self, "c.db")
        self.assertEqual(pages["http://www.iana.org/"][1], "200")
        self.assertGreater(int(pages["http://www.iana.org/"][3]), 10)


class WgetWarcVersusFiles(wrcli.WebrankTestCase):
    @wrcli.unittest.skipUnless(shutil.which("wget"), "wget not installed: skipped")
    def test_same_graph(self):
        root = self.path("site")
        paths = testsite.write_doc_site(root, pages=30)
        with testsite.SiteServer(root, self.dir, max_requests=500, max_seconds=60) as srv:
            subprocess.run(["wget", "-q", "-r", "-l", "inf", "-np", "--no-host-directories",
                            "-e", "robots=off", "-P", self.path("mirror"), "--warc-file",
                            self.path("site"), "--no-warc-compression", "--no-warc-keep-log",
                            "--tries", "1", "--timeout", "5", srv.url + "/index.html"],
                           check=False, timeout=60)
            url = srv.url
            self.assertLessEqual(len(srv.requests()), 500)
        self.assertTrue(os.path.exists(self.path("site.warc")))
        self.wr("import", self.path("site.warc"), "-o", "warc.db")
        self.wr("import", root, "-o", "files.db")  # auto: a directory of .html files
        prefix = "file://" + os.path.realpath(root)
        to_http = lambda s: s.replace(prefix, url)
        warc_links = links_of(self, "warc.db")
        file_links = sorted((to_http(a), to_http(b)) for a, b in links_of(self, "files.db"))
        self.assertEqual(warc_links, file_links)
        self.assertGreater(len(warc_links), 60)
        wp = pages_of(self, "warc.db")
        fp = {to_http(k): v for k, v in pages_of(self, "files.db").items()}
        self.assertEqual({k: v[2] for k, v in wp.items()}, {k: v[2] for k, v in fp.items()})
        self.assertEqual(len([p for p in wp.values() if p[1] == "200"]), len(paths))
        # nofollow links to the index are recorded but do not vote
        index = url + "/index.html"
        self.assertNotIn((url + "/sec1/page1.html", index + "#x"), warc_links)

    def test_export_to_file_and_pages_of_plain_db(self):
        self.write("e.tsv", "a\tb\nb\tc\n")
        self.build("e.tsv", db="e.db")
        self.wr("export", "e.db", "-o", "links.tsv")
        with open(self.path("links.tsv")) as f:
            self.assertEqual(f.read(), "a\tb\nb\tc\n")
        out = self.wr("export", "e.db", "--pages").out.splitlines()
        self.assertEqual(out[1:], ["a\t-\t\t1\t0", "b\t-\t\t1\t1", "c\t-\t\t0\t1"])
        self.wr("export", "e.db", "--links", "--pages", expect=2)


if __name__ == "__main__":
    wrcli.main()
