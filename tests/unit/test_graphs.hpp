// Helpers for the unit tests: small webs given as label pairs, ranked through the public API.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "webrank/rank/rank.hpp"
#include "webrank/util/graph.hpp"
#include "webrank/writer/owned_graph.hpp"

namespace webrank::testing {

// A web built from "A B" pairs; labels get ids in order of first appearance.
struct LabeledWeb {
  std::map<std::string, PageId> ids;
  std::vector<std::string> labels;
  std::vector<OwnedGraph::Link> links;
  bool weighted = false;

  PageId id(const std::string& label) {
    auto [it, inserted] = ids.emplace(label, static_cast<PageId>(labels.size()));
    if (inserted) labels.push_back(label);
    return it->second;
  }
  LabeledWeb& link(const std::string& a, const std::string& b, double w = 1.0) {
    PageId s = id(a);
    PageId t = id(b);
    links.push_back({s, t, w});
    return *this;
  }
  LabeledWeb& page(const std::string& a) {
    id(a);
    return *this;
  }
  OwnedGraph graph() const {
    return OwnedGraph(static_cast<PageId>(labels.size()), links, weighted);
  }
  PageWeights weights(const std::map<std::string, double>& by_label) const {
    PageWeights w;
    for (const auto& [label, x] : by_label) w.emplace_back(ids.at(label), x);
    return w;
  }
  std::map<std::string, double> rank(RankOptions o) const {
    OwnedGraph g = graph();
    RankResult r = compute_rank(g.view(), o);
    EXPECT_TRUE(r.converged);
    std::map<std::string, double> out;
    for (std::size_t i = 0; i < labels.size(); ++i) out[labels[i]] = r.ranks[i];
    return out;
  }
};

inline void expect_ranks(const std::map<std::string, double>& got,
                         const std::map<std::string, double>& want, double tol) {
  for (const auto& [label, value] : want) {
    ASSERT_TRUE(got.count(label)) << label;
    EXPECT_NEAR(got.at(label), value, tol) << "page " << label;
  }
}

inline double l1(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::abs(a[i] - b[i]);
  return s;
}

// A random web with dangling pages, self-links, duplicate links and (optionally) weights.
inline LabeledWeb random_web(int pages, int links, unsigned seed, bool weighted = false) {
  std::mt19937 rng(seed);
  LabeledWeb w;
  w.weighted = weighted;
  std::uniform_int_distribution<int> pick(0, pages - 1);
  std::uniform_real_distribution<double> weight(0.1, 5.0);
  for (int i = 0; i < pages; ++i) w.page("p" + std::to_string(i));
  for (int i = 0; i < links; ++i) {
    int s = pick(rng) % (pages / 2 + 1);  // the upper half has no out-links: dangling
    int t = pick(rng);
    w.link("p" + std::to_string(s), "p" + std::to_string(t), weighted ? weight(rng) : 1.0);
  }
  return w;
}

// `text` as one gzip member / one zstd frame, for tests of compressed inputs.
inline std::string gzip(const std::string& text) {
  std::string out(compressBound(static_cast<uLong>(text.size())) + 64, '\0');
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline std::string zstd(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

// A scratch directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("webrank-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return (path_ / name).string();
  }

 private:
  static int& counter() {
    static int c = 0;
    return c;
  }
  std::filesystem::path path_;
};

}  // namespace webrank::testing
