{{%AUTOESCAPE context="HTML"}}
{{! A page's title (or URL) linking to its page view. }}
<a class="wr-page-link" href="/page?url={{URL:x-url-param}}">{{SHOWN}}</a>
