// Input format `mtx`: a Matrix Market coordinate matrix read as an adjacency matrix.
//
// Contract:
// - Line 1 is the banner `%%MatrixMarket matrix coordinate FIELD SYMMETRY` (words compared
//   case-insensitively); FIELD is pattern, real or integer (complex is refused); SYMMETRY is
//   general or symmetric (skew-symmetric and hermitian are refused). The dense `array` format
//   is refused.
// - Then `%` comment lines and blank lines anywhere; the size line `M N NNZ`; then exactly NNZ
//   entry lines `I J` (pattern) or `I J VALUE` (real, integer), with 1 <= I <= M, 1 <= J <= N.
// - Entry (I, J) is the link I -> J: row = source page, column = target page (the convention of
//   SuiteSparse's directed web graphs, and of A[i][j] in an adjacency matrix; a column-oriented
//   "link matrix" such as Moler's G(i,j) = 1 when j links to i is its transpose). Every stored
//   entry is a link, an explicit zero included. A symmetric matrix also gives J -> I for each
//   entry off the diagonal.
// - Pages: "1", "2", ... "max(M, N)" (the 1-based indices as decimal text), all declared in
//   order before any link, so page ids are index - 1 and empty rows/columns are pages.
// - Weights: with --weighted, VALUE is the link weight (finite, >= 0; integer matrices need
//   integers); pattern entries weigh 1. Without it, VALUE must still be a number and is ignored.
// - Gzip and zstd files are read transparently; "-" is standard input.
// Errors name FILE:LINE and what was expected.
#include <algorithm>
#include <cctype>

#include "ingest/formats/numbers.hpp"
#include "ingest/formats/path_names.hpp"
#include "ingest/formats/readers.hpp"

namespace webrank {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

enum class Field { kPattern, kReal, kInteger };

// Every line whose first non-blank character is '%' is a comment in Matrix Market.
bool is_comment(std::string_view line) {
  const std::size_t i = line.find_first_not_of(" \t\r");
  return i != std::string_view::npos && line[i] == '%';
}

}  // namespace

bool looks_like_matrix_market(const std::string& path) {
  return path != "-" && ends_with(plain_name(path), ".mtx");
}

std::uint64_t read_matrix_market(const std::string& path, bool weighted, RecordSink& sink,
                                 const OnBytes& on_bytes) {
  auto in = open_input(path);
  LineReader reader(*in);
  auto where = [&] { return cat(reader.name(), ":", reader.line_number()); };
  std::string_view line;
  if (!reader.next(line))
    fail(ErrorKind::kInvalidInput, reader.name(), ": empty file: expected a %%MatrixMarket banner");

  // Banner.
  std::string_view f[6];
  int empty = 0;
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (lower(line.substr(0, 14)) != "%%matrixmarket") {
    fail(ErrorKind::kInvalidInput, where(),
         ": expected the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
  }
  const std::string words(line.substr(14));
  const int nb = split_fields(words, f, 6, &empty);
  if (nb != 4) {
    fail(ErrorKind::kInvalidInput, where(), ": the banner has ", std::max(nb, 0),
         " words after %%MatrixMarket, expected 'matrix coordinate FIELD SYMMETRY'");
  }
  if (lower(f[0]) != "matrix") {
    fail(ErrorKind::kInvalidInput, where(), ": object '", f[0],
         "' is not supported (expected matrix)");
  }
  if (lower(f[1]) == "array") {
    fail(ErrorKind::kInvalidInput, where(),
         ": the dense array format is not supported (expected coordinate)");
  }
  if (lower(f[1]) != "coordinate")
    fail(ErrorKind::kInvalidInput, where(), ": format '", f[1], "': expected coordinate");
  Field field;
  const std::string field_name = lower(f[2]);
  if (field_name == "pattern") {
    field = Field::kPattern;
  } else if (field_name == "real" || field_name == "double") {
    field = Field::kReal;
  } else if (field_name == "integer") {
    field = Field::kInteger;
  } else {
    fail(ErrorKind::kInvalidInput, where(), ": field '", f[2],
         "' is not supported (expected pattern, real or integer)");
  }
  const std::string symmetry = lower(f[3]);
  if (symmetry != "general" && symmetry != "symmetric") {
    fail(ErrorKind::kInvalidInput, where(), ": symmetry '", f[3],
         "' is not supported (expected general or symmetric)");
  }
  const bool symmetric = symmetry == "symmetric";

  // Size line.
  std::uint64_t rows = 0, cols = 0, nnz = 0;
  bool have_size = false;
  while (reader.next(line)) {
    if (is_comment(line)) continue;
    const int n = split_fields(line, f, 4, &empty);
    if (n == 0) continue;
    if (n != 3)
      fail(ErrorKind::kInvalidInput, where(),
           ": expected the size line 'ROWS COLUMNS ENTRIES', found ", n, " fields");
    rows = parse_natural(f[0], where, "row count");
    cols = parse_natural(f[1], where, "column count");
    nnz = parse_natural(f[2], where, "entry count");
    have_size = true;
    break;
  }
  if (!have_size)
    fail(ErrorKind::kInvalidInput, where(), ": ends before the size line 'ROWS COLUMNS ENTRIES'");
  if (symmetric && rows != cols) {
    fail(ErrorKind::kInvalidInput, where(), ": a symmetric matrix must be square, not ", rows,
         " x ", cols);
  }
  const std::uint64_t pages = std::max(rows, cols);
  if (pages > 0xFFFFFFFEull)
    fail(ErrorKind::kInvalidInput, where(), ": ", pages, " pages exceed webrank's 2^32-2");
  sink.expect_pages(pages, 0, where());
  char a[24], b[24];
  for (std::uint64_t k = 1; k <= pages; ++k) sink.page(decimal(a, k));

  const int want = field == Field::kPattern ? 2 : 3;
  std::uint64_t entries = 0;
  std::uint64_t next_report = 16 << 20;
  while (reader.next(line)) {
    if (is_comment(line)) continue;
    const int n = split_fields(line, f, 4, &empty);
    if (n == 0) continue;
    if (n < 0) fail(ErrorKind::kInvalidInput, where(), ": field ", empty, " is empty");
    if (n != want) {
      fail(ErrorKind::kInvalidInput, where(), ": ", n, " fields, expected ",
           want == 2 ? "ROW COLUMN" : "ROW COLUMN VALUE", " (", field_name, " matrix)");
    }
    if (entries == nnz) {
      fail(ErrorKind::kInvalidInput, where(), ": more entries than the ", nnz,
           " announced by the size line");
    }
    ++entries;
    const std::uint64_t i = parse_index(f[0], rows, where, "row");
    const std::uint64_t j = parse_index(f[1], cols, where, "column");
    double w = 1.0;
    if (field != Field::kPattern) {
      if (field == Field::kInteger) check_integer(f[2], where, "integer value");
      if (weighted) {
        w = parse_link_weight(f[2], where);
      } else {
        check_real(f[2], where, "value");
      }
    }
    const std::string_view from = decimal(a, i), to = decimal(b, j);
    sink.link(from, to, w);
    if (symmetric && i != j) sink.link(to, from, w);
    if (on_bytes && reader.bytes_consumed() >= next_report) {
      on_bytes(reader.file_position());
      next_report = reader.bytes_consumed() + (16 << 20);
    }
  }
  if (entries < nnz) {
    fail(ErrorKind::kInvalidInput, reader.name(), ":", reader.line_number(), ": ends after ",
         entries, " of the ", nnz, " entries announced by the size line (truncated file?)");
  }
  if (on_bytes) on_bytes(reader.file_position());
  return reader.line_number();
}

}  // namespace webrank
