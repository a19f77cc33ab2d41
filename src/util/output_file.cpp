#include "webrank/util/output_file.hpp"

#include "util/atomic_file.hpp"

namespace webrank {

void write_output_file(const std::string& path, std::string_view text) {
  AtomicFileWriter out(path);
  out.write(text.data(), text.size());
  out.commit();
}

}  // namespace webrank
