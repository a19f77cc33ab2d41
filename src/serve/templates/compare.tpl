{{%AUTOESCAPE context="HTML"}}
{{! Personalized views side by side (the paper's Table 2): the form, then the table, one column
    per view. }}
<h1>Two personalized views</h1><p>PageRank personalized on a home page (its rank source is that page alone: the paper's §6) ranks the web as seen from there.
{{BI_SPACE}}Pick two home pages; the table shows where the pages of highest rank in either view stand in both, as percentiles (the paper's Table 2).</p>
<form class="wr-compare-form" action="/compare" method="get">
<label for="wr-home-a">Home page A</label><input id="wr-home-a" name="homes" value="{{A}}">
<label for="wr-home-b">Home page B</label><input id="wr-home-b" name="homes" value="{{B}}">
<button type="submit">Compare</button></form>
{{#TABLE}}
<div class="wr-table-wrap"><table class="wr-ranks wr-compare"><thead><tr><th>page</th>
{{#HEAD}}<th>from {{LETTER}}: <span class="wr-view-name">{{VIEW}}</span></th>{{/HEAD}}
</tr></thead><tbody>
{{#ROW}}
<tr><td>{{>LINK}}</td>
{{#VIEW}}<td class="wr-view">{{>BAR}} <span class="wr-percentile">{{PERCENTILE}}</span></td>{{/VIEW}}
</tr>
{{/ROW}}
</tbody></table></div>
{{/TABLE}}
