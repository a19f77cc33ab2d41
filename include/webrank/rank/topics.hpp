// Topic-sensitive PageRank (Haveliwala 2002; the article's §"Topic-Sensitive PageRank").
//
// Ahead of time, one vector per topic t, with E_t uniform over the pages of t (a page may belong
// to several topics), all computed in one batch (webrank/rank/batch.hpp) and stored in the database
// as `topic.t`. At query time they are mixed by the user's or the query's topic preferences:
//     score(u) = Σ_t P(t) · R_t(u),   Σ_t P(t) = 1.
// The mix is a score, not itself the fixed point of one rank source (each R_t sends dangling rank
// along its own E_t); it is what Haveliwala's search ranks by.
//
// Threads: TopicMix is immutable once loaded; any number of threads may call score() at once.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webrank/rank/batch.hpp"
#include "webrank/store/database.hpp"

namespace webrank {

// The stored vector of topic `topic`: "topic." + topic.
std::string topic_vector_name(const std::string& topic);

// The topics whose vectors `db` holds now (names without "topic."), sorted.
std::vector<std::string> stored_topics(const Database& db);

struct TopicRanks {
  std::vector<RankResult> topics;  // in the order of the topics given
  RankResult pagerank;             // with_pagerank: the uniform vector, for comparison (not stored)
};

// Computes the vector of every topic (pages[i] are the pages of topics[i], E uniform over them)
// in one batch and stores each as topic_vector_name(topics[i]), with metadata `webrank check
// --ranks` verifies. With `with_pagerank` the same batch also computes ordinary PageRank (one
// more vector). Throws Error as compute_rank_batch() and save_ranks() do.
TopicRanks compute_topic_ranks(const Database& db, const std::vector<std::string>& topics,
                               const std::vector<PageWeights>& pages, const BatchOptions& options,
                               bool with_pagerank = false);

// Topic preferences: (topic, weight) pairs.
using TopicWeights = std::vector<std::pair<std::string, double>>;

// Parses "Science=0.7,Sports=0.3" (blanks around names and numbers are ignored). Throws
// Error(kInvalidArgument) for a malformed entry, a weight that is negative, not finite or given
// twice for one topic, or weights that are all zero.
TopicWeights parse_topic_weights(std::string_view text);

class TopicMix {
 public:
  // Loads the vectors of the topics named (checksums verified) and normalizes the weights to sum
  // 1. Throws Error(kNotFound) naming a topic with no stored vector and the topics there are.
  static TopicMix load(const Database& db, const TopicWeights& weights);

  // Σ_t P(t)·R_t(u). Precondition: u < the database's pages.
  double score(PageId u) const;
  // Every page's score, by page id.
  std::vector<double> scores() const;
  // The normalized preferences, in the order given.
  const TopicWeights& weights() const { return weights_; }

 private:
  TopicWeights weights_;
  std::vector<std::vector<double>> vectors_;
};

}  // namespace webrank
