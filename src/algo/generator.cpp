#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "algo/web_model.hpp"
#include "util/atomic_file.hpp"
#include "webrank/algo/generate.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Buffered text output to a file (atomically) or stdout.
class EdgeWriter {
 public:
  explicit EdgeWriter(const std::string& path) {
    if (path != "-") file_ = std::make_unique<AtomicFileWriter>(path);
    buf_.reserve(1 << 20);
  }
  void line(const std::string& a, const std::string& b) {
    buf_ += a;
    buf_ += '\t';
    buf_ += b;
    buf_ += '\n';
    if (buf_.size() > (1 << 20) - 4096) flush();
  }
  void flush() {
    if (file_) {
      file_->write(buf_);
    } else if (std::fwrite(buf_.data(), 1, buf_.size(), stdout) != buf_.size()) {
      fail(ErrorKind::kIo, "<stdout>: write failed");
    }
    buf_.clear();
  }
  void finish() {
    flush();
    if (file_) file_->commit();
  }

 private:
  std::unique_ptr<AtomicFileWriter> file_;
  std::string buf_;
};

GenerateReport generate_web(const GenerateOptions& o, EdgeWriter& out) {
  const WebModel model(o);
  GenerateReport r;
  const std::uint64_t n = model.pages();
  r.ids = n;
  std::vector<bool> linked(n);
  r.links = model.links([&](std::uint64_t from, std::uint64_t to) {
    out.line(model.url(from), model.url(to));
    linked[from] = linked[to] = true;
  });
  r.pages = static_cast<std::uint64_t>(std::count(linked.begin(), linked.end(), true));
  if (r.links < o.links) {
    const double mean = static_cast<double>(o.links) / (0.8 * static_cast<double>(n));
    const double mean_links = std::round(mean * 10) / 10;
    r.notes.push_back(cat("the web model gives each page its out-links in one pass (", mean_links,
                          " on average, 20% of pages none) and ran out of pages after ", r.links,
                          " of the ", o.links, " links asked: raise --pages"));
  }
  if (r.pages < n) {
    r.notes.push_back(cat(n - r.pages, " of the ", n,
                          " pages drew no link and are not in the file (only pages that appear "
                          "in a link are pages of the web it builds)"));
  }
  return r;
}

GenerateReport generate_rmat(const GenerateOptions& o, EdgeWriter& out) {
  int scale = 1;
  while ((std::uint64_t{1} << scale) < o.pages) ++scale;
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> unit(0, 1);
  constexpr double a = 0.57, b = 0.19, c = 0.19;
  GenerateReport r;
  r.ids = std::uint64_t{1} << scale;
  std::vector<bool> linked(r.ids);
  for (std::uint64_t e = 0; e < o.links; ++e) {
    std::uint64_t s = 0, t = 0;
    for (int bit = 0; bit < scale; ++bit) {
      const double x = unit(rng);
      s = s << 1 | (x >= a + b);
      t = t << 1 | ((x >= a && x < a + b) || x >= a + b + c);
    }
    out.line(std::to_string(s), std::to_string(t));
    linked[s] = linked[t] = true;
  }
  r.links = o.links;
  r.pages = static_cast<std::uint64_t>(std::count(linked.begin(), linked.end(), true));
  if (r.ids != o.pages) {
    r.notes.push_back(cat("rmat draws ids below a power of two: --pages ", o.pages,
                          " was rounded up to ", r.ids, " ids (2^", scale, ")"));
  }
  if (r.pages < r.ids) {
    r.notes.push_back(cat(r.ids - r.pages, " of the ", r.ids,
                          " ids drew no link and are not in the file (R-MAT's skew leaves many "
                          "ids unused; only ids that appear in a link are pages)"));
  }
  return r;
}

}  // namespace

// Links drawn twice merge when built: a web of n pages has at most n² distinct links.
void note_duplicates(GenerateReport& r) {
  const double most = static_cast<double>(r.pages) * static_cast<double>(r.pages);
  if (static_cast<double>(r.links) > most) {
    r.notes.push_back(cat("a web of ", r.pages, " pages has at most ", most,
                          " distinct links: links drawn twice merge when it is built"));
  }
}

GenerateReport generate_graph(const GenerateOptions& o) {
  if (o.pages == 0) fail_option("pages", "must be positive");
  if (o.links == 0) fail_option("links", "must be positive");
  if (o.output.empty()) fail_option("output", "is empty: no file to write (- is standard output)");
  EdgeWriter out(o.output);
  GenerateReport r = o.model == GraphModel::kRmat ? generate_rmat(o, out) : generate_web(o, out);
  out.finish();
  note_duplicates(r);
  return r;
}

std::span<const Named<GraphModel>> names(GraphModel) {
  static constexpr Named<GraphModel> kNames[] = {{GraphModel::kWeb, "web"},
                                                 {GraphModel::kRmat, "rmat"}};
  return kNames;
}

}  // namespace webrank
