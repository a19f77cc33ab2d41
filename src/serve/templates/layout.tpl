{{%AUTOESCAPE context="HTML"}}
{{! Every page of the server: head, the search box, the view's body (BODY), the footer.
    Lines are joined without their leading and trailing blanks (STRIP_WHITESPACE). }}
<!DOCTYPE html>{{BI_NEWLINE}}
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{TITLE}} — webrank</title><link rel="stylesheet" href="/assets/serve.css">
{{#CHARTS}}
<link rel="stylesheet" href="/assets/uPlot.min.css">
<link rel="stylesheet" href="/assets/charts.css">
<script defer src="/assets/uPlot.iife.min.js"></script>
<script defer src="/assets/charts.js"></script>
<script defer src="/assets/serve.js"></script>
{{/CHARTS}}
</head><body><header class="wr-top"><a class="wr-logo" href="/">webrank</a>
<form class="wr-search" action="/search" method="get" role="search">
<input type="search" name="q" aria-label="Search" maxlength="2048" value="{{QUERY}}">
<select name="mode" aria-label="Mode">
{{#MODE}}<option value="{{NAME}}"{{#SELECTED}} selected{{/SELECTED}}>{{NAME}}</option>{{/MODE}}
</select><button type="submit">Search</button></form></header><main>
{{>BODY}}
</main><footer class="wr-footer">{{DATABASE}} · {{PAGES}} pages ·
{{#RANKED}} ranked by {{RANKS}}{{/RANKED}}{{#UNRANKED}} no rank vector yet{{/UNRANKED}}
{{#JSON}} · <a href="{{PATH}}">JSON</a>{{/JSON}}
{{BI_SPACE}}· <a href="/report">charts</a> · <a href="/api/v1">API</a></footer></body></html>{{BI_NEWLINE}}
