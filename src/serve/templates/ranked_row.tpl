{{%AUTOESCAPE context="HTML"}}
{{! One row of a list of ranked pages: bar, words, title linking to its page view, URL. }}
<li class="wr-ranked">{{>BAR}} <span class="wr-words">{{WORDS}}</span>
{{BI_SPACE}}{{>LINK}} <span class="wr-url">{{URL}}</span>
{{#NOFOLLOW}} <em>(nofollow)</em>{{/NOFOLLOW}}</li>
