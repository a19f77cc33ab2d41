#include "ingest/mapped_edge_list.hpp"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <exception>
#include <string_view>
#include <vector>

#include "ingest/edge_list_chunk.hpp"
#include "util/input_stream.hpp"
#include "util/mapped_file.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

// Hands the records of one parsed chunk to the sink in file order: runs of numeric links in
// one batch each, runs of other links likewise, pages one by one.
void deliver(const EdgeListChunk& c, bool weighted, RecordSink& sink,
             std::vector<std::string_view>& labels) {
  std::uint64_t numeric_done = 0, links_done = 0;  // links_done indexes c.weights
  auto numeric_until = [&](std::uint64_t n) {
    if (n == numeric_done) return;
    sink.numeric_links(c.numbers.data() + 2 * numeric_done, n - numeric_done,
                       weighted ? c.weights.data() + links_done : nullptr);
    links_done += n - numeric_done;
    numeric_done = n;
  };
  for (std::size_t i = 0; i < c.others.size();) {
    const EdgeListChunk::Other& o = c.others[i];
    numeric_until(o.numeric_before);
    if (!o.link) {
      sink.page(o.source);
      ++i;
      continue;
    }
    // The links that follow with no numeric link or page in between.
    labels.clear();
    for (;
         i < c.others.size() && c.others[i].link && c.others[i].numeric_before == o.numeric_before;
         ++i) {
      labels.push_back(c.others[i].source);
      labels.push_back(c.others[i].target);
    }
    const std::size_t n = labels.size() / 2;
    sink.label_links(labels.data(), n, weighted ? c.weights.data() + links_done : nullptr);
    links_done += n;
  }
  numeric_until(c.numbers.size() / 2);
}

// Parses the bad line again, now that its file and global line number are known, to throw the
// streaming reader's error for it.
[[noreturn]] void raise_bad_line(std::string_view line, bool weighted, const std::string& name,
                                 std::uint64_t line_number) {
  check_text_line(line, name, line_number);
  parse_edge_list_line(line, weighted, name, line_number);
  fail(ErrorKind::kInvalidInput, name, ":", line_number,
       ": internal error: the line parsed differently twice");
}

// Text cut into chunks of whole lines: views into the mapped file or into `storage`.
struct Wave {
  std::vector<EdgeListChunk> chunks;
  std::vector<std::string_view> text;
  std::vector<char> storage;  // streamed input only
  std::uint64_t end = 0;      // file bytes consumed up to the end of the wave
};

// Cuts text[0, size) into chunks of about chunk_bytes, each ending after a '\n' (or at the end).
void cut_chunks(const char* text, std::size_t size, std::size_t chunk_bytes, Wave& w) {
  for (std::size_t pos = 0; pos < size;) {
    std::size_t cut = std::min(size, pos + chunk_bytes);
    if (cut < size) {
      const void* nl = std::memchr(text + cut, '\n', size - cut);
      cut = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text) + 1 : size;
    }
    w.text.emplace_back(text + pos, cut - pos);
    pos = cut;
  }
}

// The pipeline shared by both readers. fill(w) puts the next chunks in w (none at the end);
// released(w) is called once the sink is done with w's text. Two waves are in flight: one is
// handed to the sink by one thread while the other threads parse the next (fill runs on the
// handing thread, before). `size` is the input size if known (0 if not), for expect_links.
std::uint64_t parse_waves(const std::string& name, bool weighted, RecordSink& sink,
                          const std::function<void(std::uint64_t)>& on_bytes, std::uint64_t size,
                          bool parallel, const std::function<void(Wave&)>& fill,
                          const std::function<void(const Wave&)>& released) {
  // Two chunks per thread in a wave even out chunks that parse slower (label lines).
  const std::size_t per_wave = 2 * static_cast<std::size_t>(omp_get_max_threads());
  Wave waves[2];
  for (Wave& w : waves) w.chunks.resize(per_wave);
  // Failures must not escape the OpenMP region: the first one is carried out of it. Chunk
  // parsing only throws on exhaustion (bad lines are recorded), the input and sink on anything.
  std::exception_ptr failure;
  auto record_failure = [&failure] {
#pragma omp critical(mapped_edge_list_failure)
    if (!failure) failure = std::current_exception();
  };
  auto fill_and_parse = [&](Wave& w) {
    try {
      w.text.clear();
      fill(w);
    } catch (...) {
      record_failure();
      w.text.clear();
    }
    if (w.chunks.size() < w.text.size()) w.chunks.resize(w.text.size());
    for (std::size_t i = 0; i < w.text.size(); ++i) {
#pragma omp task default(shared) firstprivate(i)
      try {
        parse_edge_list_chunk(w.text[i], weighted, w.chunks[i]);
      } catch (...) {
        record_failure();
      }
    }
  };
  std::uint64_t lines = 0;
  bool estimated = size == 0;
  std::vector<std::string_view> labels;  // deliver()'s scratch
  auto deliver_wave = [&](const Wave& w) {
    if (!estimated && w.end > 0) {  // extrapolate the first wave's links per byte
      std::uint64_t links = 0;
      for (std::size_t i = 0; i < w.text.size(); ++i) {
        links += w.chunks[i].numbers.size() / 2 + w.chunks[i].others.size();
      }
      sink.expect_links(links + links * (size - std::min(size, w.end)) / w.end + links / 16);
      estimated = true;
    }
    for (std::size_t i = 0; i < w.text.size(); ++i) {
      deliver(w.chunks[i], weighted, sink, labels);
      lines += w.chunks[i].lines;
      if (w.chunks[i].bad) raise_bad_line(w.chunks[i].bad_line, weighted, name, lines);
    }
    if (on_bytes) on_bytes(w.end);
  };

#pragma omp parallel if (parallel)
#pragma omp single
  {
    fill_and_parse(waves[0]);
#pragma omp taskwait
    for (int k = 0; !failure && !waves[k % 2].text.empty(); ++k) {
      Wave& current = waves[k % 2];
      fill_and_parse(waves[(k + 1) % 2]);
      try {
        deliver_wave(current);
      } catch (...) {
        record_failure();
      }
#pragma omp taskwait
      released(current);
    }
  }
  if (failure) std::rethrow_exception(failure);
  return lines;
}

}  // namespace

std::uint64_t read_mapped_edge_list(const std::string& path, bool weighted, RecordSink& sink,
                                    const std::function<void(std::uint64_t)>& on_bytes,
                                    std::size_t chunk_bytes) {
  const MappedFile file(path);
  const char* const data = reinterpret_cast<const char*>(file.bytes().data());
  const std::size_t size = file.size();
  // A UTF-8 byte order mark opening line 1 is not part of the first label.
  const bool bom = size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0;
  std::size_t pos = bom ? 3 : 0;
  const std::size_t wave_bytes = 2 * static_cast<std::size_t>(omp_get_max_threads()) * chunk_bytes;
  auto fill = [&](Wave& w) {  // the next wave_bytes, to the end of a line
    std::size_t cut = std::min(size, pos + wave_bytes);
    if (cut < size) {
      const void* nl = std::memchr(data + cut, '\n', size - cut);
      cut = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1 : size;
    }
    cut_chunks(data + pos, cut - pos, chunk_bytes, w);
    pos = cut;
    w.end = pos;
  };
  // The sink has copied what it keeps: give the consumed pages back (they stay in the page
  // cache), so that a large input does not fill the resident set.
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t released = 0;
  auto release = [&](const Wave& w) {
    const std::size_t upto = w.end / page * page;
    if (upto > released) {
      ::madvise(const_cast<char*>(data) + released, upto - released, MADV_DONTNEED);
      released = upto;
    }
  };
  std::uint64_t lines =
      parse_waves(path, weighted, sink, on_bytes, size, size > chunk_bytes, fill, release);
  // The streaming reader counts a file holding only a byte order mark as one (empty) line.
  if (bom && size == 3) lines = 1;
  return lines;
}

std::uint64_t read_streamed_edge_list(const std::string& path, bool weighted, RecordSink& sink,
                                      const std::function<void(std::uint64_t)>& on_bytes,
                                      std::size_t chunk_bytes) {
  auto in = open_input(path);
  const std::size_t wave_bytes = 2 * static_cast<std::size_t>(omp_get_max_threads()) * chunk_bytes;
  std::string carry;  // the unfinished last line of the previous wave
  bool first = true, eof = false, bom_only = false;
  std::uint64_t done = 0;  // decompressed bytes before the buffer
  auto fill = [&](Wave& w) {
    if (eof) return;
    std::vector<char>& buf = w.storage;
    buf.resize(std::max(buf.size(), carry.size() + wave_bytes));
    std::memcpy(buf.data(), carry.data(), carry.size());
    std::size_t have = carry.size(), cut = 0;
    for (;;) {  // read until the buffer is full, then cut after its last '\n'
      while (have < buf.size()) {
        const std::size_t got = in->read(buf.data() + have, buf.size() - have);
        if (got == 0) {
          eof = true;
          break;
        }
        have += got;
      }
      if (eof) {
        cut = have;
        break;
      }
      const void* nl = memrchr(buf.data(), '\n', have);
      if (nl) {
        cut = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data()) + 1;
        break;
      }
      // No '\n' in all of it: one line, checked before more of it is read.
      if (const void* nul = std::memchr(buf.data(), '\0', have)) {
        fail(ErrorKind::kInvalidInput, in->name(), ": byte ",
             done + static_cast<std::uint64_t>(static_cast<const char*>(nul) - buf.data()),
             " (decompressed): a NUL byte: expected text (is this a binary or unsupported "
             "compressed file?)");
      }
      if (have > kMaxLineBytes) {
        fail(ErrorKind::kInvalidInput, in->name(), ": the line starting at byte ", done,
             " (decompressed) is longer than ", kMaxLineBytes >> 20,
             " MiB (the longest line webrank reads): expected text lines (is this a binary "
             "file?)");
      }
      buf.resize(2 * buf.size());  // a line longer than the buffer
    }
    carry.assign(buf.data() + cut, have - cut);
    done += cut;
    std::size_t start = 0;
    if (first) {  // a UTF-8 byte order mark opening line 1 is not part of the first label
      first = false;
      if (cut >= 3 && std::memcmp(buf.data(), "\xEF\xBB\xBF", 3) == 0) {
        start = 3;
        bom_only = eof && cut == 3;
      }
    }
    cut_chunks(buf.data() + start, cut - start, chunk_bytes, w);
    w.end = in->raw_position();  // progress is measured in file bytes, against the file's size
  };
  std::uint64_t lines =
      parse_waves(in->name(), weighted, sink, on_bytes, 0, true, fill, [](const Wave&) {});
  if (bom_only) lines = 1;
  return lines;
}

}  // namespace webrank
