// generate_text_web: the `web` model's links (algo/web_model.hpp) with pages made of Zipf-drawn
// words (webrank/search/text_web.hpp). Pages are made in parallel, a block at a time, each from its
// own random stream, and written in page order.
#include "webrank/search/text_web.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "algo/web_model.hpp"
#include "util/atomic_file.hpp"
#include "web/warc.hpp"
#include "webrank/util/error.hpp"

namespace webrank {
namespace {

constexpr std::uint32_t kVocabulary = 50000;
constexpr int kTopicWords = 40;

// Word i of the vocabulary: its digits in base 90, each a consonant-vowel syllable, at least two
// syllables. Distinct numbers give distinct words, and words ending in a vowel stay distinct
// after English stemming.
std::string word(std::uint32_t i) {
  static constexpr char kConsonants[] = "bcdfghjklmnprstvwz";  // 18
  static constexpr char kVowels[] = "aeiou";                   // 5
  std::string w;
  std::uint32_t x = i;
  int syllables = 0;
  do {
    const std::uint32_t s = x % 90;
    w += kConsonants[s / 5];
    w += kVowels[s % 5];
    x /= 90;
    ++syllables;
  } while (x > 0 || syllables < 2);
  return w;
}

// One random stream per (seed, page, purpose): pages can be made in any order.
std::mt19937_64 stream(std::uint64_t seed, std::uint64_t page, std::uint64_t purpose) {
  std::seed_seq s{seed, page, purpose};
  return std::mt19937_64(s);
}

class TextModel {
 public:
  TextModel(const WebModel& web, std::uint64_t seed) : web_(web), seed_(seed) {
    // Zipf's law over the vocabulary: rank r has weight 1/(r+1).
    cdf_.resize(kVocabulary);
    double total = 0;
    for (std::uint32_t r = 0; r < kVocabulary; ++r) cdf_[r] = total += 1.0 / (r + 1);
    for (double& c : cdf_) c /= total;
    words_.reserve(kVocabulary);
    for (std::uint32_t r = 0; r < kVocabulary; ++r) words_.push_back(word(r));
  }

  // A host's topic: words of middling frequency, the same for every page of the host.
  std::array<std::uint32_t, kTopicWords> topic(std::uint64_t host) const {
    auto rng = stream(seed_, host, 3);
    std::array<std::uint32_t, kTopicWords> t{};
    for (auto& w : t) w = 200 + static_cast<std::uint32_t>(rng() % (kVocabulary - 200));
    return t;
  }

  std::string title(std::uint64_t page) const {
    auto rng = stream(seed_, page, 1);
    const auto t = topic(web_.host(page));
    std::string s;
    const int n = 2 + static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      if (i) s += ' ';
      // Mostly topic words; one in four any word but the commonest.
      const std::uint32_t w = rng() % 4 ? t[zipf_index(rng, kTopicWords)]
                                        : 50 + static_cast<std::uint32_t>(rng() % 20000);
      s += words_[w];
    }
    return s;
  }

  // The HTML of `page` linking to `targets`; `titles` are every page's title().
  std::string html(std::uint64_t page, const std::uint64_t* targets, std::size_t n,
                   const std::vector<std::string>& titles) const {
    auto rng = stream(seed_, page, 2);
    const auto t = topic(web_.host(page));
    const std::string& ti = titles[page];
    std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + ti +
                    "</title></head>\n<body><h1>" + ti + "</h1>\n<p>";
    std::lognormal_distribution<double> length(std::log(400.0), 0.6);
    const int words = std::clamp(static_cast<int>(length(rng)), 20, 8000);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int i = 0; i < words; ++i) {
      if (i > 0) h += i % 80 == 0 ? "</p>\n<p>" : " ";
      h += words_[unit(rng) < 0.25 ? t[zipf_index(rng, kTopicWords)] : zipf(rng)];
    }
    h += "</p>\n<ul>\n";
    for (std::size_t i = 0; i < n; ++i) {
      h += "<li><a href=\"" + web_.url(targets[i]) + "\">" + titles[targets[i]] + "</a></li>\n";
    }
    h += "</ul></body></html>\n";
    return h;
  }

 private:
  std::uint32_t zipf(std::mt19937_64& rng) const {
    const double x = std::uniform_real_distribution<double>(0, 1)(rng);
    return static_cast<std::uint32_t>(std::lower_bound(cdf_.begin(), cdf_.end(), x) - cdf_.begin());
  }
  // An index in [0, n) with Zipf-like weights (the first topic words are the host's main ones).
  static std::uint32_t zipf_index(std::mt19937_64& rng, int n) {
    const double x = std::uniform_real_distribution<double>(0, 1)(rng);
    return static_cast<std::uint32_t>(
        std::min<double>(n - 1, std::floor(std::exp(x * std::log(n + 1.0)) - 1)));
  }

  const WebModel& web_;
  std::uint64_t seed_;
  std::vector<double> cdf_;
  std::vector<std::string> words_;
};

}  // namespace

TextWebReport generate_text_web(const GenerateOptions& o) {
  if (o.model != GraphModel::kWeb)
    fail_option("model", "must be web for a text web (rmat has no URLs)");
  if (o.pages == 0) fail_option("pages", "must be positive");
  if (o.links == 0) fail_option("links", "must be positive");
  if (o.output.empty() || o.output == "-") {
    fail_option("output", "must be a file for a text web (a WARC file: name.warc or name.warc.gz)");
  }
  const WebModel web(o);
  // The links in source order, as CSR.
  std::vector<std::uint64_t> offsets(web.pages() + 1, 0), targets;
  targets.reserve(o.links);
  TextWebReport r;
  r.pages = web.pages();
  r.links = web.links([&](std::uint64_t s, std::uint64_t t) {
    ++offsets[s + 1];
    targets.push_back(t);
  });
  for (std::uint64_t p = 0; p < web.pages(); ++p) offsets[p + 1] += offsets[p];
  const TextModel text(web, o.seed);
  std::vector<std::string> titles(web.pages());
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::uint64_t p = 0; p < web.pages(); ++p) titles[p] = text.title(p);

  TempPath out(o.output);
  const bool gzip = o.output.size() > 3 && o.output.compare(o.output.size() - 3, 3, ".gz") == 0;
  auto warc = std::make_unique<web::WarcWriter>(out.path().string(), gzip);
  constexpr std::uint64_t kBlock = 4096;
  std::vector<std::string> pages(kBlock);
  for (std::uint64_t first = 0; first < web.pages(); first += kBlock) {
    const std::uint64_t n = std::min(kBlock, web.pages() - first);
#pragma omp parallel for schedule(dynamic, 64)
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t p = first + i;
      const std::string html =
          text.html(p, targets.data() + offsets[p], offsets[p + 1] - offsets[p], titles);
      pages[i] = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
                 std::to_string(html.size()) + "\r\n\r\n" + html;
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      r.bytes += pages[i].size();
      warc->write("response", web.url(first + i), "application/http; msgtype=response", pages[i]);
    }
  }
  warc.reset();  // closed before it is renamed into place
  out.commit();
  return r;
}

}  // namespace webrank
