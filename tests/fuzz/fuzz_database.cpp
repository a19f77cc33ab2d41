// libFuzzer target: opening a damaged database. A small database (built once, with a stored rank
// vector) is copied; the input picks one of its files (first byte), an offset (next four bytes),
// and bytes XORed into the file there (the rest). A damaged manifest that is still JSON is sealed
// again (store/manifest_seal.hpp), so that the checks behind the seal are reached too. Opening,
// verifying and reading must end in a result or a webrank::Error: never a crash, a read out of
// bounds or unbounded memory.
#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "fuzz_common.hpp"
#include "store/manifest_seal.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/store/database.hpp"
#include "webrank/store/rank_store.hpp"

namespace fs = std::filesystem;
using namespace webrank;

namespace {

const fs::path& pristine() {
  static const fs::path dir = [] {
    const fs::path db = fuzz::scratch() / "pristine.db";
    BuildOptions o;
    o.inputs = {fuzz::write_file("web.tsv", "a\tb\t1\nb\tc\t2\nc\ta\t0.5\nc\tc\t1\nd\n")};
    o.output = db;
    o.weighted = true;
    build_database(o);
    Database d = Database::open(db);
    const std::vector<double> ranks{0.1, 0.2, 0.3, 0.4};
    VectorRecord record;
    record.method = "power";
    record.damping = 0.85;
    record.tol = 1e-10;
    record.dangling = "source";
    record.converged = true;
    write_rank_vector(d, "pagerank", ranks, Precision::kDouble, record);
    return db;
  }();
  return dir;
}

std::vector<fs::path> files_of(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), dir));
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<fs::path> files = files_of(pristine());
  if (size < 5) return 0;
  const fs::path db = fuzz::scratch() / "case.db";
  fs::remove_all(db);
  fs::copy(pristine(), db, fs::copy_options::recursive);
  const fs::path file = db / files[data[0] % files.size()];
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::uint32_t offset;
  std::memcpy(&offset, data + 1, 4);
  const std::size_t at = bytes.empty() ? 0 : offset % bytes.size();
  for (std::size_t i = 5; i < size; ++i) {
    const std::size_t k = at + i - 5;
    if (k < bytes.size()) {
      bytes[k] = static_cast<char>(bytes[k] ^ data[i]);
    } else {
      bytes.push_back(static_cast<char>(data[i]));
    }
  }
  if (file.filename() == "manifest.json") {
    nlohmann::json m = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (m.is_object()) {
      seal_manifest(m);
      bytes = m.dump();
    }
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
  try {
    Database d = Database::open(db);
    d.verify();
    for (PageId u = 0; u < d.num_pages(); ++u) (void)d.find(d.label(u));
    for (const std::string& name : d.rank_names()) (void)load_ranks(d, name);
  } catch (const Error&) {
  }
  return 0;
}
