#!/usr/bin/python3
"""The studies of docs/studies.md on the real webs of ../shared/data: PageRank against
Wikispeedia's human navigation (the paper's section 7.1), crawl orders on the shared crawls
(section 7.2), harmonic centrality against PageRank, and the host graphs. Prints the tables of
docs/studies.md as Markdown; every command it runs is printed first (on stderr).

Run:  /usr/bin/python3 bench/studies/run.py --webrank build/webrank [--data ../shared/data]
      [--work DIR] [--only usage,crawl,centrality,hosts]
"""

import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(args, cwd):
    print("$ " + " ".join(args), file=sys.stderr)
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True).stdout


class Studies:
    def __init__(self, webrank, data, work):
        self.webrank, self.data, self.work = os.path.abspath(webrank), data, work

    def wr(self, *args):
        return run([self.webrank] + list(args), self.work)

    def wr_json(self, *args):
        return json.loads(self.wr(*args))

    def db(self, name):
        """The database of a shared web (built once into the work folder)."""
        path = os.path.join(self.work, name + ".db")
        if os.path.isdir(path):
            return name + ".db"
        d = lambda *p: os.path.join(self.data, *p)  # noqa: E731
        inputs = {
            "hollins": [d("hollins", "hollins.edges.tsv.gz"), "--labels",
                        d("hollins", "hollins.urls.tsv.gz")],
            "kleinberg-epa": [d("kleinberg-epa", "epa.edges.tsv.gz"), "--labels",
                              d("kleinberg-epa", "epa.urls.tsv.gz")],
            "harvard500": [d("harvard500", "harvard500.edges.tsv.gz"), "--labels",
                           d("harvard500", "harvard500.urls.tsv.gz")],
            "wb-cs-stanford": [d("wb-cs-stanford", "wb-cs.stanford.edges.tsv.zst")],
            "web-NotreDame": [d("web-NotreDame", "web-NotreDame.txt.zst")],
            "cnr-2000": [d("cnr-2000", "cnr-2000.edges.tsv.zst")],
            "wikispeedia": [d("wikispeedia", "articles.tsv.gz"), d("wikispeedia", "links.tsv.gz")],
        }[name]
        self.wr("build", *inputs, "-o", name + ".db", "-q")
        self.wr("rank", name + ".db", "-q")
        return name + ".db"

    # §7.1: usage. Wikispeedia's finished games: every arrival over a link counts as a visit,
    # except the start page (the game chooses it), the final target (the game forces it) and
    # returns by the back button ("<").
    def usage(self):
        counts = collections.Counter()
        halves = (collections.Counter(), collections.Counter())  # even and odd games
        games = 0
        with gzip.open(os.path.join(self.data, "wikispeedia", "paths_finished.paths.csv.gz"),
                       "rt", encoding="utf-8") as f:
            for line in f:
                steps = line.strip().split(";")
                if len(steps) < 2:
                    continue
                games += 1
                stack = []
                for i, s in enumerate(steps):
                    if s == "<":
                        stack.pop()
                        continue
                    stack.append(s)
                    if 0 < i < len(steps) - 1:
                        counts[s] += 1
                        halves[games % 2][s] += 1
        for name, c in (("all", counts), ("even", halves[0]), ("odd", halves[1])):
            with open(os.path.join(self.work, "wikispeedia.%s.tsv" % name), "w") as f:
                f.write("# Wikispeedia link arrivals (%s games), start pages, targets and "
                        "back-clicks excluded\n" % name)
                for page, n in sorted(c.items()):
                    f.write("%s\t%d\n" % (page, n))
        db = self.db("wikispeedia")
        j = self.wr_json("usage", db, "--counts", "wikispeedia.all.tsv", "--source", "-k",
                         "10", "--json")
        # Held out: the rank source from the even games, compared with the odd games' usage.
        self.wr("usage", db, "--counts", "wikispeedia.even.tsv", "--source", "--name",
                "usage.even", "--json")
        held = self.wr_json("usage", db, "--counts", "wikispeedia.odd.tsv", "--ranks",
                            "usage.even", "--json")["comparisons"][0]
        held_pr = self.wr_json("usage", db, "--counts", "wikispeedia.odd.tsv",
                               "--json")["comparisons"][0]
        print("\n### Usage: Wikispeedia (%d games, %d counted visits on %d of %d articles)\n"
              % (games, j["visits"], j["visited_pages"], j["pages"]))
        print("| vector | Spearman | Kendall | Spearman (visited) | Kendall (visited) |")
        print("|---|---|---|---|---|")
        rows = [(c["vector"] + " against all games", c) for c in j["comparisons"]]
        rows += [("pagerank against the odd games", held_pr),
                 ("usage.even (even games as source) against the odd games", held)]
        for title, c in rows:
            print("| %s | %.4f | %.4f | %.4f | %.4f |" % (
                title, c["spearman"], c["kendall"], c["spearman_visited"], c["kendall_visited"]))
        base = j["comparisons"][0]
        for key, title in (("high_usage_low_rank", "high usage, low PageRank"),
                           ("high_rank_low_usage", "high PageRank, low usage")):
            print("\n%s (pagerank):\n" % title)
            print("| page | visits | usage percentile | PageRank percentile |")
            print("|---|---|---|---|")
            for p in base[key]:
                print("| %s | %d | %.1f | %.1f |" % (p["label"], p["visits"],
                                                   p["usage_percentile"], p["rank_percentile"]))

    # §7.2: crawl orders.
    def crawl(self):
        print("\n### Crawl orders: share of the hot pages found after crawling 10%, 20%, 50% "
              "of the reachable pages; mean over the crawl\n")
        print("| web | seed | reachable | hot by | hot pages | order | 10% | 20% | 50% | mean "
              "| seconds |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for name, seed in (("hollins", "http://www.hollins.edu/"),
                           ("wb-cs-stanford", None), ("web-NotreDame", None),
                           ("cnr-2000", None)):
            db = self.db(name)
            for hot in ("in-degree", "pagerank"):
                args = ["crawl-order", db, "--hot", hot, "--json", "-q", "--progress", "never",
                        "--out", "%s.%s.crawl-order.tsv" % (name, hot)]
                if seed:
                    args += ["--seed", seed]
                j = self.wr_json(*args)
                for c in j["curves"] + [dict(j["ideal"], order="ideal")]:
                    print("| %s | %s | %d | %s | %d | %s | %.3f | %.3f | %.3f | %.3f | %s |" % (
                        name, j["seed"], j["reachable"], hot, j["hot_pages"], c["order"],
                        c["hot_at_10"], c["hot_at_20"], c["hot_at_50"], c["mean_hot"],
                        "%.2f" % c["seconds"] if "seconds" in c else ""))

    def centrality(self):
        print("\n### Harmonic centrality against PageRank\n")
        print("| web | pages | counters | seconds | Spearman | Kendall | top-10 | top-100 "
              "| top-1000 |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name in ("harvard500", "hollins", "kleinberg-epa", "wikispeedia", "wb-cs-stanford",
                     "web-NotreDame", "cnr-2000"):
            db = self.db(name)
            t0 = time.time()
            j = self.wr_json("centrality", db, "--harmonic", "--json", "--progress", "never")
            c = j["comparison"]
            tops = {t["k"]: t["fraction"] for t in c["top"]}
            print("| %s | %d | %s | %.2f | %.3f | %.3f | %s | %s | %s |" % (
                name, c["pages"], "exact" if j["exact"] else "HyperLogLog 2^%d" % j["log2m"],
                j["seconds"] if "seconds" in j else time.time() - t0, c["spearman"],
                c["kendall_tau"], *("%.0f%%" % (100 * tops[k]) if k in tops else "-"
                                    for k in (10, 100, 1000))))

    def hosts(self):
        print("\n### Host graphs\n")
        for name, by in (("kleinberg-epa", "host"), ("kleinberg-epa", "domain"),
                         ("harvard500", "host")):
            db = self.db(name)
            j = self.wr_json("hosts", db, "-o", "%s.%s.db" % (name, by), "--by", by, "--force",
                             "-k", "5", "--json", "-q")
            print("%s by %s: %d pages -> %d %ss, %d links between them (%d page links; %d "
                  "within a %s dropped)\n" % (name, by, j["pages"], j["hosts"], by,
                                              j["host_links"], j["page_links_between"],
                                              j["page_links_within"], by))
            print("| # | %s | pages | HostRank |" % by)
            print("|---|---|---|---|")
            for i, h in enumerate(j["top"], 1):
                print("| %d | %s | %d | %.4f |" % (i, h["host"], h["pages"], h["hostrank"]))
            print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--webrank", default=os.path.join(ROOT, "build", "webrank"))
    ap.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "data"))
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "studies"))
    ap.add_argument("--only", default="usage,crawl,centrality,hosts")
    a = ap.parse_args()
    if not os.path.isdir(a.data):
        sys.exit("studies: %s not found: the studies run on the shared real webs" % a.data)
    os.makedirs(a.work, exist_ok=True)
    s = Studies(a.webrank, a.data, a.work)
    for part in a.only.split(","):
        getattr(s, part)()


if __name__ == "__main__":
    main()
