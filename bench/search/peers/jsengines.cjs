// The search engines documentation sites run in the browser, on the pages a crawl fetched:
//   Pagefind (npm `pagefind`; its index built through its Node API from the pages' HTML, searched
//     by its own pagefind.js in headless Chromium through playwright-core, as a site's visitors
//     search it), and
//   Lunr 2.3 with MkDocs' settings (title boosted 10, words separated by whitespace and '-',
//     index.search(query)), in Node.
//
//   node jsengines.cjs ENGINE CORPUS.jsonl QUERIES.txt REPEAT WORKDIR > RESULTS.tsv
//
// CORPUS.jsonl: {"url", "title", "text", "html"} per page (bench/search/peers.py). Prints, per
// query and in order, one line: p50_ns<TAB>max_ns<TAB>url1<TAB>url2... (the top 10), times over
// REPEAT runs after a warm-up run of every query (Pagefind: search() and the top 10 results'
// data(), which a results list shows; Lunr: index.search()). Exits 3 saying why when the engine
// is not installed.
"use strict";
const fs = require("fs");
const path = require("path");
const http = require("http");

const url = require("url");

// The npm packages are web/'s (scripts/install-deps.sh installs them), or WEBRANK_NODE_MODULES.
const modules =
  process.env.WEBRANK_NODE_MODULES || path.join(__dirname, "..", "..", "..", "web", "node_modules");
const load = (name) => require(require.resolve(name, { paths: [modules] }));
// pagefind is an ES module without a require() entry: its file, imported.
const importModule = (name, file) => import(url.pathToFileURL(path.join(modules, name, file)).href);

const [engine, corpusFile, queriesFile, repeatText, workdir] = process.argv.slice(2);
const repeat = Math.max(1, parseInt(repeatText, 10) || 1);
const corpus = fs.readFileSync(corpusFile, "utf8").split("\n").filter(Boolean).map(JSON.parse);
const queries = fs.readFileSync(queriesFile, "utf8").split("\n").filter((q) => q.length > 0);

function missing(what) {
  process.stderr.write(`${engine}: ${what}\n`);
  process.exit(3);
}

function report(results) {
  const lines = results.map(({ times, urls }) => {
    const t = [...times].sort((a, b) => a - b);
    return [Math.round(t[Math.floor(t.length / 2)]), Math.round(t[t.length - 1]), ...urls].join("\t");
  });
  process.stdout.write(lines.join("\n") + "\n");
}

async function lunrEngine() {
  let lunr;
  try {
    lunr = load("lunr");
  } catch (e) {
    missing("the npm package lunr is not installed (npm ci in web/)");
  }
  lunr.tokenizer.separator = /[\s\-]+/;  // MkDocs' default `separator`
  const index = lunr(function () {
    this.field("title", { boost: 10 });
    this.field("text");
    this.ref("location");
    for (const page of corpus) this.add({ location: page.url, title: page.title, text: page.text });
  });
  const run = (q) => {
    try {
      return index.search(q);
    } catch (e) {
      // A query Lunr's syntax refuses ("utf-8", "c++"): its words alone, as a user would retry.
      return index.search(q.replace(/[:^~+\-*]/g, " "));
    }
  };
  for (const q of queries) run(q);
  const results = [];
  for (const q of queries) {
    const times = [];
    let urls = [];
    for (let r = 0; r < repeat; ++r) {
      const t0 = process.hrtime.bigint();
      const hits = run(q).slice(0, 10);
      times.push(Number(process.hrtime.bigint() - t0));
      urls = hits.map((h) => h.ref);
    }
    results.push({ times, urls });
  }
  report(results);
}

async function pagefindEngine() {
  let pagefind, chromium;
  try {
    pagefind = await importModule("pagefind", "lib/index.js");
  } catch (e) {
    missing("the npm package pagefind is not installed (npm ci in web/)");
  }
  try {
    ({ chromium } = load("playwright-core"));
  } catch (e) {
    missing("the npm package playwright-core is not installed (npm ci in web/)");
  }
  const browser = process.env.WEBRANK_CHROMIUM || "/usr/bin/chromium";
  if (!fs.existsSync(browser)) missing(`no Chromium at ${browser} (apt-get install chromium)`);
  const site = path.join(workdir, "site");
  fs.rmSync(site, { recursive: true, force: true });
  fs.mkdirSync(site, { recursive: true });
  const { errors, index } = await pagefind.createIndex({});
  if (errors.length) throw new Error(errors.join("; "));
  for (const page of corpus) {
    const added = await index.addHTMLFile({ url: page.url, content: page.html });
    if (added.errors.length) process.stderr.write(`pagefind: ${page.url}: ${added.errors.join("; ")}\n`);
  }
  const written = await index.writeFiles({ outputPath: path.join(site, "pagefind") });
  if (written.errors.length) throw new Error(written.errors.join("; "));
  await pagefind.close();
  fs.writeFileSync(path.join(site, "index.html"), "<!DOCTYPE html><title>pagefind</title>\n");
  const types = { ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm" };
  const server = http.createServer((req, res) => {
    const file = path.join(site, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(site) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const b = await chromium.launch({ executablePath: browser, args: ["--no-sandbox"] });
  try {
    const page = await b.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    const results = await page.evaluate(
      async ({ queries, repeat }) => {
        const pf = await import("/pagefind/pagefind.js");
        await pf.init();
        const one = async (q) => {
          const found = await pf.search(q);
          const data = await Promise.all(found.results.slice(0, 10).map((r) => r.data()));
          return data.map((d) => d.url);
        };
        for (const q of queries) await one(q);  // warm-up: chunks and fragments loaded
        const out = [];
        for (const q of queries) {
          const times = [];
          let urls = [];
          for (let r = 0; r < repeat; ++r) {
            const t0 = performance.now();
            urls = await one(q);
            times.push((performance.now() - t0) * 1e6);
          }
          out.push({ times, urls });
        }
        return out;
      },
      { queries, repeat }
    );
    report(results);
  } finally {
    await b.close();
    server.close();
  }
}

(engine === "pagefind" ? pagefindEngine : engine === "lunr" ? lunrEngine : () => missing("unknown engine"))().catch(
  (e) => {
    process.stderr.write(`${engine}: ${e.stack || e}\n`);
    process.exit(1);
  }
);
