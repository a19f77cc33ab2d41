// libcurl, loaded when the first crawl starts instead of when webrank starts: linked normally,
// libcurl and the thirty-odd libraries it needs (TLS, Kerberos, LDAP, SSH...) were mapped and
// relocated by every command, a large share of a short `webrank rank` (measured in
// docs/performance.md, "Whole commands"). The functions keep libcurl's own names and types
// (curl/curl.h); they are called through this table.
#pragma once

#include <curl/curl.h>

namespace webrank::crawl {

struct CurlLibrary {
  decltype(&curl_global_init) global_init;
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_easy_reset) easy_reset;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_multi_init) multi_init;
  decltype(&curl_multi_setopt) multi_setopt;
  decltype(&curl_multi_add_handle) multi_add_handle;
  decltype(&curl_multi_remove_handle) multi_remove_handle;
  decltype(&curl_multi_perform) multi_perform;
  decltype(&curl_multi_socket_action) multi_socket_action;
  decltype(&curl_multi_info_read) multi_info_read;
  decltype(&curl_multi_cleanup) multi_cleanup;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;
};

// libcurl (libcurl.so.4), loaded and globally initialized on the first call; thread-safe. Throws
// Error (kIo) naming the library and what is missing when it cannot be loaded.
const CurlLibrary& curl();

}  // namespace webrank::crawl
