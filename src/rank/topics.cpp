// Topic-sensitive PageRank: the batch of topic vectors and their mixing at query time
// (webrank/rank/topics.hpp).
#include "webrank/rank/topics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

constexpr std::string_view kPrefix = "topic.";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

}  // namespace

std::string topic_vector_name(const std::string& topic) {
  return std::string(kPrefix) + topic;
}

std::vector<std::string> stored_topics(const Database& db) {
  std::vector<std::string> topics;
  for (const auto& name : db.rank_names()) {
    if (name.starts_with(kPrefix)) topics.push_back(name.substr(kPrefix.size()));
  }
  return topics;
}

TopicRanks compute_topic_ranks(const Database& db, const std::vector<std::string>& topics,
                               const std::vector<PageWeights>& pages, const BatchOptions& options,
                               bool with_pagerank) {
  if (topics.size() != pages.size())
    fail(ErrorKind::kInvalidArgument, topics.size(), " topics but ", pages.size(), " page sets");
  for (const auto& t : topics) check_rank_name(topic_vector_name(t));
  std::vector<PageWeights> sources = pages;
  if (with_pagerank) sources.emplace_back();  // uniform
  std::vector<RankResult> results = compute_rank_batch(db.graph(), sources, options);
  TopicRanks r;
  if (with_pagerank) {
    r.pagerank = std::move(results.back());
    results.pop_back();
  }
  for (std::size_t i = 0; i < topics.size(); ++i) {
    RankOptions o = options.rank;
    o.source = pages[i];
    save_ranks(db, topic_vector_name(topics[i]), results[i], o);
  }
  r.topics = std::move(results);
  return r;
}

TopicWeights parse_topic_weights(std::string_view text) {
  TopicWeights w;
  double sum = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      fail_option("topics", "'", item, "' is not TOPIC=WEIGHT (as in \"Science=0.7,Sports=0.3\")");
    }
    const std::string topic(trim(item.substr(0, eq)));
    const std::string_view number = trim(item.substr(eq + 1));
    double x = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), x);
    if (topic.empty() || ec != std::errc() || end != number.data() + number.size())
      fail_option("topics", "'", item, "' is not TOPIC=WEIGHT with a number as the weight");
    if (!std::isfinite(x) || x < 0)
      fail_option("topics", "gives topic '", topic, "' the weight ", x,
                  ", not a finite number >= 0");
    if (std::any_of(w.begin(), w.end(), [&](const auto& p) { return p.first == topic; }))
      fail_option("topics", "names topic '", topic, "' twice");
    w.emplace_back(topic, x);
    sum += x;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (!(sum > 0)) fail_option("topics", "gives every topic the weight 0");
  return w;
}

TopicMix TopicMix::load(const Database& db, const TopicWeights& weights) {
  TopicMix m;
  // Scaled by the largest before they are added (finite weights may have no finite sum).
  double largest = 0, sum = 0;
  for (const auto& [topic, w] : weights) largest = std::max(largest, w);
  if (weights.empty() || !(largest > 0)) fail_option("topics", "gives no topic a positive weight");
  for (const auto& [topic, w] : weights) sum += w / largest;
  const std::vector<std::string> there = stored_topics(db);
  for (const auto& [topic, w] : weights) {
    if (!std::binary_search(there.begin(), there.end(), topic)) {
      fail(ErrorKind::kNotFound, db.path().string(), ": no vector for topic '", topic,
           "' (topics computed: ", list(there), "; run `webrank topics ", db.path().string(),
           " --assign FILE`)");
    }
    m.weights_.emplace_back(topic, w / largest / sum);
    m.vectors_.push_back(load_ranks(db, topic_vector_name(topic)).values);
  }
  return m;
}

double TopicMix::score(PageId u) const {
  double s = 0;
  for (std::size_t t = 0; t < vectors_.size(); ++t) s += weights_[t].second * vectors_[t][u];
  return s;
}

std::vector<double> TopicMix::scores() const {
  std::vector<double> s(vectors_.empty() ? 0 : vectors_[0].size(), 0.0);
  for (std::size_t t = 0; t < vectors_.size(); ++t) {
    for (std::size_t u = 0; u < s.size(); ++u) s[u] += weights_[t].second * vectors_[t][u];
  }
  return s;
}

}  // namespace webrank
