// The application layer (src/app): option declarations (OptionSet), the table of operations and
// one call through it (Operation), the open database and what it keeps (Session), and the shared
// helpers every operation uses (Registry: naming a page, weights by page, what a reader says of a
// vector).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "app/registry.hpp"
#include "test_graphs.hpp"
#include "webrank/app/inspect.hpp"
#include "webrank/app/operation.hpp"
#include "webrank/app/options.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/ingest/update.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/util/error.hpp"

namespace webrank::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A scratch folder removed at the end of each test.
class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("webrank-app-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A database of the edge list `edges` ("a\tb\n" lines), built at dir_/NAME.
  fs::path database(const std::string& name, const std::string& edges) {
    const fs::path input = dir_ / (name + ".tsv");
    std::ofstream(input) << edges;
    BuildOptions o;
    o.inputs = {input.string()};
    o.output = dir_ / name;
    build_database(o);
    return o.output;
  }

  fs::path dir_;
};

const char* const kWeb = "a\tb\nb\tc\nc\ta\nc\td\nd\td\n";

// ---- OptionSet: one declaration gives the type, default, checks and errors of an option.

struct Example {
  int k = 10;
  double damping = 0.85;
  std::string name = "pagerank";
  bool quiet = false;
  Method method = Method::kAuto;
  std::vector<std::string> pages;
};

const OptionSet<Example>& example_options() {
  static const OptionSet<Example> set = [] {
    OptionSet<Example> s;
    s.add("k", WR_FIELD(k), "How many").in(closed(1, 100)).letter('k');
    s.add("damping", WR_FIELD(damping), "Damping").in(closed(0, 1)).alias("alpha");
    s.add("name", WR_FIELD(name), "A name");
    s.add("quiet", WR_FIELD(quiet), "Quiet").without("name");
    s.add("method", WR_FIELD(method), "A solver");
    s.add("pages", WR_FIELD(pages), "Pages");
    return s;
  }();
  return set;
}

TEST(OptionSet, DeclaresTypesDefaultsAndChoices) {
  const auto specs = example_options().specs();
  ASSERT_EQ(specs.size(), 6u);
  EXPECT_EQ(specs[0].type, ValueType::kWhole);
  EXPECT_EQ(specs[0].default_value, 10);
  EXPECT_EQ(specs[1].type, ValueType::kNumber);
  EXPECT_EQ(specs[2].default_value, "pagerank");
  EXPECT_EQ(specs[3].type, ValueType::kFlag);
  EXPECT_EQ(specs[4].type, ValueType::kChoice);
  EXPECT_EQ(specs[4].default_value, "auto");
  // The choices of an enum option are its table's names: the solvers' table for a method.
  std::vector<std::string> methods;
  for (const SolverInfo& s : solvers()) methods.emplace_back(s.name);
  EXPECT_EQ(specs[4].choices, methods);
  EXPECT_EQ(specs[5].type, ValueType::kTexts);
}

TEST(OptionSet, ParsesGivenValuesOverDefaults) {
  const Example e = example_options().parse(
      json{{"k", 3}, {"alpha", 0.5}, {"method", "gauss-seidel"}, {"pages", "x"}}, "example");
  EXPECT_EQ(e.k, 3);
  EXPECT_DOUBLE_EQ(e.damping, 0.5);  // by its alias
  EXPECT_EQ(e.method, Method::kGaussSeidel);
  EXPECT_EQ(e.pages, std::vector<std::string>{"x"});  // one text is a list of one
  EXPECT_EQ(e.name, "pagerank");                      // not given: its default
  const Example defaults = example_options().parse(json(), "example");
  EXPECT_EQ(defaults.k, 10);
}

// The words of an error, as a front end that spells options in the library's terms shows them.
std::string message_of(const Error& e) {
  return e.message([](std::string_view f) { return std::string(f); });
}

TEST(OptionSet, RefusesWithTheOptionNamed) {
  const auto refused = [](const json& given) -> std::string {
    try {
      (void)example_options().parse(given, "example");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument) << given;
      return message_of(e);
    }
    ADD_FAILURE() << "accepted " << given;
    return "";
  };
  EXPECT_NE(refused({{"k", 0}}).find("k"), std::string::npos);
  EXPECT_NE(refused({{"k", 2.5}}).find("k"), std::string::npos);
  EXPECT_NE(refused({{"damping", 1.5}}).find("damping"), std::string::npos);
  EXPECT_NE(refused({{"method", "newton"}}).find("method"), std::string::npos);
  EXPECT_NE(refused({{"dampign", 0.5}}).find("did you mean 'damping'"), std::string::npos);
  EXPECT_NE(refused({{"quiet", true}, {"name", "x"}}).find("cannot be combined"),
            std::string::npos);
  EXPECT_NE(refused(json::array()).find("object"), std::string::npos);
}

// ---- Operation: the table, and one call through it.

TEST(Operation, TheTableNamesEachOnceWithItsDeclarations) {
  std::set<std::string> names;
  for (const Operation& op : operations()) {
    EXPECT_TRUE(names.insert(op.name).second) << op.name << " twice";
    EXPECT_FALSE(op.summary.empty()) << op.name;
    EXPECT_TRUE(op.run) << op.name;
    std::set<std::string> options;
    for (const OptionSpec& spec : op.options) {
      EXPECT_TRUE(options.insert(spec.name).second) << op.name << " --" << spec.name;
      EXPECT_FALSE(spec.help.empty()) << op.name << " --" << spec.name;
    }
    // What the server offers only reads.
    if (op.served) {
      EXPECT_NE(op.access, Access::kWrite) << op.name;
    }
  }
  EXPECT_EQ(&find_operation("top"),
            &*std::find_if(operations().begin(), operations().end(),
                           [](const Operation& op) { return op.name == "top"; }));
  try {
    (void)find_operation("topp");
    FAIL() << "an unknown operation was found";
  } catch (const Error& e) {
    EXPECT_NE(message_of(e).find("did you mean 'top'"), std::string::npos) << message_of(e);
  }
}

class OperationCall : public Scratch {};

TEST_F(OperationCall, RunsOnASessionAndAnswersJson) {
  Session session(database("web", kWeb));
  const Operation& rank = find_operation("rank");
  const Output ranked = rank.run(&session, json{{"tol", 1e-12}}, app::Run{});
  EXPECT_TRUE(ranked.notices.warnings.empty());
  const Output top = find_operation("top").run(&session, json{{"k", 2}}, app::Run{});
  ASSERT_TRUE(top.json.is_array()) << top.json;
  ASSERT_EQ(top.json.size(), 2u);
  EXPECT_EQ(top.json[0]["label"], "d");  // d links only to itself: it keeps what reaches it
  // The same call through call_as: the use case's own struct.
  const auto backlinks = call_as<BacklinksResult>(find_operation("backlinks"), &session,
                                                  json{{"page", "a"}}, app::Run{});
  EXPECT_EQ(backlinks.backlinks.total, 1u);  // c
  // A bad option is refused by its declaration, whatever the front end.
  EXPECT_THROW(find_operation("top").run(&session, json{{"k", -1}}, app::Run{}), Error);
}

TEST_F(OperationCall, AStopRequestStopsASolve) {
  std::string edges;
  for (int i = 0; i < 20000; ++i)
    edges += "p" + std::to_string(i) + "\tp" + std::to_string((i * 7 + 1) % 20000) + "\n";
  Session session(database("big", edges));
  std::stop_source stop;
  stop.request_stop();
  app::Run run;
  run.stop = stop.get_token();
  try {
    (void)find_operation("rank").run(&session, json{{"tol", 1e-14}, {"method", "power"}}, run);
    FAIL() << "a stopped rank ran to its end";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCancelled);
  }
}

// ---- Session: one open database, what it keeps, a new version picked up.

class SessionTest : public Scratch {};

TEST_F(SessionTest, KeepsStateAndPicksUpANewVersion) {
  const fs::path db = database("web", kWeb);
  Session session(db);
  EXPECT_EQ(session.path(), db);
  EXPECT_EQ(session.database()->num_pages(), 4u);
  int made = 0;
  const auto first = session.keep<int>("views", [&] { return std::make_shared<int>(++made); });
  const auto again = session.keep<int>("views", [&] { return std::make_shared<int>(++made); });
  EXPECT_EQ(first, again);
  EXPECT_EQ(made, 1);
  EXPECT_FALSE(session.refresh());  // nothing changed
  const auto before = session.database();
  const fs::path add = dir_ / "add.tsv";
  std::ofstream(add) << "d\te\n";
  UpdateOptions u;
  u.add = {add.string()};
  update_database(db, u);
  EXPECT_TRUE(session.refresh());
  EXPECT_EQ(session.database()->num_pages(), 5u);
  EXPECT_EQ(before->num_pages(), 4u);  // a caller holding the old version keeps it
  // What was kept belonged to the old version.
  const auto fresh = session.keep<int>("views", [&] { return std::make_shared<int>(++made); });
  EXPECT_EQ(*fresh, 2);
}

TEST_F(SessionTest, ADatabaseThatIsNotThereIsNotFound) {
  try {
    Session session(dir_ / "nowhere");
    FAIL() << "opened a database that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotFound);
  }
}

// ---- Registry: what every operation shares.

class Registry : public Scratch {};

TEST_F(Registry, APageIsNamedOneWayWithOneKindOfError) {
  const fs::path path = database("web", "http://x.example/a\thttp://x.example/b\n");
  const Database db = Database::open(path);
  EXPECT_EQ(db.label(find_page_or_fail(db, "web", "http://x.example/a")), "http://x.example/a");
  // A URL that normalizes to a label names that page.
  EXPECT_EQ(db.label(find_page_or_fail(db, "web", "HTTP://X.EXAMPLE/a")), "http://x.example/a");
  for (const std::string& option : {std::string(), std::string("personalize")}) {
    try {
      (void)find_page_or_fail(db, "web", "http://x.example/a/", option);
      FAIL() << "found a page that is not there";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNotFound);
      const std::string m = message_of(e);
      EXPECT_NE(m.find("web: no page labelled 'http://x.example/a/'"), std::string::npos) << m;
      EXPECT_NE(m.find("did you mean 'http://x.example/a'?"), std::string::npos) << m;
      EXPECT_EQ(m.find("personalize") != std::string::npos, !option.empty()) << m;
    }
  }
}

TEST(RegistryWeights, DensePageWeightsAreCheckedOnce) {
  EXPECT_EQ(dense_page_weights({0, 2, 1}, 3, "source"), (PageWeights{{1, 2.0}, {2, 1.0}}));
  EXPECT_THROW(dense_page_weights({1, 2}, 3, "source"), Error);
  EXPECT_THROW(dense_page_weights({1, -1, 0}, 3, "source"), Error);
  EXPECT_THROW(dense_page_weights({1, NAN, 0}, 3, "source"), Error);
}

TEST(RegistryNotices, AReaderSaysWhenAVectorIsStaleOrUnconverged) {
  VectorRecord record;
  record.converged = true;
  Notices quiet;
  note_vector_state("pagerank", record, quiet);
  EXPECT_TRUE(quiet.warnings.empty());
  record.converged = false;
  record.stale = StaleNote{"computed before an update of the web", 1, 0, 2, 0};
  Notices said;
  note_vector_state("pagerank", record, said);
  ASSERT_EQ(said.warnings.size(), 2u);
  EXPECT_EQ(said.warnings[0], "rank vector 'pagerank' did not converge");
  EXPECT_EQ(said.warnings[1],
            "rank vector 'pagerank' is stale: computed before an update of the web");
  // Values that are no stored vector (a topic mix) say nothing.
  Notices none;
  note_vector_state(PresentedRanks(std::vector<double>{0.5, 0.5}, "topics:a=1"), none);
  EXPECT_TRUE(none.warnings.empty());
}

}  // namespace
}  // namespace webrank::app
