{{%AUTOESCAPE context="HTML"}}
{{! The bar of a rank on the log scale (WIDTH, 0-100), inline SVG with no style attribute (so a
    strict Content-Security-Policy holds), TIP its tooltip; UNKNOWN: an empty, dashed bar. }}
<svg class="wr-bar{{#UNKNOWN}} wr-bar-unknown{{/UNKNOWN}}" width="60" height="9"
{{BI_SPACE}}viewBox="0 0 100 9" preserveAspectRatio="none" role="img" aria-label="{{TIP}}">
<title>{{TIP}}</title><rect class="wr-bar-bg" width="100" height="9"/>
{{#KNOWN}}<rect class="wr-bar-fill" width="{{WIDTH}}" height="9"/>{{/KNOWN}}
</svg>
