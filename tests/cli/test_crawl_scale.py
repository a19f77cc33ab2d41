"""`webrank crawl` on a simulated web of many hosts (bench/simweb, tests/cli/simweb.py): the small
versions of the scale benchmark's checks (bench/crawl-scale, docs/performance.md).

- Politeness, checked from the server's log: robots.txt first on every host, no request of a
  host sooner than its delay (or its robots.txt's Crawl-delay) after the answer to the one
  before, the robots.txt fetch included, also with --per-host 2; nothing robots.txt disallows; every page fetched once.
- Numbered hosts and numbered pages are not traps: 2,000 pages /p/N over 20 hosts 127.1.0.X are
  all crawled (the shape of a URL keeps its host).
- kill -9 at a moment and --resume: every page fetched once (the transfers in flight at the kill
  aside) and the same link database as an uninterrupted crawl.
- A frontier spilled to disk (--frontier-memory far below the queue) crawls the same web.
Each test starts its own server on loopback, bounded in requests and seconds, stopped by PID.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simweb  # noqa: E402
import wrcli  # noqa: E402

QUIET = ("--no-index", "--timeout", "20", "--connect-timeout", "10", "--retries", "1")


pages_of, links_of = wrcli.pages_of, wrcli.links_of


def page_requests(requests):
    """(host, path) of every request for a numbered page (/p/N)."""
    return [(r.host, r.path) for r in requests if r.path.startswith("/p/")]


class CrawlScale(wrcli.WebrankTestCase):
    def test_politeness_seen_from_the_server(self):
        hosts, delay, crawl_delay = 40, 0.25, 0.4
        with simweb.SimWeb(self.path("log"), hosts=hosts, pages=300, latency_ms=10,
                           crawl_delay=crawl_delay, max_requests=3000, max_seconds=240) as web:
            sizes = web.sizes()
            # --per-host 2: with a delay, a host is still asked one request at a time.
            res = self.wr("crawl", *web.seeds(), "-o", "w.db", "--delay", str(delay),
                          "--per-host", "2", "--connections", "64", *QUIET)
        requests = web.requests()
        self.assertIn("0 trap URLs skipped", res.err)
        first = {}
        for r in sorted(requests, key=lambda r: r.arrival):
            first.setdefault(r.host, r.path)
        self.assertEqual(set(first.values()), {"/robots.txt"}, first)
        self.assertEqual(simweb.politeness_violations(requests, delay, crawl_delay, hosts), [])
        self.assertEqual([r for r in requests if r.path.startswith("/private/")], [])
        # Every page of the web once (each is reachable from its host's home page).
        fetched = page_requests(requests)
        self.assertEqual(len(fetched), len(set(fetched)))
        self.assertEqual(len(set(fetched)), sum(sizes))
        self.assertEqual(len([r for r in requests if r.path == "/robots.txt"]), hosts)

    def test_numbered_hosts_and_pages_are_not_traps(self):
        with simweb.SimWeb(self.path("log"), hosts=20, pages=2000, latency_ms=1,
                           max_requests=6000, max_seconds=240) as web:
            res = self.wr("crawl", *web.seeds(), "-o", "w.db", "--delay", "0", "--per-host", "2",
                          "--connections", "40", *QUIET)
        self.assertIn("0 trap URLs skipped", res.err)
        self.assertEqual(len(set(page_requests(web.requests()))), 2000)

    def crawl_killed_then_resumed(self, *options):
        """Crawls the web into r.db, killed with SIGKILL once 150 pages are journaled, then
        resumed; returns the server's requests for both runs and the connections used."""
        proc = subprocess.Popen([wrcli.WEBRANK, "crawl", *self.web.seeds(), "-o", "r.db",
                                 "--progress", "json", *options], cwd=self.dir,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wrcli.kill_crawl_when(proc, lambda progress: progress.get("pages", 0) >= 150)
        self.assertFalse(os.path.exists(self.path("r.db")))
        return self.wr("crawl", "-o", "r.db", "--resume", *options)

    def test_kill_and_resume_fetch_every_page_once(self):
        options = ("--delay", "0.05", "--per-host", "2", "--connections", "16", "--threads", "2",
                   *QUIET)
        with simweb.SimWeb(self.path("log"), hosts=20, pages=600, latency_ms=20,
                           max_requests=5000, max_seconds=240) as web:
            self.web = web
            port = web.port
            res = self.crawl_killed_then_resumed(*options)
        killed = page_requests(web.requests())
        # The same web on the same port, crawled without interruption.
        with simweb.SimWeb(self.path("log2"), hosts=20, pages=600, latency_ms=20, port=port,
                           max_requests=5000, max_seconds=240) as web:
            self.wr("crawl", *web.seeds(), "-o", "full.db", *options)
        full = page_requests(web.requests())
        self.assertIn("resumed)", res.err)
        self.assertEqual(set(killed), set(full))
        # Fetched twice: at most what was fetched and not journaled at the kill, the transfers
        # in flight (16 connections) and the pages waiting for their journal record (at most
        # 2 x 16 connections + 4 x 2 threads; docs/commands.md).
        self.assertLessEqual(len(killed) - len(set(killed)), 16 + 2 * 16 + 4 * 2)
        self.assertEqual(len(full), len(set(full)))
        self.assertEqual(links_of(self, "r.db"), links_of(self, "full.db"))
        fetched = lambda db: sorted(u for u, r in pages_of(self, db).items() if r[1] != "0")
        self.assertEqual(fetched("r.db"), fetched("full.db"))

    def test_frontier_spilled_to_disk_crawls_the_same_web(self):
        options = ("--delay", "0", "--per-host", "1", "--connections", "8", "--progress", "json",
                   *QUIET)
        with simweb.SimWeb(self.path("log"), hosts=4, pages=3000, latency_ms=1,
                           max_requests=12000, max_seconds=240) as web:
            spilled = self.wr("crawl", *web.seeds(), "-o", "s.db", "--frontier-memory", "32K",
                              *options)
            whole = self.wr("crawl", *web.seeds(), "-o", "m.db", *options)
        most = lambda res: max(json.loads(line).get("spilled", 0)
                               for line in res.err.splitlines() if line.startswith("{"))
        self.assertGreater(most(spilled), 100)
        self.assertEqual(most(whole), 0)
        self.assertFalse(os.path.exists(self.path("s.db.crawl/frontier.spill")))
        self.assertEqual(links_of(self, "s.db"), links_of(self, "m.db"))


if __name__ == "__main__":
    wrcli.main()
