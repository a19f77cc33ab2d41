// Input format `html-dir`: a directory tree of HTML files, the web of a documentation set or a
// saved site, read from disk without a server.
//
// Contract:
// - Every regular file under the directory (recursively, following no symlinked directories)
//   whose name ends in .html or .htm (any case) is a page, read in path order; its label is the
//   file:// URL of its absolute path (percent-encoded as url.hpp normalizes), status 200.
// - Title, text and links are extracted as for any crawled page (page_record.hpp): relative
//   links resolve to file:// URLs; links to files that do not exist stay pages with no
//   out-links; links elsewhere (http://...) are pages too.
// - The same tree crawled with `webrank crawl file:///DIR/index.html` gives the same pages and
//   links (those reachable from the seed).
// - A file longer than kMaxHtmlFileBytes (10 MiB, the default --max-bytes of a crawl) is read up
//   to that size, as a crawl reads a longer body, and the build report says how many were.
// - `auto`: a directory that contains .html/.htm files directly.
#include <algorithm>
#include <filesystem>

#include "ingest/formats/page_batch.hpp"
#include "ingest/formats/readers.hpp"
#include "util/input_stream.hpp"
#include "web/page_record.hpp"
#include "web/url.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t kMaxHtmlFileBytes = 10 << 20;

bool html_name(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".html" || ext == ".htm";
}

}  // namespace

bool looks_like_html_dir(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && html_name(it->path())) return true;
  }
  return false;
}

std::uint64_t read_html_dir(const std::string& path, bool, RecordSink& sink,
                            const std::function<void(std::uint64_t)>& on_bytes) {
  std::error_code ec;
  if (!fs::is_directory(path, ec))
    fail(ErrorKind::kInvalidInput, path, ": not a directory (html-dir reads a directory)");
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(path, ec), end; it != end; it.increment(ec)) {
    if (ec) fail(ErrorKind::kInvalidInput, path, ": cannot list: ", ec.message());
    if (it->is_regular_file(ec) && html_name(it->path())) files.push_back(it->path());
  }
  if (ec) fail(ErrorKind::kInvalidInput, path, ": cannot list: ", ec.message());
  std::sort(files.begin(), files.end());
  std::uint64_t bytes = 0, cut = 0;
  PageBatch batch(sink);
  for (const fs::path& f : files) {
    bool truncated = false;
    std::string text = read_file_prefix(f.string(), kMaxHtmlFileBytes, &truncated);
    cut += truncated;
    std::string url = web::file_url(fs::absolute(f).lexically_normal().string());
    const std::size_t size = text.size();
    batch.add(
        [url = std::move(url), text = std::move(text)] {
          return web::make_page_record(url, 200, "text/html", "", text);
        },
        size);
    bytes += size;
    if (on_bytes) on_bytes(bytes);
  }
  batch.flush();
  if (cut) {
    sink.note(cat(cut, cut == 1 ? " file was" : " files were", " longer than ",
                  kMaxHtmlFileBytes >> 20, " MiB and read up to that size, as a crawl would"));
  }
  return files.size();
}

}  // namespace webrank
