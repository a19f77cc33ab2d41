{{%AUTOESCAPE context="HTML"}}
{{! Two personalized views side by side (the paper's Table 2): the form, then the table. }}
<h1>Two personalized views</h1><p>PageRank personalized on a home page (its rank source is that page alone: the paper's §6) ranks the web as seen from there.
{{BI_SPACE}}Pick two home pages; the table shows where the pages of highest rank in either view stand in both, as percentiles (the paper's Table 2).</p>
<form class="wr-compare-form" action="/compare" method="get">
<label>Home page A <input name="a" size="60" value="{{A}}"></label><br>
<label>Home page B <input name="b" size="60" value="{{B}}"></label><br>
<button type="submit">Compare</button></form>
{{#TABLE}}
<table class="wr-ranks wr-compare"><thead><tr><th>page</th><th>from A: {{VIEW_A}}</th><th>from B: {{VIEW_B}}</th></tr></thead><tbody>
{{#ROW}}
<tr><td>{{>LINK}}</td>
{{#VIEW}}<td class="wr-view">{{>BAR}} <span class="wr-percentile">{{PERCENTILE}}</span></td>{{/VIEW}}
</tr>
{{/ROW}}
</tbody></table>
{{/TABLE}}
