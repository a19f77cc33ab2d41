// `webrank report` opened in headless Chromium as a user would: a crawled web with several
// vectors, every chart drawn (a canvas with ink on it), the legend, hovering and toggling a
// series, switching the top list's vector, nothing fetched from the network; screenshots in the
// artifacts folder. Also over HTTP from 127.0.0.1.
'use strict';

const fs = require('fs');
const path = require('path');
const {run, check, inkedPixels} = require('./harness.cjs');

const CHARTS = ['convergence', 'distribution', 'degrees', 'components', 'bowtie', 'status'];

// A small site: 40 pages in 4 sections linking to each other and to a few pages never written
// (discovered, not fetched), so the crawl's status classes have two bars.
function writeSite(dir) {
  fs.mkdirSync(dir, {recursive: true});
  for (let i = 0; i < 40; ++i) {
    const links = [0, (i + 1) % 40, (i * 7) % 40, Math.floor(i / 10) * 10, 40 + (i % 3)];
    const body = links.map(j => `<a href="p${j}.html">page ${j}</a>`).join(' ');
    fs.writeFileSync(path.join(dir, `p${i}.html`),
                     `<html><head><title>Page ${i} &amp; <friends></title></head><body>${body}</body></html>`);
  }
}

run({
  'a crawled web with four vectors': async t => {
    writeSite(path.join(t.scratch, 'site'));
    t.webrank('import', 'site', '-o', 'web.db', '-q');
    t.webrank('rank', 'web.db', '-q');
    const home = 'file://' + path.join(t.scratch, 'site', 'p3.html');
    t.webrank('rank', 'web.db', '--personalize', home, '--name', 'home', '-q');
    t.webrank('hits', 'web.db', '-q');
    t.webrank('report', 'web.db', '-o', 'report.html', '-q');
    t.report = path.join(t.scratch, 'report.html');
    check(fs.statSync(t.report).size > 50000, 'the report inlines uPlot and its data');
  },

  'every chart is drawn': async t => {
    const page = t.page_ = await t.page();
    await page.goto('file://' + t.report);
    await page.waitForSelector('main[data-rendered="true"]', {timeout: 10000});
    for (const id of CHARTS) {
      const canvas = `[data-chart="${id}"] .uplot canvas`;
      check(await page.$(canvas), `chart ${id} has a canvas`);
      const ink = await inkedPixels(page, canvas);
      check(ink > 300, `chart ${id} has ink on its canvas (${ink} pixels)`);
    }
    check(await page.title() === 'webrank report: web.db', `title: ${await page.title()}`);
    // The charts draw the data: 40 pages fetched (2xx), 3 linked and never fetched.
    const status = await page.evaluate(() => {
      const u = WebrankCharts.instances.find(u => u.root.textContent.includes('HTTP status'));
      return u && Array.from(u.data[1]);
    });
    check(JSON.stringify(status) === '[40,3]', `status classes: ${status}`);
    await t.screenshot(page, 'report');
    await t.screenshot(await page.$('[data-chart="convergence"]'), 'report-convergence');
  },

  'the legend names every vector': async t => {
    const labels = await t.page_.$$eval('[data-chart="convergence"] .u-legend .u-series th',
                                        ths => ths.map(th => th.textContent.trim()));
    for (const name of ['pagerank', 'home', 'hits.authority', 'hits.hub']) {
      check(labels.some(l => l.startsWith(name)), `legend has ${name}: ${labels}`);
    }
  },

  'hovering reads values': async t => {
    const page = t.page_;
    const value = () => page.$eval('[data-chart="convergence"] .u-legend .u-series:nth-child(2) td',
                                   td => td.textContent.trim());
    const over = await page.$('[data-chart="convergence"] .u-over');
    const box = await over.boundingBox();
    await page.mouse.move(box.x + 5, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 4, box.y + box.height / 2, {steps: 4});
    const shown = await value();
    check(/^[0-9.]+(e[-+]\d+)?$/.test(shown), `the legend shows the value under the cursor: '${shown}'`);
  },

  'clicking the legend hides a series': async t => {
    const page = t.page_;
    const entry = '[data-chart="convergence"] .u-legend .u-series:nth-child(3)';
    await page.click(entry);
    check(await page.$eval(entry, e => e.classList.contains('u-off')), 'the entry is marked off');
    const shown = await page.evaluate(() => WebrankCharts.instances[0].series[2].show);
    check(shown === false, 'the series is hidden');
    await page.click(entry);
    check(!(await page.$eval(entry, e => e.classList.contains('u-off'))), 'and shown again');
  },

  'the top list switches vectors': async t => {
    const page = t.page_;
    const firstRow = () => page.$eval('.wr-toplist tbody tr:first-child .wr-label', td => td.getAttribute('title'));
    const before = await firstRow();
    await page.selectOption('[data-chart="top"] select', {label: 'home'});
    const after = await firstRow();
    check(after.endsWith('/p3.html'), `personalized on p3, its top page is p3: ${after}`);
    check(before !== after, 'the list changed');
    const rows = await page.$$eval('.wr-toplist tbody tr', trs => trs.length);
    check(rows === 20, `20 rows (-k 20): ${rows}`);
    const widths = await page.$$eval('.wr-topbar', bars => bars.map(b => parseFloat(b.style.width)));
    check(widths[0] === 100 && widths.every(w => w > 0 && w <= 100), `bars: ${widths.slice(0, 5)}`);
    const title = await page.$eval('.wr-toplist tbody tr:first-child .wr-label', td => td.textContent);
    check(title.includes('<friends>'), `titles are text, not markup: ${title}`);
    await t.screenshot(await page.$('#top'), 'report-top');
  },

  'served from 127.0.0.1 it is the same page': async t => {
    const url = await t.serve(t.scratch);
    const page = await t.page();
    await page.goto(`${url}/report.html`);
    await page.waitForSelector('main[data-rendered="true"]', {timeout: 10000});
    const canvases = await page.$$eval('.uplot canvas', c => c.length);
    check(canvases === CHARTS.length, `${canvases} charts`);
  },
  'sixteen vectors get sixteen colours': async t => {
    // Four vectors so far (pagerank, home, the two of HITS); twelve more.
    for (let i = 0; i < 12; ++i) {
      t.webrank('rank', 'web.db', '--damping', String(0.5 + 0.03 * i), '--name', `v${i}`, '-q');
    }
    t.webrank('report', 'web.db', '-o', 'report16.html', '-q');
    const page = await t.page();
    await page.goto('file://' + path.join(t.scratch, 'report16.html'));
    await page.waitForSelector('main[data-rendered="true"]', {timeout: 10000});
    const strokes = await page.evaluate(() => {
      const u = WebrankCharts.instances.find(u => u.root.closest('[data-chart="convergence"]'));
      return u.series.slice(1).map((s, i) => typeof s.stroke === 'function' ? s.stroke(u, i + 1) : s.stroke);
    });
    check(strokes.length === 16, `16 series: ${strokes.length}`);
    check(new Set(strokes).size === 16, `16 distinct colours: ${strokes}`);
    check(strokes.every(c => /^#[0-9a-f]{6}$/.test(c)), `colours as hex: ${strokes}`);
  },
});
