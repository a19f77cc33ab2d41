// The record of a stored vector (webrank/store/vector_record.hpp): one JSON form, read strictly,
// with the documented defaults for schema 1 only.
#include "webrank/store/vector_record.hpp"

#include <gtest/gtest.h>

#include <string>

#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace {

VectorRecord pagerank_record() {
  VectorRecord r;
  r.name = "pagerank";
  r.xxh3 = "0123456789abcdef";
  r.generation = "0123456789abcdef";
  r.method = "auto";
  r.solved_by = "gauss-seidel";
  r.pages = 3;
  r.damping = 0.85;
  r.tol = 1e-10;
  r.max_iter = 1000;
  r.dangling = "custom";
  r.personalized = true;
  r.source_pages = 2;
  r.source_weights = StoredWeights{{0, 2}, {1.0, 3.0}};
  r.dangling_weights = StoredWeights{{1}, {1.0}};
  r.iterations = 2;
  r.deltas = {0.5, 1e-11};
  r.converged = true;
  r.final_delta = 1e-11;
  r.error_bound = 5.6e-11;
  r.sum = 1.0;
  r.seconds = 0.25;
  r.created = 1700000000;
  r.components = 2;
  r.largest_component_pages = 2;
  r.choice = "gauss-seidel: about 2 sweeps of the cycles";
  r.phase_seconds = {{"components", 0.1}, {"sweeps", 0.15}};
  r.warm_start = WarmStartNote{"old", 3, 40, 38};
  r.stale = StaleNote{"computed before an update", 1, 0, 2, 0};
  return r;
}

// The error `text` gets when read, or "" when it reads.
std::string read_error(const std::string& text) {
  try {
    read_vector_record(text, "ranks/x.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    return e.what();
  }
  return "";
}

TEST(VectorRecord, RoundTripsThroughItsJsonForm) {
  const VectorRecord r = pagerank_record();
  const std::string text = vector_record_text(r);
  const VectorRecord back = read_vector_record(text, "ranks/pagerank.json");
  EXPECT_EQ(vector_record_text(back), text);
  EXPECT_EQ(back.schema, kVectorSchema);
  EXPECT_EQ(back.solved_by, "gauss-seidel");
  EXPECT_EQ(back.damping, 0.85);
  ASSERT_TRUE(back.source_weights);
  EXPECT_EQ(back.source_weights->pages, (std::vector<PageId>{0, 2}));
  ASSERT_TRUE(back.warm_start);
  EXPECT_EQ(back.warm_start->iterations_saved, 38);
  ASSERT_TRUE(back.stale);
  EXPECT_EQ(back.stale->links_added, 2u);
  EXPECT_EQ(back.choice, "gauss-seidel: about 2 sweeps of the cycles");
  EXPECT_EQ(back.phase_seconds, r.phase_seconds);
  EXPECT_NE(text.find("\"schema\": 3"), std::string::npos);
}

TEST(VectorRecord, UnknownMissingAndMistypedFieldsAreErrorsNamingTheField) {
  std::string text = vector_record_text(pagerank_record());
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  EXPECT_EQ(read_error(text), "");
  EXPECT_EQ(read_error(with("\"damping\": 0.85,", "\"dampign\": 0.85,")),
            "ranks/x.json: unknown field \"dampign\" (schema 3, docs/format.md)");
  EXPECT_EQ(read_error(with("\"damping\": 0.85,", "")),
            "ranks/x.json: field \"damping\" is missing");
  EXPECT_EQ(read_error(with("\"iterations\": 2,", "")),
            "ranks/x.json: field \"iterations\" is missing");
  EXPECT_EQ(read_error(with("\"iterations\": 2,", "\"iterations\": \"2\",")),
            "ranks/x.json: field \"iterations\" has the wrong type (string)");
  EXPECT_EQ(read_error(with("\"schema\": 3", "\"schema\": 4")),
            "ranks/x.json: schema 4 is not one this webrank reads (3): written by a newer "
            "version?");
  EXPECT_EQ(read_error(with("\"generation\": \"0123456789abcdef\",", "")),
            "ranks/x.json: field \"generation\" is missing");
  // Schema 2 is schema 3 without the generation: read, as of no known version.
  std::string v2_text = with("\"generation\": \"0123456789abcdef\",", "");
  v2_text.replace(v2_text.find("\"schema\": 3"), 11, "\"schema\": 2");
  const VectorRecord v2 = read_vector_record(v2_text, "ranks/x.json");
  EXPECT_EQ(v2.generation, "");
  EXPECT_EQ(read_error(with("\"reason\"", "\"why\"")),
            "ranks/x.json (\"stale\"): unknown field \"why\" (schema 3, docs/format.md)");
  EXPECT_EQ(read_error(with("\"links_removed\": 0", "\"pages_added\": 0")),
            "ranks/x.json (\"stale\"): field \"links_removed\" is missing");
  EXPECT_EQ(read_error(with("\"links_added\": 2,", "\"links_added\": 2, \"colour\": 1,")),
            "ranks/x.json (\"stale\"): unknown field \"colour\" (schema 3, docs/format.md)");
  EXPECT_EQ(read_error(with("\"sweeps\": 0.15", "\"sweeps\": \"fast\"")),
            "ranks/x.json: field \"phase_seconds\" has a string for \"sweeps\"");
  EXPECT_EQ(read_error("[1, 2]"), "ranks/x.json: damaged (not a JSON object)");
  EXPECT_EQ(read_error("{\"name\": "), "ranks/x.json: byte 10: damaged (not valid JSON)");
}

TEST(VectorRecord, HitsAndHarmonicNeedNoFormulation) {
  VectorRecord h;
  h.algorithm = "harmonic";
  h.kind = "exact";
  h.method = "hyperball";
  h.name = "harmonic";
  h.xxh3 = "00";
  const VectorRecord back = read_vector_record(vector_record_text(h), "h.json");
  EXPECT_FALSE(back.damping);
  EXPECT_EQ(back.dangling, "");
  EXPECT_FALSE(back.is_pagerank());
}

// Vectors written before the schema had a number: the defaults of docs/format.md.
TEST(VectorRecord, SchemaOneReadsWithItsDocumentedDefaults) {
  // A PageRank vector of webrank 0.1 (88eae2a's save_ranks).
  const VectorRecord pr = read_vector_record(
      R"({"converged": true, "created": 1, "custom_start": false, "damping": 0.85,
          "dangling": "source", "deltas": [0.1], "error_bound": null, "final_delta": 0.1,
          "iterations": 1, "max_iter": 1000, "method": "power", "name": "pagerank",
          "normalized": true, "pages": 3, "personalized": false, "precision": "double",
          "seconds": 0.1, "source_pages": 0, "stalled": false, "sum": 1.0, "sweep": "pull",
          "tol": 1e-10, "xxh3": "00"})",
      "old.json");
  EXPECT_EQ(pr.schema, 1);
  EXPECT_EQ(pr.algorithm, "pagerank");
  EXPECT_TRUE(std::isnan(pr.error_bound));
  // Spam mass of webrank 0.1: "derived" and no "algorithm".
  const VectorRecord mass = read_vector_record(
      R"({"precision": "double", "derived": "absolute spam mass P - good_fraction*T",
          "good_fraction": 1.0, "damping": 0.85, "tol": 1e-10, "converged": true,
          "iterations": 40, "seed_pages": 2, "created": 1, "name": "spam-mass-absolute",
          "xxh3": "00"})",
      "old.json");
  EXPECT_EQ(mass.algorithm, "spam-mass");
  EXPECT_EQ(mass.kind, "absolute");
  EXPECT_EQ(mass.method, "derived");
  // Even schema 1 has no unknown fields.
  EXPECT_THROW(read_vector_record(R"({"precision": "double", "name": "a", "xxh3": "00",
                                      "colour": 1})",
                                  "old.json"),
               Error);
}

}  // namespace
}  // namespace webrank::testing
