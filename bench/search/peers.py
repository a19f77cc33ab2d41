"""The engines documentation sites search with, run on the pages a crawl fetched (bench/search/run.py
--peers; docs/benchmarks.md, docs/search.md "Against other engines").

Every engine is given the same pages: those of the crawl's database that were fetched with a
success status and have a title (`webrank export --pages`), read from the files the crawl was
served from. Lucene and Lunr get each page's title and visible text (script, style and the head
left out: html.parser here), Pagefind the page's HTML (its own extraction, as it indexes a built
site). Each engine answers every query of the set (top 10), and is measured as `webrank eval`
measures webrank: hit@1, hit@3, MRR@10 (answers matched by the end of their URLs), and the time of
one search: for each query the median of --repeat runs after a warm-up run of every query, then
the median and the 99th percentile over the queries.

  lucene    Lucene 8.7 from Debian (liblucene8-java, with a JDK: default-jdk-headless), a small Java
            program (peers/LuceneBaseline.java) compiled with javac into the scratch directory:
            Tantivy's English analysis, BM25, title boosted 3x, OR of the query's words.
  pagefind  Pagefind from npm (web/package.json; its binary is the npm package @pagefind/linux-x64)
            indexed through its Node API, searched by its pagefind.js in headless Chromium
            (/usr/bin/chromium, or $WEBRANK_CHROMIUM) driven by playwright-core.
  lunr      Lunr 2.3 (npm) with MkDocs' settings, in Node.
An engine that is not installed is skipped, saying what to install.
"""

import glob
import html.parser
import json
import os
import shutil
import statistics
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
NODE_MODULES = os.environ.get("WEBRANK_NODE_MODULES", os.path.join(REPO, "web", "node_modules"))
LUCENE_JARS = ["lucene-core", "lucene-analyzers-common", "lucene-queryparser"]
ENGINES = ("lucene", "pagefind", "lunr")
LABELS = {"lucene": "Lucene 8.7 BM25, title 3x", "pagefind": "Pagefind (Chromium)",
          "lunr": "Lunr 2.3, MkDocs' settings"}


class Text(html.parser.HTMLParser):
    """A page's title and visible text."""
    SKIP = {"script", "style", "noscript", "template", "head"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title, self.words, self.depth, self.in_title = [], [], 0, False

    def handle_starttag(self, tag, attrs):
        if tag == "title":
            self.in_title = True
        elif tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        elif tag in self.SKIP and self.depth > 0:
            self.depth -= 1

    def handle_data(self, data):
        if self.in_title:
            self.title.append(data)
        elif self.depth == 0:
            self.words.append(data)


def page_text(raw):
    p = Text()
    try:
        p.feed(raw)
        p.close()
    except Exception:  # noqa: BLE001 - a page html.parser cannot read keeps what it read
        pass
    collapse = lambda parts: " ".join(" ".join(parts).split())
    return collapse(p.title), collapse(p.words)


def corpus(webrank, db, root, out):
    """Writes out (JSON lines: url, title, text, html) of the fetched, titled pages of `db`,
    read from `root`, the directory served at the crawl's host. Returns the number of pages."""
    rows = subprocess.run([webrank, "export", db, "--pages"], check=True, capture_output=True,
                          text=True).stdout.splitlines()[1:]
    n = 0
    with open(out, "w") as f:
        for row in rows:
            url, status, title = (row.split("\t") + ["", "", ""])[:3]
            if not status.startswith("2") or not title:
                continue
            path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
            file = os.path.join(root, path.lstrip("/"))
            if os.path.isdir(file):
                file = os.path.join(file, "index.html")
            if not os.path.isfile(file):
                continue
            raw = open(file, "rb").read().decode("utf-8", "replace")
            t, text = page_text(raw)
            f.write(json.dumps({"url": url, "title": t or title, "text": text, "html": raw}) + "\n")
            n += 1
    return n


def available(engine):
    """None when `engine` can run here, else what is missing."""
    if engine == "lucene":
        if not shutil.which("javac") or not shutil.which("java"):
            return "no JDK (apt-get install default-jdk-headless)"
        if lucene_classpath() is None:
            return "no Lucene 8 (apt-get install liblucene8-java)"
        return None
    if not shutil.which("node"):
        return "no node (apt-get install nodejs)"
    package = {"pagefind": "pagefind", "lunr": "lunr"}[engine]
    if not os.path.isdir(os.path.join(NODE_MODULES, package)):
        return "the npm package %s is not installed (bash scripts/install-deps.sh: npm ci in web/)" \
            % package
    if engine == "pagefind":
        if not os.path.isdir(os.path.join(NODE_MODULES, "playwright-core")):
            return "the npm package playwright-core is not installed (npm ci in web/)"
        chromium = os.environ.get("WEBRANK_CHROMIUM", "/usr/bin/chromium")
        if not os.path.exists(chromium):
            return "no Chromium at %s (apt-get install chromium)" % chromium
    return None


def lucene_classpath():
    jars = []
    for name in LUCENE_JARS:
        found = sorted(glob.glob("/usr/share/java/%s-8*.jar" % name))
        if not found:
            return None
        jars.append(found[-1])
    return jars


def run_engine(engine, corpus_file, queries, repeat, work):
    """The engine's top 10 and times for each query: [(p50_ns, max_ns, [url...]), ...]."""
    os.makedirs(work, exist_ok=True)
    qfile = os.path.join(work, "queries.txt")
    with open(qfile, "w") as f:
        f.write("".join(q + "\n" for q in queries))
    if engine == "lucene":
        classes = os.path.join(work, "..", "lucene-classes")
        jars = lucene_classpath()
        source = os.path.join(HERE, "peers", "LuceneBaseline.java")
        if not os.path.exists(os.path.join(classes, "LuceneBaseline.class")) or \
                os.path.getmtime(source) > os.path.getmtime(os.path.join(classes,
                                                                         "LuceneBaseline.class")):
            os.makedirs(classes, exist_ok=True)
            subprocess.run(["javac", "-d", classes, "-cp", ":".join(jars), source], check=True)
        tsv = os.path.join(work, "corpus.tsv")
        with open(corpus_file) as f, open(tsv, "w") as out:
            for line in f:
                p = json.loads(line)
                clean = lambda s: s.replace("\t", " ").replace("\n", " ")
                out.write("%s\t%s\t%s\n" % (clean(p["url"]), clean(p["title"]), clean(p["text"])))
        cmd = ["java", "-Xmx2g", "-cp", ":".join([classes] + jars), "LuceneBaseline", tsv, qfile,
               str(repeat)]
    else:
        cmd = ["node", os.path.join(HERE, "peers", "jsengines.cjs"), engine, corpus_file, qfile,
               str(repeat), work]
    env = dict(os.environ, WEBRANK_NODE_MODULES=NODE_MODULES)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    rows = []
    for line in out.splitlines():
        cells = line.split("\t")
        rows.append((int(cells[0]), int(cells[1]), cells[2:]))
    if len(rows) != len(queries):
        raise RuntimeError("%s answered %d queries of %d" % (engine, len(rows), len(queries)))
    return rows


def read_set(path):
    """[(query, [expected, alternates...]), ...] of a query set (webrank eval's format)."""
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        answers = [cells[1]] + ([a for a in cells[2].split(",") if a] if len(cells) > 2 else [])
        out.append((cells[0], answers))
    return out


def quality(qset, ranked):
    """hit@1, hit@3, MRR@10 of ranked URL lists against a query set."""
    hit1 = hit3 = mrr = 0.0
    for (query, answers), urls in zip(qset, ranked):
        pos = 0
        for i, u in enumerate(urls[:10]):
            if any(u.endswith("/" + a) for a in answers):
                pos = i + 1
                break
        hit1 += pos == 1
        hit3 += 0 < pos <= 3
        mrr += 1.0 / pos if pos else 0
    n = max(1, len(qset))
    return hit1 / n, hit3 / n, mrr / n


def percentile(values, p):
    v = sorted(values)
    if not v:
        return 0.0
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def measure(engines, webrank, db, root, qset_path, repeat, work):
    """Rows {engine, label, hit1, hit3, mrr, p50_ms, p99_ms} of each engine that runs here; the
    ones that cannot say why on stderr."""
    qset = read_set(qset_path)
    os.makedirs(work, exist_ok=True)
    corpus_file = os.path.join(work, "corpus.jsonl")
    pages = corpus(webrank, db, root, corpus_file)
    rows = []
    for engine in engines:
        why = available(engine)
        if why:
            sys.stderr.write("skipping %s: %s\n" % (engine, why))
            continue
        got = run_engine(engine, corpus_file, [q for q, _ in qset], repeat,
                         os.path.join(work, engine))
        h1, h3, mrr = quality(qset, [urls for _, _, urls in got])
        p50s = [p50 / 1e6 for p50, _, _ in got]
        rows.append({"engine": engine, "label": LABELS[engine], "pages": pages, "hit1": h1,
                     "hit3": h3, "mrr": mrr, "p50_ms": statistics.median(p50s),
                     "p99_ms": percentile(p50s, 99)})
    return rows
