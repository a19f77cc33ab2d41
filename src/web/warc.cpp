#include "web/warc.hpp"

#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <ctime>
#include <random>
#include <thread>

#include "util/atomic_file.hpp"
#include "util/error.hpp"
#include "util/input_stream.hpp"
#include "web/http_message.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank::web {

std::uint64_t WarcReader::file_position() const {
  return in_->raw_position();
}

std::string_view WarcRecord::field(std::string_view name) const {
  for (const auto& [k, v] : fields) {
    if (k.size() == name.size() && strncasecmp(k.data(), name.data(), k.size()) == 0) return v;
  }
  return {};
}

std::string WarcRecord::target_uri() const {
  std::string_view u = field("WARC-Target-URI");
  if (u.size() >= 2 && u.front() == '<' && u.back() == '>') u = u.substr(1, u.size() - 2);
  return std::string(u);
}

WarcReader::WarcReader(const std::string& path, bool tolerate_truncated_tail)
    : name_(path), in_(open_input(path)), tolerate_(tolerate_truncated_tail) {}

WarcReader::~WarcReader() = default;

void WarcReader::fail_at(std::uint64_t offset, const std::string& what) const {
  fail(ErrorKind::kInvalidInput, name_, ": byte ", offset, ": ", what);
}

bool WarcReader::fill(std::size_t need) {
  while (buf_.size() - pos_ < need && !eof_) {
    if (pos_ > 0 && pos_ >= buf_.size() / 2) {
      buf_.erase(0, pos_);
      pos_ = 0;
    }
    const std::size_t old = buf_.size();
    // Grown by what is read, at most 64 MiB at a time: a Content-Length claiming a terabyte
    // costs no more than the bytes that are really there.
    const std::size_t chunk =
        std::clamp<std::size_t>(need - (old - pos_), std::size_t{1} << 16, std::size_t{64} << 20);
    buf_.resize(old + chunk);
    std::size_t got = 0;
    try {
      got = in_->read(buf_.data() + old, chunk);
    } catch (const Error&) {
      // A gzip member cut short: the end of a journal that was being written.
      if (!tolerate_) throw;
      buf_.resize(old);
      eof_ = true;
      truncated_ = true;
      break;
    }
    buf_.resize(old + got);
    if (got == 0) eof_ = true;
  }
  return buf_.size() - pos_ >= need;
}

bool WarcReader::read_line(std::string& line) {
  for (;;) {
    const std::size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos) {
      line.assign(buf_, pos_, nl - pos_);
      // CRLF, and the CR CR LF of some broken writers.
      while (!line.empty() && line.back() == '\r') line.pop_back();
      offset_ += nl + 1 - pos_;
      pos_ = nl + 1;
      return true;
    }
    if (eof_) {
      if (pos_ == buf_.size()) return false;
      line.assign(buf_, pos_, std::string::npos);
      offset_ += buf_.size() - pos_;
      pos_ = buf_.size();
      return true;
    }
    if (buf_.size() - pos_ > (1u << 20)) {
      fail_at(offset_, "a header line longer than 1 MiB (not a WARC file?)");
    }
    fill(buf_.size() - pos_ + 1);
  }
}

bool WarcReader::next(WarcRecord& r) {
  r = WarcRecord{};
  std::string line;
  // Skip the line ends between records.
  do {
    r.offset = offset_;
    if (!read_line(line)) return false;
  } while (line.empty());
  auto cut_short = [&](const std::string& what) -> bool {
    if (tolerate_ && eof_) {
      truncated_ = true;
      return false;
    }
    fail_at(r.offset, what);
  };
  if (!line.starts_with("WARC/")) {
    if (eof_ && tolerate_ && pos_ == buf_.size()) return cut_short("");
    fail_at(r.offset, "expected a WARC record (a 'WARC/1.0' or 'WARC/1.1' line), found " +
                          quoted_excerpt(line));
  }
  r.version = line;
  for (;;) {
    if (!read_line(line)) return cut_short("record cut short in its header");
    if (line.empty()) break;
    if ((line[0] == ' ' || line[0] == '\t') && !r.fields.empty()) {
      append_folded_line(r.fields.back().second, line);
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) {
      if (eof_ && pos_ == buf_.size()) return cut_short("record cut short in its header");
      fail_at(r.offset, "malformed WARC header line '" + line.substr(0, 60) + "' (no ':')");
    }
    std::size_t v = colon + 1;
    while (v < line.size() && (line[v] == ' ' || line[v] == '\t')) ++v;
    std::string value = line.substr(v);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
    r.fields.emplace_back(line.substr(0, colon), std::move(value));
  }
  const std::string_view len_text = r.field("Content-Length");
  if (len_text.empty()) fail_at(r.offset, "record has no Content-Length");
  std::uint64_t length = 0;
  for (char c : len_text) {
    if (c < '0' || c > '9' || length > (1ull << 40))
      fail_at(r.offset, "bad Content-Length " + quoted_excerpt(len_text));
    length = length * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (!fill(length)) {
    return cut_short("record cut short: Content-Length " + std::to_string(length) + ", only " +
                     std::to_string(buf_.size() - pos_) + " bytes follow");
  }
  r.block.assign(buf_, pos_, length);
  pos_ += length;
  offset_ += length;
  // The record ends with CRLF CRLF; tolerate writers that end it otherwise.
  for (int i = 0; i < 4 && fill(1) && (buf_[pos_] == '\r' || buf_[pos_] == '\n'); ++i) {
    ++pos_;
    ++offset_;
  }
  ++good_;
  return true;
}

// ---------------------------------------------------------------------------------------------

WarcWriter::WarcWriter(const std::string& path, bool gzip)
    : path_(path), gzip_(gzip), synced_(std::chrono::steady_clock::now()) {
  out_ = std::fopen(path.c_str(), "wb");
  if (!out_) fail_errno(path, "cannot create");
  sync_parent(path);  // the new file's name survives a power loss
}

WarcWriter::~WarcWriter() {
  if (!out_) return;
  if (std::fflush(out_) == 0) ::fdatasync(::fileno(out_));
  std::fclose(out_);
}

namespace {

std::string record_id() {
  // A process-wide serial keeps two records apart even if two threads' generators collide.
  static std::atomic<std::uint64_t> serial{0};
  static thread_local std::mt19937_64 rng(
      std::random_device{}() ^ static_cast<std::uint64_t>(::getpid()) ^
      static_cast<std::uint64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  const std::uint64_t a = rng(), b = rng() ^ (serial.fetch_add(1, std::memory_order_relaxed) + 1);
  char buf[64];
  std::snprintf(buf, sizeof buf, "<urn:uuid:%08x-%04x-4%03x-%04x-%012llx>",
                static_cast<unsigned>(a >> 32), static_cast<unsigned>((a >> 16) & 0xffff),
                static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(((b >> 48) & 0x3fff) | 0x8000),
                static_cast<unsigned long long>(b & 0xffffffffffffull));
  return buf;
}

bool is_field(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

WarcRecord make_warc_record(std::string_view type, std::string_view uri,
                            std::string_view content_type, std::string block,
                            const std::vector<std::pair<std::string, std::string>>& fields) {
  WarcRecord r;
  r.version = "WARC/1.1";
  r.fields.emplace_back("WARC-Type", std::string(type));
  if (!uri.empty()) r.fields.emplace_back("WARC-Target-URI", std::string(uri));
  r.fields.insert(r.fields.end(), fields.begin(), fields.end());
  if (!content_type.empty()) r.fields.emplace_back("Content-Type", std::string(content_type));
  r.block = std::move(block);
  return r;
}

std::string serialize_warc_record(const WarcRecord& r) {
  std::string rec = r.version + "\r\n";
  for (const auto& [k, v] : r.fields) {
    if (is_field(k, "WARC-Record-ID") || is_field(k, "WARC-Date") || is_field(k, "Content-Length"))
      continue;
    rec += k + ": " + v + "\r\n";
    if (is_field(k, "WARC-Type")) {
      rec += "WARC-Record-ID: " + record_id() + "\r\n";
      rec += "WARC-Date: " + utc_timestamp() + "\r\n";
    }
  }
  rec += "Content-Length: " + std::to_string(r.block.size()) + "\r\n\r\n";
  rec.append(r.block);
  rec += "\r\n\r\n";
  return rec;
}

std::string encode_warc_record(const WarcRecord& r, int level) {
  std::string rec = serialize_warc_record(r);
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    fail(ErrorKind::kInternal, "cannot initialize zlib");
  std::string gz(deflateBound(&z, rec.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(rec.data());
  z.avail_in = static_cast<uInt>(rec.size());
  z.next_out = reinterpret_cast<Bytef*>(gz.data());
  z.avail_out = static_cast<uInt>(gz.size());
  const int rc = deflate(&z, Z_FINISH);
  gz.resize(gz.size() - z.avail_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) fail(ErrorKind::kInternal, "WARC record compression failed");
  return gz;
}

void WarcWriter::write(std::string_view type, std::string_view uri, std::string_view content_type,
                       std::string_view block,
                       const std::vector<std::pair<std::string, std::string>>& fields) {
  const WarcRecord r = make_warc_record(type, uri, content_type, std::string(block), fields);
  write_encoded(gzip_ ? encode_warc_record(r) : serialize_warc_record(r));
}

void WarcWriter::write_encoded(std::string_view member) {
  if (std::fwrite(member.data(), 1, member.size(), out_) != member.size() || std::fflush(out_) != 0)
    fail_errno(path_, "write failed");
  // On the disk at most a second after it was written: a power loss costs at most the records of
  // the last second, and a sync per record would cost a crawl more than its fetches.
  const auto now = std::chrono::steady_clock::now();
  if (now - synced_ >= std::chrono::seconds(1)) {
    if (::fdatasync(::fileno(out_)) != 0) fail_errno(path_, "cannot sync to the disk");
    synced_ = now;
  }
}

}  // namespace webrank::web
