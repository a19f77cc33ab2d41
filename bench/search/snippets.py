#!/usr/bin/python3
"""Do the snippets of the top results start in the page's own text? (docs/search.md, "The
page's own words")

    bench/search/snippets.py [--webs pgdoc,python,apache,sqlite,cmake] [-k 3] [--scratch DIR]
                             [--webrank build/webrank] [--no-index]

For every query of each documentation web's query set, the first k results of full mode are
looked at: each result that is a page of the documentation has its snippet's first five words
(or all of them, if fewer) looked for in the page's own text, which this script takes from the
page's HTML file by the web's own markup, the reference: everything but the elements of the
site's page template, which every page has: PostgreSQL's navigation header and footer
(div.navheader, div.navfooter); the Sphinx pages' (Python, CMake) navigation bars, footer and the
sidebar's previous and next topic, "This Page" and search box (the sidebar's table of contents of
the page itself is the page's own); Apache's header, breadcrumbs, language bars, "top" links and
footer (div.up, #page-header, #path, div.toplang, div.bottomlang, div.top, #footer; the quick
view lists the page's own sections and links); SQLite's banner, tagline and menus. A snippet
that starts in none of it (in a navigation bar, a breadcrumb, a footer) fails. The webs are fetched, crawled and ranked
as bench/search/run.py does (and cached in its scratch directory); the index is rebuilt with the
binary given (--no-index: use the one there). Prints the failures and a line per web; exits 1
when a snippet fails. Needs network access to Debian's archive the first time.
"""

import argparse
import html.parser
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402

# The elements of each web's page template, (tag, attribute, value): left out of the page's own
# text (an attribute None: every such tag).
SPHINX = [("div", "class", "related"), ("div", "class", "footer"), ("h4", None, None),
          ("p", "class", "topless"), ("div", "role", "note"), ("div", "id", "searchbox"),
          ("div", "id", "sidebarbutton")]
MARKUP = {
    "pgdoc": [("div", "class", "navheader"), ("div", "class", "navfooter")],
    "python": SPHINX,
    "cmake": SPHINX,
    "apache": [("div", "class", "up"), ("div", "id", "page-header"), ("div", "id", "path"),
               ("div", "class", "toplang"), ("div", "class", "bottomlang"),
               ("div", "class", "top"), ("div", "id", "footer")],
    "sqlite": [("a", "class", "logo"), ("div", "class", "tagline"), ("div", "class", "menu"),
               ("div", "class", "searchmenu")],
}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}


class OwnText(html.parser.HTMLParser):
    def __init__(self, skip):
        super().__init__(convert_charrefs=True)
        self.skip = skip
        self.stack = []  # (tag, skipped) per open element
        self.parts = []

    @staticmethod
    def matches(spec, tag, attrs):
        if spec[0] != tag:
            return False
        if spec[1] is None:
            return True
        return spec[2] in (dict(attrs).get(spec[1]) or "").split()

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        skipped = self.stack[-1][1] if self.stack else False
        skipped = skipped or tag in ("script", "style", "title", "head") or any(
            self.matches(s, tag, attrs) for s in self.skip)
        self.stack.append((tag, skipped))
        if tag in ("p", "div", "li", "td", "th", "h1", "h2", "h3", "pre", "dt", "dd", "tr"):
            self.parts.append(" ")

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.stack and not self.stack[-1][1]:
            self.parts.append(data)

    def text(self):
        return collapse("".join(self.parts))


def collapse(s):
    return " ".join(s.replace("\u00a0", " ").split())


def own_text(path, web):
    p = OwnText(MARKUP[web])
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    return p.text()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--webs", default="pgdoc,python,apache,sqlite,cmake")
    ap.add_argument("-k", type=int, default=3)
    ap.add_argument("--scratch", default=os.environ.get("WEBRANK_SEARCH_BENCH_SCRATCH",
                                                        "/tmp/webrank-search-bench"))
    ap.add_argument("--webrank", default=run.WEBRANK)
    ap.add_argument("--no-index", action="store_true")
    a = ap.parse_args()
    run.WEBRANK = os.path.abspath(a.webrank)
    os.makedirs(a.scratch, exist_ok=True)
    failed = 0
    for web in a.webs.split(","):
        db = run.crawl_doc(a.scratch, web)
        if not a.no_index:
            run.run(["index", db, "-q"])
        root = os.path.join(a.scratch, run.DOCS[web][0])
        queries = [l.split("\t")[0] for l in open(os.path.join(HERE, run.DOCS[web][2]))
                   if l.strip() and not l.startswith("#")]
        checked = bad = 0
        cache = {}
        for q in queries:
            r = json.loads(run.run(["search", db, q, "--format", "json", "-k", a.k]).stdout)
            for h in r["hits"]:
                m = re.match(r"http://127\.0\.0\.1:\d+(/[^?#]*)$", h["url"])
                path = m and os.path.join(root, m.group(1).lstrip("/"))
                if not path or not path.endswith(".html") or not os.path.isfile(path) or \
                        h["title"] is None or not h["snippet"]["text"]:
                    # Not an HTML page of the documentation, not fetched (its snippet is the
                    # text of links to it), or nothing to show.
                    continue
                if path not in cache:
                    # Compared without spaces: the indexer puts one between any two elements'
                    # texts ("<code>x</code>." is "x ."), a browser does not.
                    cache[path] = own_text(path, web).replace(" ", "")
                words = collapse(h["snippet"]["text"]).split()[:5]
                checked += 1
                if "".join(words) not in cache[path]:
                    bad += 1
                    print("%s: %r, %s: the snippet starts outside the page's own text: %s..." % (
                        web, q, m.group(1).rsplit("/", 1)[-1], " ".join(words)))
        print("%-7s %4d snippets of the top %d, %d start outside the page's own text" % (
            web, checked, a.k, bad))
        failed += bad
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
