{{%AUTOESCAPE context="HTML"}}
<h1>Search {{DATABASE}}</h1><p>{{PAGES}} pages, {{LINKS}} links.
{{BI_SPACE}}Words, "phrases", -excluded, OR, site:HOST, intitle:WORD; modes: full (text and PageRank), text, title.
{{BI_SPACE}}<a href="/compare">Compare two personalized views</a>.
{{BI_SPACE}}<a class="wr-report-link" href="/report">Charts of this web</a>: convergence, rank and degree distributions, components, crawl status.</p>
{{#NO_INDEX}}
<p class="wr-notice">Search is off: this database has no search index (<code>webrank index {{DATABASE}}</code> builds one; the server picks it up within a second).</p>
{{/NO_INDEX}}
{{#TOP}}
<h2>Pages of highest PageRank ({{RANKS}})</h2><ol class="wr-list">{{>ROW}}</ol>
{{/TOP}}
