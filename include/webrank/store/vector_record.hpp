// What a stored vector is made of (ranks/NAME.json beside ranks/NAME.ranks): its precision.
#pragma once

namespace webrank {

// The values of a stored vector, and the arithmetic a solver keeps them in: 8-byte doubles, or
// 4-byte floats (sums still accumulated in double).
enum class Precision { kDouble, kFloat };

// "double", "float".
const char* to_string(Precision);

}  // namespace webrank
