#!/usr/bin/python3
"""Scrapy as bench/crawl-scale's peer: crawls from seed URLs over their hosts only, with the same
politeness as `webrank crawl` (per-host connections, per-host delay, robots.txt), following
<a href> links to depth 50 and redirects, and writing one JSON line per page (URL, status,
title, links): the links a link database is made of.

    scrapy_crawl.py SEEDS_FILE OUT.jl [--per-host 2] [--delay 0] [--connections 1024]

Settings are Scrapy's advice for broad crawls (docs "Broad Crawls": a downloader-aware priority
queue, no cookies, a larger thread pool for DNS), with the concurrency and delays above. Debian's
python3-scrapy (scripts/install-bench-deps.sh).
"""

import argparse
import os
import sys
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess


class SeedHosts(scrapy.Spider):
    name = "seed-hosts"

    def __init__(self, seeds, **kw):
        super().__init__(**kw)
        self.start_urls = seeds
        self.hosts = {urlsplit(s).netloc for s in seeds}

    def parse(self, response):
        links = []
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href).split("#", 1)[0]
            if urlsplit(url).netloc in self.hosts:
                links.append(url)
                yield scrapy.Request(url, callback=self.parse)
        yield {"url": response.url, "status": response.status,
               "title": response.css("title::text").get(), "links": links}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds")
    ap.add_argument("out")
    ap.add_argument("--per-host", type=int, default=2)
    ap.add_argument("--delay", type=float, default=0)
    ap.add_argument("--connections", type=int, default=1024)
    ap.add_argument("--queue", default="scrapy.pqueues.DownloaderAwarePriorityQueue",
                    help="SCHEDULER_PRIORITY_QUEUE (Scrapy's default: scrapy.pqueues."
                    "ScrapyPriorityQueue)")
    a = ap.parse_args()
    with open(a.seeds) as f:
        seeds = [line.strip() for line in f if line.strip()]
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": a.connections,
        # Scrapy's slots are by host name; each simulated host is its own address.
        "CONCURRENT_REQUESTS_PER_DOMAIN": a.per_host,
        "DOWNLOAD_DELAY": a.delay,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "DEPTH_LIMIT": 50,
        "RETRY_TIMES": 2,
        "DOWNLOAD_TIMEOUT": 30,
        "COOKIES_ENABLED": False,
        "SCHEDULER_PRIORITY_QUEUE": a.queue,
        "REACTOR_THREADPOOL_MAXSIZE": 20,
        # Scrapy starts this many cooperative tasks per response to walk the callback's output
        # (default 100: a hundred Twisted tasks per page, 11 ms of CPU a page here, measured
        # with cProfile); a page's dozen requests and one item need few.
        "CONCURRENT_ITEMS": int(os.environ.get("SCRAPY_CONCURRENT_ITEMS", "4")),
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "ERROR",
        "FEEDS": {a.out: {"format": "jsonlines", "overwrite": True}},
    })
    process.crawl(SeedHosts, seeds=seeds)
    process.start()


if __name__ == "__main__":
    sys.exit(main())
