// Builds past the memory budget: links sorted in runs on disk and merged give the same database,
// byte for byte, as the in-memory build; the runs never outlive the build.
#include <fstream>
#include <random>

#include "test_graphs.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/util/error.hpp"
#include "webrank/util/units.hpp"

namespace webrank::testing {
namespace {
namespace fs = std::filesystem;

TEST(MemoryBudget, Sizes) {
  EXPECT_EQ(parse_memory_size("4G"), std::uint64_t{4} << 30);
  EXPECT_EQ(parse_memory_size("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_memory_size("1.5g"), std::uint64_t{3} << 29);
  EXPECT_EQ(parse_memory_size("2KiB"), 2048u);
  EXPECT_EQ(parse_memory_size("10kb"), 10240u);
  EXPECT_EQ(parse_memory_size("1T"), std::uint64_t{1} << 40);
  EXPECT_EQ(parse_memory_size("123456"), 123456u);
  for (const char* bad : {"", "G", "abc", "4X", "-1", "0", "4 G", "4GG", "nan", "inf"}) {
    EXPECT_FALSE(parse_memory_size(bad).has_value()) << bad;
  }
  EXPECT_GT(default_memory_budget(), std::uint64_t{0});
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

struct Built {
  BuildReport report;
  std::vector<std::string> stages;
};

Built build(const std::vector<std::string>& inputs, const fs::path& out, bool weighted,
            std::uint64_t budget, PageOrder order = PageOrder::kInput) {
  BuildOptions o;
  o.inputs = inputs;
  o.output = out;
  o.weighted = weighted;
  o.memory_budget = budget;
  o.order = order;
  Built b;
  o.on_progress = [&b](const BuildProgress& p) {
    if (b.stages.empty() || b.stages.back() != p.stage) b.stages.push_back(p.stage);
  };
  b.report = build_database(o);
  return b;
}

// A web of `links` random links among `pages` pages, many of them repeated (so merging across
// runs matters), with some self-links, pages without links and, if `urls`, non-numeric labels.
std::string random_web(int links, int pages, bool weighted, bool urls, unsigned seed) {
  std::mt19937 rng(seed);
  std::string text = "# a random web\n";
  for (int i = 0; i < links; ++i) {
    const auto a = rng() % pages, b = i % 50 == 0 ? a : rng() % pages;
    const std::string sa = urls && a % 3 == 0 ? "http://h/" + std::to_string(a) : std::to_string(a);
    text += sa + (i % 2 ? "\t" : " ") + std::to_string(b);
    // Weights whose sums depend on the order of addition (0.1 + 0.2 + 0.3 != 0.1 + (0.2 + 0.3)).
    if (weighted) text += " 0." + std::to_string(1 + rng() % 9);
    text += "\n";
    if (i % 1000 == 0) text += "lonely" + std::to_string(i) + "\n";
  }
  return text;
}

void expect_same_build(const TempDir& dir, const std::vector<std::string>& inputs, bool weighted) {
  const Built memory = build(inputs, dir / "memory.db", weighted, 0);
  EXPECT_EQ(memory.report.spilled_runs, 0u);
  const Built disk = build(inputs, dir / "disk.db", weighted, 1);  // spill all the time
  EXPECT_GT(disk.report.spilled_runs, 3u);
  EXPECT_EQ(disk.report.links, memory.report.links);
  EXPECT_EQ(disk.report.input_links, memory.report.input_links);
  EXPECT_NE(std::find(disk.stages.begin(), disk.stages.end(), "merging"), disk.stages.end());
  EXPECT_NE(std::find(disk.stages.begin(), disk.stages.end(), "backlinks"), disk.stages.end());
  ASSERT_EQ(listing(dir / "memory.db"), listing(dir / "disk.db"));  // no run left behind
  for (const auto& name : listing(dir / "memory.db")) {
    EXPECT_EQ(file_bytes(dir / "memory.db" / name), file_bytes(dir / "disk.db" / name)) << name;
  }
  fs::remove_all(dir / "memory.db");
  fs::remove_all(dir / "disk.db");
  for (const auto& name : listing(dir.path())) {
    EXPECT_EQ(name.find("webrank-tmp"), std::string::npos) << name;
  }
}

TEST(ExternalBuild, SameDatabaseAsInMemory) {
  TempDir dir;
  const std::string numeric = dir.write("numeric.tsv", random_web(150000, 20000, false, false, 1));
  expect_same_build(dir, {numeric}, false);
  const std::string urls = dir.write("urls.tsv", random_web(150000, 20000, false, true, 2));
  expect_same_build(dir, {urls, numeric}, false);
}

TEST(ExternalBuild, WeightsAddUpInInputOrder) {
  TempDir dir;
  const std::string text = random_web(150000, 3000, true, false, 3);
  expect_same_build(dir, {dir.write("w.tsv", text)}, true);
  expect_same_build(dir, {dir.write("w.tsv.gz", gzip(text))}, true);  // the streaming reader
}

TEST(ExternalBuild, DegreeOrderNeedsTheLinksInMemory) {
  TempDir dir;
  const std::string in = dir.write("in.tsv", random_web(20000, 2000, false, false, 4));
  try {
    build({in}, dir / "out.db", false, 1, PageOrder::kDegree);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("memory_budget"), std::string::npos) << e.what();
  }
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"in.tsv"});  // nothing left behind
  EXPECT_EQ(build({in}, dir / "out.db", false, 0, PageOrder::kDegree).report.spilled_runs, 0u);
}

}  // namespace
}  // namespace webrank::testing
