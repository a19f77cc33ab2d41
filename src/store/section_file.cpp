#include "store/section_file.hpp"

#include <xxhash.h>

#include <cstring>
#include <vector>

#include "util/atomic_file.hpp"
#include "util/error.hpp"
#include "webrank/store/database.hpp"

namespace webrank {
namespace {

constexpr char kMagic[8] = {'W', 'R', 'S', 'E', 'C', 'T', '0', '1'};

std::uint64_t pad8(std::uint64_t n) {
  return (n + 7) & ~std::uint64_t{7};
}

std::uint64_t block_count(std::uint64_t payload, std::uint64_t block) {
  return (payload + block - 1) / block;
}

std::uint64_t header_hash(const SectionHeader& h) {
  return XXH3_64bits(&h, offsetof(SectionHeader, header_checksum));
}

}  // namespace

std::string checksum_hex(std::uint64_t checksum) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(checksum));
  return hex;
}

std::uint64_t section_file_size(std::uint64_t payload_bytes, std::uint64_t block_size) {
  return kSectionHeaderBytes + pad8(payload_bytes) + 8 * block_count(payload_bytes, block_size);
}

SectionWriter::SectionWriter(const std::filesystem::path& file, std::string_view name,
                             std::uint32_t elem_size)
    : file_(file), name_(name), elem_size_(elem_size) {
  out_ = std::fopen(file.c_str(), "wb");
  if (!out_) fail_errno(file.string(), "cannot create");
  static const char zeros[kSectionHeaderBytes] = {};
  if (std::fwrite(zeros, 1, sizeof zeros, out_) != sizeof zeros) {
    fail_errno(file.string(), "write failed");
  }
  hash_state_ = XXH3_createState();
  XXH3_64bits_reset(static_cast<XXH3_state_t*>(hash_state_));
}

SectionWriter::~SectionWriter() {
  if (out_) std::fclose(out_);
  if (hash_state_) XXH3_freeState(static_cast<XXH3_state_t*>(hash_state_));
}

void SectionWriter::flush_block() {
  auto* state = static_cast<XXH3_state_t*>(hash_state_);
  std::uint64_t h = XXH3_64bits_digest(state);
  block_table_.append(reinterpret_cast<const char*>(&h), 8);
  XXH3_64bits_reset(state);
  block_fill_ = 0;
}

void SectionWriter::append_bytes(const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, out_) != bytes)
    fail_errno(file_.string(), "write failed");
  auto* state = static_cast<XXH3_state_t*>(hash_state_);
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    std::size_t take = std::min<std::uint64_t>(bytes, kSectionBlockBytes - block_fill_);
    XXH3_64bits_update(state, p, take);
    p += take;
    bytes -= take;
    block_fill_ += take;
    payload_bytes_ += take;
    if (block_fill_ == kSectionBlockBytes) flush_block();
  }
}

std::uint64_t SectionWriter::finish() {
  if (payload_bytes_ % elem_size_ != 0) {
    fail(ErrorKind::kInternal, file_.string(),
         ": internal error: payload is not a whole number of elements");
  }
  if (block_fill_ > 0) flush_block();
  static const char zeros[8] = {};
  std::size_t pad = pad8(payload_bytes_) - payload_bytes_;
  if (pad && std::fwrite(zeros, 1, pad, out_) != pad) fail_errno(file_.string(), "write failed");
  if (!block_table_.empty() &&
      std::fwrite(block_table_.data(), 1, block_table_.size(), out_) != block_table_.size()) {
    fail_errno(file_.string(), "write failed");
  }
  SectionHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kDatabaseFormatVersion;
  h.elem_size = elem_size_;
  std::strncpy(h.name, name_.c_str(), sizeof h.name - 1);
  h.count = payload_bytes_ / elem_size_;
  h.block_size = kSectionBlockBytes;
  h.checksum = XXH3_64bits(block_table_.data(), block_table_.size());
  h.header_checksum = header_hash(h);
  if (std::fseek(out_, 0, SEEK_SET) != 0 || std::fwrite(&h, 1, sizeof h, out_) != sizeof h) {
    fail_errno(file_.string(), "write failed");
  }
  int rc = std::fclose(out_);
  out_ = nullptr;
  if (rc != 0) fail_errno(file_.string(), "write failed");
  return h.checksum;
}

Section Section::open(const std::filesystem::path& file, std::string_view name,
                      std::uint32_t elem_size) {
  Section s;
  s.path_ = file;
  s.file_ = MappedFile(file);
  const std::string f = file.string();
  const auto bytes = s.file_.bytes();
  if (bytes.size() < kSectionHeaderBytes) {
    fail(ErrorKind::kCorrupt, f, ": truncated: ", bytes.size(), " bytes, shorter than the ",
         kSectionHeaderBytes, "-byte section header (byte 0)");
  }
  std::memcpy(&s.header_, bytes.data(), sizeof s.header_);
  const SectionHeader& h = s.header_;
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
    fail(ErrorKind::kCorrupt, f, ": byte 0: not a webrank section (bad magic number)");
  }
  if (h.header_checksum != header_hash(h)) {
    fail(ErrorKind::kCorrupt, f, ": bytes 0-63: the section header is damaged (checksum mismatch)");
  }
  if (h.version != kDatabaseFormatVersion) {
    fail(ErrorKind::kCorrupt, f, ": byte 8: format version ", h.version,
         ", this webrank reads version ", kDatabaseFormatVersion);
  }
  if (std::string_view(h.name, strnlen(h.name, sizeof h.name)) != name) {
    fail(ErrorKind::kCorrupt, f, ": byte 16: section is '",
         std::string(h.name, strnlen(h.name, sizeof h.name)), "', expected '", name, "'");
  }
  if (h.elem_size != elem_size) {
    fail(ErrorKind::kCorrupt, f, ": byte 12: element size ", h.elem_size, ", expected ", elem_size);
  }
  if (h.block_size == 0 || h.count > (~std::uint64_t{0} - 4096) / elem_size) {
    fail(ErrorKind::kCorrupt, f, ": bytes 32-47: implausible element count or block size");
  }
  const std::uint64_t expected = section_file_size(h.count * elem_size, h.block_size);
  if (bytes.size() != expected) {
    fail(ErrorKind::kCorrupt, f, ": ", bytes.size() < expected ? "truncated" : "has trailing bytes",
         ": ", bytes.size(), " bytes, expected ", expected, " (damage from byte ",
         std::min<std::uint64_t>(bytes.size(), expected), ")");
  }
  return s;
}

void Section::verify() const {
  const auto bytes = file_.bytes();
  const std::uint64_t payload = header_.count * header_.elem_size;
  const std::uint64_t blocks = block_count(payload, header_.block_size);
  const auto* table =
      reinterpret_cast<const std::uint64_t*>(bytes.data() + kSectionHeaderBytes + pad8(payload));
  if (XXH3_64bits(table, blocks * 8) != header_.checksum) {
    const std::uint64_t start = kSectionHeaderBytes + pad8(payload);
    fail(ErrorKind::kCorrupt, path_.string(), ": bytes ", start, "-", start + blocks * 8 - 1,
         ": the block checksum table is damaged");
  }
  // Blocks are independent: hash them in parallel and report the first bad one.
  constexpr std::int64_t kNone = INT64_MAX;
  std::int64_t bad = kNone;
#pragma omp parallel for schedule(dynamic, 16) reduction(min : bad) if (blocks > 1)
  for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
    const std::uint64_t off = b * header_.block_size;
    const std::uint64_t len = std::min(header_.block_size, payload - off);
    if (XXH3_64bits(bytes.data() + kSectionHeaderBytes + off, len) != table[b])
      bad = std::min(bad, b);
    file_.release(kSectionHeaderBytes + off, len);  // read once: keep it out of the RSS
  }
  if (bad != kNone) {
    const std::uint64_t off = kSectionHeaderBytes + bad * header_.block_size;
    const std::uint64_t len = std::min(header_.block_size, payload - bad * header_.block_size);
    fail(ErrorKind::kCorrupt, path_.string(), ": bytes ", off, "-", off + len - 1,
         ": content does not match its checksum (the file is damaged)");
  }
}

}  // namespace webrank
