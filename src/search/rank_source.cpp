#include "search/rank_source.hpp"

#include <algorithm>
#include <cmath>

#include "search/document.hpp"

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

BonusSource::BonusSource(std::vector<std::pair<Xapian::docid, double>> bonus)
    : bonus_(std::move(bonus)) {}

void BonusSource::init(const Xapian::Database&) {
  at_ = 0;
  started_ = false;
  double max = 0;
  for (const auto& [did, w] : bonus_) max = std::max(max, w);
  set_maxweight(max);
}

void BonusSource::next(double) {
  // Xapian calls next() once before reading the first document.
  if (started_) {
    ++at_;
  } else {
    started_ = true;
  }
}

void BonusSource::skip_to(Xapian::docid did, double) {
  started_ = true;
  if (at_ < bonus_.size() && bonus_[at_].first < did) {
    at_ = static_cast<std::size_t>(
        std::lower_bound(bonus_.begin() + static_cast<std::ptrdiff_t>(at_), bonus_.end(), did,
                         [](const auto& e, Xapian::docid d) { return e.first < d; }) -
        bonus_.begin());
  }
}

PageSetSource::PageSetSource(const std::string& excluded, Xapian::doccount count)
    : excluded_(excluded), count_(count) {}

void PageSetSource::init(const Xapian::Database& db) {
  did_ = 0;
  last_ = db.get_lastdocid();
  const Xapian::doccount docs = db.get_doccount();
  kept_ = docs > count_ ? docs - count_ : 0;
  set_maxweight(0);
}

Xapian::docid PageSetSource::first_kept(Xapian::docid did) const {
  while (did <= last_ && page_bit(excluded_, did - 1)) ++did;
  return did;
}

void PageSetSource::next(double) {
  did_ = first_kept(did_ + 1);
}

void PageSetSource::skip_to(Xapian::docid did, double) {
  if (did > did_) did_ = first_kept(did);
}

}  // namespace webrank::search
