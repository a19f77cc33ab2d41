#include "graph/label_table.hpp"

#include <xxhash.h>

#include <cstring>

#include "webrank/error.hpp"

namespace webrank {

std::uint64_t label_hash(std::string_view label) {
  return XXH3_64bits(label.data(), label.size());
}

PageId LabelIndexView::find(std::string_view key) const {
  if (slots.empty()) return kNoPage;
  const std::uint64_t mask = slots.size() - 1;
  for (std::uint64_t i = label_hash(key) & mask, probes = 0; probes < slots.size();
       i = (i + 1) & mask, ++probes) {
    PageId id = slots[i];
    if (id == kNoPage) return kNoPage;
    if (id < offsets.size() - 1 && label(id) == key) return id;
  }
  return kNoPage;
}

LabelTable::LabelTable() : offsets_{0}, slots_(1024, kNoPage), mask_(1023) {}

void LabelTable::grow() {
  std::vector<PageId> bigger(slots_.size() * 2, kNoPage);
  const std::uint64_t mask = bigger.size() - 1;
  for (PageId id = 0; id < size(); ++id) {
    std::uint64_t i = hashes_[id] & mask;
    while (bigger[i] != kNoPage) i = (i + 1) & mask;
    bigger[i] = id;
  }
  slots_.swap(bigger);
  mask_ = mask;
}

PageId LabelTable::intern(std::string_view label) {
  const std::uint64_t h = label_hash(label);
  std::uint64_t i = h & mask_;
  for (;;) {
    PageId id = slots_[i];
    if (id == kNoPage) break;
    if (hashes_[id] == h && this->label(id) == label) return id;
    i = (i + 1) & mask_;
  }
  const PageId id = size();
  if (id == kNoPage - 1) fail("more than ", kNoPage - 1, " pages: page ids are 32-bit");
  slots_[i] = id;
  hashes_.push_back(h);
  bytes_.insert(bytes_.end(), label.begin(), label.end());
  offsets_.push_back(bytes_.size());
  if (2 * static_cast<std::uint64_t>(size()) > slots_.size()) grow();
  return id;
}

}  // namespace webrank
