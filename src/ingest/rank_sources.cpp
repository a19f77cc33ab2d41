// Rank sources named by people (webrank/ingest/rank_sources.hpp).
#include "webrank/ingest/rank_sources.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <span>
#include <unordered_map>

#include "ingest/edge_list_reader.hpp"
#include "util/input_stream.hpp"
#include "web/url.hpp"
#include "webrank/ingest/page_weights_file.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Every field of `line` by the field rule (0 fields for blank and comment lines).
std::vector<std::string_view> fields_of(std::string_view line, const std::string& where) {
  int empty = 0;
  const int n = split_fields(line, nullptr, 0, &empty);
  if (n < 0) fail(ErrorKind::kInvalidInput, where, ": field ", empty, " is empty");
  std::vector<std::string_view> f(n);
  split_fields(line, f.data(), n, &empty);
  return f;
}

// Calls fn(where, line) for every line of `path` ("-": standard input), `where` being "FILE:LINE";
// returns the name the file is reported by.
template <typename Fn>
std::string for_each_line(const std::string& path, Fn&& fn) {
  auto in = open_input(path);
  LineReader reader(*in);
  std::string_view line;
  while (reader.next(line)) {
    check_text_line(line, reader.name(), reader.line_number());
    fn(cat(reader.name(), ":", reader.line_number()), line);
  }
  return std::string(reader.name());
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::size_t path_segments(std::string_view path) {
  return static_cast<std::size_t>(
      std::count_if(path.begin(), path.end(), [](char c) { return c == '/'; }));
}

}  // namespace

std::optional<PageId> find_page(const Database& db, std::string_view label) {
  if (auto id = db.find(label)) return id;
  if (auto url = web::normalize_url(label)) return db.find(*url);
  return std::nullopt;
}

PageWeights root_pages(const Database& db) {
  struct Best {
    PageId page;
    bool root;
    std::size_t segments, length;
  };
  std::unordered_map<std::string, Best> hosts;
  for (PageId u = 0; u < db.num_pages(); ++u) {
    const std::string_view label = db.label(u);
    if (!label.starts_with("http://") && !label.starts_with("https://")) continue;
    const auto url = web::parse_url(label);
    if (!url || url->host.empty()) continue;
    const Best b{u, url->path == "/" && !url->has_query, path_segments(url->path) + url->has_query,
                 label.size()};
    auto [it, fresh] = hosts.emplace(url->authority(), b);
    if (fresh) continue;
    const Best& a = it->second;
    // Earlier pages win ties: ids ascend.
    if (std::tuple(!b.root, b.segments, b.length) < std::tuple(!a.root, a.segments, a.length))
      it->second = b;
  }
  if (hosts.empty()) {
    fail(ErrorKind::kInvalidArgument, "no page of ", db.path().string(),
         " is labelled by an http(s) URL, so it has no hosts and no root pages");
  }
  PageWeights w;
  for (const auto& [host, best] : hosts) w.emplace_back(best.page, 1.0);
  std::sort(w.begin(), w.end());
  return w;
}

PageList read_page_list(const Database& db, const std::string& path, bool allow_missing) {
  PageList list;
  const std::string name =
      for_each_line(path, [&](const std::string& where, std::string_view line) {
        const std::string_view t = trimmed(line);
        if (t.empty() || t.front() == '#') return;
        std::string_view label = t;
        double weight = 1.0;
        if (const auto tab = t.find('\t'); tab != std::string_view::npos) {
          const auto f = fields_of(line, where);
          if (f.size() != 2)
            fail(ErrorKind::kInvalidInput, where, ": ", f.size(),
                 " fields, expected LABEL or LABEL<TAB>WEIGHT");
          label = f[0];
          weight = parse_weight(f[1], where);
        }
        if (const auto id = find_page(db, label)) {
          list.pages.emplace_back(*id, weight);
        } else if (allow_missing) {
          list.missing.push_back(cat(where, ": ", label));
        } else {
          fail(ErrorKind::kInvalidInput, where, ": page '", label, "' is not in the database ",
               db.path().string());
        }
      });
  if (list.pages.empty()) {
    fail(ErrorKind::kInvalidInput, name, ": names no page of the database ", db.path().string(),
         list.missing.empty() ? " (no LABEL lines)" : cat(" (", list.missing.size(), " unknown)"));
  }
  double sum = 0;
  for (const auto& [page, w] : list.pages) sum += w;
  if (!(sum > 0)) fail(ErrorKind::kInvalidInput, name, ": all weights are zero");
  return list;
}

namespace {

// One line of a batch, its fields `f` (NAME, then labels or @FILE), read where `where` says
// ("FILE:LINE", or "batch line N" in memory); `folder` is what a relative @FILE is relative to,
// `names` the names taken so far. Errors are of `kind`, about option `field` when one is given.
BatchEntry batch_entry(const Database& db, std::span<const std::string_view> f,
                       const std::string& where, const std::filesystem::path& folder,
                       std::set<std::string>& names, ErrorKind kind, const std::string& field) {
  const auto refuse = [&](const auto&... detail) {
    throw Error(kind, cat(where, ": ", detail...), field);
  };
  BatchEntry e;
  e.name = std::string(f[0]);
  try {
    check_rank_name(e.name);
  } catch (const Error&) {
    refuse("'", e.name, "' is not a valid rank vector name (letters, digits, '.', '_', '-')");
  }
  if (!names.insert(e.name).second) refuse("the name '", e.name, "' is used twice");
  for (std::size_t i = 1; i < f.size(); ++i) {
    std::string_view page = f[i];
    if (page.starts_with("@") && !page.starts_with("@@")) {
      std::filesystem::path file(std::string(page.substr(1)));
      if (file.is_relative()) file = folder / file;
      for (const auto& pw : read_page_weights(db, file.string())) e.source.push_back(pw);
      continue;
    }
    if (page.starts_with("@@")) page.remove_prefix(1);
    const auto id = db.find(page);
    if (!id) refuse("page '", page, "' is not in the database ", db.path().string());
    e.source.emplace_back(*id, 1.0);
  }
  return e;
}

}  // namespace

std::vector<BatchEntry> read_batch_file(const Database& db, const std::string& path) {
  const std::filesystem::path folder =
      path == "-" ? std::filesystem::path() : std::filesystem::path(path).parent_path();
  std::vector<BatchEntry> entries;
  std::set<std::string> names;
  const std::string name =
      for_each_line(path, [&](const std::string& where, std::string_view line) {
        const auto f = fields_of(line, where);
        if (f.empty()) return;
        entries.push_back(batch_entry(db, f, where, folder, names, ErrorKind::kInvalidInput, ""));
      });
  if (entries.empty())
    fail(ErrorKind::kInvalidInput, name, ": no NAME [LABEL... | @FILE] lines found");
  return entries;
}

std::vector<BatchEntry> batch_entries(const Database& db,
                                      const std::vector<std::vector<std::string>>& lines,
                                      const std::string& field) {
  std::vector<BatchEntry> entries;
  std::set<std::string> names;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string where = cat("line ", i + 1);
    if (lines[i].empty()) fail_option(field, where, ": no NAME");
    const std::vector<std::string_view> f(lines[i].begin(), lines[i].end());
    entries.push_back(batch_entry(db, f, where, {}, names, ErrorKind::kInvalidArgument, field));
  }
  if (entries.empty()) fail_option(field, "holds no NAME [LABEL...] line");
  return entries;
}

TopicAssignment read_topic_assignment(const Database& db, const std::string& path) {
  TopicAssignment a;
  std::map<std::string, std::size_t, std::less<>> index;
  const std::string name = for_each_line(path, [&](const std::string& where,
                                                   std::string_view line) {
    const auto f = fields_of(line, where);
    if (f.empty()) return;
    if (f.size() != 2)
      fail(ErrorKind::kInvalidInput, where, ": ", f.size(), " fields, expected LABEL<TAB>TOPIC");
    const auto id = db.find(f[0]);
    if (!id)
      fail(ErrorKind::kInvalidInput, where, ": page '", f[0], "' is not in the database ",
           db.path().string());
    auto it = index.find(f[1]);
    if (it == index.end()) {
      const std::string topic(f[1]);
      try {
        check_rank_name("topic." + topic);
      } catch (const Error&) {
        fail(ErrorKind::kInvalidInput, where, ": topic '", topic,
             "' cannot name a rank vector (use letters, digits, '.', '_', '-')");
      }
      it = index.emplace(topic, a.topics.size()).first;
      a.topics.push_back(topic);
      a.pages.emplace_back();
    }
    a.pages[it->second].emplace_back(*id, 1.0);
  });
  if (a.topics.empty()) fail(ErrorKind::kInvalidInput, name, ": no LABEL<TAB>TOPIC lines found");
  // A page listed twice under one topic counts once: E is uniform over the topic's pages.
  for (auto& pages : a.pages) {
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  }
  return a;
}

}  // namespace webrank
