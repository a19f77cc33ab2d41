// Rank vectors stored in a database directory (webrank/store/rank_store.hpp, docs/format.md).
#include "webrank/store/rank_store.hpp"

#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>

#include "store/database_version.hpp"
#include "store/db_layout.hpp"
#include "store/section_file.hpp"
#include "util/atomic_file.hpp"
#include "util/file_identity.hpp"
#include "util/regular_file.hpp"
#include "webrank/store/paths.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace fs = std::filesystem;

namespace {

// What a read of vector `name` finds missing: one wording for every command.
[[noreturn]] void fail_no_vector(const Database& db, const std::string& name) {
  std::string have;
  for (const auto& n : db.rank_names()) have += (have.empty() ? "" : ", ") + n;
  fail(ErrorKind::kNotFound, db.path().string(), ": no rank vector named '", name, "' (",
       have.empty() ? "none stored yet: `webrank rank " + db.path().string() + "` computes one"
                    : "stored: " + have,
       ")");
}

// nullopt when missing or unreadable; an Error when it is no regular file (a FIFO would block).
std::optional<std::string> read_text(const fs::path& path) {
  return read_regular_file(path);
}

// A vector computed on another version of the database (its record names another generation):
// refused, whatever its size. Vectors without one (schemas 1 and 2) are taken as the database's.
void check_generation(const Database& db, const VectorRecord& record, const fs::path& file) {
  if (record.generation.empty() || record.generation == db.generation()) return;
  fail(ErrorKind::kCorrupt, file.string(), ": computed on another version of the database (",
       "generation ", record.generation, ", the database is ",
       db.generation().empty() ? "(none)" : db.generation(),
       "): its values do not belong to these pages (recompute it with `webrank rank`, or drop it "
       "with `webrank ranks ",
       db.path().string(), " --delete ", record.name, "`)");
}

}  // namespace

void check_rank_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 100 && name[0] != '.';
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (!ok)
    fail_option("name", "'", name,
                "' is not a valid rank vector name: use letters, digits, '.', '_' and '-'");
}

void write_rank_vector(const Database& db, const std::string& name, std::span<const double> values,
                       Precision precision, VectorRecord record) {
  check_rank_name(name);
  const fs::path dir = db.path() / layout::kRanksDir;
  std::error_code ec;
  // A database removed while open keeps its mapping: its directory must not be made again.
  if (!fs::exists(db.path() / layout::kManifest, ec)) {
    fail(ErrorKind::kNotFound, db.path().string(),
         ": the database is gone (removed while it was open): nothing stored");
  }
  if (fs::create_directory(dir, ec)) sync_parent(dir);  // the folder's name, made durable
  if (ec) fail(ErrorKind::kIo, dir.string(), ": cannot create: ", ec.message());
  if (values.size() != db.num_pages())
    fail_option("result", "holds ", values.size(), " ranks, the database has ", db.num_pages(),
                " pages");

  const RankVectorFiles files = rank_vector_files(db.path(), name);
  TempPath vec(files.values);
  std::uint64_t checksum;
  {
    if (precision == Precision::kFloat) {
      std::vector<float> narrow(values.begin(), values.end());
      SectionWriter w(vec.path(), "ranks.f32", 4);
      w.append(std::span<const float>(narrow));
      checksum = w.finish();
    } else {
      SectionWriter w(vec.path(), "ranks.f64", 8);
      w.append(values);
      checksum = w.finish();
    }
  }
  record.name = name;
  record.xxh3 = checksum_hex(checksum);
  record.generation = db.generation();
  record.precision = precision;
  record.pages = db.num_pages();
  // Published under the database's lock, and only into the version the values were computed on
  // (store/database_version.hpp): an update that replaced the database meanwhile makes this a
  // conflict, and one waiting for the lock carries the vector into its new version.
  const DatabaseLock lock(db.path());
  check_still_current(db, lock, cat("the vector '", name, "' was not stored"));
  // The pair is replaced as one (docs/format.md, "Writing"): the new metadata is put in place
  // first under its pending name, then the vector, then the metadata under its own name. Killed
  // after the vector went in, the pending metadata names the new vector's checksum, and
  // load_ranks() takes it (and finishes the rename): every reader sees the old pair or the new.
  {
    AtomicFileWriter json(files.pending);
    json.write(vector_record_text(record));
    json.commit();
  }
  vec.commit();
  fs::rename(files.pending, files.record, ec);
  // Gone: a reader that came between finished the replacement (load_ranks).
  if (ec && ec != std::errc::no_such_file_or_directory)
    fail(ErrorKind::kIo, files.record.string(), ": cannot rename into place: ", ec.message());
  // The last rename made durable: after a crash, the pair is the one this call stored.
  sync_path(dir);
}

std::string ranks_fingerprint(const Database& db) {
  std::string out;
  for (const std::string& name : db.rank_names()) {
    const RankVectorFiles files = rank_vector_files(db.path(), name);
    for (const fs::path& file : {files.values, files.record}) {
      const auto id = identify(file);
      out += file.filename().string();
      if (id) {
        out += cat(' ', id->device, ' ', id->inode, ' ', id->size, ' ', id->mtime_ns, ' ',
                   id->ctime_ns);
      }
      out += '\n';
    }
  }
  return out;
}

void delete_ranks(const Database& db, const std::string& name) {
  check_rank_name(name);
  const fs::path dir = db.path() / layout::kRanksDir;
  const RankVectorFiles files = rank_vector_files(db.path(), name);
  const fs::path& vec_path = files.values;
  const fs::path& json_path = files.record;
  if (!fs::exists(vec_path) && !fs::exists(json_path)) fail_no_vector(db, name);
  // Under the database's lock, from the version `db` opened only: a delete must not take a
  // vector out of a newer version an update put in place meanwhile (it carried the vector over).
  const DatabaseLock lock(db.path());
  check_still_current(db, lock, cat("the vector '", name, "' was not deleted"));
  // Readers take no lock, so every state between the steps is one they read rightly: the
  // metadata first becomes the pending metadata (the vector still reads, through it), then the
  // values go (no vector: not found), then the pending metadata. Removing the values first
  // would show a reader metadata without values, which it must call corrupt.
  const fs::path& pending = files.pending;
  std::error_code ec;
  fs::rename(json_path, pending, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    fail(ErrorKind::kIo, json_path.string(), ": cannot remove: ", ec.message());
  for (const fs::path& p : {vec_path, pending}) {
    fs::remove(p, ec);
    if (ec) fail(ErrorKind::kIo, p.string(), ": cannot remove: ", ec.message());
  }
  sync_path(dir);  // a deleted vector stays deleted after a crash
}

namespace {

// Opens the stored vector `name` with every check load_ranks promises (metadata, size,
// checksums) and fills `s` with its metadata; returns the mapped section of values.
Section open_stored_once(const Database& db, const std::string& name, StoredRanks& s) {
  const RankVectorFiles files = rank_vector_files(db.path(), name);
  const fs::path& json_path = files.record;
  const fs::path& vec_path = files.values;
  std::error_code ec;
  if (!fs::exists(vec_path, ec) && fs::exists(json_path, ec)) {
    fail(ErrorKind::kCorrupt, vec_path.string(), ": missing, but ", json_path.filename().string(),
         " describes it: the vector was deleted or lost (recompute it with `webrank rank`, or "
         "drop it with `webrank ranks ",
         db.path().string(), " --delete ", name, "`)");
  }
  if (!fs::exists(vec_path)) fail_no_vector(db, name);
  s.name = name;
  std::optional<std::string> text = read_text(json_path);
  // A vector stored for the first time, between its values going in and its metadata taking its
  // name: the pending metadata is the vector's own (its checksum is checked below).
  if (!text) text = read_text(files.pending);
  if (!text)
    fail(ErrorKind::kCorrupt, json_path.string(),
         ": missing or unreadable (the rank vector's metadata)");
  s.record = read_vector_record(*text, json_path.string());
  check_generation(db, s.record, json_path);
  s.precision = s.record.precision;
  Section sec = s.precision == Precision::kFloat ? Section::open(vec_path, "ranks.f32", 4)
                                                 : Section::open(vec_path, "ranks.f64", 8);
  if (sec.count() != db.num_pages()) {
    fail(ErrorKind::kCorrupt, vec_path.string(), ": byte 24: holds ", sec.count(),
         " values, the database has ", db.num_pages(), " pages");
  }
  if (s.record.xxh3 != checksum_hex(sec.checksum())) {
    // A replacement interrupted between the vector and its metadata: the pending metadata is
    // the vector's own; the replacement is finished here if the folder can be written.
    const fs::path& pending = files.pending;
    std::optional<std::string> next = read_text(pending);
    std::optional<VectorRecord> next_record;
    if (next) {
      try {
        next_record = read_vector_record(*next, pending.string());
      } catch (const Error&) {
      }
    }
    if (!next_record || next_record->xxh3 != checksum_hex(sec.checksum()) ||
        next_record->precision != s.precision) {
      fail(ErrorKind::kCorrupt, vec_path.string(), ": bytes 40-47: checksum differs from ",
           json_path.filename().string(), " (an interrupted or damaged write)");
    }
    s.record = std::move(*next_record);
    check_generation(db, s.record, pending);
    std::error_code ignored;
    fs::rename(pending, json_path, ignored);
  }
  sec.verify();
  return sec;
}

// What the files of vector `name` are now (absent ones included): a read that failed while they
// stayed the same failed on what is stored, not on a write or a delete in between.
std::string pair_state(const RankVectorFiles& files) {
  std::string out;
  for (const fs::path& p : {files.values, files.record, files.pending}) {
    if (const auto id = identify(p)) {
      out += cat(id->inode, ' ', id->size, ' ', id->mtime_ns, ' ', id->ctime_ns);
    }
    out += '\n';
  }
  return out;
}

// open_stored_once, read again when the files changed while it read them: a write or a delete
// of the same vector (another thread, another process) changed them between two of its reads,
// and each of their steps leaves files a reader reads rightly (write_rank_vector,
// delete_ranks), so a read that starts again sees one of them. Readers take no lock: a writer
// that holds one (update) reads vectors too.
Section open_stored(const Database& db, const std::string& name, StoredRanks& s) {
  check_rank_name(name);
  const RankVectorFiles files = rank_vector_files(db.path(), name);
  for (int attempt = 1;; ++attempt) {
    const std::string before = pair_state(files);
    try {
      s = StoredRanks{};
      return open_stored_once(db, name, s);
    } catch (const Error&) {
      // A bound, so that files rewritten without end (a loop of writers) still end the read.
      if (attempt >= 100 || pair_state(files) == before) throw;
    }
  }
}

}  // namespace

StoredRanks load_ranks(const Database& db, const std::string& name) {
  StoredRanks s;
  const Section sec = open_stored(db, name, s);
  if (s.precision == Precision::kFloat) {
    auto v = sec.as<float>();
    s.values.assign(v.begin(), v.end());
  } else {
    auto v = sec.as<double>();
    s.values.assign(v.begin(), v.end());
  }
  return s;
}

struct MappedRanks::Impl {
  StoredRanks info;
  Section section;
};

MappedRanks map_ranks(const Database& db, const std::string& name) {
  auto impl = std::make_unique<MappedRanks::Impl>();
  impl->section = open_stored(db, name, impl->info);
  return MappedRanks(std::move(impl));
}

MappedRanks::MappedRanks(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MappedRanks::MappedRanks(MappedRanks&&) noexcept = default;
MappedRanks& MappedRanks::operator=(MappedRanks&&) noexcept = default;
MappedRanks::~MappedRanks() = default;
const StoredRanks& MappedRanks::info() const {
  return impl_->info;
}
std::span<const double> MappedRanks::doubles() const {
  if (impl_->info.precision != Precision::kDouble) return {};
  return impl_->section.as<double>();
}
std::span<const float> MappedRanks::floats() const {
  if (impl_->info.precision != Precision::kFloat) return {};
  return impl_->section.as<float>();
}

void write_rank_tsv(const Database& db, const std::vector<double>& ranks, const std::string& path,
                    double scale) {
  if (scale == 1.0) return write_rank_tsv(db, {std::span<const double>(ranks)}, path);
  std::vector<double> scaled(ranks);
  for (double& x : scaled) x *= scale;
  write_rank_tsv(db, {std::span<const double>(scaled)}, path);
}

void write_rank_tsv(const Database& db, const std::vector<std::span<const double>>& columns,
                    const std::string& path) {
  AtomicFileWriter out(path);
  std::string buf;
  buf.reserve(1 << 20);
  char num[40];
  for (PageId u = 0; u < db.num_pages(); ++u) {
    buf.append(db.label(u));
    for (const auto& column : columns) {
      buf.push_back('\t');
      // The text of "%.17g" (the standard defines to_chars with a precision as printf's), at a
      // fraction of the cost of glibc's printf, which dominated writing a batch's vectors.
      buf.append(
          num, std::to_chars(num, num + sizeof num, column[u], std::chars_format::general, 17).ptr);
    }
    buf.push_back('\n');
    if (buf.size() > (1 << 20) - 4096) {
      out.write(buf);
      buf.clear();
    }
  }
  out.write(buf);
  out.commit();
}

}  // namespace webrank
