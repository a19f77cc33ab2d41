// The files CMake embeds (cmake/EmbedAssets.cmake) are byte for byte the files of web/.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "webrank/assets/assets.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Assets, EmbeddedFilesAreTheFilesOfWeb) {
  const std::string dist = std::string(WEBRANK_WEB_DIR) + "/node_modules/uplot/dist/";
  for (const char* name : {"uPlot.iife.min.js", "uPlot.min.css"}) {
    const auto a = find_asset(name);
    ASSERT_TRUE(a.has_value()) << name;
    const std::string want = read_file(dist + name);
    ASSERT_FALSE(want.empty()) << dist << name;
    EXPECT_EQ(a->bytes, want) << name;
  }
  EXPECT_EQ(find_asset("uPlot.iife.min.js")->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(find_asset("uPlot.min.css")->content_type, "text/css; charset=utf-8");
}

TEST(Assets, UnknownNamesAreReported) {
  EXPECT_FALSE(find_asset("no-such-file.js").has_value());
  EXPECT_THROW(asset_bytes("no-such-file.js"), Error);
}

}  // namespace
}  // namespace webrank
