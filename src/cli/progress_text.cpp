#include "progress_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "webrank/util/units.hpp"

namespace webrank::cli {
namespace {

ProgressText iteration(const std::string& op, const IterationInfo& info) {
  // From the third iteration on: the first changes say little about the rate.
  const std::string left =
      info.iteration >= 3 && std::isfinite(info.iterations_left) && info.iterations_left > 0
          ? cat(", ~", static_cast<int>(std::ceil(info.iterations_left)), " to go")
          : "";
  return {cat(op == "hits" ? "hits: " : "", "iteration ", info.iteration, "  L1 change ",
              scientific(info.delta), "  ", format_duration(info.seconds), " elapsed",
              op == "hits" ? "" : left)};
}

ProgressText solve(const SolveProgress& p) {
  const double percent = 100.0 * static_cast<double>(p.pages_solved) / p.pages;
  // The search's line and the last one always show: the search may take long, and JSON readers
  // should see the end.
  const bool always = p.searching || p.factorizing || p.pages_solved == p.pages;
  if (p.factorizing) {
    return {cat("direct: sparse LU of I - d*M (", p.pages, " pages, ", p.nonzeros,
                " nonzeros), the long step  ", format_duration(p.seconds), " elapsed"),
            always};
  }
  if (p.searching) {
    return {cat("components: finding the strongly connected components of ", p.pages, " pages  ",
                format_duration(p.seconds), " elapsed"),
            always};
  }
  if (p.sweep > 0) {
    return {cat("components: ", static_cast<int>(percent + 0.5), "% of pages solved; sweep ",
                p.sweep, " of a ", p.component_pages, "-page component, change ",
                scientific(p.change), "  ", format_duration(p.seconds), " elapsed"),
            always};
  }
  return {cat("components: ", static_cast<int>(percent + 0.5), "% of pages solved  ",
              format_duration(p.seconds), " elapsed"),
          always};
}

}  // namespace

ProgressText ProgressPrinter::operator()(const app::Progress& progress) {
  return std::visit(
      [this](const auto& p) -> ProgressText {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, IterationInfo>) {
          return iteration(operation_, p);
        } else if constexpr (std::is_same_v<T, SolveProgress>) {
          return solve(p);
        } else if constexpr (std::is_same_v<T, BatchProgress>) {
          return {cat("iteration ", p.iteration, "  ", p.done, " of ", p.vectors,
                      " vectors done  largest L1 change ", scientific(p.largest_delta), "  ",
                      format_duration(p.seconds), " elapsed")};
        } else if constexpr (std::is_same_v<T, BuildProgress>) {
          const bool new_stage = p.stage != stage_;
          stage_ = p.stage;
          // Bytes are counted by the stages that read files; the others ("sorting" the links in
          // memory, "ordering", "writing") are named alone ("sorting 0 B" reads as a bug).
          const bool counts_bytes =
              p.stage == "reading" || p.stage == "merging" || p.stage == "backlinks";
          std::string text = p.stage;
          if (counts_bytes) text += " " + format_bytes(static_cast<double>(p.bytes_read));
          // A total that the count passed (an input whose companion files were not counted) is
          // not shown: "16 MB of 2 MB" reads as a bug.
          if (counts_bytes && p.bytes_total > 0 && p.bytes_read <= p.bytes_total) {
            const double frac = std::min(
                1.0, static_cast<double>(p.bytes_read) / static_cast<double>(p.bytes_total));
            text += cat(" of ", format_bytes(static_cast<double>(p.bytes_total)), " (",
                        static_cast<int>(100 * frac), "%)");
          }
          return {text, new_stage};
        } else if constexpr (std::is_same_v<T, CrawlProgress>) {
          const double rate = p.seconds > 0 ? static_cast<double>(p.pages) / p.seconds : 0;
          return {cat("crawl: ", p.pages, " pages, ", p.queued, " queued",
                      p.spilled ? cat(" (", p.spilled, " on disk)") : std::string(), ", ",
                      p.in_flight, " in flight, ", p.errors, " errors, ",
                      format_bytes(static_cast<double>(p.bytes)), ", ",
                      static_cast<int>(rate * 10) / 10.0, " pages/s")};
        } else if constexpr (std::is_same_v<T, IndexProgress>) {
          const bool new_stage = p.stage != stage_;
          stage_ = p.stage;
          std::string text = cat(p.stage, " ", p.pages_done, " of ", p.pages, " pages");
          if (p.stage == "indexing" && p.seconds > 0.5 && p.pages_done > 0) {
            const double rate = static_cast<double>(p.pages_done) / p.seconds;
            text +=
                cat(", ", static_cast<int>(rate), " pages/s, ",
                    format_duration(static_cast<double>(p.pages - p.pages_done) / rate), " left");
          }
          return {text, new_stage};
        } else if constexpr (std::is_same_v<T, UpdateProgress>) {
          const bool new_stage = p.stage != stage_;
          stage_ = p.stage;
          std::string text = "update: " + p.stage;
          if (p.bytes_total > 0 && p.stage == "reading")
            text += cat(" ", format_bytes(static_cast<double>(p.bytes_read)), " of ",
                        format_bytes(static_cast<double>(p.bytes_total)));
          return {text, new_stage};
        } else if constexpr (std::is_same_v<T, HarmonicProgress>) {
          return {cat("harmonic: distance ", p.distance, "  ", p.pages_changed, " balls grew  ",
                      format_duration(p.seconds), " elapsed")};
        } else if constexpr (std::is_same_v<T, CrawlOrderProgress>) {
          return {cat("crawl-order: ", to_string(p.order), "  ", p.fetched, " of ", p.reachable,
                      " pages  ", format_duration(p.seconds), " elapsed")};
        } else {
          return {cat("partition: ", p.parts_written, " of ", p.parts, " parts written")};
        }
      },
      progress);
}

}  // namespace webrank::cli
