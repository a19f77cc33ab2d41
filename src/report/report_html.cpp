// The report page (webrank/report/report.hpp): one HTML file with everything inlined.
#include <algorithm>
#include <cctype>

#include "webrank/assets/assets.hpp"
#include "webrank/report/report.hpp"
#include "webrank/report/report_json.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/output_file.hpp"

namespace webrank {
namespace {

std::string escape_html(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Text inside <script> or <style> ends at the first "</script" or "</style" (in any case):
// such a sequence (in a string or a comment of an asset) is written as "<\/script", which means
// the same in JavaScript and in CSS strings.
std::string inline_text(std::string_view s) {
  std::string out(s);
  for (std::size_t at = 0; (at = out.find("</", at)) != std::string::npos; ++at) {
    std::string next = out.substr(at + 2, 6);
    for (char& c : next) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (next.rfind("script", 0) == 0 || next.rfind("style", 0) == 0) out.insert(at + 1, "\\");
  }
  return out;
}

// JSON for a <script type="application/json"> element: '<', '>' and '&' occur only inside
// strings, where \u escapes mean the same, so no markup can end the element early.
std::string inline_json(const nlohmann::json& j) {
  const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

// The page: uPlot, its style sheet, charts.js and `data` inlined; `call` draws into #report.
std::string page(const std::string& title, const nlohmann::json& data, const std::string& call) {
  std::string html;
  html += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>" + escape_html(title) + "</title>\n";
  html += "<link rel=\"icon\" href=\"data:,\">\n";  // no favicon request: nothing is fetched
  html += "<style>\n" + inline_text(asset_bytes("uPlot.min.css")) + "\n</style>\n";
  html += "<style>\n" + inline_text(asset_bytes("charts.css")) + "\n</style>\n";
  html += "<style>\n" + inline_text(asset_bytes("report.css")) + "\n</style>\n";
  html += "</head>\n<body>\n";
  html += "<main id=\"report\"><h1>" + escape_html(title) + "</h1>\n";
  html +=
      "<noscript><p>This page draws its charts with JavaScript; the data is in its "
      "report-data element.</p></noscript></main>\n";
  html +=
      "<script type=\"application/json\" id=\"report-data\">" + inline_json(data) + "</script>\n";
  html += "<script>\n" + inline_text(asset_bytes("uPlot.iife.min.js")) + "\n</script>\n";
  html += "<script>\n" + inline_text(asset_bytes("charts.js")) + "\n</script>\n";
  html += "<script>\n" + call +
          "(document.getElementById('report'),\n"
          "  JSON.parse(document.getElementById('report-data').textContent));\n</script>\n";
  html += "</body>\n</html>\n";
  return html;
}

}  // namespace

std::string render_report_html(const ReportData& data) {
  return page("webrank report: " + data.title, data, "WebrankCharts.renderReport");
}

std::string render_chart_page(const std::string& title, const std::string& chart,
                              const nlohmann::json& data) {
  const auto ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (chart.empty() || !std::all_of(chart.begin(), chart.end(), ok)) {
    fail(ErrorKind::kInvalidArgument, "chart '", chart, "' is not a chart function's name");
  }
  return page(title, data,
              "(function (el, data) { WebrankCharts." + chart +
                  "(el.appendChild(document.createElement('div')), data); "
                  "el.setAttribute('data-rendered', 'true'); })");
}

}  // namespace webrank
