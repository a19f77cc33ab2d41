#include <algorithm>
#include <cmath>
#include <fstream>
#include <unordered_map>

#include "webrank/search/search_eval.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

constexpr std::size_t kDepth = 10;  // results looked at per query

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool absolute_url(std::string_view s) {
  const auto colon = s.find("://");
  return colon != std::string_view::npos && colon > 0 &&
         s.substr(0, colon).find_first_of("/.") == std::string_view::npos;
}

// Pages by the ends of their URLs, built once per evaluation when some answer needs it.
class AnswerFinder {
 public:
  explicit AnswerFinder(const Database& db) : db_(db) {}

  PageId find(const std::string& answer, const std::string& file, std::size_t line) {
    if (absolute_url(answer)) {
      if (const auto id = find_page(db_, answer)) return *id;
      fail(ErrorKind::kInvalidInput, file, ":", line, ": ", answer, " is not a page of ",
           db_.path().string());
    }
    PageId found = kNoPage;
    std::size_t count = 0;
    for (PageId u = 0; u < db_.num_pages(); ++u) {
      const std::string_view l = db_.label(u);
      if (l.size() > answer.size() && l.ends_with(answer) &&
          l[l.size() - answer.size() - 1] == '/') {
        if (++count == 1) found = u;
      }
    }
    if (count == 0) {
      fail(ErrorKind::kInvalidInput, file, ":", line, ": no page of ", db_.path().string(),
           " has a URL ending in /", answer);
    }
    if (count > 1) {
      fail(ErrorKind::kInvalidInput, file, ":", line, ": ", count, " pages have a URL ending in /",
           answer, ": give more of its path, or the whole URL");
    }
    return found;
  }

 private:
  const Database& db_;
};

}  // namespace

std::vector<EvalQuery> read_query_set(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    fail(std::filesystem::exists(path, ec) ? ErrorKind::kIo : ErrorKind::kNotFound, path.string(),
         ": cannot be read");
  }
  std::vector<EvalQuery> set;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) {
      fail(ErrorKind::kInvalidInput, path.string(), ":", n,
           ": expected query<TAB>expected page[<TAB>alternates], found no tab");
    }
    EvalQuery q;
    q.line = n;
    q.query = trim(std::string_view(line).substr(0, tab));
    if (q.query.empty()) fail(ErrorKind::kInvalidInput, path.string(), ":", n, ": empty query");
    const std::string rest = line.substr(tab + 1);
    const auto tab2 = rest.find('\t');
    const std::string expected = trim(std::string_view(rest).substr(0, tab2));
    if (expected.empty()) {
      fail(ErrorKind::kInvalidInput, path.string(), ":", n, ": no expected page after the query");
    }
    q.answers.push_back(expected);
    if (tab2 != std::string::npos) {
      std::string_view alts = std::string_view(rest).substr(tab2 + 1);
      while (!alts.empty()) {
        const auto comma = alts.find(',');
        const std::string a = trim(alts.substr(0, comma));
        if (!a.empty()) q.answers.push_back(a);
        alts = comma == std::string_view::npos ? std::string_view() : alts.substr(comma + 1);
      }
    }
    set.push_back(std::move(q));
  }
  return set;
}

EvalReport evaluate_search(const Searcher& searcher, const std::vector<EvalQuery>& set,
                           const std::string& file, const EvalOptions& o) {
  const auto db = searcher.database();
  AnswerFinder finder(*db);
  EvalReport r;
  r.file = file;
  r.queries = set.size();
  r.rank_weight = o.search.rank_weight;
  r.name_weight = o.search.name_weight;
  r.anchor_name_weight = o.search.anchor_name_weight;
  r.family_name_weight = o.search.family_name_weight;
  r.bm25_k1 = o.search.bm25_k1;
  r.bm25_b = o.search.bm25_b;
  const auto ranks = o.search.ranks ? o.search.ranks : searcher.ranks();
  r.ranks = ranks ? ranks->name() : "";
  if (o.repeat < 1) fail_option("repeat", "must be at least 1, got ", o.repeat);
  for (SearchMode m : o.modes) r.modes.push_back({.mode = m});
  std::vector<std::vector<double>> seconds(r.modes.size());
  for (const EvalQuery& q : set) {
    // Gain of each answer page: 1 for the expected one, 0.5 for alternates.
    std::unordered_map<PageId, double> gain;
    for (std::size_t i = 0; i < q.answers.size(); ++i) {
      const PageId p = finder.find(q.answers[i], file, q.line);
      if (!gain.count(p)) gain[p] = i == 0 ? 1.0 : 0.5;
    }
    // The ideal ordering: the expected page, then the alternates.
    std::vector<double> gains;
    for (const auto& [p, g] : gain) gains.push_back(g);
    std::sort(gains.rbegin(), gains.rend());
    double ideal = 0;
    for (std::size_t i = 0; i < gains.size() && i < kDepth; ++i) {
      ideal += gains[i] / std::log2(static_cast<double>(i) + 2);
    }
    QueryOutcome outcome{q.query, q.line, {}};
    for (std::size_t mi = 0; mi < r.modes.size(); ++mi) {
      ModeQuality& mq = r.modes[mi];
      SearchOptions so = o.search;
      so.mode = mq.mode;
      so.k = kDepth;
      so.offset = 0;
      SearchResults res;
      for (int run = 0; run < o.repeat; ++run) {
        try {
          SearchResults again = searcher.search(q.query, so);
          seconds[mi].push_back(again.seconds);
          if (run == 0) res = std::move(again);
        } catch (const Error& e) {
          fail(ErrorKind::kInvalidInput, file, ":", q.line, ": ", e.what());
        }
      }
      std::size_t first = 0;
      double dcg = 0;
      for (std::size_t i = 0; i < res.hits.size(); ++i) {
        const auto it = gain.find(res.hits[i].page.page);
        if (it == gain.end()) continue;
        if (first == 0) first = i + 1;
        dcg += it->second / std::log2(static_cast<double>(i) + 2);
      }
      outcome.positions.push_back(first);
      if (first == 1) mq.hit1 += 1;
      if (first >= 1 && first <= 3) mq.hit3 += 1;
      if (first > 0) mq.mrr += 1.0 / static_cast<double>(first);
      mq.ndcg10 += ideal > 0 ? dcg / ideal : 0;
    }
    r.outcomes.push_back(std::move(outcome));
  }
  if (!set.empty()) {
    const double n = static_cast<double>(set.size());
    for (std::size_t mi = 0; mi < r.modes.size(); ++mi) {
      ModeQuality& mq = r.modes[mi];
      mq.hit1 /= n;
      mq.hit3 /= n;
      mq.mrr /= n;
      mq.ndcg10 /= n;
      std::vector<double>& t = seconds[mi];
      std::sort(t.begin(), t.end());
      double sum = 0;
      for (double x : t) sum += x;
      mq.mean_seconds = sum / static_cast<double>(t.size());
      // The nearest-rank percentiles.
      auto at = [&](double p) {
        const auto i = static_cast<std::size_t>(std::ceil(p * static_cast<double>(t.size())));
        return t[std::min(t.size() - 1, i == 0 ? 0 : i - 1)];
      };
      mq.p50_seconds = at(0.5);
      mq.p99_seconds = at(0.99);
      mq.max_seconds = t.back();
    }
  }
  return r;
}

}  // namespace webrank
