{{%AUTOESCAPE context="HTML"}}
{{! A page's view: its ranks in every stored vector, the convergence of the server's vector, the
    charts' place (drawn by serve.js), backlinks by PageRank and forward links. }}
<h1 class="wr-page-title">{{SHOWN}}</h1><p class="wr-url">{{URL}}
{{#LIVE}} · <a rel="noreferrer nofollow" href="{{URL}}">live page</a>{{/LIVE}}
{{#STORED}} · <a class="wr-proxy-link" href="/proxy?url={{URL:x-url-param}}">stored copy with PageRank bars</a>{{/STORED}}
</p><p>{{#UNFETCHED}}not fetched; {{/UNFETCHED}}{{#STATUS}}HTTP {{CODE}}; {{/STATUS}}
{{IN_LINKS}} links in, {{OUT_LINKS}} out{{#NOFOLLOW}} (and {{COUNT}} nofollow){{/NOFOLLOW}}</p>
<h2>Ranks</h2>
{{#NO_RANKS}}<p>No rank vector is stored yet: run <code>webrank rank</code>.</p>{{/NO_RANKS}}
{{#RANK_TABLE}}
<table class="wr-ranks"><thead><tr><th>vector</th><th>rank</th><th>percentile</th>
<th>position</th><th>bar</th><th>0–10</th></tr></thead><tbody>
{{#VECTOR}}
{{#UNREADABLE}}<tr><td>{{NAME}}</td><td colspan="5">unreadable: {{ERROR}}</td></tr>{{/UNREADABLE}}
{{#READ}}
<tr><td>{{NAME}}{{#UNCONVERGED}} (not converged){{/UNCONVERGED}}</td><td>{{RANK}}</td>
<td>{{PERCENTILE}}</td><td>{{POSITION}} of {{PAGES}}</td><td>{{>BAR}}</td><td>{{TOOLBAR}}</td></tr>
{{/READ}}
{{/VECTOR}}
</tbody></table>
{{/RANK_TABLE}}
{{#HISTORY}}
<h2>Convergence of {{RANKS}}</h2><p>L1 change of the vector at each iteration (log scale).</p>
<figure class="wr-chart" data-history="/api/v1/history?ranks={{RANKS:x-url-param}}">
{{#NO_ITERATIONS}}<p>No iterations recorded.</p>{{/NO_ITERATIONS}}
{{#CHART}}
<svg class="wr-history" viewBox="0 0 {{W}} {{H}}" role="img" aria-label="L1 change per iteration, log scale">
{{#AXIS}}<text class="wr-axis" x="4" y="{{TEXT_Y}}">1e{{EXPONENT}}</text>
<line class="wr-grid" x1="{{LEFT}}" x2="{{W}}" y1="{{Y}}" y2="{{Y}}"/>{{/AXIS}}
<text class="wr-axis" x="{{LEFT}}" y="{{BOTTOM}}">iteration 1</text>
<text class="wr-axis" x="{{LAST_X}}" y="{{BOTTOM}}">iteration {{ITERATIONS}}</text>
<polyline class="wr-line" points="{{POINTS}}"/></svg>
{{/CHART}}
</figure>
{{/HISTORY}}
<div class="wr-page-charts" data-view="page" data-report="/api/v1/report?url={{URL:x-url-param}}"></div>
<h2>Backlinks by PageRank</h2><p>{{TOTAL}} {{#ONE}}page links{{/ONE}}{{#MANY}}pages link{{/MANY}} here
{{#NONE}}.{{/NONE}}{{#SOME}}, {{FROM}}–{{TO}}:{{/SOME}}</p>
<ol class="wr-list wr-backlinks" start="{{START}}">{{>BACKLINK}}</ol>
{{#MORE}}<p><a rel="next" href="/page?url={{URL:x-url-param}}&amp;offset={{OFFSET}}{{#CUSTOM_K}}&amp;k={{K}}{{/CUSTOM_K}}">more backlinks</a></p>{{/MORE}}
<h2>Links from this page</h2><ol class="wr-list wr-forward">{{>FORWARD}}</ol>
{{#MORE_LINKS}}<p>and {{COUNT}} more (<a href="/api/v1/links?url={{URL:x-url-param}}">all, JSON</a>)</p>{{/MORE_LINKS}}
