#include "graph/mapped_edge_list.hpp"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <exception>
#include <string_view>
#include <vector>

#include "graph/edge_list_chunk.hpp"
#include "util/mapped_file.hpp"
#include "webrank/error.hpp"

namespace webrank {
namespace {

// Hands the records of one parsed chunk to the sink in file order: runs of numeric links in
// one batch each, runs of other links likewise, pages one by one.
void deliver(const EdgeListChunk& c, bool weighted, EdgeListSink& sink,
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
  fail(name, ":", line_number, ": internal error: the line parsed differently twice");
}

}  // namespace

std::uint64_t read_mapped_edge_list(const std::string& path, bool weighted, EdgeListSink& sink,
                                    const std::function<void(std::uint64_t)>& on_bytes,
                                    std::size_t chunk_bytes) {
  const MappedFile file(path);
  const char* const data = reinterpret_cast<const char*>(file.bytes().data());
  const std::size_t size = file.size();
  // A UTF-8 byte order mark opening line 1 is not part of the first label.
  const bool bom = size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0;
  std::size_t pos = bom ? 3 : 0;

  // Two chunks per thread in a wave even out chunks that parse slower (label lines). Two waves
  // are in flight: one is handed to the sink by one thread while the others parse the next.
  const std::size_t per_wave = 2 * static_cast<std::size_t>(omp_get_max_threads());
  struct Wave {
    std::vector<EdgeListChunk> chunks;
    std::vector<std::string_view> text;
    std::size_t end = 0;  // file offset after the wave
  };
  Wave waves[2];
  for (Wave& w : waves) w.chunks.resize(per_wave);
  auto cut_wave = [&](Wave& w) {  // the next chunks, each ending after a '\n' (or at the end)
    w.text.clear();
    while (w.text.size() < per_wave && pos < size) {
      std::size_t cut = std::min(size, pos + chunk_bytes);
      if (cut < size) {
        const void* nl = std::memchr(data + cut, '\n', size - cut);
        cut = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1 : size;
      }
      w.text.emplace_back(data + pos, cut - pos);
      pos = cut;
    }
    w.end = pos;
  };
  // Failures must not escape the OpenMP region: the first one is carried out of it. Chunk
  // parsing only throws on exhaustion (bad lines are recorded), the sink on anything.
  std::exception_ptr failure;
  auto record_failure = [&failure] {
#pragma omp critical(mapped_edge_list_failure)
    if (!failure) failure = std::current_exception();
  };
  auto parse_wave = [&](Wave& w) {
    for (std::size_t i = 0; i < w.text.size(); ++i) {
#pragma omp task default(shared) firstprivate(i)
      try {
        parse_edge_list_chunk(w.text[i], weighted, w.chunks[i]);
      } catch (...) {
        record_failure();
      }
    }
  };

  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t released = 0;
  std::uint64_t lines = 0;
  bool estimated = false;
  std::vector<std::string_view> labels;  // deliver()'s scratch
  auto deliver_wave = [&](const Wave& w) {
    if (!estimated) {  // extrapolate the first wave's links per byte to the whole file
      std::uint64_t links = 0;
      for (std::size_t i = 0; i < w.text.size(); ++i) {
        links += w.chunks[i].numbers.size() / 2 + w.chunks[i].others.size();
      }
      sink.expect_links(links + links * (size - w.end) / w.end + links / 16);
      estimated = true;
    }
    for (std::size_t i = 0; i < w.text.size(); ++i) {
      deliver(w.chunks[i], weighted, sink, labels);
      lines += w.chunks[i].lines;
      if (w.chunks[i].bad) raise_bad_line(w.chunks[i].bad_line, weighted, path, lines);
    }
    if (on_bytes) on_bytes(w.end);
  };

#pragma omp parallel if (size > chunk_bytes)
#pragma omp single
  {
    cut_wave(waves[0]);
    parse_wave(waves[0]);
#pragma omp taskwait
    for (int k = 0; !failure && !waves[k % 2].text.empty(); ++k) {
      Wave& current = waves[k % 2];
      Wave& next = waves[(k + 1) % 2];
      cut_wave(next);
      parse_wave(next);
      try {
        deliver_wave(current);
      } catch (...) {
        record_failure();
      }
#pragma omp taskwait
      // The sink has copied what it keeps: give the consumed pages back (they stay in the page
      // cache), so that a large input does not fill the resident set.
      const std::size_t upto = current.end / page * page;
      if (upto > released) {
        ::madvise(const_cast<char*>(data) + released, upto - released, MADV_DONTNEED);
        released = upto;
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  // The streaming reader counts a file holding only a byte order mark as one (empty) line.
  if (bom && size == 3) lines = 1;
  return lines;
}

}  // namespace webrank
