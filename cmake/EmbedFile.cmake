# Run at build time by webrank_embed_assets() (cmake -P): writes IN's bytes as a C++ array OUT
# named SYMBOL. A missing input is a build error naming the file and the fix.
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "webrank: asset ${IN} is missing.\n${FIX}")
endif()
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the initializer into lines so compilers and editors stay comfortable.
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN} by cmake/EmbedFile.cmake: do not edit.\n"
  "#include <cstddef>\n"
  "namespace webrank::assets_data {\n"
  "extern const unsigned char ${SYMBOL}[];\n"
  "extern const std::size_t ${SYMBOL}_size;\n"
  "const unsigned char ${SYMBOL}[] = {\n${bytes}0};\n"
  "const std::size_t ${SYMBOL}_size = ${size};\n"
  "}  // namespace webrank::assets_data\n")
file(RENAME "${OUT}.tmp" "${OUT}")
