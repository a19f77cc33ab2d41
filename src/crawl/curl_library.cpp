#include "crawl/curl_library.hpp"

#include <dlfcn.h>

#include <string>

#include "webrank/util/error.hpp"

namespace webrank::crawl {
namespace {

constexpr const char* kSoname = "libcurl.so.4";

CurlLibrary load() {
  void* lib = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = ::dlerror();
    fail(ErrorKind::kIo, "crawl: cannot load ", kSoname,
         " (the libcurl4 package): ", why ? why : "unknown error");
  }
  auto get = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
    if (!fn) fail(ErrorKind::kIo, "crawl: ", kSoname, " has no ", name, " (libcurl too old?)");
  };
  CurlLibrary c{};
  get(c.global_init, "curl_global_init");
  get(c.easy_init, "curl_easy_init");
  get(c.easy_setopt, "curl_easy_setopt");
  get(c.easy_getinfo, "curl_easy_getinfo");
  get(c.easy_cleanup, "curl_easy_cleanup");
  get(c.easy_reset, "curl_easy_reset");
  get(c.easy_strerror, "curl_easy_strerror");
  get(c.multi_init, "curl_multi_init");
  get(c.multi_setopt, "curl_multi_setopt");
  get(c.multi_add_handle, "curl_multi_add_handle");
  get(c.multi_remove_handle, "curl_multi_remove_handle");
  get(c.multi_perform, "curl_multi_perform");
  get(c.multi_socket_action, "curl_multi_socket_action");
  get(c.multi_info_read, "curl_multi_info_read");
  get(c.multi_cleanup, "curl_multi_cleanup");
  get(c.slist_append, "curl_slist_append");
  get(c.slist_free_all, "curl_slist_free_all");
  if (c.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    fail(ErrorKind::kIo, "crawl: cannot initialize libcurl");
  return c;  // the library stays loaded for the life of the process
}

}  // namespace

const CurlLibrary& curl() {
  static const CurlLibrary library = load();  // a failed load is retried by the next call
  return library;
}

}  // namespace webrank::crawl
