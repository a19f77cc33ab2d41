{{%AUTOESCAPE context="HTML"}}
{{! The stored copy of a crawled page under a banner naming it. STORED is HTML that webrank wrote
    itself: sanitize_page() (proxy.cpp) rewrote the crawled body from gumbo's parse, escaping
    every text and attribute it kept, so it goes in unescaped (:none). }}
<div class="wr-banner">{{>BAR}} Stored copy of <a href="/page?url={{URL:x-url-param}}">{{URL}}</a> ({{WORDS}}).
{{BI_SPACE}}The bar before each link shows its target's PageRank; a dashed one, a page not in the database. Scripts, styles and images of the page are not shown.
{{#LIVE}} <a rel="noreferrer nofollow" href="{{URL}}">Live page</a>.{{/LIVE}}
</div><div class="wr-proxied">{{STORED:none}}</div>
