#include "store/label_table.hpp"

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "webrank/util/error.hpp"

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

LabelTable::LabelTable() : offsets_{0}, slots_(1024, kEmptySlot), mask_(1023) {}

PageId LabelTable::append(std::string_view label) {
  const PageId id = size();
  if (id == kNoPage - 1)
    fail(ErrorKind::kInvalidInput, "more than ", kNoPage - 1, " pages: page ids are 32-bit");
  bytes_.insert(bytes_.end(), label.begin(), label.end());
  offsets_.push_back(bytes_.size());
  return id;
}

PageId* LabelTable::number_slot(std::uint32_t value) {
  const std::size_t page = value >> kPageBits;
  if (page >= number_pages_.size()) number_pages_.resize(page + 1);
  if (!number_pages_[page]) {
    number_pages_[page] = std::make_unique<PageId[]>(std::size_t{1} << kPageBits);
    std::fill_n(number_pages_[page].get(), std::size_t{1} << kPageBits, kNoPage);
  }
  return &number_pages_[page][value & ((1u << kPageBits) - 1)];
}

PageId LabelTable::intern_number(std::uint32_t value, std::string_view label) {
  PageId* slot = number_slot(value);
  if (*slot == kNoPage) *slot = append(label);
  return *slot;
}

template <typename Emit>
void LabelTable::intern_number_run(const std::uint32_t* values, std::size_t n, Emit emit) {
  // Lookups ahead to prefetch: enough misses in flight to cover the latency (docs/performance.md
  // has the distances tried).
  constexpr std::size_t kAhead = 64;
  constexpr std::uint32_t kLow = (1u << kPageBits) - 1;
  // Size the page table once for the batch; pages themselves are allocated on first use.
  std::uint32_t max = 0;
  for (std::size_t i = 0; i < n; ++i) max = std::max(max, values[i]);
  if (n > 0 && (max >> kPageBits) >= number_pages_.size())
    number_pages_.resize((max >> kPageBits) + 1);
  char text[16];
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kAhead < n) {
      const std::uint32_t v = values[i + kAhead];
      if (const PageId* page = number_pages_[v >> kPageBits].get())
        __builtin_prefetch(page + (v & kLow));
    }
    const std::uint32_t v = values[i];
    PageId* page = number_pages_[v >> kPageBits].get();
    if (!page) [[unlikely]]
      page = number_slot(v) - (v & kLow);  // allocates the page
    PageId& slot = page[v & kLow];
    if (slot == kNoPage) {
      const auto end = std::to_chars(text, text + sizeof text, v).ptr;
      slot = append(std::string_view(text, static_cast<std::size_t>(end - text)));
    }
    emit(i, slot);
  }
}

void LabelTable::intern_numbers(const std::uint32_t* values, std::size_t n, PageId* out) {
  intern_number_run(values, n, [out](std::size_t i, PageId id) { out[i] = id; });
}

void LabelTable::intern_number_pairs(const std::uint32_t* pairs, std::size_t n, PageId* sources,
                                     PageId* targets) {
  intern_number_run(pairs, 2 * n, [sources, targets](std::size_t i, PageId id) {
    (i % 2 ? targets : sources)[i / 2] = id;
  });
}

void LabelTable::grow() {
  std::vector<std::uint64_t> bigger(slots_.size() * 2, kEmptySlot);
  const std::uint64_t mask = bigger.size() - 1;
  for (std::uint64_t s : slots_) {
    if (s == kEmptySlot) continue;
    // Only 32 hash bits are kept, so the new position is re-derived from the label.
    std::uint64_t i = label_hash(label(static_cast<PageId>(s))) & mask;
    while (bigger[i] != kEmptySlot) i = (i + 1) & mask;
    bigger[i] = s;
  }
  slots_.swap(bigger);
  mask_ = mask;
}

PageId LabelTable::intern_string(std::string_view label, std::uint64_t h) {
  const std::uint64_t tag = h >> 32 << 32;
  std::uint64_t i = h & mask_;
  for (;;) {
    const std::uint64_t s = slots_[i];
    if (s == kEmptySlot) break;
    if ((s & ~std::uint64_t{0xFFFFFFFF}) == tag && this->label(static_cast<PageId>(s)) == label) {
      return static_cast<PageId>(s);
    }
    i = (i + 1) & mask_;
  }
  const PageId id = append(label);
  slots_[i] = tag | id;
  if (2 * ++string_labels_ > slots_.size()) grow();
  return id;
}

void LabelTable::intern_batch(const std::string_view* labels, std::size_t n, PageId* out) {
  // Three stages ahead of the lookup: fetch the slot, then the offset of the label it holds,
  // then the label's bytes. The table may grow meanwhile; a stale prefetch only costs a miss.
  constexpr std::size_t kSlot = 12, kOffset = 8, kBytes = 4;
  std::vector<std::uint64_t> hashes(n);
  for (std::size_t i = 0; i < n; ++i) hashes[i] = label_hash(labels[i]);
  auto slot_id = [&](std::size_t i) -> PageId {
    const std::uint64_t s = slots_[hashes[i] & mask_];
    return s == kEmptySlot ? kNoPage : static_cast<PageId>(s);
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (i + kSlot < n) __builtin_prefetch(&slots_[hashes[i + kSlot] & mask_]);
    if (i + kOffset < n) {
      if (const PageId id = slot_id(i + kOffset); id != kNoPage) __builtin_prefetch(&offsets_[id]);
    }
    if (i + kBytes < n) {
      if (const PageId id = slot_id(i + kBytes); id != kNoPage) {
        __builtin_prefetch(bytes_.data() + offsets_[id]);
      }
    }
    std::uint32_t value;
    out[i] = parse_number(labels[i], &value) ? intern_number(value, labels[i])
                                             : intern_string(labels[i], hashes[i]);
  }
}

void LabelTable::renumber(const std::vector<PageId>& new_id) {
  const PageId n = size();
  std::vector<PageId> old_of(n);
  for (PageId old = 0; old < n; ++old) old_of[new_id[old]] = old;
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(n + 1);
  std::vector<char> bytes;
  bytes.reserve(bytes_.size());
  for (PageId id = 0; id < n; ++id) {
    const std::string_view l = label(old_of[id]);
    bytes.insert(bytes.end(), l.begin(), l.end());
    offsets.push_back(bytes.size());
  }
  offsets_.swap(offsets);
  bytes_.swap(bytes);
  number_pages_.clear();
  slots_.assign(1024, kEmptySlot);
  mask_ = 1023;
  string_labels_ = 0;
}

std::vector<PageId> build_label_index(PageId n_pages,
                                      const std::function<std::string_view(PageId)>& label) {
  std::uint64_t n = 1024;
  while (n < 2 * static_cast<std::uint64_t>(n_pages)) n *= 2;
  const std::uint64_t mask = n - 1;
  std::vector<std::uint64_t> hashes(n_pages);
#pragma omp parallel for schedule(static) if (n_pages >= 65536)
  for (std::int64_t id = 0; id < static_cast<std::int64_t>(n_pages); ++id) {
    hashes[id] = label_hash(label(static_cast<PageId>(id)));
  }
  std::vector<PageId> table(n, kNoPage);
  for (PageId id = 0; id < n_pages; ++id) {
    std::uint64_t i = hashes[id] & mask;
    while (table[i] != kNoPage) i = (i + 1) & mask;
    table[i] = id;
  }
  return table;
}

std::vector<PageId> LabelTable::slots() const {
  return build_label_index(size(), [this](PageId id) { return label(id); });
}

}  // namespace webrank
