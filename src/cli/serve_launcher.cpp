// run_serve in webrank and webrank-mpi, which link no HTTP library: the process becomes
// webrank-serve (built beside them from the same sources) with the same arguments, once they
// parsed (so a usage error is reported here, without the hand-over).
#include "common.hpp"
#include "serve_command.hpp"

namespace webrank::cli {

void run_serve(const ServeArgs&) {
  become_sibling("webrank-serve",
                 "serve runs webrank-serve, built beside webrank: bash scripts/build.sh "
                 "webrank-serve");
}

}  // namespace webrank::cli
