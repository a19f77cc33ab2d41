// webrank's charts: functions that draw, with uPlot, the JSON the library produces
// (include/webrank/json.hpp). `webrank report` inlines this file with uPlot into one page and
// calls renderReport(); a server's page views call the single charts with the same JSON.
//
//   WebrankCharts.convergence(el, data.convergence)        L1 change per iteration, log scale
//   WebrankCharts.distribution(el, data.distribution)      CCDF of a vector, log-log, power law
//   WebrankCharts.degrees(el, data.degrees)                in- and out-degree distributions
//   WebrankCharts.componentSizes(el, data.components)      strongly connected component sizes
//   WebrankCharts.bowTie(el, data.components)              pages around the largest component
//   WebrankCharts.statusClasses(el, data.summary.crawl)    HTTP status classes of a crawl
//   WebrankCharts.topPages(el, data.top)                   top pages of each vector, with bars
//   WebrankCharts.crawlOrder(el, study)                    `webrank crawl-order --json` curves
//   WebrankCharts.renderReport(el, data)                   all of the above, with headings
//   WebrankCharts.renderPage(el, data)                     a server's page view: the page
//                                                          (data.page) marked on the charts
//
// distribution() and degrees() take a page as third argument (the "page" object of the server's
// /api/v1/report?url=URL, docs/serve.md) and mark where it stands.
//
// Each chart function returns its uPlot instance (or null when there is nothing to draw, after
// saying so in `el`). Everything the page shows comes from the JSON: text is set with
// textContent, never parsed as HTML.
(function (global) {
  'use strict';

  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
                   '#7f7f7f', '#bcbd22', '#17becf'];
  const HEIGHT = 320;
  const instances = [];

  // Beyond the palette (a report of many vectors), hues a golden angle apart at two lightnesses,
  // so that no two series share a colour; as hex, like the palette (callers append an alpha).
  function color(i) {
    if (i < PALETTE.length) return PALETTE[i];
    const h = ((i - PALETTE.length) * 137.508 + 15) % 360, s = 0.65, l = i % 2 ? 0.38 : 0.52;
    const a = s * Math.min(l, 1 - l);
    const f = n => {
      const k = (n + h / 30) % 12;
      return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    };
    return '#' + [f(0), f(8), f(4)].map(x => Math.round(x * 255).toString(16).padStart(2, '0')).join('');
  }

  function element(tag, props, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children || []) e.appendChild(c);
    return e;
  }

  function number(v) {
    if (v === null || v === undefined || Number.isNaN(v)) return '–';
    const a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e6)) return v.toExponential(2);
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    return String(+v.toPrecision(4));
  }

  function logTicks(u, values) {
    return values.map(v => (v === null ? '' : Math.abs(Math.log10(v) % 1) < 1e-9 ||
                            Math.abs(Math.log10(v) % 1) > 1 - 1e-9 ? number(v) : ''));
  }

  function chartWidth(el) {
    return Math.max(320, Math.min(el.clientWidth || 800, 1000));
  }

  function nothing(el, text) {
    el.appendChild(element('p', {class: 'wr-empty', text}));
    return null;
  }

  // Dashed vertical lines at x values, labelled at the top, drawn over the plot: where a page
  // stands. The labels are also the element's data-marks attribute.
  function markLines(el, marks) {
    el.dataset.marks = marks.map(m => m.label).join('; ');
    const draw = u => {
      const r = window.devicePixelRatio || 1;
      const ctx = u.ctx;
      ctx.save();
      marks.forEach((m, i) => {
        const x = u.valToPos(m.x, 'x', true);
        if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) return;
        ctx.strokeStyle = ctx.fillStyle = m.color;
        ctx.lineWidth = 2 * r;
        ctx.setLineDash([5 * r, 4 * r]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.font = `${12 * r}px system-ui, sans-serif`;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'alphabetic';
        const width = ctx.measureText(m.label).width;
        const right = x + 4 * r + width > u.bbox.left + u.bbox.width;
        ctx.fillText(m.label, right ? x - 4 * r - width : x + 4 * r, u.bbox.top + (14 + 16 * i) * r);
      });
      ctx.restore();
    };
    return {hooks: {draw: [draw]}};
  }

  function plot(el, opts, data) {
    el.classList.add('wr-chart');
    // The legend reads the last point's values while the cursor is off the chart (uPlot would
    // show a dash there until a reader hovers).
    const last = data[0] && data[0].length ? data[0].length - 1 : null;
    const rest = u => { if (last !== null && u.cursor.idx == null) u.setLegend({idx: last}); };
    const hooks = Object.assign({}, opts.hooks);
    hooks.setCursor = [...(hooks.setCursor || []), rest];
    const u = new uPlot(Object.assign({width: chartWidth(el), height: HEIGHT}, opts, {hooks}),
                        data, el);
    rest(u);
    instances.push(u);
    return u;
  }

  // Values on a log axis must be positive: anything else is a gap.
  function positive(v) { return v !== null && v > 0 ? v : null; }

  // Several series with their own x values on one x axis (the union, gaps elsewhere).
  function align(list, value = positive) {
    const xs = Array.from(new Set(list.flatMap(s => s.x))).sort((a, b) => a - b);
    const at = new Map(xs.map((x, i) => [x, i]));
    const ys = list.map(s => {
      const y = new Array(xs.length).fill(null);
      s.x.forEach((x, i) => { y[at.get(x)] = value(s.y[i]); });
      return y;
    });
    return [xs, ...ys];
  }

  function scatter(label, i, extra) {
    return Object.assign({label, stroke: color(i), fill: color(i), width: 0,
                          paths: () => null, points: {show: true, size: 7, width: 1, fill: color(i)}, value: (u, v) => number(v)},
                         extra || {});
  }

  // The paper's Figure 4: the L1 norm of the change per iteration, every stored vector.
  function convergence(el, series) {
    series = (series || []).filter(s => s.deltas && s.deltas.length);
    if (!series.length) return nothing(el, 'No stored vector records its iterations.');
    const n = Math.max(...series.map(s => s.deltas.length));
    const x = Array.from({length: n}, (_, i) => i + 1);
    const data = [x, ...series.map(s => x.map(i => positive(i <= s.deltas.length ? s.deltas[i - 1] : null)))];
    return plot(el, {
      title: 'L1 change per iteration',
      scales: {x: {time: false}, y: {distr: 3}},
      axes: [{label: 'iteration'}, {label: 'L1 norm of the change', values: logTicks, size: 70}],
      series: [{label: 'iteration'}, ...series.map((s, i) => ({
        label: s.name + (s.converged ? '' : ' (not converged)'), stroke: color(i), width: 2,
        points: {show: n <= 60}, value: (u, v) => number(v)}))],
    }, data);
  }

  function fitText(fit) {
    return fit && fit.ok ? `power law, alpha = ${fit.alpha.toFixed(2)} for x >= ${number(fit.x_min)}` +
                           ` (${number(fit.tail)} values, KS ${fit.ks.toFixed(3)})` : 'no power-law fit';
  }

  // Fraction of pages with a value >= x, log-log, with the fitted power law over its tail; a
  // page, when given, as a point of its own (its value and the fraction at least as high).
  function distribution(el, d, page) {
    if (!d || !d.ccdf || !d.ccdf.x.length) return nothing(el, 'No stored vector to show.');
    const fit = d.fit;
    const marked = page && page.vector === d.vector && positive(page.fraction) !== null;
    const list = [d.ccdf];
    if (marked) list.push({x: [page.value], y: [page.fraction]});
    const [x, ...ys] = align(list);
    const line = x.map(v => (fit && fit.ok && v >= fit.x_min
      ? fit.tail_fraction * Math.pow(v / fit.x_min, 1 - fit.alpha) : null));
    const series = [{label: 'value', value: (u, v) => number(v)}, scatter('pages', 0),
                    {label: `fit (alpha ${fit && fit.ok ? fit.alpha.toFixed(2) : '–'})`, stroke: color(1),
                     width: 2, dash: [6, 4], spanGaps: true, value: (u, v) => number(v)}];
    const data = [x, ys[0], line];
    const opts = {
      title: `Distribution of '${d.vector}': ${fitText(fit)}`,
      scales: {x: {time: false, distr: 3}, y: {distr: 3}},
      axes: [{label: 'value', values: logTicks}, {label: 'fraction of pages >= value', values: logTicks, size: 70}],
      series,
    };
    if (marked) {
      series.push(scatter(`this page (${number(page.value)}; ${number(100 * page.fraction)}% of pages rank as high)`, 3,
                          {points: {show: true, size: 13, width: 2, fill: color(3)}}));
      data.push(ys[1]);
      opts.plugins = [markLines(el, [{x: page.value, label: 'this page', color: color(3)}])];
    } else if (page) {
      el.dataset.marks = '';
    }
    return plot(el, opts, data);
  }

  // Pages of each degree; a page, when given, as a line at its in-degree and one at its
  // out-degree (a degree of 0 has no place on the log axis: the title says it).
  function degrees(el, d, page) {
    if (!d || (!d.in.x.length && !d.out.x.length)) return nothing(el, 'The web has no links.');
    let title = `Degrees: in ${fitText(d.in_fit)}; out ${fitText(d.out_fit)}`;
    const opts = {};
    if (page) {
      const marks = [];
      if (page.in_degree > 0) marks.push({x: page.in_degree, label: `in-degree ${number(page.in_degree)}`, color: color(0)});
      if (page.out_degree > 0) marks.push({x: page.out_degree, label: `out-degree ${number(page.out_degree)}`, color: color(1)});
      title = `This page: ${number(page.in_degree)} links in, ${number(page.out_degree)} out`;
      opts.plugins = [markLines(el, marks)];
    }
    return plot(el, Object.assign(opts, {
      title,
      scales: {x: {time: false, distr: 3}, y: {distr: 3}},
      axes: [{label: 'degree', values: logTicks}, {label: 'pages', values: logTicks, size: 70}],
      series: [{label: 'degree', value: (u, v) => number(v)},
               scatter(`in-degree (${number(d.in_zero)} pages with none)`, 0),
               scatter(`out-degree (${number(d.out_zero)} pages with none)`, 1)],
    }), align([d.in, d.out]));
  }

  function componentSizes(el, c) {
    if (!c || !c.sizes.x.length) return nothing(el, 'No components.');
    return plot(el, {
      title: `${number(c.components)} strongly connected components; the largest has ${number(c.largest)} pages`,
      scales: {x: {time: false, distr: 3}, y: {distr: 3}},
      axes: [{label: 'component size (pages)', values: logTicks}, {label: 'components', values: logTicks, size: 70}],
      series: [{label: 'size', value: (u, v) => number(v)}, scatter('components', 2)],
    }, [c.sizes.x, c.sizes.y.map(positive)]);
  }

  // A bar chart of named counts.
  function bars(el, title, names, counts, label) {
    const x = names.map((_, i) => i);
    return plot(el, {
      title,
      scales: {x: {time: false, range: [-0.5, names.length - 0.5]}, y: {range: (u, lo, hi) => [0, Math.max(1, hi) * 1.1]}},
      axes: [{splits: () => x, values: (u, splits) => splits.map(i => names[i] ?? ''), grid: {show: false}},
             {label, size: 70, values: (u, vs) => vs.map(number)}],
      series: [{label: 'class', value: (u, i) => (i === null ? '–' : names[i] ?? '')},
               {label, stroke: color(0), fill: color(0) + 'aa', width: 1,
                paths: uPlot.paths.bars({size: [0.6, 80]}), points: {show: false}, value: (u, v) => number(v)}],
    }, [x, counts]);
  }

  function bowTie(el, c) {
    if (!c || !c.components) return nothing(el, 'No components.');
    return bars(el, 'The bow-tie around the largest component',
                ['core (largest)', 'in (reach the core)', 'out (reached from it)', 'other'],
                [c.core, c.in, c.out, c.other], 'pages');
  }

  function statusClasses(el, crawl) {
    if (!crawl) return nothing(el, 'Not a crawl: this database has no HTTP statuses.');
    const names = Object.keys(crawl.status || {}).sort();
    const counts = names.map(k => crawl.status[k]);
    names.push('not fetched');
    counts.push(crawl.not_fetched_pages || 0);
    return bars(el, `HTTP status of ${number(crawl.fetched_pages)} fetched pages`, names, counts, 'pages');
  }

  // The top pages of each vector as the paper lists them: rank, percentile and a log-scale bar.
  function topPages(el, tops) {
    if (!tops || !tops.length) return nothing(el, 'No stored vectors.');
    const select = element('select', {'aria-label': 'vector'});
    tops.forEach((t, i) => select.appendChild(element('option', {value: String(i), text: t.vector})));
    // PageRank first when there is one, as `webrank top` shows it by default.
    const first = Math.max(0, tops.findIndex(t => t.vector === 'pagerank'));
    select.value = String(first);
    const body = element('tbody');
    const table = element('table', {class: 'wr-toplist'}, [
      element('thead', {}, [element('tr', {}, ['#', 'page', 'rank', 'percentile', 'bar'].map(
        h => element('th', {text: h})))]), body]);
    function show(i) {
      body.replaceChildren(...tops[i].pages.map((p, k) => {
        const bar = element('div', {class: 'wr-topbar'});
        bar.style.width = `${Math.max(0, Math.min(100, p.bar))}%`;
        const page = element('td', {class: 'wr-label', title: p.label, text: p.title || p.label});
        return element('tr', {}, [element('td', {text: String(k + 1)}), page,
          element('td', {text: number(p.rank)}), element('td', {text: p.percentile.toFixed(2)}),
          element('td', {class: 'wr-barcell'}, [bar])]);
      }));
    }
    select.addEventListener('change', () => show(+select.value));
    el.appendChild(element('label', {class: 'wr-select'}, [document.createTextNode('vector '), select]));
    el.appendChild(table);
    show(first);
    return null;
  }

  // `webrank crawl-order --json`: fraction of hot pages found against fraction of pages crawled.
  function crawlOrder(el, s) {
    if (!s || !s.curves || !s.curves.length) return nothing(el, 'No crawl to show.');
    const list = s.curves.map(c => ({x: c.crawled, y: c.hot}));
    list.push({x: s.ideal.crawled, y: s.ideal.hot});
    const data = align(list, v => v);
    return plot(el, {
      title: `Hot pages (top ${(100 * s.hot_fraction).toFixed(1)}% by ${s.hot_by}) found while crawling ${number(s.reachable)} pages`,
      scales: {x: {time: false, range: [0, 1]}, y: {range: [0, 1]}},
      axes: [{label: 'fraction of pages crawled'}, {label: 'fraction of hot pages found', size: 60}],
      series: [{label: 'crawled', value: (u, v) => number(v)},
               ...s.curves.map((c, i) => ({label: c.order, stroke: color(i), width: 2, spanGaps: true,
                                           value: (u, v) => number(v)})),
               {label: 'ideal', stroke: '#999', width: 1, dash: [4, 4], spanGaps: true, value: (u, v) => number(v)}],
    }, data);
  }

  function summaryTable(el, s) {
    const rows = [['pages', s.pages], ['links', s.links], ['dangling pages', s.dangling_pages],
                  ['self-links', s.self_links], ['isolated pages', s.isolated_pages],
                  ['median in-degree', s.in_degree && s.in_degree.median],
                  ['largest in-degree', s.in_degree && s.in_degree.max],
                  ['largest out-degree', s.out_degree && s.out_degree.max],
                  ['stored vectors', (s.ranks || []).length]];
    el.appendChild(element('table', {class: 'wr-summary'}, [element('tbody', {}, rows.map(
      ([k, v]) => element('tr', {}, [element('th', {text: k}), element('td', {text: number(v)})])))]));
  }

  function section(root, id, title, note) {
    const s = element('section', {id, class: 'wr-section'}, [element('h2', {text: title})]);
    if (note) s.appendChild(element('p', {class: 'wr-note', text: note}));
    const body = element('div', {class: 'wr-body', 'data-chart': id});
    s.appendChild(body);
    root.appendChild(s);
    return body;
  }

  function renderReport(root, data) {
    const head = element('p', {class: 'wr-generated',
                               text: `${data.summary.database}, generated ${data.generated} by webrank`});
    root.appendChild(head);
    summaryTable(section(root, 'summary', 'The web'), data.summary);
    convergence(section(root, 'convergence', 'Convergence',
      'The paper\'s Figure 4: the L1 norm of the change between iterations, for every stored vector. ' +
      'Click a name in the legend to hide or show it; hover to read values.'), data.convergence);
    distribution(section(root, 'distribution', 'Rank distribution',
      'Fraction of pages whose value is at least x (log-log). A straight tail is a power law; ' +
      'alpha is the exponent of its density, fitted by maximum likelihood (Clauset et al. 2009).'),
      data.distribution);
    degrees(section(root, 'degrees', 'Degree distributions', 'Pages with each in- and out-degree (log-log).'),
            data.degrees);
    topPages(section(root, 'top', 'Top pages', 'Bars on a log scale, the top page at 100% (docs/ranking.md).'),
             data.top);
    componentSizes(section(root, 'components', 'Strongly connected components'), data.components);
    bowTie(section(root, 'bowtie', 'Bow-tie'), data.components);
    statusClasses(section(root, 'status', 'Crawl status'), data.summary.crawl);
    root.setAttribute('data-rendered', 'true');
  }

  // A server's page view (data: /api/v1/report?url=URL): where the page stands on the rank
  // distribution and on the degree distributions.
  function renderPage(root, data) {
    const p = data.page;
    distribution(section(root, 'page-distribution', 'Where this page ranks',
      `The page's value in '${p.vector || 'no vector'}' (the large point) on the distribution of ` +
      'every page\'s value: the fraction of pages whose value is at least as high (log-log).'),
      data.distribution, p);
    degrees(section(root, 'page-degrees', 'Its links among all pages\' links',
      'The dashed lines are this page\'s in- and out-degree on the degree distributions of the web.'),
      data.degrees, p);
    root.setAttribute('data-rendered', 'true');
  }

  global.WebrankCharts = {convergence, distribution, degrees, componentSizes, bowTie, statusClasses,
                          topPages, crawlOrder, summaryTable, renderReport, renderPage, instances};
})(typeof window !== 'undefined' ? window : globalThis);
