// The server's templates (src/serve/templates.hpp): a value holding markup, a quote or a
// javascript: URL comes out inert in every context a template puts it in, in the templates the
// server uses and in one made for the purpose; templates that could not escape are refused.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "serve/html.hpp"
#include "serve/templates.hpp"
#include "webrank/assets/assets.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
std::span<const Asset> serve_templates();
}

namespace webrank::serve {
namespace {

constexpr const char* kScript = "<script>alert(1)</script>";
constexpr const char* kQuote = "\" onmouseover=\"alert(2)";
constexpr const char* kJavascript = " JaVaScRiPt:alert(3)";

// Every context, each value in each.
const char* kContexts =
    "{{%AUTOESCAPE context=\"HTML\"}}"
    "<p>{{V}}</p>"                                   // element text
    "<input value=\"{{V}}\">"                        // a quoted attribute
    "<a href=\"{{V}}\">u</a>"                        // a whole URL
    "<a href=\"/search?q={{V}}\">q</a>"              // inside a URL, not at its start
    "<a href=\"/page?url={{V:x-url-param}}\">p</a>"  // a query parameter
    "<title>{{V}}</title>";

std::string expand_with(const Templates& t, const char* name, const std::string& value) {
  Dictionary d("test");
  d.SetValue("V", value);
  return t.expand(name, d);
}

TEST(ServeTemplates, EveryContextEscapesMarkupQuotesAndJavascriptUrls) {
  const Templates::File files[] = {{"contexts.tpl", kContexts}};
  const Templates t(files);

  const std::string script = expand_with(t, "contexts.tpl", kScript);
  EXPECT_EQ(script,
            "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
            "<input value=\"&lt;script&gt;alert(1)&lt;/script&gt;\">"
            "<a href=\"&lt;script&gt;alert(1)&lt;/script&gt;\">u</a>"
            "<a href=\"/search?q=&lt;script&gt;alert(1)&lt;/script&gt;\">q</a>"
            "<a href=\"/page?url=%3Cscript%3Ealert%281%29%3C%2Fscript%3E\">p</a>"
            "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>");

  const std::string quote = expand_with(t, "contexts.tpl", kQuote);
  EXPECT_EQ(quote,
            "<p>&quot; onmouseover=&quot;alert(2)</p>"
            "<input value=\"&quot; onmouseover=&quot;alert(2)\">"
            "<a href=\"&quot; onmouseover=&quot;alert(2)\">u</a>"
            "<a href=\"/search?q=&quot; onmouseover=&quot;alert(2)\">q</a>"
            "<a href=\"/page?url=%22%20onmouseover%3D%22alert%282%29\">p</a>"
            "<title>&quot; onmouseover=&quot;alert(2)</title>");

  // A whole URL of another scheme than http or https is replaced; elsewhere it is only text.
  const std::string js = expand_with(t, "contexts.tpl", kJavascript);
  EXPECT_EQ(js,
            "<p> JaVaScRiPt:alert(3)</p>"
            "<input value=\" JaVaScRiPt:alert(3)\">"
            "<a href=\"#\">u</a>"
            "<a href=\"/search?q= JaVaScRiPt:alert(3)\">q</a>"
            "<a href=\"/page?url=%20JaVaScRiPt%3Aalert%283%29\">p</a>"
            "<title> JaVaScRiPt:alert(3)</title>");
  for (const char* url :
       {"javascript:alert(1)", "data:text/html,x", "vbscript:x", "JAVASCRIPT:x"}) {
    EXPECT_NE(expand_with(t, "contexts.tpl", url).find("<a href=\"#\">u</a>"), std::string::npos)
        << url;
  }
  // http, https and relative URLs stay, escaped for the attribute.
  EXPECT_NE(expand_with(t, "contexts.tpl", "http://a.example/?x=1&y=2")
                .find("<a href=\"http://a.example/?x=1&amp;y=2\">u</a>"),
            std::string::npos);
  EXPECT_NE(expand_with(t, "contexts.tpl", "/search?q=a&mode=full")
                .find("<a href=\"/search?q=a&amp;mode=full\">u</a>"),
            std::string::npos);
}

TEST(ServeTemplates, OutputIsValidUtf8WithoutControlCharacters) {
  const Templates::File files[] = {{"contexts.tpl", kContexts}};
  const Templates t(files);
  const std::string out = expand_with(t, "contexts.tpl",
                                      std::string("a\x01"
                                                  "b\xff"
                                                  "c\xC0\xAF"));
  EXPECT_NE(out.find("<p>a\xEF\xBF\xBD"
                     "b\xEF\xBF\xBD"
                     "c\xEF\xBF\xBD\xEF\xBF\xBD</p>"),
            std::string::npos)
      << out;
}

TEST(ServeTemplates, TemplatesThatCannotEscapeAreRefused) {
  const auto refused = [](const char* text) {
    const Templates::File files[] = {{"bad.tpl", text}};
    try {
      Templates t(files);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInternal);
      EXPECT_NE(std::string(e.what()).find("bad.tpl"), std::string::npos) << e.what();
      return true;
    }
    return false;
  };
  EXPECT_TRUE(refused("<p>{{V}}</p>"));  // no AUTOESCAPE: ctemplate would escape nothing
  EXPECT_TRUE(refused("{{%AUTOESCAPE context=\"HTML\"}}<a href={{V}}>x</a>"));  // unquoted URL
  EXPECT_TRUE(refused("{{%AUTOESCAPE context=\"HTML\"}}<p>{{#S}}</p>"));        // unclosed section
  // A template that includes one that is not in the set fails to expand instead of reading the
  // disk.
  const Templates::File files[] = {{"outer.tpl", "{{%AUTOESCAPE context=\"HTML\"}}<p>{{>I}}</p>"}};
  const Templates t(files);
  Dictionary d("test");
  include(d, "I", "layout.tpl");
  EXPECT_THROW(t.expand("outer.tpl", d), Error);
}

// The server's own templates, each variable given the three values, in the contexts they use.
TEST(ServeTemplates, BuiltInTemplatesEscapeEveryValue) {
  const Templates& t = Templates::built_in();
  for (const char* value : {kScript, kQuote, kJavascript}) {
    Dictionary page("page");
    for (const char* name : {"TITLE", "QUERY", "DATABASE", "PAGES"}) page.SetValue(name, value);
    page.SetValueAndShowSection("PATH", value, "JSON");
    Dictionary* mode = page.AddSectionDictionary("MODE");
    mode->SetValue("NAME", value);
    Dictionary* body = include(page, "BODY", "page.tpl");
    for (const char* name : {"SHOWN", "URL", "IN_LINKS", "TOTAL"}) body->SetValue(name, value);
    body->ShowSection("LIVE");
    body->ShowSection("STORED");
    Dictionary* link = include(*body, "BACKLINK", "ranked_row.tpl");
    link->SetValue("WORDS", value);
    link->SetValue("URL", value);
    include_bar(*link, "BAR", 50, value);
    Dictionary* title = include(*link, "LINK", "page_link.tpl");
    title->SetValue("URL", value);
    title->SetValue("SHOWN", value);
    const std::string out = t.expand("layout.tpl", page);
    EXPECT_EQ(out.find("<script>alert"), std::string::npos) << out;
    EXPECT_EQ(out.find("\" onmouseover"), std::string::npos) << out;
    EXPECT_FALSE(
        std::regex_search(out, std::regex("(href|src|action)=\"\\s*javascript", std::regex::icase)))
        << out;
    // The live link's href is the URL itself: another scheme than http or https is refused.
    if (value == kJavascript) {
      EXPECT_NE(out.find("<a rel=\"noreferrer nofollow\" href=\"#\">live page</a>"),
                std::string::npos)
          << out;
    }
  }
  Dictionary search("search");
  Dictionary* none = search.AddSectionDictionary("RESULTS")->AddSectionDictionary("NONE");
  Dictionary* suggestion = none->AddSectionDictionary("SUGGESTION");
  suggestion->SetValue("HREF", "javascript:alert(4)");
  suggestion->SetValue("WORD", kScript);
  const std::string out = t.expand("search.tpl", search);
  EXPECT_NE(out.find("Did you mean <a href=\"#\">&lt;script&gt;alert(1)&lt;/script&gt;</a>?"),
            std::string::npos)
      << out;
}

// :none writes a value as it is: only where the value is HTML webrank made itself.
TEST(ServeTemplates, OnlyTheProxiedBodyIsWrittenUnescaped) {
  std::vector<std::string> unescaped;
  const std::regex none(R"(\{\{([A-Z_]+)(:[^}]*)?:none\}\})");
  for (const Asset& a : serve_templates()) {
    const std::string text(a.bytes);
    EXPECT_TRUE(text.starts_with("{{%AUTOESCAPE context=\"HTML\"}}")) << a.name;
    for (std::sregex_iterator m(text.begin(), text.end(), none), end; m != end; ++m) {
      unescaped.push_back(std::string(a.name) + " " + (*m)[1].str());
    }
  }
  EXPECT_EQ(unescaped, std::vector<std::string>{"proxy.tpl STORED"});
}

}  // namespace
}  // namespace webrank::serve
