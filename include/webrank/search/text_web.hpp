// A synthetic web with text (`webrank generate --text`), for measuring the search index and
// search on webs larger than the documentation sets: the link structure of the `web` model
// (webrank/algo/generate.hpp, the same links for the same options) written as a WARC file of HTML
// pages, which `webrank import` reads like any crawl.
//
// Each page has a title, a body of words and its out-links with anchor texts:
// - words come from a vocabulary of 50,000 made-up words ("kalomi"), drawn with Zipf's law
//   (exponent 1), so that a few words are in most pages and most words in few, as in English;
// - each host has a topic of 40 words that make a quarter of its pages' words and most of their
//   titles, so that a query has pages it is about;
// - a body has a log-normal number of words (median 400, as many pages of the documentation
//   sets have), in paragraphs; a title 2 to 5 words; the anchor text of a link is the target's
//   title.
// Output is deterministic for the options (the seed drives everything) and is written to a
// temporary renamed into place.
#pragma once

#include <cstdint>
#include <string>

#include "webrank/algo/generate.hpp"

namespace webrank {

struct TextWebReport {
  std::uint64_t pages = 0, links = 0, bytes = 0;  // bytes of the HTTP responses
};

// Writes the text web of `options` (model kWeb) to options.output: gzip-compressed records when
// its name ends in ".gz", else plain. Throws Error: kInvalidArgument for the rmat model, no
// pages or links, or standard output ("-"); kIo when the file cannot be written.
TextWebReport generate_text_web(const GenerateOptions& options);

}  // namespace webrank
