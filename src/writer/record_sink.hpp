// The records every input turns into: pages, links and, for crawls, whole page records. Readers
// (src/ingest/) produce them in input order; the database builder (database_builder.hpp)
// consumes them. Page ids follow the order in which labels first appear in these calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "webrank/store/page_data.hpp"

namespace webrank {

// Receives the records of an input, in input order. Crawl inputs (WARC, HTML directories) hand
// over whole pages with page_record(); a sink that keeps no page data gets the page and its
// followed links (weight 1), and the targets of nofollow links as pages only.
// Not thread-safe: one reader calls it at a time.
struct RecordSink {
  virtual ~RecordSink() = default;
  virtual void page(std::string_view label) = 0;
  virtual void link(std::string_view source, std::string_view target, double weight) = 0;
  // n links between canonical decimal numbers (LabelTable::is_number), given as values:
  // pairs[2i] -> pairs[2i+1] with weights[i] (all 1 if weights is null). The default passes each
  // to link() as text; the builder interns the values directly.
  virtual void numeric_links(const std::uint32_t* pairs, std::size_t n, const double* weights);
  // n links given as labels: labels[2i] -> labels[2i+1] with weights[i] (all 1 if weights is
  // null). The default passes each to link(); the builder interns them as a batch.
  virtual void label_links(const std::string_view* labels, std::size_t n, const double* weights);
  // An input declares n pages up front (a node count in a header), to be declared with page()
  // next; besides the sink's own, the reader keeps reader_bytes for each. Throws Error
  // (kInvalidInput, "WHERE: ...") if they cannot fit in the memory the sink may use, before
  // anything is allocated for them: a header's claim never exhausts the memory.
  virtual void expect_pages(std::uint64_t /*n*/, std::uint64_t /*reader_bytes*/,
                            std::string_view /*where*/) {}
  // A hint that about n more links follow (an estimate), so that arrays can be sized once.
  virtual void expect_links(std::uint64_t /*n*/) {}
  // The page labelled `from`, if there is one once every input is read, is to be labelled `to`
  // (`build --labels`: URLs for the ids of a numeric graph). `where` (FILE:LINE) names the request
  // in errors: a second label for one page, or a label that another page has.
  virtual void relabel(std::string_view /*from*/, std::string_view /*to*/,
                       std::string_view /*where*/) {}
  // How the reader read its input, when a user should know (an undirected graph read as links
  // both ways): one sentence, passed on to BuildReport::notes.
  virtual void note(std::string_view /*sentence*/) {}
  virtual void page_record(const PageRecord& r) {
    page(r.url);
    for (const PageLink& l : r.links) {
      if (l.nofollow) {
        page(l.target);
      } else {
        link(r.url, l.target, 1.0);
      }
    }
  }
};

}  // namespace webrank
