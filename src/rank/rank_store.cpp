#include "webrank/rank_store.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "graph/db_layout.hpp"
#include "graph/section_file.hpp"
#include "util/atomic_file.hpp"
#include "webrank/error.hpp"

namespace webrank {
namespace fs = std::filesystem;
namespace {

nlohmann::json describe(const RankOptions& o, const RankResult& r, PageId pages) {
  nlohmann::json j;
  j["pages"] = pages;
  j["precision"] = to_string(r.precision);
  j["method"] = to_string(o.method);
  if (o.method == Method::kAuto) j["solved_by"] = to_string(r.method);
  if (!r.sweep.empty()) j["sweep"] = r.sweep;
  if (r.block_pages != 0) j["block_pages"] = r.block_pages;
  if (r.blocked_from != 0) j["blocked_from_iteration"] = r.blocked_from;
  if (!r.sweep_note.empty()) j["sweep_note"] = r.sweep_note;
  if (r.components != 0) {
    j["components"] = r.components;
    j["largest_component_pages"] = r.largest_component;
  }
  j["damping"] = o.damping;
  j["tol"] = o.tol;
  j["max_iter"] = o.max_iter;
  j["dangling"] = o.dangling_weights.empty() ? to_string(o.dangling) : "custom";
  j["personalized"] = !o.source.empty();
  j["source_pages"] = o.source.size();
  j["custom_start"] = !o.start.empty();
  j["iterations"] = r.iterations;
  j["converged"] = r.converged;
  j["stalled"] = r.stalled;
  j["final_delta"] = r.final_delta;
  j["error_bound"] =
      std::isfinite(r.error_bound) ? nlohmann::json(r.error_bound) : nlohmann::json(nullptr);
  j["deltas"] = r.deltas;
  j["normalized"] = r.normalized;
  if (o.dangling == Dangling::kRemove) {
    j["removal_rounds"] = r.removal_rounds;
    j["removed_pages"] = r.removed_pages;
  }
  double sum = 0;
  for (double x : r.ranks) sum += x;
  j["sum"] = sum;
  j["seconds"] = r.seconds;
  j["created"] = static_cast<std::int64_t>(std::time(nullptr));
  return j;
}

}  // namespace

void check_rank_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 100 && name[0] != '.';
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (!ok)
    fail("rank vector name '", name, "' is not valid: use letters, digits, '.', '_' and '-'");
}

void save_ranks(const Database& db, const std::string& name, const RankResult& r,
                const RankOptions& o) {
  check_rank_name(name);
  const fs::path dir = db.path() / layout::kRanksDir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) fail(dir.string(), ": cannot create: ", ec.message());
  if (r.ranks.size() != db.num_pages())
    fail("internal error: rank vector size does not match the database");

  TempPath vec(dir / (name + ".ranks"));
  std::uint64_t checksum;
  {
    if (r.precision == Precision::kFloat) {
      std::vector<float> values(r.ranks.begin(), r.ranks.end());
      SectionWriter w(vec.path(), "ranks.f32", 4);
      w.append(std::span<const float>(values));
      checksum = w.finish();
    } else {
      SectionWriter w(vec.path(), "ranks.f64", 8);
      w.append(std::span<const double>(r.ranks));
      checksum = w.finish();
    }
  }
  nlohmann::json meta = describe(o, r, db.num_pages());
  meta["name"] = name;
  meta["xxh3"] = checksum_hex(checksum);
  AtomicFileWriter json(dir / (name + ".json"));
  json.write(meta.dump(2) + "\n");
  // The vector goes in first; the metadata that names its checksum last. A reader that finds
  // the two out of step (interrupted in between) reports it instead of mixing them.
  vec.commit();
  json.commit();
}

StoredRanks load_ranks(const Database& db, const std::string& name) {
  check_rank_name(name);
  const fs::path dir = db.path() / layout::kRanksDir;
  const fs::path json_path = dir / (name + ".json");
  const fs::path vec_path = dir / (name + ".ranks");
  if (!fs::exists(vec_path)) {
    std::string have;
    for (const auto& n : db.rank_names()) have += (have.empty() ? "" : ", ") + n;
    fail(db.path().string(), ": no rank vector named '", name, "' (",
         have.empty() ? "none computed yet: run `webrank rank " + db.path().string() + "`"
                      : "available: " + have,
         ")");
  }
  StoredRanks s;
  s.name = name;
  std::ifstream in(json_path, std::ios::binary);
  if (!in) fail(json_path.string(), ": missing or unreadable (the rank vector's metadata)");
  std::stringstream text;
  text << in.rdbuf();
  s.metadata_json = text.str();
  nlohmann::json meta;
  try {
    meta = nlohmann::json::parse(s.metadata_json);
  } catch (const nlohmann::json::parse_error& e) {
    fail(json_path.string(), ": byte ", e.byte, ": damaged (not valid JSON)");
  }
  const std::string precision = meta.value("precision", "");
  if (precision != "float" && precision != "double") {
    fail(json_path.string(), ": damaged: \"precision\" must be \"float\" or \"double\"");
  }
  s.precision = precision == "float" ? Precision::kFloat : Precision::kDouble;
  const Section sec = s.precision == Precision::kFloat ? Section::open(vec_path, "ranks.f32", 4)
                                                       : Section::open(vec_path, "ranks.f64", 8);
  if (sec.count() != db.num_pages()) {
    fail(vec_path.string(), ": byte 24: holds ", sec.count(), " values, the database has ",
         db.num_pages(), " pages");
  }
  if (meta.value("xxh3", "") != checksum_hex(sec.checksum())) {
    fail(vec_path.string(), ": bytes 40-47: checksum differs from ", json_path.filename().string(),
         " (an interrupted or damaged write)");
  }
  sec.verify();
  if (s.precision == Precision::kFloat) {
    auto v = sec.as<float>();
    s.values.assign(v.begin(), v.end());
  } else {
    auto v = sec.as<double>();
    s.values.assign(v.begin(), v.end());
  }
  s.converged = meta.value("converged", false);
  s.iterations = meta.value("iterations", 0);
  if (meta.contains("deltas") && meta["deltas"].is_array())
    s.deltas = meta["deltas"].get<std::vector<double>>();
  return s;
}

void write_rank_tsv(const Database& db, const std::vector<double>& ranks, const std::string& path,
                    double scale) {
  AtomicFileWriter out(path);
  std::string buf;
  buf.reserve(1 << 20);
  char num[40];
  for (PageId u = 0; u < db.num_pages(); ++u) {
    buf.append(db.label(u));
    buf.push_back('\t');
    int len = std::snprintf(num, sizeof num, "%.17g", ranks[u] * scale);
    buf.append(num, len);
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
