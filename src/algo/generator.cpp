#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "util/atomic_file.hpp"
#include "webrank/error.hpp"
#include "webrank/generate.hpp"

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
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> unit(0, 1);
  // Hosts with Zipf-like sizes: host h gets weight 1/(h+1); pages are assigned in host order so
  // that a host's pages are contiguous, as in a link database sorted by URL.
  const std::uint64_t n = std::max<std::uint64_t>(o.pages, 2);
  const std::uint64_t hosts = std::max<std::uint64_t>(1, n / 50);
  std::vector<double> weight(hosts);
  double total = 0;
  for (std::uint64_t h = 0; h < hosts; ++h) total += weight[h] = 1.0 / static_cast<double>(h + 1);
  std::vector<std::uint64_t> host_start(hosts + 1, 0);
  std::uint64_t assigned = 0;
  for (std::uint64_t h = 0; h < hosts; ++h) {
    std::uint64_t size =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(weight[h] / total * n));
    host_start[h] = assigned;
    assigned = std::min(n, assigned + size);
  }
  host_start[hosts] = n;
  std::vector<std::uint64_t> host_of(n);
  for (std::uint64_t h = 0, p = 0; p < n; ++p) {
    while (h + 1 < hosts && p >= host_start[h + 1]) ++h;
    host_of[p] = h;
  }
  auto url = [&](std::uint64_t p) {
    const std::uint64_t h = host_of[p], i = p - host_start[h];
    return i == 0 ? "http://host" + std::to_string(h) + ".example/"
                  : "http://host" + std::to_string(h) + ".example/dir" + std::to_string(i % 7) +
                        "/page" + std::to_string(i) + ".html";
  };
  // Out-degrees: 20% of pages have none; the rest a geometric-like count with the right mean.
  const double mean = static_cast<double>(o.links) / (0.8 * static_cast<double>(n));
  std::geometric_distribution<std::uint64_t> degree(1.0 / (1.0 + std::max(mean - 1, 0.0)));
  std::vector<std::uint64_t> targets;  // every link target so far, for copying
  targets.reserve(o.links);
  GenerateReport r;
  r.ids = n;
  std::vector<bool> linked(n);
  auto link = [&](std::uint64_t from, std::uint64_t to) {
    out.line(url(from), url(to));
    linked[from] = linked[to] = true;
    ++r.links;
  };
  for (std::uint64_t p = 0; p < n && r.links < o.links; ++p) {
    if (unit(rng) < 0.2) continue;    // a dangling page (or one known only from links to it)
    link(p, host_start[host_of[p]]);  // pages link to their host's root
    const std::uint64_t k = 1 + degree(rng);
    const std::uint64_t h = host_of[p];
    const std::uint64_t hs = host_start[h], he = host_start[h + 1];
    for (std::uint64_t j = 0; j < k && r.links < o.links; ++j) {
      std::uint64_t t;
      const double x = unit(rng);
      if (x < 0.7) {
        t = hs + rng() % (he - hs);  // same host
      } else if (x < 0.9 && !targets.empty()) {
        t = targets[rng() % targets.size()];  // copy an existing link: preferential attachment
      } else {
        t = rng() % n;  // anywhere
      }
      targets.push_back(t);
      link(p, t);
    }
  }
  r.pages = static_cast<std::uint64_t>(std::count(linked.begin(), linked.end(), true));
  if (r.links < o.links) {
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

}  // namespace webrank
