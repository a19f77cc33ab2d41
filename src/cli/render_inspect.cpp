// Text for people of the commands that look at a database and its ranks: info, check, ranks,
// top, page, backlinks, links, compare-ranks. Each renders its operation's JSON form
// (webrank/app/inspect.hpp), the form --json prints.
#include <algorithm>
#include <cstdio>
#include <ctime>

#include "commands.hpp"
#include "common.hpp"
#include "render_text.hpp"
#include "webrank/ingest/export.hpp"
#include "webrank/rank/presentation.hpp"
#include "webrank/rank/topics.hpp"
#include "webrank/util/units.hpp"

namespace webrank::cli {
namespace {

using nlohmann::json;

std::uint64_t pages_of(const Rendered& r) {
  return r.session ? r.session->database()->num_pages() : 0;
}

void info(const Rendered& r) {
  const json& s = r.out.json;
  std::printf("database        %s (%s on disk)\n", r.db.c_str(),
              format_bytes(s.at("bytes_on_disk").get<double>()).c_str());
  const auto pages = s.at("pages").get<std::uint64_t>();
  const auto dangling = s.at("dangling_pages").get<std::uint64_t>();
  std::printf("pages           %llu\n", static_cast<unsigned long long>(pages));
  std::printf("links           %llu%s\n", s.at("links").get<unsigned long long>(),
              s.at("weighted").get<bool>() ? " (weighted)" : "");
  std::printf("dangling pages  %llu (%.1f%%)\n", static_cast<unsigned long long>(dangling),
              100.0 * static_cast<double>(dangling) / static_cast<double>(pages));
  std::printf("self-links      %llu\n", s.at("self_links").get<unsigned long long>());
  if (s.contains("crawl")) {
    const json& c = s.at("crawl");
    std::string classes;
    for (const auto& [k, v] : c.at("status").items()) {
      classes += (classes.empty() ? "" : ", ") + k + " " + std::to_string(v.get<std::uint64_t>());
    }
    std::printf(
        "crawled         %llu pages fetched (%s), %llu known but not fetched; %llu with a "
        "title, %llu exact duplicates, %llu nofollow links (not ranked)\n",
        c.at("fetched_pages").get<unsigned long long>(), classes.c_str(),
        c.at("not_fetched_pages").get<unsigned long long>(),
        c.at("pages_with_title").get<unsigned long long>(),
        c.at("exact_duplicates").get<unsigned long long>(),
        c.at("nofollow_links").get<unsigned long long>());
  }
  std::printf("isolated pages  %llu\n", s.at("isolated_pages").get<unsigned long long>());
  for (const auto& [name, key] :
       {std::pair{"out-degree", "out_degree"}, {"in-degree", "in_degree"}}) {
    const json& d = s[key];
    std::printf("%-15s min %llu, median %llu, mean %.2f, max %llu; %llu pages with none\n", name,
                d.at("min").get<unsigned long long>(), d.at("median").get<unsigned long long>(),
                d.at("mean").get<double>(), d.at("max").get<unsigned long long>(),
                d.at("zero").get<unsigned long long>());
  }
  for (const json& v : s.at("ranks")) {
    const std::string name = str(v, "name");
    if (v.contains("error")) {
      std::printf("ranks           %s: %s\n", name.c_str(), str(v, "error").c_str());
      continue;
    }
    const bool converged = v.at("converged").get<bool>();
    if (str(v, "algorithm") == "hits") {
      std::printf("ranks           %s: HITS %s, %d iterations%s\n", name.c_str(),
                  str(v, "kind") == "hub" ? "hubs" : "authorities", v.at("iterations").get<int>(),
                  converged ? "" : " (NOT converged)");
      continue;
    }
    std::string method = str(v, "method");
    if (v.contains("solved_by")) method += " (" + str(v, "solved_by") + ")";
    std::printf("ranks           %s: %s, %s, d=%g, dangling %s, %d iterations%s\n", name.c_str(),
                method.c_str(), str(v, "precision").c_str(), v.at("damping").get<double>(),
                str(v, "dangling").c_str(), v.at("iterations").get<int>(),
                v.at("stale").get<bool>() ? " (stale: computed before an update; a warm start)"
                : converged               ? ""
                                          : " (NOT converged)");
  }
  const json& index = s.at("search_index");
  if (index.is_null()) {
    std::printf("search index    none (webrank index %s builds it)\n", r.db.c_str());
  } else if (index.contains("error")) {
    std::printf("search index    unusable: %s\n", str(index, "error").c_str());
  } else {
    const json& f = index.at("field_weights");
    std::printf(
        "search index    %s, version %d, %llu documents, built %s, field weights "
        "%d,%d,%d,%d,%d (title,text,anchor,url,chrome)\n",
        format_bytes(index.at("bytes").get<double>()).c_str(), index.at("version").get<int>(),
        index.at("documents").get<unsigned long long>(), str(index, "built").c_str(),
        f.at("title").get<int>(), f.at("text").get<int>(), f.at("anchor").get<int>(),
        f.at("url").get<int>(), f.at("chrome").get<int>());
  }
}

void check(const Rendered& r) {
  const auto db = r.session->database();
  const auto vectors = db->rank_names().size();
  std::printf("%s: ok (%u pages, %llu links, %zu rank vector%s)\n", r.db.c_str(), db->num_pages(),
              static_cast<unsigned long long>(db->num_links()), vectors, vectors == 1 ? "" : "s");
  for (const json& c : r.out.json) {
    const std::string name = str(c, "name");
    if (!c.at("checkable").get<bool>()) {
      std::printf("ranks '%s': not checked: %s\n", name.c_str(), str(c, "reason").c_str());
      continue;
    }
    const bool ok = c.at("ok").get<bool>();
    const auto number = [&](const char* key) {
      return c[key].is_number() ? c[key].get<double>() : INFINITY;
    };
    const bool residual_ok = number("residual") <= number("allowed");
    const bool sum_ok = !c.contains("sum_ok") || c.at("sum_ok").get<bool>();
    const std::string sum_note = sum_ok ? "" : cat(" (|sum - 1| > ", number("sum_allowed"), ")");
    std::printf(
        "ranks '%s': residual %.3e %s %.3e (computed to --tol %g), error bound %.3e, sum "
        "%.12g%s, %.2f s: %s\n",
        name.c_str(), number("residual"), residual_ok ? "<=" : ">", number("allowed"),
        number("tol"), number("error_bound"), number("sum"), sum_note.c_str(), number("seconds"),
        ok             ? "ok"
        : !residual_ok ? "NOT within its tolerance"
                       : "its sum is NOT 1");
  }
}

std::string describe_vector(const json& v) {
  const std::string algorithm = str(v, "algorithm"), kind = str(v, "kind");
  if (algorithm == "hits") return kind == "hub" ? "HITS hubs" : "HITS authorities";
  if (algorithm == "harmonic") return "harmonic centrality (" + kind + ")";
  std::string how = str(v, "method");
  if (v.contains("solved_by")) how += " (" + str(v, "solved_by") + ")";
  how += cat(", d=", v.at("damping").get<double>(), ", dangling ", str(v, "dangling"));
  if (v.at("personalized").get<bool>()) how += ", personalized";
  if (v.at("stale").get<bool>()) how += "; stale (computed before an update)";
  return how;
}

std::string date(std::int64_t seconds) {
  if (seconds <= 0) return "-";
  const std::time_t t = static_cast<std::time_t>(seconds);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", std::localtime(&t));
  return text;
}

void ranks(const Rendered& r) {
  // After deleting (said on stderr), the list is printed only when asked for as JSON.
  if (r.given.contains("delete")) return;
  const json& list = r.out.json;
  if (list.empty()) {
    std::printf("no rank vectors in %s (webrank rank %s computes one)\n", r.db.c_str(),
                r.db.c_str());
    return;
  }
  std::printf("%-24s %-9s %-10s %6s %-16s %9s  %s\n", "name", "converged", "precision", "iter",
              "created", "size", "computed by");
  for (const json& v : list) {
    if (v.contains("error")) {
      std::printf("%-24s unreadable: %s\n", str(v, "name").c_str(), str(v, "error").c_str());
      continue;
    }
    std::printf("%-24s %-9s %-10s %6d %-16s %9s  %s\n", str(v, "name").c_str(),
                v.at("converged").get<bool>() ? "yes" : "NO", str(v, "precision").c_str(),
                v.at("iterations").get<int>(), date(v.at("created").get<std::int64_t>()).c_str(),
                format_bytes(v.at("bytes").get<double>()).c_str(), describe_vector(v).c_str());
  }
}

constexpr int kBarCells = 16;
// A title is shown only when at least this many columns are left for it.
constexpr std::size_t kTitleColumns = 14;

// The first `columns` columns of `text`, "..." in place of the rest.
std::string cut_end(const std::string& text, std::size_t columns) {
  if (display_columns(text) <= columns) return text;
  if (columns <= 3) return std::string(columns, '.');
  std::size_t seen = 0, i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == columns - 3) break;
  }
  return text.substr(0, i) + "...";
}

// A page of a list of many sites' pages in `columns` columns: its URL (without the scheme if it
// is too long), the host whole and the path cut before its last segment (both its ends shown), so
// that no row shows a host cut in two; a host too long for that is cut in its middle.
std::string fit_url(const std::string& label, std::size_t columns) {
  if (display_columns(label) <= columns) return label;
  std::string_view s = label;
  for (std::string_view scheme : {"https://", "http://"}) {
    if (s.starts_with(scheme)) {
      s.remove_prefix(scheme.size());
      break;
    }
  }
  if (display_columns(s) <= columns) return std::string(s);
  const std::size_t slash = s.find('/');
  const std::size_t host = slash == std::string_view::npos ? s.size() : slash;
  if (slash == std::string_view::npos || display_columns(s.substr(0, host)) + 12 > columns)
    return elide_middle(s, columns);
  // The path's last segment whole when it fits, the cut before it.
  const std::string_view path = s.substr(host);
  const std::size_t room = columns - display_columns(s.substr(0, host));
  const std::size_t last = path.find_last_of('/', path.size() > 1 ? path.size() - 2 : 0);
  const std::string_view tail = path.substr(last);
  if (last > 0 && display_columns(tail) + 4 <= room) {
    return std::string(s.substr(0, host)) +
           cut_end(std::string(path.substr(0, last)), room - display_columns(tail)) +
           std::string(tail);
  }
  return std::string(s.substr(0, host)) + elide_middle(path, room);
}

// `top`: the text form fits text_columns() (100 when not on a wide terminal): a list of one
// site's pages shows paths under a line naming the site, and long labels and titles are cut
// (--wide prints them whole).
void top(const Rendered& r) {
  const std::string topics = given_or(r, "topics").get<std::string>();
  if (!topics.empty()) {
    // The weights normalized to sum 1, as the operation mixed them.
    const TopicWeights weights = parse_topic_weights(topics);
    // Scaled by the largest first: finite weights may have no finite sum.
    double largest = 0, sum = 0;
    for (const auto& tw : weights) largest = std::max(largest, tw.second);
    for (const auto& tw : weights) sum += tw.second / largest;
    std::string what;
    for (const auto& [topic, w] : weights)
      what += cat(what.empty() ? "" : ", ", topic, " ", w / largest / sum);
    std::printf("topic mix: %s\n", what.c_str());
  }
  const bool wide = given_or(r, "wide").get<bool>();
  const std::uint64_t n = pages_of(r);
  std::vector<std::string> labels;
  for (const json& t : r.out.json) labels.push_back(str(t, "label"));
  // One site's pages: its name once, then paths.
  const std::string origin = common_origin(labels);
  if (!origin.empty()) std::printf("pages of %s\n", origin.c_str());
  const int pct_width = std::max<int>(10, static_cast<int>(format_percentile(100, n).size()));
  char head[160];
  const int prefix =
      std::snprintf(head, sizeof head, "%4s  %-10s %*s  %-*s %7s  ", "#", "rank", pct_width,
                    "percentile", kBarCells + 5, "log-scale bar", "toolbar");
  std::printf("%spage\n", head);
  const std::size_t columns = text_columns();
  const std::size_t room = columns > static_cast<std::size_t>(prefix) + 16
                               ? columns - static_cast<std::size_t>(prefix)
                               : 16;
  int i = 0;
  for (const json& t : r.out.json) {
    const double bar = t.at("bar").get<double>();
    const int cells = static_cast<int>(bar / 100 * kBarCells + 0.5);
    std::string drawn(cells, '#');
    drawn.resize(kBarCells, '.');
    const std::string label = str(t, "label");
    std::string page = origin.empty() ? label : label.substr(origin.size());
    if (page.empty()) page = "/";
    const auto fit = [&origin](const std::string& text, std::size_t columns) {
      return origin.empty() ? fit_url(text, columns) : elide_middle(text, columns);
    };
    const std::string title = str(t, "title");
    // Crawled webs show the page title after the URL, as the paper's search results do.
    const bool titled = !title.empty();
    if (wide) {
      if (titled) page += "  \"" + title + "\"";
    } else {
      // The label first; the title gets what is left, if that is enough to read.
      page = fit(page, titled ? std::max(room / 2, room - kTitleColumns) : room);
      const std::size_t used = display_columns(page) + 4;  // two spaces and the quotes
      if (titled && used + kTitleColumns - 4 <= room) {
        page += "  \"" + cut_end(title, room - used) + "\"";
      }
    }
    std::printf("%4d  %-10.4g %*s  %s %3.0f%%   %2d/10  %s\n", ++i, t.at("rank").get<double>(),
                pct_width, format_percentile(t.at("percentile").get<double>(), n).c_str(),
                drawn.c_str(), bar, t.at("toolbar").get<int>(), page.c_str());
  }
}

void page(const Rendered& r) {
  const json& p = r.out.json;
  const auto pages = p.at("pages").get<std::uint64_t>();
  const std::string label = str(p, "label");
  std::printf("page        %s (id %u of %llu)\n", label.c_str(), p.at("id").get<unsigned>(),
              static_cast<unsigned long long>(pages));
  if (p.contains("title") && p.at("title").is_string())
    std::printf("title       %s\n", str(p, "title").c_str());
  if (p.contains("status") && p.at("status").is_number()) {
    const auto status = p.at("status").get<unsigned>();
    if (status == 0) {
      std::printf("status      0 (not fetched)\n");
    } else {
      const std::string final_url = str(p, "final_url");
      std::printf("status      %u%s\n", status,
                  !final_url.empty() && final_url != label ? (" -> " + final_url).c_str() : "");
    }
  }
  const auto nofollow = p.at("nofollow_links").get<std::uint64_t>();
  std::printf("links       %llu out%s, %llu in%s\n", p.at("out_links").get<unsigned long long>(),
              p.at("self_link").get<bool>() ? " (one to itself)" : "",
              p.at("in_links").get<unsigned long long>(),
              nofollow ? cat("; ", nofollow, " nofollow out").c_str() : "");
  if (p.at("ranks").empty()) {
    std::printf("ranks       none computed yet: run `webrank rank %s`\n", r.db.c_str());
    return;
  }
  std::printf("%-24s %-12s %10s  %12s %5s %7s\n", "ranks", "rank", "percentile", "position", "bar",
              "toolbar");
  for (const json& v : p.at("ranks")) {
    const std::string name = str(v, "name");
    if (v.contains("error")) {
      std::printf("%-24s unreadable: %s\n", name.c_str(), str(v, "error").c_str());
      continue;
    }
    const std::string position = cat(v.at("position").get<std::uint64_t>(), " of ", pages);
    std::printf("%-24s %-12.6g %10s  %12s %4.0f%% %4d/10%s\n", name.c_str(),
                v.at("rank").get<double>(),
                format_percentile(v.at("percentile").get<double>(), pages).c_str(),
                position.c_str(), v.at("bar").get<double>(), v.at("toolbar").get<int>(),
                v.value("stale", false)         ? "  (stale)"
                : v.at("converged").get<bool>() ? ""
                                                : "  (not converged)");
  }
}

void print_row(const json& p, const char* note) {
  constexpr int kBarWidth = 20;
  const double bar = p.at("bar").get<double>();
  const int cells = static_cast<int>(bar / 100 * kBarWidth + 0.5);
  std::string drawn(cells, '#');
  drawn.resize(kBarWidth, '.');
  std::string page = str(p, "label");
  const std::string title = str(p, "title");
  if (!title.empty()) page += "  \"" + title + "\"";
  std::printf("%s %3.0f%% %2d/10 %7.2f%%  %-12.6g %s%s\n", drawn.c_str(), bar,
              p.at("toolbar").get<int>(), p.at("percentile").get<double>(),
              p.at("rank").get<double>(), page.c_str(), note);
}

void print_tsv(const json& p, const char* extra) {
  std::printf("%s\t%s\t%.17g\t%.6f\t%.6f\t%d%s\n", tsv_field(str(p, "label")).c_str(),
              tsv_field(str(p, "title")).c_str(), p.at("rank").get<double>(),
              p.at("percentile").get<double>(), p.at("bar").get<double>(),
              p.at("toolbar").get<int>(), extra);
}

const char* kHeader = "log-scale bar         bar  tool  pctile   rank         page";

void backlinks(const Rendered& r) {
  const json& b = r.out.json;
  if (given_or(r, "format") == "tsv") {
    for (const json& p : b.at("pages")) print_tsv(p, "");
    return;
  }
  const auto offset = given_or(r, "offset").get<std::uint64_t>();
  std::printf("%llu pages link to %s; by rank '%s'", b.at("total").get<unsigned long long>(),
              str(b, "url").c_str(), str(b, "ranks").c_str());
  if (!b.at("pages").empty()) {
    std::printf(", %llu-%llu:\n%s\n", static_cast<unsigned long long>(offset + 1),
                static_cast<unsigned long long>(offset + b.at("pages").size()), kHeader);
    for (const json& p : b.at("pages")) print_row(p, "");
  } else {
    std::printf("\n");
  }
}

void links(const Rendered& r) {
  const json& j = r.out.json;
  if (given_or(r, "format") == "tsv") {
    for (const json& l : j.at("links")) {
      print_tsv(l, l.at("nofollow").get<bool>() ? "\tnofollow" : "\t");
    }
    return;
  }
  std::printf("%s links to %zu pages; by rank '%s':\n", str(j, "url").c_str(), j.at("links").size(),
              str(j, "ranks").c_str());
  if (!j.at("links").empty()) std::printf("%s\n", kHeader);
  for (const json& l : j.at("links")) {
    print_row(l, l.at("nofollow").get<bool>() ? "  (nofollow)" : "");
  }
}

void compare_ranks(const Rendered& r) {
  const json& c = r.out.json;
  const auto names = r.session->database()->rank_names();
  const auto stored = [&](const std::string& v) {
    return std::find(names.begin(), names.end(), v) != names.end();
  };
  const bool from_file = !stored(str(c, "a")) || !stored(str(c, "b"));
  std::printf("'%s' and '%s' on %llu of %llu pages%s\n", str(c, "a").c_str(), str(c, "b").c_str(),
              c.at("pages").get<unsigned long long>(), c.at("of_pages").get<unsigned long long>(),
              from_file ? " (those the file lists)" : "");
  std::printf("L1 distance         %.6g\n", c.at("l1").get<double>());
  if (c.at("max_difference").get<double>() > 0) {
    std::printf("largest difference  %.6g (%s)\n", c.at("max_difference").get<double>(),
                str(c, "max_difference_label").c_str());
  } else {
    std::printf("largest difference  0 (the vectors are equal)\n");
  }
  std::printf("Kendall's tau-b     %.6f\n", c.at("kendall_tau").get<double>());
  std::printf("Spearman's rho      %.6f\n", c.at("spearman").get<double>());
  for (const json& t : c.at("top")) {
    std::printf("top-%-15s %llu shared (%.1f%%)\n",
                std::to_string(t.at("k").get<std::uint64_t>()).c_str(),
                t.at("shared").get<unsigned long long>(), 100 * t.at("fraction").get<double>());
  }
}

app::OptionSpec format_flag(const std::string& tsv_columns) {
  app::OptionSpec s;
  s.name = "format";
  s.type = app::ValueType::kChoice;
  s.choices = {"text", "tsv", "json"};
  s.default_value = "text";
  s.help = "text (a table with bars), tsv (" + tsv_columns + ") or json";
  return s;
}

}  // namespace

std::string str(const json& j, const char* key) {
  const std::string hex = std::string(key) + "_hex";
  if (j.contains(hex) && j[hex].is_string()) {
    const std::string h = j[hex].get<std::string>();
    std::string out;
    for (std::size_t i = 0; i + 1 < h.size(); i += 2) {
      out += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    }
    return out;
  }
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

void add_inspect_commands(std::vector<Command>& table) {
  app::OptionSpec wide;
  wide.name = "wide";
  wide.type = app::ValueType::kFlag;
  wide.default_value = false;
  wide.help =
      "Print labels and titles whole (the text form is otherwise cut to the terminal's width, "
      "100 columns when not on a terminal)";
  table.push_back({"info", &info});
  table.push_back({"status"});  // its JSON, the server's /healthz
  table.push_back({"check", &check});
  table.push_back({"ranks", &ranks});
  table.push_back({"top", &top, {wide}});
  table.push_back({"page", &page});
  table.push_back(
      {"backlinks", &backlinks, {format_flag("URL, title, rank, percentile, bar, toolbar")}});
  table.push_back(
      {"links", &links, {format_flag("URL, title, rank, percentile, bar, toolbar, nofollow")}});
  table.push_back({"history"});  // the JSON: a column of numbers says no more
  table.push_back({"proxy"});
  table.push_back({"compare-ranks", &compare_ranks});
}

}  // namespace webrank::cli
