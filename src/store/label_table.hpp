// Page labels (URLs or external names) and the label -> id index.
//
// On disk (and in memory while building) labels are stored in id order as one byte array with
// N+1 offsets, and the index is an open-addressing hash table of page ids: a power-of-two number
// of u32 slots, kNoPage when empty, probed linearly from XXH3-64(label) & mask, kept at most half
// full. A lookup touches a handful of slots and labels, never the whole table.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/util/graph.hpp"

namespace webrank {

std::uint64_t label_hash(std::string_view label);

// The on-disk index (see LabelIndexView) of n labels, label(id) giving each.
std::vector<PageId> build_label_index(PageId n,
                                      const std::function<std::string_view(PageId)>& label);

struct LabelIndexView {
  std::span<const std::uint64_t> offsets;  // N+1
  std::span<const char> bytes;
  std::span<const PageId> slots;  // power of two

  std::string_view label(PageId id) const {
    return {bytes.data() + offsets[id], static_cast<std::size_t>(offsets[id + 1] - offsets[id])};
  }
  PageId find(std::string_view label) const;  // kNoPage if absent
};

// Interns labels in first-appearance order while building.
//
// Two paths, chosen by the label alone so a label always takes the same one: a canonical
// decimal number below 2^32-1 ("0", "17"; not "017" or "+1") is looked up in a paged direct map
// (one memory access, no hashing: the common case of SNAP-style and generated graphs); any other
// label goes through an open-addressing table whose 64-bit slots hold 32 bits of the hash next
// to the id, so a probe rarely touches the labels themselves.
class LabelTable {
 public:
  LabelTable();
  // The id of `label`, assigning the next id if it is new. Throws Error past 2^32-2 pages.
  PageId intern(std::string_view label) {
    std::uint32_t value;
    return parse_number(label, &value) ? intern_number(value, label) : intern_string(label);
  }
  // Interns n canonical numbers (see is_number) in order, writing their ids to out. Same result
  // as n calls of intern(), but the direct-map lookups are prefetched so their cache misses
  // overlap instead of being paid one after another.
  void intern_numbers(const std::uint32_t* values, std::size_t n, PageId* out);
  // intern_numbers() for n pairs (source, target values alternate), writing the ids of the
  // sources and of the targets to separate arrays.
  void intern_number_pairs(const std::uint32_t* pairs, std::size_t n, PageId* sources,
                           PageId* targets);
  // Interns n labels in order, writing their ids to out: the same as n calls of intern(), but
  // the hash-table slots and stored labels that the next lookups compare with are prefetched,
  // so that their cache misses overlap (URL-labelled webs spend most of their reading there).
  void intern_batch(const std::string_view* labels, std::size_t n, PageId* out);
  // True if `label` takes the direct-map path, with its value.
  static bool is_number(std::string_view label, std::uint32_t* value) {
    return parse_number(label, value);
  }
  PageId size() const { return static_cast<PageId>(offsets_.size() - 1); }
  std::string_view label(PageId id) const {
    return {bytes_.data() + offsets_[id],
            static_cast<std::size_t>(offsets_[id + 1] - offsets_[id])};
  }
  const std::vector<std::uint64_t>& offsets() const { return offsets_; }
  const std::vector<char>& bytes() const { return bytes_; }
  // Reorders the labels so that the page now numbered new_id[old] keeps its label. Only after
  // the last intern(): the lookup structures are dropped.
  void renumber(const std::vector<PageId>& new_id);
  // The on-disk index (see LabelIndexView) over every label, built on demand.
  std::vector<PageId> slots() const;

 private:
  static constexpr int kPageBits = 16;
  static constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};

  static bool parse_number(std::string_view s, std::uint32_t* value) {
    if (s.empty() || s.size() > 10 || (s[0] == '0' && s.size() > 1)) return false;
    std::uint64_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    if (v >= kNoPage) return false;
    *value = static_cast<std::uint32_t>(v);
    return true;
  }
  PageId intern_number(std::uint32_t value, std::string_view label);
  template <typename Emit>  // emit(i, id) for each of the n values, in order
  void intern_number_run(const std::uint32_t* values, std::size_t n, Emit emit);
  PageId* number_slot(std::uint32_t value);  // allocates the page on first use
  PageId intern_string(std::string_view label) { return intern_string(label, label_hash(label)); }
  PageId intern_string(std::string_view label, std::uint64_t hash);
  PageId append(std::string_view label);
  void grow();

  std::vector<std::uint64_t> offsets_;
  std::vector<char> bytes_;
  std::vector<std::unique_ptr<PageId[]>> number_pages_;  // value >> kPageBits -> page of ids
  std::vector<std::uint64_t> slots_;                     // (hash >> 32) << 32 | id
  std::uint64_t mask_ = 0;
  std::uint64_t string_labels_ = 0;
};

}  // namespace webrank
