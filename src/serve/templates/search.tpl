{{%AUTOESCAPE context="HTML"}}
{{! The result page of a query: modes, the hits (or why there are none), the pages of results. }}
{{#MALFORMED}}<p class="wr-error">{{MESSAGE}}</p>{{/MALFORMED}}
{{#RESULTS}}
<nav class="wr-modes">
{{#MODE}}{{#CURRENT}}<strong>{{NAME}}</strong> {{/CURRENT}}{{#OTHER}}<a href="{{HREF}}">{{NAME}}</a> {{/OTHER}}{{/MODE}}
</nav>
{{#NONE}}
<p class="wr-count">No page matches <q>{{QUERY}}</q>
{{#UNKNOWN}}: no page {{#TITLE}}title {{/TITLE}}has {{WORDS}}{{/UNKNOWN}}
{{#PAST}} past result {{OFFSET}}{{/PAST}}.</p>
{{#SUGGESTION}}<p class="wr-suggestion">Did you mean <a href="{{HREF}}">{{WORD}}</a>?</p>{{/SUGGESTION}}
{{/NONE}}
{{#HITS}}
<p class="wr-count">{{#ABOUT}}About {{/ABOUT}}{{MATCHES}} results, {{FIRST}}–{{LAST}}</p>
<ol class="wr-results" start="{{FIRST}}">
{{#HIT}}
<li class="wr-hit"><div class="wr-hit-title">{{>LINK}}</div><div class="wr-url">{{URL}}</div>
<div class="wr-rank">{{>BAR}} <span class="wr-words">{{WORDS}}</span>
{{BI_SPACE}}<a class="wr-proxy-link" href="/proxy?url={{URL:x-url-param}}">stored copy</a></div>
{{#SNIPPET}}<p class="wr-snippet">{{#CUT_BEFORE}}…{{/CUT_BEFORE}}{{#PART}}{{TEXT}}{{#MARK}}<mark>{{MARKED}}</mark>{{/MARK}}{{/PART}}{{#CUT_AFTER}}…{{/CUT_AFTER}}</p>{{/SNIPPET}}
</li>
{{/HIT}}
</ol>
{{/HITS}}
<nav class="wr-pages">
{{#PREVIOUS}}<a rel="prev" href="{{HREF}}">Previous</a> {{/PREVIOUS}}
{{#PAGE}}{{#CURRENT}}<strong>{{NUMBER}}</strong> {{/CURRENT}}{{#OTHER}}<a href="{{HREF}}">{{NUMBER}}</a> {{/OTHER}}{{/PAGE}}
{{#NEXT}}<a rel="next" href="{{HREF}}">Next</a>{{/NEXT}}
</nav>
{{/RESULTS}}
