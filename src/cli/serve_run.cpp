// run_serve in webrank-serve: the server itself (the executable that links the server).
#include <sys/resource.h>

#include <cstdio>

#include "interrupts.hpp"
#include "serve_command.hpp"

namespace webrank::cli {

void run_serve(const ServeArgs& args) {
  ServeOptions o = args.o;
  o.db = args.db;
  o.shards = args.shards;
  o.cache_bytes = args.cache_mb << 20;
  o.on_listening = [&](const std::string& address, int port) {
    const std::string host = address.find(':') != std::string::npos ? "[" + address + "]" : address;
    std::fprintf(stderr, "webrank: serving %s on http://%s:%d/ (Ctrl-C stops)\n", args.db.c_str(),
                 host.c_str(), port);
  };
  o.on_log = [](const std::string& line) { std::fprintf(stderr, "webrank: %s\n", line.c_str()); };
  if (args.access_log) {
    o.on_request = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  }
  // Each connection is an open file: the soft limit (often 1,024) up to the hard one, so that the
  // server's connection cap (docs/serve.md) is not the shell's default.
  if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
  o.stop = arm_interrupts();  // the first Ctrl-C or SIGTERM stops serving
  run_server(o);
  disarm_interrupts();
  std::fprintf(stderr, "webrank: stopped\n");
}

}  // namespace webrank::cli
