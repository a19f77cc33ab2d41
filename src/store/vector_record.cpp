// What a stored vector is made of (webrank/store/vector_record.hpp).
#include "webrank/store/vector_record.hpp"

namespace webrank {

const char* to_string(Precision p) {
  return p == Precision::kFloat ? "float" : "double";
}

}  // namespace webrank
