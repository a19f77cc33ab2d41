// `webrank serve` in headless Chromium as a new user would use it: search, follow the "did you
// mean" of a misspelt query, open a result, see its backlinks in PageRank order and its
// convergence chart, open the stored copy through the proxy
// and find a bar before every link, follow a link inside the proxy; a crawled page titled and
// filled with script payloads shows as text and runs nothing (no dialog, no request leaves the
// machine, no console error: the Content-Security-Policy reports nothing to block). The charts of
// `webrank report` in the server: the overview page (/report, linked from the search page) draws
// every chart, a page view marks the page on the rank and degree distributions, all under the
// pages' Content-Security-Policy (no violation reported). The server listens on 127.0.0.1 (port
// 0) and is stopped by its PID. Screenshots in the artifacts folder.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const {run, check, stop, inkedPixels} = require('./harness.cjs');

const PAYLOAD = `<script>window.pwned=1;alert('title')</script><img src=x onerror="window.pwned=2">`;

function writeSite(dir) {
  fs.mkdirSync(dir, {recursive: true});
  const page = (title, text, links) =>
    `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p>` +
    links.map(l => `<a href="${l}">${l}</a>`).join(' ') + '</body></html>';
  fs.writeFileSync(path.join(dir, 'index.html'),
                   page('Garden Handbook', 'The handbook about roses and tulips.',
                        ['roses.html', 'tulips.html', 'soil.html', 'hostile.html', 'code.html']));
  // A page of code and a long link: what must fit a phone's screen in the proxy.
  const long = 'a-very-long-path-segment-without-any-break-'.repeat(6);
  fs.writeFileSync(path.join(dir, 'code.html'), `<html><head><title>Garden code</title></head><body>
<h1>Garden code</h1><p>Roses by the line, in code:</p>
<pre><code>for (const rose of garden.roses.filter(r => r.colour === 'red' && r.height > 40)) { water(rose, litres(2)); prune(rose); ${'x'.repeat(200)} }</code></pre>
<p><a href="${long}.html">${long}</a></p><a href="index.html">home</a></body></html>`);
  fs.writeFileSync(path.join(dir, 'roses.html'),
                   page('Garden Roses', 'Roses need sun and good soil.', ['index.html', 'soil.html']));
  fs.writeFileSync(path.join(dir, 'tulips.html'),
                   page('Tulip Bulbs', 'Plant tulips near roses.', ['index.html', 'roses.html']));
  fs.writeFileSync(path.join(dir, 'soil.html'),
                   page('Garden Soil', 'Compost for roses.', ['index.html', 'roses.html', 'tulips.html']));
  fs.writeFileSync(path.join(dir, 'hostile.html'), `<html><head><title>${PAYLOAD} hostile roses</title>
<script>window.pwned=3;alert(3)</script><meta http-equiv="refresh" content="0;url=javascript:window.pwned=4">
<link rel="stylesheet" href="http://evil.example/x.css"><base href="http://127.0.0.1:1/">
</head><body onload="window.pwned=5"><p onclick="window.pwned=6">${PAYLOAD} hostile roses text</p>
<a href="javascript:window.pwned=7">click me</a> <a href="roses.html" onmouseover="window.pwned=8">roses</a>
<iframe src="http://evil.example/frame"></iframe><img src="http://evil.example/i.png" alt="pixel">
<svg><script>window.pwned=9</script></svg><object data="http://evil.example/o"></object>
<form action="http://evil.example/steal"><button formaction="javascript:window.pwned=10">go</button></form>
<div style="background:url(http://evil.example/bg.png)">styled</div></body></html>`);
}

// `webrank serve DB --port 0`; resolves to its base URL once it prints the line saying so.
function serve(t, db) {
  const server = childProcess.spawn(t.webrankPath, ['serve', db, '--port', '0'],
                                    {cwd: t.scratch, stdio: ['ignore', 'ignore', 'pipe']});
  t.cleanups.push(async () => stop(server.pid));
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20000);
    server.stderr.on('data', d => {
      err += d;
      const m = /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', code => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

// Every uPlot chart inside `root` is drawn: a canvas of non-empty size with ink on it.
async function checkDrawn(page, root, ids) {
  for (const id of ids) {
    const canvas = `${root} [data-chart="${id}"] .uplot canvas`;
    const box = await page.$eval(canvas, c => ({w: c.clientWidth, h: c.clientHeight}))
      .catch(() => null);
    check(box && box.w > 100 && box.h > 100, `chart ${id} has a canvas of non-empty size: ${JSON.stringify(box)}`);
    const ink = await inkedPixels(page, canvas);
    check(ink > 300, `chart ${id} has ink on its canvas (${ink} pixels)`);
  }
}

// The bars of a list, in order: each bar's fill width (0-100).
const barsOf = (page, selector) => page.$$eval(`${selector} svg.wr-bar`, svgs => svgs.map(s => {
  const fill = s.querySelector('.wr-bar-fill');
  return fill ? parseFloat(fill.getAttribute('width')) : 0;
}));

run({
  'a crawled site, ranked and served': async t => {
    writeSite(path.join(t.scratch, 'site'));
    t.webrank('import', 'site', '-o', 'web.db', '-q');
    t.webrank('rank', 'web.db', '-q');
    t.base = await serve(t, 'web.db');
  },

  'search from the home page': async t => {
    const page = t.tab = await t.page();
    page.on('dialog', d => {
      t.problems.push(`a dialog opened: ${d.message()}`);
      d.dismiss();
    });
    await page.goto(t.base + '/');
    check((await page.title()).includes('webrank'), `home title: ${await page.title()}`);
    await page.fill('input[name=q]', 'roses');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    const titles = await page.$$eval('.wr-hit .wr-hit-title a', as => as.map(a => a.textContent));
    check(titles.length >= 4, `results: ${titles}`);
    check(titles.includes('Garden Roses'), `Garden Roses among ${titles}`);
    const bars = await barsOf(page, '.wr-results');
    check(bars.length === titles.length, 'a bar for each result');
    check(await page.$$eval('.wr-snippet mark', ms => ms.length) > 0, 'snippets mark the word');
    // The mode switch: title mode orders by PageRank alone.
    await Promise.all([page.waitForNavigation(), page.click('.wr-modes a:text("title")')]);
    const titleBars = await barsOf(page, '.wr-results');
    check(titleBars.every((b, i) => i === 0 || b <= titleBars[i - 1]), `title mode by rank: ${titleBars}`);
    await t.screenshot(page, 'serve-search');
  },

  'a misspelt query: did you mean, from the words of the index': async t => {
    const page = t.tab;
    await page.goto(t.base + '/search?q=' + encodeURIComponent('compst'));
    check((await page.$$('.wr-hit')).length === 0, 'no page has compst');
    const link = await page.$('.wr-suggestion a');
    check(link, 'a suggestion is shown');
    check((await link.textContent()) === 'compost', `did you mean: ${await link.textContent()}`);
    await Promise.all([page.waitForNavigation(), link.click()]);
    const titles = await page.$$eval('.wr-hit .wr-hit-title a', as => as.map(a => a.textContent));
    check(titles.includes('Garden Soil'), `the suggestion's results: ${titles}`);
    check(!(await page.$('.wr-suggestion')), 'no suggestion when pages match');
    await page.goto(t.base + '/search?q=' + encodeURIComponent('compst'));
    await t.screenshot(page, 'serve-did-you-mean');
  },

  'open a result: backlinks in PageRank order, the convergence chart': async t => {
    const page = t.tab;
    await page.goto(t.base + '/search?q=' + encodeURIComponent('garden roses'));
    await Promise.all([page.waitForNavigation(), page.click('.wr-hit-title a:text("Garden Roses")')]);
    check((await page.textContent('h1')) === 'Garden Roses', 'the page view of Garden Roses');
    const back = await barsOf(page, '.wr-backlinks');
    check(back.length === 3, `3 pages link to roses: ${back}`);
    check(back.every((b, i) => i === 0 || b <= back[i - 1]), `backlinks by PageRank: ${back}`);
    check(await page.$('table.wr-ranks td'), 'the ranks table');
    await page.waitForSelector('body[data-rendered="true"]', {timeout: 10000});
    check(await page.$('figure.wr-chart .uplot canvas'), 'the L1 history drawn by uPlot');
    check(!(await page.$('figure.wr-chart svg')), 'in place of the server-drawn SVG');
    const history = await inkedPixels(page, 'figure.wr-chart .uplot canvas');
    check(history > 300, `the L1 history has ink (${history} pixels)`);
    await t.screenshot(page, 'serve-page');
  },

  'the page view marks the page on the distributions': async t => {
    const page = t.tab;
    await checkDrawn(page, '.wr-page-charts', ['page-distribution', 'page-degrees']);
    // Garden Roses: 3 links in (index, tulips, soil), 2 out; its PageRank as the large point.
    const marks = await page.getAttribute('[data-chart="page-degrees"]', 'data-marks');
    check(marks === 'in-degree 3; out-degree 2', `degree marks: ${marks}`);
    const point = await page.evaluate(() => {
      const u = WebrankCharts.instances.find(u => u.series.some(s => /^this page/.test(s.label)));
      if (!u) return null;
      const i = u.series.findIndex(s => /^this page/.test(s.label));
      const at = u.data[i].findIndex(v => v !== null);
      return {x: u.data[0][at], y: u.data[i][at], label: u.series[i].label};
    });
    const api = await page.evaluate(url => fetch(url).then(r => r.json()),
                                    await page.getAttribute('.wr-page-charts', 'data-report'));
    check(point && point.x === api.page.value && point.y === api.page.fraction,
          `the point is the page's value and fraction: ${JSON.stringify(point)} vs ${JSON.stringify(api.page)}`);
    check(api.page.in_degree === 3 && api.page.out_degree === 2, `degrees: ${JSON.stringify(api.page)}`);
    await t.screenshot(await page.$('.wr-page-charts'), 'serve-page-charts');
  },

  'the web overview: every chart of the report, linked from the search page': async t => {
    const page = await t.page();
    await page.goto(t.base + '/');
    await Promise.all([page.waitForNavigation(), page.click('a.wr-report-link')]);
    check(new URL(page.url()).pathname === '/report', `the overview: ${page.url()}`);
    await page.waitForSelector('body[data-rendered="true"]', {timeout: 10000});
    check(await page.getAttribute('#report', 'data-rendered') === 'true', 'the report was rendered');
    await checkDrawn(page, '#report', ['convergence', 'distribution', 'degrees', 'components',
                                       'bowtie', 'status']);
    // The top list: the pages of highest PageRank, Garden Handbook (every page links to it) first.
    const first = await page.textContent('#report .wr-toplist tbody tr:first-child .wr-label');
    check(first === 'Garden Handbook', `top page: ${first}`);
    // The hostile page's title is in the list, as text.
    const labels = await page.$$eval('#report .wr-toplist .wr-label', tds => tds.map(td => td.textContent));
    check(labels.some(l => l.includes("<script>window.pwned=1;alert('title')</script>")), `titles: ${labels}`);
    check(await page.evaluate(() => window.pwned === undefined), 'no payload ran');
    // The crawl's status classes: the site's 6 pages fetched (2xx), the pages the hostile and
    // the code pages link to (the rest of the web) known but not fetched.
    const status = await page.evaluate(() => {
      const u = WebrankCharts.instances.find(u => u.root.textContent.includes('HTTP status'));
      return u && Array.from(u.data[1]);
    });
    const health = await page.evaluate(() => fetch('/healthz').then(r => r.json()));
    check(JSON.stringify(status) === JSON.stringify([6, health.pages - 6]) && health.pages > 6,
          `status classes: ${status} of ${health.pages} pages`);
    await t.screenshot(page, 'serve-report');
    await page.close();
  },

  'the proxy: a bar before every link, links stay in the proxy': async t => {
    const page = t.tab;
    await Promise.all([page.waitForNavigation(), page.click('a.wr-proxy-link')]);
    const links = await page.$$eval('.wr-proxied a[href]', as => as.map(a => ({
      href: a.getAttribute('href'),
      bar: !!(a.previousElementSibling && a.previousElementSibling.matches('svg.wr-bar')),
    })));
    check(links.length === 2, `roses has 2 links: ${JSON.stringify(links)}`);
    check(links.every(l => l.bar), 'a bar before every link');
    check(links.every(l => l.href.startsWith('/proxy?url=')), 'every link stays in the proxy');
    await Promise.all([page.waitForNavigation(), page.click('.wr-proxied a[href]')]);
    check(new URL(page.url()).pathname === '/proxy', `still in the proxy: ${page.url()}`);
    await t.screenshot(page, 'serve-proxy');
  },

  'two personalized views side by side': async t => {
    const page = t.tab;
    await page.goto(t.base + '/');
    await Promise.all([page.waitForNavigation(), page.click('a[href="/compare"]')]);
    const roses = 'file://' + path.join(t.scratch, 'site', 'roses.html');
    const tulips = 'file://' + path.join(t.scratch, 'site', 'tulips.html');
    await page.fill('#wr-home-a', roses);
    await page.fill('#wr-home-b', tulips);
    await Promise.all([page.waitForNavigation(), page.click('form.wr-compare-form button')]);
    const rows = await page.$$eval('table.wr-compare tbody tr', trs => trs.map(tr => ({
      page: tr.querySelector('a').textContent,
      bars: tr.querySelectorAll('svg.wr-bar').length,
      percentiles: Array.from(tr.querySelectorAll('.wr-percentile'), s => parseFloat(s.textContent)),
    })));
    check(rows.length >= 2, `rows: ${JSON.stringify(rows)}`);
    check(rows.every(r => r.bars === 2 && r.percentiles.length === 2), 'two views on every row');
    const of = title => rows.find(r => r.page === title);
    check(of('Garden Roses') && of('Garden Roses').percentiles[0] === 100, 'roses tops its own view');
    check(of('Tulip Bulbs') && of('Tulip Bulbs').percentiles[1] === 100, 'tulips tops its own view');
    await t.screenshot(page, 'serve-compare');
  },

  'every page fits a phone and a laptop screen': async t => {
    const page = t.tab;
    const code = 'file://' + path.join(t.scratch, 'site', 'code.html');
    const roses = 'file://' + path.join(t.scratch, 'site', 'roses.html');
    const tulips = 'file://' + path.join(t.scratch, 'site', 'tulips.html');
    const q = encodeURIComponent;
    const pages = {
      home: '/', search: '/search?q=roses', page: `/page?url=${q(code)}`,
      compare: `/compare?homes=${q(roses)}&homes=${q(tulips)}`, report: '/report',
      proxy: `/proxy?url=${q(code)}`,
    };
    for (const width of [390, 1280]) {
      await page.setViewportSize({width, height: 900});
      for (const [name, where] of Object.entries(pages)) {
        await page.goto(t.base + where);
        if (name === 'report' || name === 'page') {
          await page.waitForSelector('body[data-rendered="true"]');
        }
        const widths = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth, screen: window.innerWidth,
          wide: Array.from(document.querySelectorAll('main *'))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 3).map(e => `${e.tagName}.${e.className}`),
        }));
        check(widths.page <= widths.screen, `${name} at ${width} px: the page is ` +
              `${widths.page} px wide (${widths.wide.join(', ')})`);
        await t.screenshot(page, `serve-${width}-${name}`);
      }
      // Legends read the last values before any hover, not a dash.
      await page.goto(t.base + '/report');
      await page.waitForSelector('body[data-rendered="true"]');
      // (A series with no point at the last x reads a dash there.)
      const legends = await page.$$eval('.u-legend', ls => ls.map(l =>
        Array.from(l.querySelectorAll('.u-value'), v => v.textContent)));
      const dash = v => ['-', '–', '—', ''].includes(v.trim());
      check(legends.length > 0 && legends.every(vs => !dash(vs[0]) && vs.slice(1).some(v => !dash(v))),
            `legend values before hovering: ${JSON.stringify(legends)}`);
    }
    await page.setViewportSize({width: 1100, height: 900});
    // The compare table's headers name the views without running off the page.
    await page.goto(t.base + pages.compare);
    const heads = await page.$$eval('table.wr-compare th', ths => ths.map(th => th.getBoundingClientRect().right));
    check(heads.every(r => r <= 1100), `compare headers end at ${heads}`);
  },

  'a hostile page shows as text and runs nothing': async t => {
    const page = t.tab;
    await page.goto(t.base + '/search?q=hostile');
    const title = await page.textContent('.wr-hit-title a');
    check(title.includes("<script>window.pwned=1;alert('title')</script>"), `title as text: ${title}`);
    await Promise.all([page.waitForNavigation(), page.click('.wr-hit-title a')]);
    check((await page.textContent('h1')).includes('<img src=x'), 'page view title as text');
    await Promise.all([page.waitForNavigation(), page.click('a.wr-proxy-link')]);
    await page.hover('.wr-proxied p');
    await page.click('.wr-proxied p');
    const links = await page.$$eval('.wr-proxied a', as => as.map(a => a.getAttribute('href')));
    check(links.filter(h => h).every(h => h.startsWith('/proxy?url=')), `hrefs: ${links}`);
    await page.click('.wr-proxied a:text("click me")');
    check(await page.evaluate(() => window.pwned === undefined), 'no payload ran');
    check(await page.$$eval('.wr-proxied script, .wr-proxied iframe, .wr-proxied object, .wr-proxied img',
                            es => es.length) === 0, 'no script, frame, object or image');
    check((await page.textContent('.wr-proxied')).includes('[pixel]'), 'the image is its alt text');
    await t.screenshot(page, 'serve-hostile');
  },
});
