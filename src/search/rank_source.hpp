// PageRank in the matcher: a Xapian PostingSource that gives every document (docid = page id + 1)
// a weight computed from the rank vector held in memory. It is combined with the text query:
// added to BM25 in full mode (OP_AND_MAYBE, scaled), the whole weight in title mode (OP_FILTER).
// Reading the vector instead of a value slot of the index is what lets any stored or per-query
// vector rank the same index without rebuilding it.
#pragma once

#include <xapian.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "webrank/rank/presentation.hpp"

namespace webrank::search {

class RankSource : public Xapian::PostingSource {
 public:
  enum class Weight {
    kRank,        // the rank itself (title mode: results ordered by rank)
    kPercentile,  // the percentile / 100, in (0, 1] (full mode's merge)
  };
  // `ranks` must outlive the source (the Searcher keeps it alive for the whole search).
  RankSource(const PresentedRanks& ranks, Weight weight);

  Xapian::doccount get_termfreq_min() const override { return 0; }
  Xapian::doccount get_termfreq_est() const override { return doccount_; }
  Xapian::doccount get_termfreq_max() const override { return doccount_; }
  double get_weight() const override;
  Xapian::docid get_docid() const override { return did_; }
  void next(double min_wt) override;
  void skip_to(Xapian::docid did, double min_wt) override;
  bool check(Xapian::docid did, double min_wt) override;
  bool at_end() const override { return did_ > last_; }
  Xapian::PostingSource* clone() const override;
  void init(const Xapian::Database& db) override;
  std::string name() const override { return "webrank::RankSource"; }

 private:
  double weight_of(Xapian::docid did) const;

  const PresentedRanks& ranks_;
  Weight weight_;
  Xapian::docid did_ = 0, last_ = 0;
  Xapian::doccount doccount_ = 0;
};

// A weight for each of a few documents, given in advance: full mode's bonus to the pages a query
// names (docs/search.md, "Topic pages first"), summed over the names of each page by the searcher,
// so that the matcher has one source for every name of the query.
class BonusSource : public Xapian::PostingSource {
 public:
  // `bonus`: (docid, weight > 0), docids ascending and distinct.
  explicit BonusSource(std::vector<std::pair<Xapian::docid, double>> bonus);

  Xapian::doccount get_termfreq_min() const override { return size(); }
  Xapian::doccount get_termfreq_est() const override { return size(); }
  Xapian::doccount get_termfreq_max() const override { return size(); }
  double get_weight() const override { return bonus_[at_].second; }
  Xapian::docid get_docid() const override { return bonus_[at_].first; }
  void next(double min_wt) override;
  void skip_to(Xapian::docid did, double min_wt) override;
  bool at_end() const override { return at_ >= bonus_.size(); }
  Xapian::PostingSource* clone() const override { return new BonusSource(bonus_); }
  void init(const Xapian::Database& db) override;
  std::string name() const override { return "webrank::BonusSource"; }

 private:
  Xapian::doccount size() const { return static_cast<Xapian::doccount>(bonus_.size()); }

  std::vector<std::pair<Xapian::docid, double>> bonus_;
  std::size_t at_ = 0;
  bool started_ = false;
};

// Every document whose page's bit is clear in a page bitmap (document.hpp's page_bit), weight 0:
// a filter held in memory, for OP_FILTER. Full mode leaves out pages known only from links with
// it: the matcher's check of a candidate is a bit's test, where OP_AND_NOT over the boolean term
// that marks those pages decoded its posting list (on a one-site crawl most pages of the index).
class PageSetSource : public Xapian::PostingSource {
 public:
  // `excluded` must outlive the source; `count`: how many pages it excludes (estimates only).
  PageSetSource(const std::string& excluded, Xapian::doccount count);

  Xapian::doccount get_termfreq_min() const override { return 0; }
  Xapian::doccount get_termfreq_est() const override { return kept_; }
  Xapian::doccount get_termfreq_max() const override { return kept_; }
  double get_weight() const override { return 0; }
  Xapian::docid get_docid() const override { return did_; }
  void next(double min_wt) override;
  void skip_to(Xapian::docid did, double min_wt) override;
  bool at_end() const override { return did_ > last_; }
  Xapian::PostingSource* clone() const override { return new PageSetSource(excluded_, count_); }
  void init(const Xapian::Database& db) override;
  std::string name() const override { return "webrank::PageSetSource"; }

 private:
  // The first docid >= did whose page is not excluded (last_ + 1 when none is).
  Xapian::docid first_kept(Xapian::docid did) const;

  const std::string& excluded_;
  Xapian::doccount count_, kept_ = 0;
  Xapian::docid did_ = 0, last_ = 0;
};

}  // namespace webrank::search
