// The import formats (src/graph/formats/): BVGraph decoding (round trips through an encoder
// written here from the format description, with every code and parameter combination, and
// damaged streams), .properties parsing, Matrix Market, Pajek, Common Crawl host graphs, Web
// Data Commons graphs, and recognising formats from paths.

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include "ingest/formats/bit_reader.hpp"
#include "ingest/formats/bv_properties.hpp"
#include "ingest/formats/bvgraph.hpp"
#include "ingest/formats/readers.hpp"
#include "ingest/input_formats.hpp"
#include "test_graphs.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/store/database.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// A bit writer and a BVGraph encoder, written from the format description (not from the
// decoder): used to make BV files with any parameters.

class BitWriter {
 public:
  void bit(bool b) {
    if (n_ % 8 == 0) bytes.push_back(0);
    if (b) bytes.back() |= static_cast<std::uint8_t>(0x80 >> (n_ % 8));
    ++n_;
  }
  void bits(std::uint64_t v, unsigned n) {
    for (unsigned i = n; i-- > 0;) bit((v >> i) & 1);
  }
  void unary(std::uint64_t x) {
    for (std::uint64_t i = 0; i < x; ++i) bit(false);
    bit(true);
  }
  void gamma(std::uint64_t x) {
    const unsigned l = static_cast<unsigned>(std::bit_width(x + 1) - 1);
    unary(l);
    bits(x + 1, l);  // the low l bits
  }
  void delta(std::uint64_t x) {
    const unsigned l = static_cast<unsigned>(std::bit_width(x + 1) - 1);
    gamma(l);
    bits(x + 1, l);
  }
  void zeta(std::uint64_t x, unsigned k) {
    const unsigned msb = static_cast<unsigned>(std::bit_width(x + 1) - 1);
    const unsigned h = msb / k;
    unary(h);
    const std::uint64_t left = std::uint64_t{1} << (h * k);
    const std::uint64_t v = x + 1 - left;  // in [0, 2^((h+1)k) - 2^(hk))
    const unsigned s = h * k + k;          // minimal binary over an interval of size z:
    if (v < left) {                        // the first 2^s - z = left values take s-1 bits
      bits(v, s - 1);
    } else {
      bits(v + left, s);
    }
  }
  void nibble(std::uint64_t x) {
    const unsigned groups = x == 0 ? 1 : (static_cast<unsigned>(std::bit_width(x)) + 2) / 3;
    for (unsigned g = groups; g-- > 0;) {
      bit(g == 0);
      bits((x >> (3 * g)) & 7, 3);
    }
  }
  void code(BvCode c, std::uint64_t x, unsigned k) {
    switch (c) {
      case BvCode::kGamma:
        return gamma(x);
      case BvCode::kDelta:
        return delta(x);
      case BvCode::kUnary:
        return unary(x);
      case BvCode::kZeta:
        return zeta(x, k);
      case BvCode::kNibble:
        return nibble(x);
    }
  }
  std::uint64_t size_bits() const { return n_; }
  std::vector<std::uint8_t> bytes;

 private:
  std::uint64_t n_ = 0;
};

using Graph = std::vector<std::vector<std::uint32_t>>;

std::uint64_t int2nat(std::int64_t v) {
  return v >= 0 ? 2 * static_cast<std::uint64_t>(v) : 2 * static_cast<std::uint64_t>(-v) - 1;
}

// Encodes `g` as a BVGraph with the parameters of `p`. The reference of each node is the
// window entry sharing the most successors with it (0 if none shares any).
std::vector<std::uint8_t> encode(const Graph& g, const BvProperties& p) {
  BitWriter w;
  const BvCodes& c = p.codes;
  const unsigned k = c.zeta_k;
  for (std::size_t x = 0; x < g.size(); ++x) {
    const auto& s = g[x];
    w.code(c.outdegrees, s.size(), k);
    if (s.empty()) continue;
    std::size_t ref = 0, best = 0;
    for (std::size_t r = 1; p.window_size > 0 && r <= std::min<std::size_t>(p.window_size, x);
         ++r) {
      std::size_t common = 0;
      for (auto y : g[x - r]) common += std::binary_search(s.begin(), s.end(), y);
      if (common > best) best = common, ref = r;
    }
    std::vector<std::uint32_t> extra;
    if (p.window_size > 0) w.code(c.references, ref, k);
    if (ref > 0) {
      // Runs of copied / skipped entries of the referenced list, starting with a copy run.
      const auto& from = g[x - ref];
      std::vector<std::uint64_t> runs{0};
      bool copying = true;
      for (auto y : from) {
        const bool in = std::binary_search(s.begin(), s.end(), y);
        if (in != copying) runs.push_back(0), copying = in;
        ++runs.back();
      }
      runs.pop_back();  // the last run is implied by the parity of the block count
      w.code(c.block_count, runs.size(), k);
      for (std::size_t i = 0; i < runs.size(); ++i) w.code(c.blocks, runs[i] - (i > 0), k);
      for (auto y : s) {
        if (!std::binary_search(from.begin(), from.end(), y)) extra.push_back(y);
      }
    } else {
      extra = s;
    }
    if (extra.empty()) continue;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals;  // left, length
    std::vector<std::uint64_t> residuals;
    for (std::size_t i = 0; i < extra.size();) {
      std::size_t j = i + 1;
      while (j < extra.size() && extra[j] == extra[j - 1] + 1) ++j;
      if (p.min_interval_length > 0 && j - i >= p.min_interval_length) {
        intervals.emplace_back(extra[i], j - i);
      } else {
        for (std::size_t t = i; t < j; ++t) residuals.push_back(extra[t]);
      }
      i = j;
    }
    if (p.min_interval_length > 0) {
      w.code(c.intervals, intervals.size(), k);
      std::uint64_t next = 0;
      for (std::size_t i = 0; i < intervals.size(); ++i) {
        const auto [left, len] = intervals[i];
        if (i == 0) {
          w.code(c.intervals,
                 int2nat(static_cast<std::int64_t>(left) - static_cast<std::int64_t>(x)), k);
        } else {
          w.code(c.intervals, left - next - 1, k);
        }
        w.code(c.intervals, len - p.min_interval_length, k);
        next = left + len;
      }
    }
    for (std::size_t i = 0; i < residuals.size(); ++i) {
      if (i == 0) {
        w.code(c.residuals,
               int2nat(static_cast<std::int64_t>(residuals[0]) - static_cast<std::int64_t>(x)), k);
      } else {
        w.code(c.residuals, residuals[i] - residuals[i - 1] - 1, k);
      }
    }
  }
  return w.bytes;
}

// A graph with the shapes BV compresses: runs of consecutive successors, lists similar to the
// previous node's, self-loops, dangling nodes.
Graph random_graph(std::uint32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  Graph g(n);
  for (std::uint32_t x = 0; x < n; ++x) {
    std::set<std::uint32_t> s;
    const unsigned kind = rng() % 5;
    if (kind == 0) continue;  // dangling
    if (kind == 1 && x > 0) {
      const auto& prev = g[x - 1 - rng() % std::min<std::uint32_t>(x, 3)];
      for (auto y : prev) {
        if (rng() % 4) s.insert(y);
      }
    }
    const unsigned extra = rng() % 12;
    for (unsigned i = 0; i < extra; ++i) {
      const std::uint32_t y = rng() % 2 ? rng() % n : (x + rng() % 16) % n;
      const std::uint32_t run = rng() % 3 == 0 ? 1 + rng() % 8 : 1;
      for (std::uint32_t t = 0; t < run && y + t < n; ++t) s.insert(y + t);
    }
    if (rng() % 7 == 0) s.insert(x);
    g[x].assign(s.begin(), s.end());
  }
  return g;
}

BvProperties props_for(const Graph& g, std::uint64_t window, std::uint64_t min_interval) {
  BvProperties p;
  p.nodes = g.size();
  for (const auto& s : g) p.arcs += s.size();
  p.window_size = window;
  p.max_ref_count = 3;
  p.min_interval_length = min_interval;
  return p;
}

Graph decode(const std::vector<std::uint8_t>& bytes, const BvProperties& p) {
  Graph out(p.nodes);
  decode_bvgraph(bytes, "test.graph", p, [&](std::uint32_t x, std::span<const std::uint32_t> s) {
    out[x].assign(s.begin(), s.end());
  });
  return out;
}

std::string decode_error(const std::vector<std::uint8_t>& bytes, const BvProperties& p) {
  try {
    decode(bytes, p);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------

TEST(BitReader, ReadsEveryCodeWrittenByTheWriter) {
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> values{0, 1, 2, 3, 7, 8, 63, 64, 1000, 65535, 1u << 20};
  for (int i = 0; i < 300; ++i) values.push_back(rng() >> (rng() % 60 + 4));
  for (BvCode c : {BvCode::kGamma, BvCode::kDelta, BvCode::kZeta, BvCode::kNibble}) {
    for (unsigned k : {1u, 2u, 3u, 5u, 7u}) {
      if (c != BvCode::kZeta && k != 1) continue;
      BitWriter w;
      for (auto v : values) w.code(c, v, k);
      BitReader r(w.bytes.data(), w.bytes.size());
      for (auto v : values) {
        std::uint64_t got = 0;
        switch (c) {
          case BvCode::kGamma:
            got = r.gamma();
            break;
          case BvCode::kDelta:
            got = r.delta();
            break;
          case BvCode::kZeta:
            got = r.zeta(k);
            break;
          default:
            got = r.nibble();
        }
        ASSERT_EQ(got, v) << bv_code_name(c) << " k=" << k;
      }
      EXPECT_EQ(r.position(), w.size_bits());
    }
  }
  BitWriter w;
  for (std::uint64_t v : {0u, 1u, 5u, 200u}) w.unary(v);
  BitReader r(w.bytes.data(), w.bytes.size());
  for (std::uint64_t v : {0u, 1u, 5u, 200u}) EXPECT_EQ(r.unary(), v);
}

TEST(BitReader, KnownBitPatterns) {
  // gamma: 0 = "1", 1 = "010", 2 = "011", 3 = "00100"; zeta_3: 0 = "100"; nibble 9 = 0001 1001.
  const std::uint8_t bytes[] = {0b10100110, 0b01001001, 0b00011001};
  BitReader r(bytes, 3);
  EXPECT_EQ(r.gamma(), 0u);
  EXPECT_EQ(r.gamma(), 1u);
  EXPECT_EQ(r.gamma(), 2u);
  EXPECT_EQ(r.gamma(), 3u);
  EXPECT_EQ(r.zeta(3), 0u);
  EXPECT_EQ(r.gamma(), 0u);
  EXPECT_EQ(r.nibble(), 9u);
  EXPECT_EQ(r.position(), 24u);
}

TEST(BitReader, OverrunsAndOverlongCodesThrow) {
  const std::uint8_t zeros[4] = {0, 0, 0, 0};
  BitReader a(zeros, 4);
  EXPECT_THROW(a.unary(), BitStreamOverrun);
  BitReader b(zeros, 0);
  EXPECT_THROW(b.bit(), BitStreamOverrun);
  std::vector<std::uint8_t> long_zero(10, 0);
  long_zero.push_back(0xFF);  // 80 zeros then ones: a gamma code of 81 bits
  BitReader c(long_zero.data(), long_zero.size());
  EXPECT_THROW(c.gamma(), BitStreamBadCode);
  const std::uint8_t cut[] = {0b00010000};  // gamma with l = 3 needs 3 more bits than exist
  BitReader d(cut, 1);
  EXPECT_NO_THROW(d.gamma());  // 0001 000 = exactly 7 bits: fits
  const std::uint8_t cut2[] = {0b00000001};
  BitReader e(cut2, 1);
  EXPECT_THROW(e.gamma(), BitStreamOverrun);  // l = 7 but no bits follow
}

TEST(BvGraph, RoundTripsWithDefaultParameters) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Graph g = random_graph(300, seed);
    const BvProperties p = props_for(g, 7, 4);
    EXPECT_EQ(decode(encode(g, p), p), g) << "seed " << seed;
  }
}

TEST(BvGraph, RoundTripsWithEveryCodeForEveryComponent) {
  const Graph g = random_graph(250, 11);
  const BvCode codes[] = {BvCode::kGamma, BvCode::kDelta, BvCode::kUnary, BvCode::kZeta,
                          BvCode::kNibble};
  BvCode BvCodes::*components[] = {&BvCodes::outdegrees, &BvCodes::references,
                                   &BvCodes::blocks,     &BvCodes::block_count,
                                   &BvCodes::intervals,  &BvCodes::residuals};
  for (auto component : components) {
    for (BvCode code : codes) {
      for (unsigned k : {1u, 3u, 6u}) {
        BvProperties p = props_for(g, 7, 3);
        p.codes.*component = code;
        p.codes.zeta_k = k;
        ASSERT_EQ(decode(encode(g, p), p), g) << bv_code_name(code) << " k=" << k;
      }
    }
  }
}

TEST(BvGraph, RoundTripsWithEveryWindowAndIntervalSetting) {
  std::mt19937 rng(3);
  const BvCode codes[] = {BvCode::kGamma, BvCode::kDelta, BvCode::kUnary, BvCode::kZeta,
                          BvCode::kNibble};
  for (std::uint64_t window : {0u, 1u, 2u, 7u, 16u}) {
    for (std::uint64_t min_interval : {0u, 2u, 3u, 4u, 9u}) {
      const Graph g = random_graph(200, static_cast<unsigned>(window * 31 + min_interval));
      BvProperties p = props_for(g, window, min_interval);
      p.codes.outdegrees = codes[rng() % 5];
      p.codes.residuals = codes[rng() % 5];
      p.codes.blocks = codes[rng() % 5];
      p.codes.zeta_k = 1 + rng() % 7;
      ASSERT_EQ(decode(encode(g, p), p), g) << "window " << window << " L " << min_interval;
    }
  }
}

TEST(BvGraph, EmptyAndTinyGraphs) {
  const Graph none(5);  // five isolated nodes: five 1-bits
  BvProperties p = props_for(none, 7, 4);
  EXPECT_EQ(decode(encode(none, p), p), none);
  const Graph loop{{0}};
  p = props_for(loop, 7, 4);
  EXPECT_EQ(decode(encode(loop, p), p), loop);
  const Graph zero;
  p = props_for(zero, 7, 4);
  EXPECT_EQ(decode({}, p), zero);
}

TEST(BvGraph, TruncatedStreamsFailWithTheByteOffsetNeverCrash) {
  const Graph g = random_graph(120, 5);
  const BvProperties p = props_for(g, 7, 4);
  const auto bytes = encode(g, p);
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + len);
    const std::string e = decode_error(cut, p);
    ASSERT_NE(e.find("test.graph: ends early"), std::string::npos) << len << ": " << e;
    ASSERT_NE(e.find(std::to_string(len) + " bytes"), std::string::npos) << e;
  }
}

TEST(BvGraph, FlippedBitsNeverCrash) {
  const Graph g = random_graph(150, 9);
  for (std::uint64_t window : {0u, 7u}) {
    const BvProperties p = props_for(g, window, 3);
    const auto bytes = encode(g, p);
    std::mt19937 rng(17);
    int errors = 0;
    for (int trial = 0; trial < 1500; ++trial) {
      auto bad = bytes;
      for (int f = 0; f < 1 + trial % 3; ++f) bad[rng() % bad.size()] ^= 1 << (rng() % 8);
      if (!decode_error(bad, p).empty()) ++errors;
    }
    EXPECT_GT(errors, 1000);  // nearly every damage is caught (the arc total is checked)
  }
}

TEST(BvGraph, ImpossibleValuesAreNamed) {
  BvProperties p;
  p.nodes = 3;
  p.window_size = 2;
  p.min_interval_length = 0;
  auto err = [&](const std::function<void(BitWriter&)>& write, std::uint64_t arcs) {
    BitWriter w;
    write(w);
    p.arcs = arcs;
    return decode_error(w.bytes, p);
  };
  EXPECT_NE(
      err([](BitWriter& w) { w.gamma(9); }, 9).find("outdegree 9 exceeds the number of nodes"),
      std::string::npos);
  EXPECT_NE(err([](BitWriter& w) { w.gamma(1), w.unary(3); }, 1).find("reference 3 exceeds"),
            std::string::npos);
  EXPECT_NE(err([](BitWriter& w) { w.gamma(1), w.unary(1); }, 1).find("points before node 0"),
            std::string::npos);
  // node 0 -> {1}; node 1 copies from node 0 with a block of 5
  EXPECT_NE(err(
                [](BitWriter& w) {
                  w.gamma(1), w.unary(0), w.zeta(int2nat(1), 3);
                  w.gamma(1), w.unary(1), w.gamma(1), w.gamma(5);
                },
                2)
                .find("copy block 0 runs past"),
            std::string::npos);
  // first residual 0 + 7 is not a node
  EXPECT_NE(err([](BitWriter& w) { w.gamma(1), w.unary(0), w.zeta(int2nat(7), 3); }, 1)
                .find("first residual 7 is not a node"),
            std::string::npos);
  // residual gap past the end
  EXPECT_NE(err([](BitWriter& w) { w.gamma(2), w.unary(0), w.zeta(0, 3), w.zeta(5, 3); }, 2)
                .find("residual 1 is past the last node"),
            std::string::npos);
  // a successor both copied and residual
  EXPECT_NE(err(
                [](BitWriter& w) {
                  w.gamma(1), w.unary(0), w.zeta(int2nat(1), 3);
                  w.gamma(2), w.unary(1), w.gamma(0), w.zeta(0, 3);
                },
                3)
                .find("successor 1 appears twice"),
            std::string::npos);
  // arc total
  const std::string total = err([](BitWriter& w) { w.gamma(0), w.gamma(0), w.gamma(0); }, 4);
  EXPECT_NE(total.find(
                "byte 1 (the end of the last list): decoded 0 arcs but the .properties say arcs=4"),
            std::string::npos)
      << total;
  // trailing data
  BitWriter w;
  w.gamma(0), w.gamma(0), w.gamma(0);
  w.bytes.push_back(0x55);
  p.arcs = 0;
  EXPECT_NE(decode_error(w.bytes, p).find("1 bytes of data after"), std::string::npos);
  w.bytes.back() = 0;  // zero padding is fine
  EXPECT_EQ(decode_error(w.bytes, p), "");
  // a code longer than 64 bits
  std::vector<std::uint8_t> zeros(12, 0);
  zeros.push_back(0xFF);
  const std::string overlong = decode_error(zeros, p);
  EXPECT_NE(overlong.find("gamma code of more than 64 bits"), std::string::npos) << overlong;
  EXPECT_NE(overlong.find("test.graph: byte "), std::string::npos) << overlong;
  // intervals: node 0 -> [0, 3) with L = 2, then an interval count that cannot fit
  p.min_interval_length = 2;
  EXPECT_NE(err([](BitWriter& w) { w.gamma(2), w.unary(0), w.gamma(5); }, 2)
                .find("interval count 5 does not fit"),
            std::string::npos);
  EXPECT_NE(
      err([](BitWriter& w) { w.gamma(2), w.unary(0), w.gamma(1), w.gamma(int2nat(2)), w.gamma(0); },
          2)
          .find("runs past the last node"),
      std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(BvProperties, DefaultsAndExplicitFlags) {
  BvProperties p = parse_bv_properties(
      "#BVGraph properties\nnodes=10\narcs=20\nwindowsize=7\nmaxrefcount=3\n"
      "minintervallength=4\nzetak=3\ncompressionflags=\nversion=0\n"
      "graphclass=it.unimi.dsi.webgraph.BVGraph\n",
      "g.properties");
  EXPECT_EQ(p.nodes, 10u);
  EXPECT_EQ(p.arcs, 20u);
  EXPECT_EQ(p.window_size, 7u);
  EXPECT_EQ(p.min_interval_length, 4u);
  EXPECT_EQ(p.codes.outdegrees, BvCode::kGamma);
  EXPECT_EQ(p.codes.references, BvCode::kUnary);
  EXPECT_EQ(p.codes.blocks, BvCode::kGamma);
  EXPECT_EQ(p.codes.block_count, BvCode::kGamma);
  EXPECT_EQ(p.codes.intervals, BvCode::kGamma);
  EXPECT_EQ(p.codes.residuals, BvCode::kZeta);
  EXPECT_EQ(p.codes.zeta_k, 3u);

  p = parse_bv_properties(
      "nodes = 5\narcs: 0\nwindowsize 0\nminintervallength=0\nzetak=5\n"
      "compressionflags=OUTDEGREES_DELTA | BLOCKS_UNARY | RESIDUALS_NIBBLE | REFERENCES_GAMMA "
      "| BLOCK_COUNT_DELTA | OFFSETS_GAMMA | INTERVALS_ZETA\n",
      "g.properties");
  EXPECT_EQ(p.codes.outdegrees, BvCode::kDelta);
  EXPECT_EQ(p.codes.blocks, BvCode::kUnary);
  EXPECT_EQ(p.codes.residuals, BvCode::kNibble);
  EXPECT_EQ(p.codes.references, BvCode::kGamma);
  EXPECT_EQ(p.codes.block_count, BvCode::kDelta);
  EXPECT_EQ(p.codes.intervals, BvCode::kZeta);
  EXPECT_EQ(p.codes.zeta_k, 5u);

  p = parse_bv_properties(
      "nodes=1\narcs=0\nwindowsize=7\nminintervallength=4\n"
      "compressionflags=RESIDUALS_ZETA2\n",
      "g.properties");
  EXPECT_EQ(p.codes.zeta_k, 2u);
}

std::string properties_error(const std::string& text) {
  try {
    parse_bv_properties(text, "g.properties");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(BvProperties, ErrorsNameTheFileLineAndExpectation) {
  const std::string base = "nodes=1\narcs=0\nwindowsize=7\nminintervallength=4\n";
  EXPECT_NE(properties_error("arcs=0\nwindowsize=7\nminintervallength=4\n")
                .find("g.properties: no 'nodes' property"),
            std::string::npos);
  EXPECT_NE(properties_error("nodes=x\narcs=0\nwindowsize=7\nminintervallength=4\n")
                .find("g.properties:1: nodes='x': expected a non-negative integer"),
            std::string::npos);
  EXPECT_NE(properties_error(base + "compressionflags=RESIDUALS_GOLOMB\n")
                .find("g.properties:5: flag 'RESIDUALS_GOLOMB': code 'GOLOMB' is not supported"),
            std::string::npos);
  EXPECT_NE(properties_error(base + "compressionflags=WEIRD_GAMMA\n")
                .find("unknown compression flag 'WEIRD_GAMMA'"),
            std::string::npos);
  EXPECT_NE(properties_error(base + "version=1\n").find("version=1"), std::string::npos);
  EXPECT_NE(properties_error(base + "endianness=little\n").find("big-endian"), std::string::npos);
  EXPECT_NE(
      properties_error(base + "graphclass=it.unimi.dsi.webgraph.EFGraph\n").find("not a BVGraph"),
      std::string::npos);
  EXPECT_NE(properties_error(base + "zetak=0\n").find("zetak=0: expected 1..32"),
            std::string::npos);
  EXPECT_EQ(properties_error(base + "graphclass=it.unimi.dsi.big.webgraph.BVGraph\n"), "");
}

// ---------------------------------------------------------------------------------------------
// Reading through the registry into a recording sink.

struct Recorder : RecordSink {
  std::vector<std::string> pages;
  std::vector<std::string> links;
  void page(std::string_view l) override { pages.emplace_back(l); }
  void link(std::string_view s, std::string_view t, double w) override {
    std::ostringstream o;
    o << s << ">" << t;
    if (w != 1.0) o << ":" << w;
    links.push_back(o.str());
  }
};

Recorder read_as(const std::string& format, const std::string& path, bool weighted = false) {
  Recorder r;
  find_input_format(format, path).read(path, weighted, r, nullptr);
  return r;
}

std::string error_as(const std::string& format, const std::string& path, bool weighted = false) {
  try {
    read_as(format, path, weighted);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

using Strings = std::vector<std::string>;

void write_bv(const TempDir& dir, const std::string& base, const Graph& g, const BvProperties& p,
              const std::string& flags = "") {
  const auto bytes = encode(g, p);
  dir.write(base + ".graph", std::string(bytes.begin(), bytes.end()));
  dir.write(base + ".properties",
            cat("#BVGraph properties\ngraphclass=it.unimi.dsi.webgraph.BVGraph\nversion=0\nnodes=",
                p.nodes, "\narcs=", p.arcs, "\nwindowsize=", p.window_size,
                "\nmaxrefcount=3\nminintervallength=", p.min_interval_length,
                "\nzetak=", p.codes.zeta_k, "\ncompressionflags=", flags, "\n"));
}

TEST(ReadBv, NodesArePagesInOrderAndArcsAreLinks) {
  TempDir dir;
  const Graph g{{1, 2}, {}, {0, 2}, {}};  // node 3 is isolated
  write_bv(dir, "g", g, props_for(g, 7, 4));
  const Recorder r = read_as("bv", (dir / "g").string());
  EXPECT_EQ(r.pages, (Strings{"0", "1", "2", "3"}));
  EXPECT_EQ(r.links, (Strings{"0>1", "0>2", "2>0", "2>2"}));
  for (const char* name : {"g.graph", "g.properties", "g.offsets"}) {
    EXPECT_EQ(read_as("bv", (dir / name).string()).links, r.links) << name;
  }
  EXPECT_EQ(read_as("auto", (dir / "g").string()).links, r.links);
  EXPECT_EQ(read_as("auto", (dir / "g.graph").string()).links, r.links);
}

TEST(ReadBv, ExplicitCompressionFlagsAreHonoured) {
  TempDir dir;
  const Graph g = random_graph(150, 23);
  BvProperties p = props_for(g, 3, 2);
  p.codes.outdegrees = BvCode::kDelta;
  p.codes.references = BvCode::kGamma;
  p.codes.blocks = BvCode::kDelta;
  p.codes.block_count = BvCode::kUnary;
  p.codes.residuals = BvCode::kGamma;
  write_bv(dir, "g", g, p,
           "OUTDEGREES_DELTA | REFERENCES_GAMMA | BLOCKS_DELTA | BLOCK_COUNT_UNARY | "
           "RESIDUALS_GAMMA");
  const Recorder r = read_as("bv", (dir / "g").string());
  std::size_t arcs = 0;
  for (const auto& s : g) arcs += s.size();
  EXPECT_EQ(r.links.size(), arcs);
  EXPECT_EQ(r.pages.size(), g.size());
  // The same stream read with the default codes is an error, not garbage.
  write_bv(dir, "h", g, p);
  EXPECT_NE(error_as("bv", (dir / "h").string()), "");
}

TEST(ReadBv, MissingAndDamagedFiles) {
  TempDir dir;
  EXPECT_NE(error_as("bv", (dir / "none").string()).find("no BVGraph here"), std::string::npos);
  const Graph g = random_graph(60, 2);
  write_bv(dir, "g", g, props_for(g, 7, 4));
  std::filesystem::remove(dir / "g.graph");
  EXPECT_NE(error_as("bv", (dir / "g").string()).find("g.graph: cannot open"), std::string::npos);
  write_bv(dir, "t", g, props_for(g, 7, 4));
  std::filesystem::resize_file(dir / "t.graph", std::filesystem::file_size(dir / "t.graph") / 2);
  const std::string e = error_as("bv", (dir / "t").string());
  EXPECT_NE(e.find("t.graph: ends early"), std::string::npos) << e;
  EXPECT_NE(error_as("bv", "-").find("standard input"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(ReadMatrixMarket, PatternRealIntegerAndSymmetric) {
  TempDir dir;
  auto pattern = dir.write("p.mtx",
                           "%%MatrixMarket matrix coordinate pattern general\n% comment\n\n"
                           "%AB comment too\n"
                           "4 4 3\n1 2\n2 3\n3 1\n");
  Recorder r = read_as("mtx", pattern);
  EXPECT_EQ(r.pages, (Strings{"1", "2", "3", "4"}));
  EXPECT_EQ(r.links, (Strings{"1>2", "2>3", "3>1"}));
  EXPECT_EQ(read_as("mtx", pattern, true).links, r.links);

  auto real = dir.write("r.mtx",
                        "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 3 0.5\n2 1 "
                        "2e1\n");
  EXPECT_EQ(read_as("mtx", real).links, (Strings{"1>3", "2>1"}));
  EXPECT_EQ(read_as("mtx", real).pages, (Strings{"1", "2", "3"}));
  EXPECT_EQ(read_as("mtx", real, true).links, (Strings{"1>3:0.5", "2>1:20"}));

  auto sym = dir.write("s.mtx",
                       "%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 4\n3 3 "
                       "1\n");
  EXPECT_EQ(read_as("mtx", sym, true).links, (Strings{"2>1:4", "1>2:4", "3>3"}));
  // negative values: fine as structure, not as weights
  auto neg = dir.write("n.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -3\n");
  EXPECT_EQ(read_as("mtx", neg).links, (Strings{"1>2"}));
  EXPECT_NE(error_as("mtx", neg, true).find("n.mtx:3: weight '-3' is negative"), std::string::npos);
}

TEST(ReadMatrixMarket, ErrorsNameFileAndLine) {
  TempDir dir;
  auto e = [&](const std::string& text) { return error_as("mtx", dir.write("e.mtx", text)); };
  const std::string head = "%%MatrixMarket matrix coordinate pattern general\n";
  EXPECT_NE(e("1 2\n").find("e.mtx:1: expected the banner"), std::string::npos);
  EXPECT_NE(e("%%MatrixMarket matrix array real general\n").find("array"), std::string::npos);
  EXPECT_NE(e("%%MatrixMarket matrix coordinate complex general\n").find("field 'complex'"),
            std::string::npos);
  EXPECT_NE(e("%%MatrixMarket matrix coordinate real skew-symmetric\n").find("skew-symmetric"),
            std::string::npos);
  EXPECT_NE(e(head).find("ends before the size line"), std::string::npos);
  EXPECT_NE(e(head + "3 3 2\n1 2\n").find("e.mtx:3: ends after 1 of the 2 entries"),
            std::string::npos);
  EXPECT_NE(e(head + "3 3 1\n1 2\n2 3\n").find("e.mtx:4: more entries than the 1"),
            std::string::npos);
  EXPECT_NE(e(head + "3 3 1\n4 2\n").find("e.mtx:3: row 4 is out of range (expected 1..3)"),
            std::string::npos);
  EXPECT_NE(e(head + "3 3 1\n1 0\n").find("column 0 is out of range"), std::string::npos);
  EXPECT_NE(e(head + "3 3 1\n1 2 5\n").find("e.mtx:3: 3 fields, expected ROW COLUMN"),
            std::string::npos);
  EXPECT_NE(e("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x\n")
                .find("e.mtx:3: value 'x' is not a number"),
            std::string::npos);
  EXPECT_NE(e("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n")
                .find("integer value '1.5' is not an integer"),
            std::string::npos);
  EXPECT_NE(e("%%MatrixMarket matrix coordinate pattern symmetric\n2 3 0\n").find("square"),
            std::string::npos);
}

TEST(ReadMatrixMarket, CompressedFilesAndDetection) {
  TempDir dir;
  auto f =
      dir.write("m.mtx.gz", gzip("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n"));
  EXPECT_EQ(read_as("auto", f).links, (Strings{"2>1"}));
}

// ---------------------------------------------------------------------------------------------

TEST(ReadPajek, LabelsSectionsAndWeights) {
  TempDir dir;
  auto f =
      dir.write("n.net",
                "% a comment\r\n*Network test\r\n*Vertices 5\r\n 1 \"http://a/ x\" 0.1 0.2\r\n"
                " 2 b\r\n 4 \"http://d/\"\r\n*Arcs\r\n 1 2 2.5\r\n 2 3\r\n*Edges :1 \"rel\"\r\n"
                " 4 5 3\r\n 5 5\r\n*Arcslist\r\n 3 1 4\r\n*Edgeslist\r\n 1 5\r\n");
  const Recorder r = read_as("pajek", f);
  EXPECT_EQ(r.pages, (Strings{"http://a/ x", "b", "3", "http://d/", "5"}));
  EXPECT_EQ(r.links, (Strings{"http://a/ x>b", "b>3", "http://d/>5", "5>http://d/", "5>5",
                              "3>http://a/ x", "3>http://d/", "http://a/ x>5", "5>http://a/ x"}));
  const Recorder w = read_as("auto", f, true);
  EXPECT_EQ(w.links[0], "http://a/ x>b:2.5");
  EXPECT_EQ(w.links[2], "http://d/>5:3");
  EXPECT_EQ(w.links[3], "5>http://d/:3");
  // vertices without any vertex line, no arcs at all
  auto bare = dir.write("bare.net", "*Vertices 3\n");
  EXPECT_EQ(read_as("pajek", bare).pages, (Strings{"1", "2", "3"}));
}

TEST(ReadPajek, ErrorsNameFileAndLine) {
  TempDir dir;
  auto e = [&](const std::string& text, bool weighted = false) {
    return error_as("pajek", dir.write("e.net", text), weighted);
  };
  EXPECT_NE(e("1 2\n").find("e.net:1: expected '*Vertices N' before any data"), std::string::npos);
  EXPECT_NE(e("*Arcs\n1 2\n").find("e.net:1: *Arcs before *Vertices"), std::string::npos);
  EXPECT_NE(e("% only a comment\n").find("no '*Vertices N' line"), std::string::npos);
  EXPECT_NE(e("*Vertices 2\n*Arcs\n1 3\n").find("e.net:3: target vertex 3 is out of range"),
            std::string::npos);
  EXPECT_NE(e("*Vertices 2\n*Arcs\n1\n").find("e.net:3: expected 'SOURCE TARGET"),
            std::string::npos);
  EXPECT_NE(e("*Vertices 2\n1 \"a\n").find("e.net:2: unterminated"), std::string::npos);
  EXPECT_NE(e("*Vertices 2\n1 x\n2 x\n*Arcs\n").find("vertices 1 and 2 have the same label 'x'"),
            std::string::npos);
  EXPECT_NE(e("*Vertices 2\n1 2\n").find("vertices 1 and 2 have the same label '2'"),
            std::string::npos);
  EXPECT_NE(e("*Vertices 2\n1 a\n1 b\n").find("e.net:3: vertex 1 is listed twice"),
            std::string::npos);
  EXPECT_NE(e("*Vertices 2\n*Matrix\n0 1\n1 0\n").find("e.net:2: section '*Matrix'"),
            std::string::npos);
  EXPECT_NE(e("*Vertices 2\n*Arcs\n1 2 -1\n", true).find("e.net:3: weight '-1' is negative"),
            std::string::npos);
  EXPECT_EQ(e("*Vertices 2\n*Arcs\n1 2 -1\n", false), "");  // weights ignored unless --weighted
  EXPECT_NE(e("*Vertices 2\n*Vertices 2\n").find("second *Vertices"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(ReadCcHosts, PairPrefixAndSplitDirectory) {
  TempDir dir;
  const std::string vertices = "0\tcom.example\n1\tcom.example.www\n2\torg.wikipedia.en\n3\tio\n";
  const std::string edges = "0\t1\n1\t2\n2\t0\n2\t2\n";
  auto v = dir.write("cc-main-host-vertices.txt.gz", gzip(vertices));
  dir.write("cc-main-host-edges.txt.gz", gzip(edges));
  const Recorder r = read_as("cc-hosts", v);
  EXPECT_EQ(r.pages, (Strings{"example.com", "www.example.com", "en.wikipedia.org", "io"}));
  EXPECT_EQ(r.links,
            (Strings{"example.com>www.example.com", "www.example.com>en.wikipedia.org",
                     "en.wikipedia.org>example.com", "en.wikipedia.org>en.wikipedia.org"}));
  EXPECT_EQ(read_as("auto", v).links, r.links);
  EXPECT_EQ(read_as("auto", (dir / "cc-main-host").string()).links, r.links);  // prefix
  std::filesystem::create_directories(dir / "split" / "vertices");
  std::filesystem::create_directories(dir / "split" / "edges");
  dir.write("split/vertices/part-00000.gz", gzip("0\tcom.example\n1\tcom.example.www\n"));
  dir.write("split/vertices/part-00001.gz", gzip("2\torg.wikipedia.en\n3\tio\n"));
  dir.write("split/vertices/_SUCCESS", "");
  dir.write("split/edges/part-00000.gz", gzip("0\t1\n1\t2\n"));
  dir.write("split/edges/part-00001.gz", gzip("2\t0\n2\t2\n"));
  dir.write("split/edges/.part-00001.gz.crc", "junk");
  const Recorder s = read_as("auto", (dir / "split").string());
  EXPECT_EQ(s.pages, r.pages);
  EXPECT_EQ(s.links, r.links);
}

TEST(ReadCcHosts, DomainGraphsSparseIdsAndWeights) {
  TempDir dir;
  auto v = dir.write("d-vertices.txt", "10\tcom.example\t3\n7\torg.example\t1\n");
  dir.write("d-edges.txt", "10\t7\n7\t10\t2.5\n");
  EXPECT_NE(error_as("cc-hosts", v).find("d-edges.txt:2: 3 fields"), std::string::npos);
  const Recorder r = read_as("cc-hosts", v, true);
  EXPECT_EQ(r.pages, (Strings{"example.com", "example.org"}));
  EXPECT_EQ(r.links, (Strings{"example.com>example.org", "example.org>example.com:2.5"}));
}

TEST(ReadCcHosts, Errors) {
  TempDir dir;
  auto v = dir.write("x-vertices.txt", "0\tcom.a\n1\tcom.b\n");
  EXPECT_NE(error_as("cc-hosts", v).find("x-edges.txt: no such file"), std::string::npos);
  dir.write("x-edges.txt", "0\t1\n1\t5\n");
  EXPECT_NE(error_as("cc-hosts", v).find("x-edges.txt:2: target id 5 is not a vertex"),
            std::string::npos);
  dir.write("x-edges.txt", "0\tb\n");
  EXPECT_NE(error_as("cc-hosts", v).find("x-edges.txt:1: target id 'b' is not a non-negative"),
            std::string::npos);
  auto dup = dir.write("y-vertices.txt", "0\tcom.a\n0\tcom.b\n");
  dir.write("y-edges.txt", "");
  EXPECT_NE(error_as("cc-hosts", dup).find("vertex id 0 appears twice"), std::string::npos);
  auto bad = dir.write("z-vertices.txt", "0\tcom.a\tx\ty\n");
  dir.write("z-edges.txt", "");
  EXPECT_NE(error_as("cc-hosts", bad).find("z-vertices.txt:1: 4 fields, expected ID<TAB>"),
            std::string::npos);
  auto named = dir.write("hosts.txt", "0\tcom.a\n");
  EXPECT_NE(error_as("cc-hosts", named).find("name contains 'vertices'"), std::string::npos);
  EXPECT_NE(error_as("cc-hosts", (dir / "nothing").string()).find("no such file"),
            std::string::npos);
}

TEST(ReadWdc, IndexArcPairsPrefixesAndDirectories) {
  TempDir dir;
  auto idx = dir.write("pld-index.gz", gzip("a.com\t0\nb.org\t1\nc.net\t2\n"));
  dir.write("pld-arc.gz", gzip("0\t1\n0\t2\n2\t0\n"));
  const Recorder r = read_as("wdc", idx);
  EXPECT_EQ(r.pages, (Strings{"a.com", "b.org", "c.net"}));
  EXPECT_EQ(r.links, (Strings{"a.com>b.org", "a.com>c.net", "c.net>a.com"}));
  EXPECT_EQ(read_as("auto", idx).links, r.links);
  EXPECT_EQ(read_as("auto", (dir / "pld").string()).links, r.links);
  auto ex = dir.write("example_index", "http://x/\t1\nhttp://y/\t0\n");
  dir.write("example_arcs", "1\t0\n");
  EXPECT_EQ(read_as("auto", ex).links, (Strings{"http://x/>http://y/"}));
  std::filesystem::create_directories(dir / "page" / "index");
  std::filesystem::create_directories(dir / "page" / "arc");
  dir.write("page/index/part-0.gz", gzip("http://x/\t0\n"));
  dir.write("page/index/part-1.gz", gzip("http://y/\t1\n"));
  dir.write("page/arc/part-0.gz", gzip("1\t0\n"));
  EXPECT_EQ(read_as("auto", (dir / "page").string()).links, (Strings{"http://y/>http://x/"}));
  dir.write("q-index", "u\t0\n");
  EXPECT_NE(error_as("wdc", (dir / "q-index").string()).find("q-arc: no such file"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------

TEST(DetectInputFormat, OnlyFromUnambiguousPaths) {
  TempDir dir;
  auto name_of = [](const std::string& p) {
    const InputFormat* f = detect_format(p);
    return f ? f->name : std::string("-");
  };
  EXPECT_EQ(name_of(dir.write("a.mtx", "")), "mtx");
  EXPECT_EQ(name_of(dir.write("a.MTX.zst", "")), "mtx");
  EXPECT_EQ(name_of(dir.write("a.net", "")), "pajek");
  EXPECT_EQ(name_of(dir.write("a.net.gz", "")), "pajek");
  EXPECT_EQ(name_of(dir.write("h-vertices.txt.gz", "")), "cc-hosts");
  EXPECT_EQ(name_of(dir.write("pld-index.gz", "")), "wdc");
  EXPECT_EQ(name_of(dir.write("web.tsv", "")), "-");
  EXPECT_EQ(name_of(dir.write("lonely.graph", "")), "-");  // no .properties next to it
  dir.write("g.graph", "");
  dir.write("g.properties", "");
  EXPECT_EQ(name_of((dir / "g").string()), "bv");
  EXPECT_EQ(name_of((dir / "g.graph").string()), "bv");
  EXPECT_EQ(name_of("-"), "-");
  EXPECT_EQ(find_input_format("auto", (dir / "web.tsv").string()).name, "edges");
  EXPECT_THROW(find_input_format("nope", "x"), Error);
}

TEST(BuildDatabase, ImportsBvWithNodeNumbersAsIds) {
  TempDir dir;
  const Graph g = random_graph(80, 4);
  write_bv(dir, "g", g, props_for(g, 7, 4));
  BuildOptions o;
  o.inputs = {(dir / "g").string()};
  o.output = dir / "db";
  BuildReport rep = build_database(o);
  EXPECT_EQ(rep.pages, 80u);
  Database db = Database::open(dir / "db");
  for (std::uint32_t x = 0; x < g.size(); ++x) {
    ASSERT_EQ(db.label(x), std::to_string(x));
    const auto out = db.graph().out.neighbors(x);
    EXPECT_EQ(std::vector<std::uint32_t>(out.begin(), out.end()), g[x]) << x;
  }
}

}  // namespace
}  // namespace webrank::testing
