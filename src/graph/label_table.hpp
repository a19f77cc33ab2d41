// Page labels (URLs or external names) and the label -> id index.
//
// On disk (and in memory while building) labels are stored in id order as one byte array with
// N+1 offsets, and the index is an open-addressing hash table of page ids: a power-of-two number
// of u32 slots, kNoPage when empty, probed linearly from XXH3-64(label) & mask, kept at most half
// full. A lookup touches a handful of slots and labels, never the whole table.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "webrank/graph.hpp"

namespace webrank {

std::uint64_t label_hash(std::string_view label);

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
class LabelTable {
 public:
  LabelTable();
  // The id of `label`, assigning the next id if it is new. Throws Error past 2^32-2 pages.
  PageId intern(std::string_view label);
  PageId size() const { return static_cast<PageId>(offsets_.size() - 1); }
  std::string_view label(PageId id) const {
    return {bytes_.data() + offsets_[id],
            static_cast<std::size_t>(offsets_[id + 1] - offsets_[id])};
  }
  const std::vector<std::uint64_t>& offsets() const { return offsets_; }
  const std::vector<char>& bytes() const { return bytes_; }
  const std::vector<PageId>& slots() const { return slots_; }

 private:
  void grow();

  std::vector<std::uint64_t> offsets_;
  std::vector<char> bytes_;
  std::vector<PageId> slots_;
  std::vector<std::uint64_t> hashes_;  // per id, so growing never re-hashes labels
  std::uint64_t mask_ = 0;
};

}  // namespace webrank
