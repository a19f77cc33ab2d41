#include "assets.hpp"

namespace webrank::serve {
namespace {

// The style of every page of the server; bars and charts are SVG coloured from here.
constexpr std::string_view kCss = R"css(
:root { --ink: #1d2330; --muted: #5c6475; --line: #d9dde5; --accent: #1f5fbf; --bar: #2e8b57; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
a { color: var(--accent); }
.wr-top { display: flex; gap: 1rem; align-items: center; padding: .6rem 1.25rem;
          border-bottom: 1px solid var(--line); background: #f6f7fa; }
.wr-logo { font-weight: 700; text-decoration: none; color: var(--ink); }
.wr-search { display: flex; gap: .4rem; flex: 1; max-width: 44rem; }
.wr-search input { flex: 1; padding: .35rem .5rem; font: inherit; }
.wr-search select, .wr-search button { font: inherit; }
.wr-footer { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem; color: var(--muted);
             border-top: 1px solid var(--line); font-size: 13px; }
.wr-url { color: #2b7a3b; font-size: 13px; word-break: break-all; }
.wr-words { color: var(--muted); font-size: 13px; }
.wr-results { padding-left: 2rem; }
.wr-hit { margin: 0 0 1rem; }
.wr-hit-title { font-size: 17px; }
.wr-snippet { margin: .2rem 0 0; }
.wr-snippet mark { background: #fff0a8; }
.wr-count, .wr-modes { color: var(--muted); }
.wr-modes strong { color: var(--ink); }
.wr-pages a, .wr-pages strong { margin-right: .4rem; }
.wr-error { color: #a11; }
.wr-list { padding-left: 2.2rem; }
.wr-ranked { margin: .15rem 0; }
.wr-bar { vertical-align: middle; }
.wr-bar-bg { fill: #e6e9ef; }
.wr-bar-fill { fill: var(--bar); }
.wr-bar-unknown .wr-bar-bg { fill: #fff; stroke: #9aa3b2; stroke-width: 1.5; stroke-dasharray: 4 3; }
.wr-ranks { border-collapse: collapse; }
.wr-ranks th, .wr-ranks td { border-bottom: 1px solid var(--line); padding: .25rem .6rem;
                             text-align: left; }
.wr-history { width: 100%; max-width: 40rem; height: auto; }
.wr-line { fill: none; stroke: var(--accent); stroke-width: 2; }
.wr-grid { stroke: var(--line); }
.wr-axis { fill: var(--muted); font-size: 11px; }
.wr-banner { padding: .6rem .8rem; margin-bottom: 1rem; background: #fffbe6;
             border: 1px solid #e8d98a; font-size: 14px; }
.wr-proxied { border: 1px solid var(--line); padding: 1rem; overflow-wrap: anywhere; }
.wr-proxied .wr-bar { margin-right: .25rem; }
.wr-img { color: var(--muted); }
)css";

}  // namespace

std::optional<Asset> find_asset(std::string_view name) {
  if (name == "serve.css") return Asset{kCss, "text/css; charset=utf-8"};
  return std::nullopt;
}

}  // namespace webrank::serve
