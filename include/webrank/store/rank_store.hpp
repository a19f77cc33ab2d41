// Named rank vectors stored inside a database directory: `ranks/NAME.ranks` (a checksummed
// section of float or double, one value per page id) and `ranks/NAME.json` (its VectorRecord,
// webrank/store/vector_record.hpp: how it was computed and what came of it). Both are written to
// temporary files and renamed, so a stored vector is always complete (write_rank_vector writes
// them; database.hpp says what concurrent readers see).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "webrank/store/database.hpp"
#include "webrank/store/vector_record.hpp"

namespace webrank {

struct StoredRanks {
  std::string name;
  std::vector<double> values;  // by page id
  Precision precision = Precision::kDouble;
  VectorRecord record;  // how it was computed and what came of it (ranks/NAME.json)
};

// Throws Error if `name` is not a plain name ([A-Za-z0-9._-], not starting with '.').
void check_rank_name(const std::string& name);

// Throws Error naming the vector and the available ones if it does not exist (kNotFound); verifies
// checksums and reads the record strictly (kCorrupt naming the file and the field).
StoredRanks load_ranks(const Database& db, const std::string& name);

// Stores `values` (one per page) as the vector `name` with its record, replacing a vector of
// that name as one: a reader sees the old pair or the new one, also after a kill at any moment
// (docs/format.md, "Writing"). The store sets record.name, record.xxh3, record.precision and
// record.pages. Throws Error: kInvalidArgument for a bad name or a vector of another size (naming
// option `result`), kIo when the files cannot be written (the old vector is then kept).
void write_rank_vector(const Database& db, const std::string& name, std::span<const double> values,
                       Precision precision, VectorRecord record);

// A stored vector used in place, without copying it (the Python module's Database.ranks()): its
// file stays mapped while this object lives, so the values remain valid even when the vector is
// replaced or deleted meanwhile (the old file is kept by the mapping). Opened with the checks of
// load_ranks (metadata, size, checksums: the file is read once). Movable, not copyable; the
// const methods may be called from any number of threads.
class MappedRanks {
 public:
  struct Impl;
  explicit MappedRanks(std::unique_ptr<Impl> impl);
  MappedRanks(MappedRanks&&) noexcept;
  MappedRanks& operator=(MappedRanks&&) noexcept;
  ~MappedRanks();

  // Name, precision, convergence, iterations, deltas and metadata; `values` stays empty.
  const StoredRanks& info() const;
  // The values by page id, as stored: doubles() of a double vector, floats() of a float one
  // (the other is empty).
  std::span<const double> doubles() const;
  std::span<const float> floats() const;

 private:
  std::unique_ptr<Impl> impl_;
};

// Maps the stored vector `name`; throws as load_ranks does.
MappedRanks map_ranks(const Database& db, const std::string& name);

// What the stored vectors are now, without reading them: the name and file identity (device,
// inode, size, modification and change times; util/file_identity.hpp) of every vector's files,
// as opaque text. Two equal fingerprints of one database mean no vector was stored, replaced or
// deleted in between (save_ranks renames new files in, which changes the inode), so a server can
// keep what it computed from them (the report's charts: docs/serve.md). One stat per file.
std::string ranks_fingerprint(const Database& db);

// Removes the stored vector `name` (its .ranks file first, so that it is no longer listed, then
// its metadata), under the database's lock and only from the version `db` opened. Throws Error:
// kNotFound naming the available vectors, kConflict when the database was replaced meanwhile
// (nothing deleted), kIo if a file cannot be removed. Readers that loaded it keep their copy.
void delete_ranks(const Database& db, const std::string& name);

// Writes `label<TAB>rank` for every page in id order with 17 significant digits, atomically.
// Each value is multiplied by `scale` (1 for probabilities; N for the N-scaled convention of
// GraphX, GraphChi and PowerGraph, where ranks average 1).
void write_rank_tsv(const Database& db, const std::vector<double>& ranks, const std::string& path,
                    double scale = 1.0);
// The same with several values per page: `label<TAB>v1<TAB>v2...` (`hits --out`: authority, hub).
void write_rank_tsv(const Database& db, const std::vector<std::span<const double>>& columns,
                    const std::string& path);

}  // namespace webrank
