// Writing a front end's text output (a report, curves, a listing) the way the library writes its
// own: to a hidden temporary sibling renamed into place when complete, so a failed or
// interrupted run leaves the previous file as it was. "-" is standard output.
#pragma once

#include <string>
#include <string_view>

namespace webrank {

// Throws Error(kIo) naming the file when it cannot be written.
void write_output_file(const std::string& path, std::string_view text);

}  // namespace webrank
