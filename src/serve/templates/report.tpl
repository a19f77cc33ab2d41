{{%AUTOESCAPE context="HTML"}}
{{! The charts of `webrank report` for the whole web, drawn by serve.js from /api/v1/report. }}
<h1>Charts of {{DATABASE}}</h1><p class="wr-note">The charts of <code>webrank report</code>, drawn from
{{BI_SPACE}}<a href="/api/v1/report">/api/v1/report</a>: the convergence of every stored vector, the rank and degree distributions with their power-law fits, the top pages, the strongly connected components and the crawl's status classes.
{{BI_SPACE}}A page's view marks where it stands. Scripts draw them; without scripts, read the JSON.</p>
<div id="report" data-view="report" data-report="/api/v1/report"></div>
