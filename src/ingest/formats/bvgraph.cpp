// Input format `bv`: a WebGraph BVGraph (Boldi & Vigna, "The WebGraph Framework I", WWW 2004),
// decoded sequentially from BASENAME.graph with the parameters of BASENAME.properties.
//
// Contract:
// - The input path is BASENAME or BASENAME.graph / .properties / .offsets; BASENAME.graph and
//   BASENAME.properties are read (bv_properties.hpp); .offsets is not needed.
// - Every node is declared as a page first, in node order, labelled with its number in decimal
//   ("0", "1", ...), so page ids equal node numbers and isolated nodes are pages. Then every
//   arc x -> y is a link "x" -> "y" of weight 1 (BVGraph arcs carry no weights).
// - The .graph file is a big-endian bit stream (bit_reader.hpp) holding, for x = 0 .. nodes-1,
//   the successor list of x:
//     outdegree d                                   (OUTDEGREES code); nothing else if d = 0
//     if windowsize > 0: reference r <= windowsize  (REFERENCES code); r > 0 means "copy from
//       the list of x - r": block count b          (BLOCK_COUNT code), then b copy blocks
//       (BLOCKS code, each but the first stored minus 1): the blocks alternately copy and skip
//       successors of x - r, starting with a copy; what follows the last block is copied when
//       b is even
//     if successors remain and minintervallength L > 0: interval count i (INTERVALS code), then
//       i (left, length) pairs: the first left extreme as nat2int(v) + x, each further one as
//       v + 1 past the end of the previous interval, each length as v + L
//     the remaining successors (residuals): the first as nat2int(v) + x, each further one as
//       previous + v + 1                            (RESIDUALS code)
//   where nat2int(v) = v/2 for even v and -(v+1)/2 for odd v. The successor list is the merge
//   of the copied successors, the intervals and the residuals.
// - Checked, with an Error naming the .graph file, the byte offset and the node: a stream that
//   ends before the last node; an outdegree above the node count; a reference beyond the window
//   or before node 0; copy blocks beyond the referenced list; more copied successors or
//   interval elements than the outdegree; successors outside 0 .. nodes-1 or repeated; a code
//   longer than 64 bits; an arc total different from the `arcs` property; data after the last
//   list other than padding (at most 8 zero bytes: Java pads to a byte, webgraph-rs to a word).
// Decoding keeps the last windowsize+1 lists in memory and reads the mapped file directly.
#include "ingest/formats/bvgraph.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "ingest/formats/bit_reader.hpp"
#include "ingest/formats/numbers.hpp"
#include "ingest/formats/path_names.hpp"
#include "ingest/formats/readers.hpp"
#include "util/mapped_file.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

constexpr std::uint64_t kNone = ~std::uint64_t{0};

// Every node's outdegree takes at least one bit (four with the nibble code): a claim of more nodes
// than the stream has room for is refused before anything is allocated for them.
void check_node_count(const BvProperties& p, std::uint64_t bytes, const std::string& graph,
                      const std::string& properties) {
  const std::uint64_t min_bits = p.codes.outdegrees == BvCode::kNibble ? 4 : 1;
  if (p.nodes <= bytes * 8 / min_bits) return;
  fail(ErrorKind::kInvalidInput, graph, ": ends early: its ", bytes, " bytes hold at most ",
       bytes * 8 / min_bits, " nodes (each takes at least ", min_bits,
       min_bits == 1 ? " bit" : " bits", "), but ", properties, " says nodes=", p.nodes,
       ": the .graph file is truncated or does not match its .properties");
}

class Decoder {
 public:
  Decoder(std::span<const std::uint8_t> data, const std::string& name, const BvProperties& p)
      : r_(data.data(), data.size()), name_(name), p_(p), data_(data.data()), size_(data.size()) {}

  std::uint64_t run(const BvNodeFn& on_node, const std::function<void(std::uint64_t)>& on_bytes);

 private:
  std::uint64_t code(BvCode c) {
    switch (c) {
      case BvCode::kGamma:
        return r_.gamma();
      case BvCode::kDelta:
        return r_.delta();
      case BvCode::kUnary:
        return r_.unary();
      case BvCode::kZeta:
        return r_.zeta(p_.codes.zeta_k);
      case BvCode::kNibble:
        return r_.nibble();
    }
    return 0;
  }

  // x + nat2int(v), or a "bad value" error when outside 0 .. nodes-1.
  std::uint64_t relative(std::uint64_t v, const char* what) {
    if (v > (std::uint64_t{1} << 34)) bad(what, " offset ", v, " is impossibly large");
    const std::int64_t delta =
        (v & 1) ? -static_cast<std::int64_t>((v >> 1) + 1) : static_cast<std::int64_t>(v >> 1);
    const std::int64_t node = static_cast<std::int64_t>(x_) + delta;
    if (node < 0 || static_cast<std::uint64_t>(node) >= p_.nodes) {
      bad(what, " ", node, " is not a node (expected 0..", p_.nodes - 1, ")");
    }
    return static_cast<std::uint64_t>(node);
  }

  template <typename... Args>
  [[noreturn]] void bad(const Args&... args) {
    fail(ErrorKind::kInvalidInput, name_, ": byte ", r_.position() / 8, " (node ", x_, " of ",
         p_.nodes, "): ", args...,
         ": the .graph file is damaged or does not match its .properties");
  }

  void decode_node(std::vector<std::uint32_t>& out);
  void merge(std::vector<std::uint32_t>& out, std::uint64_t d);

  BitReader r_;
  const std::string& name_;
  const BvProperties& p_;
  const std::uint8_t* data_;
  std::size_t size_;
  std::uint64_t x_ = 0;
  std::uint64_t slots_ = 1;  // lists kept in window_
  std::vector<std::vector<std::uint32_t>> window_;
  std::vector<std::uint32_t> copied_, intervals_, residuals_;
};

void Decoder::decode_node(std::vector<std::uint32_t>& out) {
  const std::uint64_t n = p_.nodes;
  const std::uint64_t w = p_.window_size;
  out.clear();
  const std::uint64_t d = code(p_.codes.outdegrees);
  if (d == 0) return;
  if (d > n) bad("outdegree ", d, " exceeds the number of nodes (", n, ")");
  copied_.clear();
  intervals_.clear();
  residuals_.clear();

  std::uint64_t ref = 0;
  if (w > 0) {
    ref = code(p_.codes.references);
    if (ref > w) bad("reference ", ref, " exceeds the window size (", w, ")");
    if (ref > x_) bad("reference ", ref, " points before node 0");
  }
  if (ref > 0) {
    const std::vector<std::uint32_t>& from = window_[(x_ - ref) % slots_];
    const std::uint64_t size = from.size();
    const std::uint64_t blocks = code(p_.codes.block_count);
    if (blocks > size + 1) {
      bad("block count ", blocks, " is impossible for the ", size, " successors of node ",
          x_ - ref);
    }
    std::uint64_t at = 0;
    for (std::uint64_t i = 0; i < blocks; ++i) {
      const std::uint64_t v = code(p_.codes.blocks);
      const std::uint64_t len = v + (i > 0 ? 1 : 0);  // no overflow once v <= size - at
      if (v > size - at || len > size - at) {
        bad("copy block ", i, " runs past the ", size, " successors of node ", x_ - ref);
      }
      if (i % 2 == 0) copied_.insert(copied_.end(), from.begin() + at, from.begin() + at + len);
      at += len;
    }
    if (blocks % 2 == 0) copied_.insert(copied_.end(), from.begin() + at, from.end());
    if (copied_.size() > d) {
      bad("copies ", copied_.size(), " successors from node ", x_ - ref, " but the outdegree is ",
          d);
    }
  }

  std::uint64_t extra = d - copied_.size();
  const std::uint64_t min_len = p_.min_interval_length;
  if (extra > 0 && min_len > 0) {
    const std::uint64_t count = code(p_.codes.intervals);
    if (count > extra / min_len) {
      bad("interval count ", count, " does not fit in the ", extra, " successors left");
    }
    std::uint64_t next = 0;  // one past the end of the previous interval
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint64_t left;
      if (i == 0) {
        left = relative(code(p_.codes.intervals), "interval start");
      } else {
        const std::uint64_t v = code(p_.codes.intervals);
        if (v >= n || next + v + 1 >= n) bad("interval ", i, " starts past the last node");
        left = next + v + 1;
      }
      const std::uint64_t v = code(p_.codes.intervals);
      if (v > extra || v + min_len > extra) {
        bad("interval of ", v, "+", min_len, " successors exceeds the ", extra, " left");
      }
      const std::uint64_t len = v + min_len;
      if (left + len > n) bad("interval [", left, ", ", left + len, ") runs past the last node");
      for (std::uint64_t k = 0; k < len; ++k) {
        intervals_.push_back(static_cast<std::uint32_t>(left + k));
      }
      next = left + len;
      extra -= len;
    }
  }

  if (extra > 0) {
    std::uint64_t s = relative(code(p_.codes.residuals), "first residual");
    residuals_.push_back(static_cast<std::uint32_t>(s));
    for (std::uint64_t i = 1; i < extra; ++i) {
      const std::uint64_t v = code(p_.codes.residuals);
      if (v >= n || s + v + 1 >= n) bad("residual ", i, " is past the last node");
      s += v + 1;
      residuals_.push_back(static_cast<std::uint32_t>(s));
    }
  }
  merge(out, d);
}

// Merges the three increasing lists into `out`, which must come out strictly increasing.
void Decoder::merge(std::vector<std::uint32_t>& out, std::uint64_t d) {
  out.resize(d);
  std::size_t a = 0, b = 0, c = 0;
  const std::size_t na = copied_.size(), nb = intervals_.size(), nc = residuals_.size();
  std::uint64_t prev = kNone;
  for (std::uint64_t k = 0; k < d; ++k) {
    const std::uint64_t va = a < na ? copied_[a] : kNone;
    const std::uint64_t vb = b < nb ? intervals_[b] : kNone;
    const std::uint64_t vc = c < nc ? residuals_[c] : kNone;
    std::uint64_t v;
    if (va <= vb && va <= vc) {
      v = va;
      ++a;
    } else if (vb <= vc) {
      v = vb;
      ++b;
    } else {
      v = vc;
      ++c;
    }
    if (prev != kNone && v <= prev) bad("successor ", v, " appears twice");
    out[k] = static_cast<std::uint32_t>(v);
    prev = v;
  }
}

std::uint64_t Decoder::run(const BvNodeFn& on_node,
                           const std::function<void(std::uint64_t)>& on_bytes) {
  // A reference never reaches before node 0, so no more than min(windowsize, nodes) + 1 lists
  // are ever kept, whatever the .properties claim.
  slots_ = std::min(p_.window_size, p_.nodes) + 1;
  window_.assign(slots_, {});
  std::uint64_t arcs = 0;
  std::uint64_t next_report = 16 << 20;
  try {
    for (x_ = 0; x_ < p_.nodes; ++x_) {
      std::vector<std::uint32_t>& out = window_[x_ % slots_];
      decode_node(out);
      arcs += out.size();
      on_node(static_cast<std::uint32_t>(x_), out);
      if (on_bytes && r_.position() / 8 >= next_report) {
        on_bytes(r_.position() / 8);
        next_report = r_.position() / 8 + (16 << 20);
      }
    }
  } catch (const BitStreamOverrun&) {
    fail(ErrorKind::kInvalidInput, name_, ": ends early: the file has ", size_,
         " bytes and the successor list of node ", x_, " runs past its end (", p_.nodes,
         " nodes expected by the .properties): the .graph file is truncated or does not match "
         "its .properties");
  } catch (const BitStreamBadCode& e) {
    bad(e.what);
  }
  if (on_bytes) on_bytes(size_);
  // Java pads the stream to a byte, webgraph-rs to a 32- or 64-bit word: up to 8 zero bytes.
  const std::uint64_t used = (r_.position() + 7) / 8;
  bool padding = size_ - used <= 8;
  for (std::uint64_t i = used; padding && i < size_; ++i) padding = data_[i] == 0;
  if (used < size_ && !padding) {
    fail(ErrorKind::kInvalidInput, name_, ": byte ", used, ": ", size_ - used,
         " bytes of data after the successor list of ",
         p_.nodes ? cat("the last node (", p_.nodes - 1, ")") : std::string("the last node"),
         ": the .graph file does not match its .properties (nodes=", p_.nodes, ")");
  }
  if (arcs != p_.arcs) {
    fail(ErrorKind::kInvalidInput, name_, ": byte ", used, " (the end of the last list): decoded ",
         arcs, " arcs but the .properties say arcs=", p_.arcs,
         ": the .graph file does not match its .properties");
  }
  return arcs;
}

}  // namespace

BvFiles bv_files(const std::string& path) {
  BvFiles f;
  f.basename = path;
  for (const char* ext : {".graph", ".properties", ".offsets"}) {
    if (ends_with(path, ext)) {
      f.basename = path.substr(0, path.size() - std::string(ext).size());
      break;
    }
  }
  f.graph = f.basename + ".graph";
  f.properties = f.basename + ".properties";
  return f;
}

std::uint64_t decode_bvgraph(std::span<const std::uint8_t> data, const std::string& name,
                             const BvProperties& p, const BvNodeFn& on_node,
                             const std::function<void(std::uint64_t)>& on_bytes) {
  check_node_count(p, data.size(), name, "its .properties");
  Decoder decoder(data, name, p);
  return decoder.run(on_node, on_bytes);
}

bool looks_like_bv(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const BvFiles f = bv_files(path);
  if (f.basename != path) return fs::is_regular_file(f.properties, ec);
  return !fs::exists(path, ec) && fs::is_regular_file(f.graph, ec) &&
         fs::is_regular_file(f.properties, ec);
}

std::uint64_t read_bvgraph(const std::string& path, bool weighted, RecordSink& sink,
                           const std::function<void(std::uint64_t)>& on_bytes) {
  (void)weighted;  // BVGraph arcs have no weights: every link weighs 1
  if (path == "-") {
    fail(ErrorKind::kInvalidInput,
         "<stdin>: the bv format cannot be read from standard input (it needs the files "
         "BASENAME.graph and BASENAME.properties)");
  }
  const BvFiles f = bv_files(path);
  std::error_code ec;
  if (!std::filesystem::exists(f.graph, ec) && !std::filesystem::exists(f.properties, ec)) {
    fail(ErrorKind::kInvalidInput, path, ": no BVGraph here: expected ", f.graph, " and ",
         f.properties);
  }
  const BvProperties p = read_bv_properties(f.properties);
  MappedFile graph(f.graph);
  const auto bytes = graph.bytes();
  const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                           bytes.size());
  check_node_count(p, data.size(), f.graph, cat(f.properties, ":", p.nodes_line));
  sink.expect_pages(p.nodes, 0, f.properties);
  char src[24], dst[24];
  for (std::uint64_t x = 0; x < p.nodes; ++x) sink.page(decimal(src, x));
  decode_bvgraph(
      data, f.graph, p,
      [&](std::uint32_t x, std::span<const std::uint32_t> succ) {
        if (succ.empty()) return;
        const std::string_view from = decimal(src, x);
        for (std::uint32_t y : succ) sink.link(from, decimal(dst, y), 1.0);
      },
      on_bytes);
  return p.nodes;
}

}  // namespace webrank
