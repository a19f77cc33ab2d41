// The charts of the server's pages (webrank serve, docs/serve.md), drawn by charts.js (the chart
// code of `webrank report`) from the JSON API:
//   figure.wr-chart[data-history]      the page view's L1 change per iteration of the server's
//                                      vector (/api/v1/history), in place of the SVG the server
//                                      drew (which stays when scripts are off);
//   [data-report][data-view=report]    the web's overview (/report): every chart of the report;
//   [data-report][data-view=page]      a page view: the page marked on the rank and degree
//                                      distributions (/api/v1/report?url=URL).
// Loaded from /assets under the pages' Content-Security-Policy (script-src 'self'); uPlot styles
// its elements through the CSSOM, which that policy allows. When everything is drawn (or has
// failed, with a warning in the console) the body gets data-rendered="true".
'use strict';

(function () {
  function fetchJson(url) {
    return fetch(url).then(r => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.json();
    });
  }

  function history(figure) {
    return fetchJson(figure.dataset.history).then(h => {
      const deltas = h.l1.filter(v => v > 0 && Number.isFinite(v));
      if (deltas.length < 2) return;
      const svg = figure.querySelector('svg');
      if (svg) svg.remove();
      WebrankCharts.convergence(figure, [{name: h.ranks, converged: h.converged, deltas: h.l1}]);
    });
  }

  function report(el) {
    return fetchJson(el.dataset.report).then(data => {
      if (el.dataset.view === 'page') WebrankCharts.renderPage(el, data);
      else WebrankCharts.renderReport(el, data);
    });
  }

  const jobs = [
    ...Array.from(document.querySelectorAll('figure.wr-chart[data-history]'), history),
    ...Array.from(document.querySelectorAll('[data-report]'), report),
  ];
  Promise.all(jobs.map(j => j.catch(e => console.warn(`chart: ${e.message}`))))
    .then(() => document.body.setAttribute('data-rendered', 'true'));
})();
