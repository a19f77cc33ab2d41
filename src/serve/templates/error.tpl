{{%AUTOESCAPE context="HTML"}}
<h1>Error {{STATUS}}</h1><p class="wr-error">{{MESSAGE}}</p>
