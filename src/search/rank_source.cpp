#include "search/rank_source.hpp"

#include <algorithm>
#include <cmath>

namespace webrank::search {

RankSource::RankSource(const PresentedRanks& ranks, Weight weight)
    : ranks_(ranks), weight_(weight) {}

double RankSource::weight_of(Xapian::docid did) const {
  const std::size_t page = did - 1;
  if (page >= ranks_.values().size()) return 0;
  if (weight_ == Weight::kRank) return std::max(ranks_.values()[page], 0.0);
  return ranks_.percentile(static_cast<PageId>(page)) / 100;
}

double RankSource::get_weight() const {
  return weight_of(did_);
}

void RankSource::next(double min_wt) {
  ++did_;
  // Documents that cannot reach the weight the matcher still needs are passed over.
  while (min_wt > 0 && did_ <= last_ && weight_of(did_) < min_wt) ++did_;
}

void RankSource::skip_to(Xapian::docid did, double min_wt) {
  if (did > did_) did_ = did;
  while (min_wt > 0 && did_ <= last_ && weight_of(did_) < min_wt) ++did_;
}

bool RankSource::check(Xapian::docid did, double) {
  did_ = did;  // every document has a weight: the position is exact
  return true;
}

Xapian::PostingSource* RankSource::clone() const {
  return new RankSource(ranks_, weight_);
}

void RankSource::init(const Xapian::Database& db) {
  did_ = 0;
  last_ = db.get_lastdocid();
  doccount_ = db.get_doccount();
  set_maxweight(weight_ == Weight::kRank ? std::max(ranks_.scale().max_rank, 0.0) : 1.0);
}

void TermSource::init(const Xapian::Database& db) {
  it_ = db.postlist_begin(term_);
  end_ = db.postlist_end(term_);
  started_ = false;
  set_maxweight(1);
}

void TermSource::next(double) {
  // Xapian calls next() once before reading the first document.
  if (started_) {
    ++it_;
  } else {
    started_ = true;
  }
}

void TermSource::skip_to(Xapian::docid did, double) {
  started_ = true;
  if (it_ != end_) it_.skip_to(did);
}

}  // namespace webrank::search
