#include "crawl/fetcher.hpp"

#include <strings.h>

#include <chrono>
#include <cstring>
#include <map>

#include "crawl/curl_library.hpp"
#include "webrank/util/error.hpp"

namespace webrank::crawl {
namespace {

struct Transfer {
  CURL* easy = nullptr;
  FetchResult result;
  std::uint64_t max_bytes = 0;
  std::vector<std::string> headers;      // of the last response
  curl_slist* request_fields = nullptr;  // extra request fields (owned)
  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() {  // after the easy handle that used them
    if (request_fields) curl().slist_free_all(request_fields);
  }
  std::chrono::steady_clock::time_point start;
};

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t bytes = size * n;
  const std::size_t room =
      t->max_bytes - std::min<std::uint64_t>(t->max_bytes, t->result.body.size());
  if (bytes > room) {
    t->result.body.append(data, room);
    t->result.truncated = true;
    return 0;  // stops the transfer (CURLE_WRITE_ERROR, treated as success below)
  }
  t->result.body.append(data, bytes);
  return bytes;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string line(data, size * n);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (line.starts_with("HTTP/")) t->headers.clear();  // a new response (after 100 Continue)
  if (!line.empty()) t->headers.push_back(std::move(line));
  return size * n;
}

bool header_is(const std::string& line, const char* name) {
  const std::size_t n = std::strlen(name);
  return line.size() > n && line[n] == ':' && strncasecmp(line.data(), name, n) == 0;
}

std::string header_value(const std::string& line) {
  std::size_t i = line.find(':') + 1;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.substr(i);
}

}  // namespace

struct Fetcher::Impl {
  FetcherOptions o;
  CURLM* multi = nullptr;
  std::map<CURL*, std::unique_ptr<Transfer>> transfers;
};

Fetcher::Fetcher(FetcherOptions o) : impl_(std::make_unique<Impl>()) {
  impl_->o = std::move(o);
  impl_->multi = curl().multi_init();
  if (!impl_->multi) fail(ErrorKind::kInternal, "crawl: cannot initialize libcurl");
  curl().multi_setopt(impl_->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
                      static_cast<long>(impl_->o.max_connections));
}

Fetcher::~Fetcher() {
  abort_all();
  curl().multi_cleanup(impl_->multi);
}

void Fetcher::start(const std::string& url, std::uint64_t tag,
                    const std::vector<std::string>& fields) {
  auto t = std::make_unique<Transfer>();
  t->result.tag = tag;
  t->result.url = url;
  t->max_bytes = impl_->o.max_bytes;
  t->start = std::chrono::steady_clock::now();
  CURL* e = curl().easy_init();
  if (!e) fail(ErrorKind::kInternal, "crawl: cannot create a libcurl handle");
  t->easy = e;
  curl().easy_setopt(e, CURLOPT_URL, url.c_str());
  curl().easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl().easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl().easy_setopt(e, CURLOPT_USERAGENT, impl_->o.user_agent.c_str());
  curl().easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(impl_->o.timeout * 1000));
  curl().easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(impl_->o.connect_timeout * 1000));
  curl().easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl().easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl().easy_setopt(e, CURLOPT_WRITEDATA, t.get());
  curl().easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl().easy_setopt(e, CURLOPT_HEADERDATA, t.get());
  curl().easy_setopt(e, CURLOPT_PRIVATE, t.get());
  for (const std::string& f : fields) {
    if (curl_slist* l = curl().slist_append(t->request_fields, f.c_str())) t->request_fields = l;
  }
  if (t->request_fields) curl().easy_setopt(e, CURLOPT_HTTPHEADER, t->request_fields);
  curl().multi_add_handle(impl_->multi, e);
  impl_->transfers.emplace(e, std::move(t));
}

std::vector<FetchResult> Fetcher::poll(int wait_ms) {
  std::vector<FetchResult> done;
  int running = 0;
  curl().multi_perform(impl_->multi, &running);
  if (wait_ms > 0) {
    curl().multi_poll(impl_->multi, nullptr, 0, wait_ms, nullptr);
    curl().multi_perform(impl_->multi, &running);
  }
  int left = 0;
  while (CURLMsg* m = curl().multi_info_read(impl_->multi, &left)) {
    if (m->msg != CURLMSG_DONE) continue;
    CURL* e = m->easy_handle;
    auto it = impl_->transfers.find(e);
    if (it == impl_->transfers.end()) continue;
    Transfer& t = *it->second;
    FetchResult r = std::move(t.result);
    const CURLcode code = m->data.result;
    long status = 0;
    curl().easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t.start).count();
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && r.truncated)) {
      r.error = curl().easy_strerror(code);
    } else if (status == 0) {
      r.error = "no HTTP response";
    }
    for (const std::string& h : t.headers) {
      if (header_is(h, "Transfer-Encoding")) continue;
      if (header_is(h, "Content-Type") && r.content_type.empty()) r.content_type = header_value(h);
      if (header_is(h, "Location") && r.location.empty()) r.location = header_value(h);
      r.header_block += h + "\r\n";
    }
    curl().multi_remove_handle(impl_->multi, e);
    curl().easy_cleanup(e);
    impl_->transfers.erase(it);
    done.push_back(std::move(r));
  }
  return done;
}

void Fetcher::wakeup() {
  curl().multi_wakeup(impl_->multi);
}

std::size_t Fetcher::active() const {
  return impl_->transfers.size();
}

void Fetcher::abort_all() {
  for (auto& [e, t] : impl_->transfers) {
    curl().multi_remove_handle(impl_->multi, e);
    curl().easy_cleanup(e);
  }
  impl_->transfers.clear();
}

}  // namespace webrank::crawl
