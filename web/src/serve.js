// The server's page view (webrank serve, docs/serve.md): the L1 change of every iteration of the
// rank vector, drawn with uPlot on a log scale from /api/v1/history. The server draws the same
// line as SVG, which stays when scripts are off; this replaces it with an interactive chart
// (hover for values). Loaded from /assets under the pages' Content-Security-Policy
// (script-src 'self'); uPlot styles its elements through the CSSOM, which that policy allows.
'use strict';

(function () {
  function draw(figure) {
    return fetch(figure.dataset.history)
      .then(r => {
        if (!r.ok) throw new Error(`${figure.dataset.history}: HTTP ${r.status}`);
        return r.json();
      })
      .then(h => {
        const y = h.l1.map(v => (v > 0 && Number.isFinite(v) ? v : null));
        if (y.length < 2) return;
        const x = y.map((_, i) => i + 1);
        const holder = document.createElement('div');
        holder.className = 'wr-uplot';
        const svg = figure.querySelector('svg');
        figure.insertBefore(holder, svg);
        const width = Math.max(320, Math.min(640, figure.clientWidth || 640));
        new uPlot({
          width, height: 220,
          scales: {x: {time: false}, y: {distr: 3}},
          series: [{label: 'iteration'},
                   {label: `L1 change (${h.ranks})`, stroke: '#1f5fbf', width: 2,
                    value: (u, v) => (v == null ? '-' : v.toExponential(2))}],
          axes: [{label: 'iteration'}, {label: 'L1 change', size: 70,
                                        values: (u, vs) => vs.map(v => (v == null ? '' : v.toExponential(0)))}],
        }, [x, y], holder);
        if (svg) svg.remove();
      });
  }

  const figures = document.querySelectorAll('figure.wr-chart[data-history]');
  Promise.all(Array.from(figures, f => draw(f).catch(e => console.warn(`chart: ${e.message}`))))
    .then(() => document.body.setAttribute('data-rendered', 'true'));
})();
