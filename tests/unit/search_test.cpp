// Search (webrank/search/search.hpp, links.hpp, search_eval.hpp; docs/search.md): the query
// language and its errors, snippets, the three modes and the merge on a small crawled site whose
// answers are known, thread safety and reopening, the index's atomicity and identity, backlinks and
// forward links, evaluation, and the synthetic text web.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <stop_token>
#include <thread>

#include "search/chrome.hpp"
#include "search/document.hpp"
#include "search/query.hpp"
#include "search/rank_source.hpp"
#include "search/snippet.hpp"
#include "test_graphs.hpp"
#include "web/url.hpp"
#include "webrank/algo/generate.hpp"
#include "webrank/ingest/build.hpp"
#include "webrank/rank/rank.hpp"
#include "webrank/search/links.hpp"
#include "webrank/search/search.hpp"
#include "webrank/search/search_eval.hpp"
#include "webrank/search/text_web.hpp"
#include "webrank/store/rank_store.hpp"
#include "webrank/util/error.hpp"

namespace webrank::testing {
namespace fs = std::filesystem;
namespace {

// ---- the query language ------------------------------------------------------------------------

// The in-memory filter of pages known only from links matches what OP_AND_NOT over their
// boolean term matches, document for document, whatever the bitmap's runs.
TEST(SearchQuery, PageSetFilterEqualsExcludingTheTerm) {
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  std::mt19937 rng(5);
  constexpr int kDocs = 300;
  std::string excluded((kDocs + 7) / 8, '\0');
  Xapian::doccount count = 0;
  for (int i = 0; i < kDocs; ++i) {
    Xapian::Document doc;
    doc.add_term("all");
    if (rng() % 3 == 0) doc.add_term("third");
    // Runs of excluded pages, and single ones, at the start, inside and at the end.
    const bool out = i < 5 || (i >= 40 && i < 120) || i % 7 == 0 || i >= kDocs - 3;
    if (out) {
      doc.add_boolean_term(search::kUnfetchedTerm);
      search::set_page_bit(excluded, static_cast<std::size_t>(i));
      ++count;
    }
    db.add_document(doc);
  }
  for (const char* word : {"all", "third"}) {
    const auto docids = [&](const Xapian::Query& q) {
      Xapian::Enquire enquire(db);
      enquire.set_query(q);
      enquire.set_docid_order(Xapian::Enquire::ASCENDING);
      enquire.set_weighting_scheme(Xapian::BoolWeight());
      std::vector<Xapian::docid> ids;
      const Xapian::MSet mset = enquire.get_mset(0, kDocs);
      for (auto it = mset.begin(); it != mset.end(); ++it) ids.push_back(*it);
      return ids;
    };
    const auto by_term = docids(Xapian::Query(Xapian::Query::OP_AND_NOT, Xapian::Query(word),
                                              Xapian::Query(search::kUnfetchedTerm)));
    const auto by_bitmap = docids(
        Xapian::Query(Xapian::Query::OP_FILTER, Xapian::Query(word),
                      Xapian::Query((new search::PageSetSource(excluded, count))->release())));
    EXPECT_FALSE(by_term.empty());
    EXPECT_EQ(by_bitmap, by_term) << word;
  }
}

TEST(SearchQuery, Structure) {
  const auto q = search::parse_query("create -temporary \"foreign table\" OR view site:x.org");
  ASSERT_EQ(q.groups.size(), 4u);
  EXPECT_FALSE(q.groups[0].excluded);
  EXPECT_EQ(q.groups[0].atoms[0].terms, std::vector<std::string>{"Zcreat"});
  EXPECT_TRUE(q.groups[1].excluded);
  ASSERT_EQ(q.groups[2].atoms.size(), 2u);  // the phrase OR view
  EXPECT_EQ(q.groups[2].atoms[0].terms, (std::vector<std::string>{"Zforeign", "Ztabl"}));
  EXPECT_EQ(q.groups[3].atoms[0].kind, search::Atom::Kind::kSite);
  EXPECT_EQ(q.groups[3].atoms[0].site, "Hx.org");
  // A word the tokenizer splits is a phrase of its parts; the title prefix is kept apart.
  const auto split = search::parse_query("pg_hba.conf intitle:Roses");
  EXPECT_EQ(split.groups[0].atoms[0].terms, (std::vector<std::string>{"Zpg_hba", "Zconf"}));
  EXPECT_EQ(split.groups[1].atoms[0].kind, search::Atom::Kind::kInTitle);
  EXPECT_EQ(split.groups[1].atoms[0].title_terms, std::vector<std::string>{"ZSrose"});
  // Stop words are optional beside other words, required when alone.
  EXPECT_TRUE(search::parse_query("how to vacuum").groups[0].atoms[0].stop);
  EXPECT_FALSE(search::parse_query("the and").groups[0].atoms[0].stop);
  // AND may be written; a lone dash and punctuation are nothing.
  EXPECT_EQ(search::parse_query("a AND b - && c").groups.size(), 3u);
}

TEST(SearchQuery, MalformedQueriesSayWhyAndWhere) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "is empty"},
      {"   ", "is empty"},
      {"roses \"early spring", "at character 7: the phrase opened here has no closing quote"},
      {"OR roses", "at character 1: OR has no term before it"},
      {"roses OR", "at character 7: OR has no term after it"},
      {"roses OR OR tulips", "at character 10: OR follows another OR"},
      {"-roses", "only excludes pages"},
      {"roses -aphids OR soap", "at character 15: an excluded term cannot be a side of OR"},
      {"roses site:", "at character 7: site: needs a host name"},
      {"intitle: roses", "at character 1: intitle: needs a word"},
      {"\"\" roses", "at character 1: the phrase has no words"},
      {"&& ||", "has no searchable words"},
      {"été \"x", "at character 5: the phrase"},  // characters, not bytes
      {std::string(kMaxQueryBytes + 1, 'a'), "bytes long"},
  };
  for (const auto& [query, want] : cases) {
    try {
      search::parse_query(query);
      ADD_FAILURE() << "accepted: " << query;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument) << query;
      EXPECT_EQ(e.field(), "query");
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << query << " -> " << e.what();
    }
  }
  std::string many;
  for (std::size_t i = 0; i <= kMaxQueryTerms; ++i) many += "w" + std::to_string(i) + " ";
  EXPECT_THROW(search::parse_query(many), Error);
}

// ---- snippets ----------------------------------------------------------------------------------

std::vector<std::string> marked(const Snippet& s) {
  std::vector<std::string> words;
  for (const TextSpan& m : s.matches) words.push_back(s.text.substr(m.begin, m.end - m.begin));
  return words;
}

TEST(SearchSnippet, FindsTheDensestPassageAndMarksStemmedWords) {
  std::string text = "Intro words here. ";
  for (int i = 0; i < 40; ++i) text += "filler text without the words. ";
  text += "Pruning roses: prune your Roses early, before the ROSE buds open. ";
  for (int i = 0; i < 40; ++i) text += "more filler. ";
  const Snippet s = search::make_snippet(text, {"prune", "rose"}, 120);
  EXPECT_TRUE(s.cut_before);
  EXPECT_TRUE(s.cut_after);
  EXPECT_LE(s.text.size(), 120u);
  EXPECT_EQ(marked(s), (std::vector<std::string>{"Pruning", "roses", "prune", "Roses", "ROSE"}));
  // No match: the start of the text, cut at a word.
  const Snippet none = search::make_snippet(text, {"tulip"}, 30);
  EXPECT_FALSE(none.cut_before);
  EXPECT_TRUE(none.cut_after);
  EXPECT_EQ(none.text, "Intro words here. filler text");
  EXPECT_TRUE(none.matches.empty());
  // A cut inside a long word falls between UTF-8 characters.
  EXPECT_EQ(search::make_snippet("éééééééé", {"zzz"}, 5).text, "éé");
  const Snippet whole = search::make_snippet("short text", {"text"}, 100);
  EXPECT_FALSE(whole.cut_before);
  EXPECT_FALSE(whole.cut_after);
  EXPECT_EQ(marked(whole), std::vector<std::string>{"text"});
}

// Every word is found by its own stem: the snippet looks closely only at words that start as a
// stem starts (two letters, but for Porter2's exceptional forms), so this checks that shortcut
// against the stemmer on words whose stems change the most.
TEST(SearchSnippet, FindsEveryWordByItsStem) {
  const std::vector<std::string> words = {
      "dying",      "Lying",       "tying",    "skies",  "ability", "possibly", "generously",
      "relational", "conditional", "hopping",  "hoping", "cries",   "ties",     "news",
      "idly",       "ugly",        "only",     "early",  "gently",  "singly",   "agreed",
      "feed",       "sizing",      "aed",      "a",      "I",       "x9",       "pg_dump",
      "naïve",      "Ébauche",     "façade",   "ÉCOLE",  "über",    "yelling",  "Yes",
      "bye",        "says",        "succeeded"};
  const std::string filler(40, 'q');
  for (const std::string& w : words) {
    std::string lower;
    for (Xapian::Utf8Iterator it(w); it != Xapian::Utf8Iterator(); ++it) {
      Xapian::Unicode::append_utf8(lower, Xapian::Unicode::tolower(*it));
    }
    const std::string stem = search::stem_word(lower);
    const std::string text = filler + " (" + w + ") " + filler;
    EXPECT_EQ(marked(search::make_snippet(text, {stem}, 200)), std::vector<std::string>{w})
        << w << " -> " << stem;
  }
}

// Word boundaries as Xapian's tokenizer draws them, for every ASCII character, in the part of the
// text read sixteen bytes at a time and at its end.
TEST(SearchSnippet, SplitsWordsAsTheIndexerDoes) {
  const std::string filler(37, 'q');
  for (unsigned c = 1; c < 128; ++c) {
    const std::string sep(1, static_cast<char>(c));
    for (const std::string& text : {filler + sep + "rose" + sep + filler, filler + sep + "rose"}) {
      const Snippet s = search::make_snippet(text, {"rose"}, 200);
      const bool separate = !Xapian::Unicode::is_wordchar(c) && c != 'r';
      EXPECT_EQ(marked(s).size(), separate ? 1u : 0u) << "character " << c;
    }
  }
}

// Words are found wherever they fall in the blocks of sixteen bytes the text is read in, and a
// word that continues a word starting with a letter that is not ASCII is part of it.
TEST(SearchSnippet, FindsWordsAtEveryOffset) {
  // Across two blocks of the widest reading (64 bytes, AVX-512) and their edges.
  for (std::size_t pad = 0; pad < 150; ++pad) {
    const std::string text = std::string(pad, 'q') + " Roses érose —rose x";
    EXPECT_EQ(marked(search::make_snippet(text, {"rose"}, 200)),
              (std::vector<std::string>{"Roses", "rose"}))
        << pad;
  }
}

TEST(SearchSnippet, EveryWidthFindsTheWordsAWordAtATimeFinds) {
  const std::vector<std::size_t> widths = search::scan_widths();
  ASSERT_EQ(widths.back(), 1u);
  // Words that stem to the query's stems in every case and inflection, words sharing their first
  // letters, Porter2's irregular forms, digits and underscores inside words, marks, and characters
  // that are not ASCII before, inside and after words.
  const std::vector<std::string> pieces = {
      "Rose",     "roses",     "ROSING", "rosé", "érose", "—rose", "ro",    "r",
      "rot",      "dying",     "die",    "Dies", "lying", "tie",   "tying", "x_rose",
      "rose_",    "r0se",      "rose9",  "日本", "über",  "Übel",  "ü",     "analysis",
      "analyses", "Analysing", "an",     "a",    "ana",   ".",     ",",     "(",
      ")",        "-",         "/",      "'",    "\"",    "\n",    "\t",    "  "};
  std::vector<std::string> stems;
  for (const char* w : {"rose", "die", "tie", "analysis", "über"}) {
    stems.push_back(search::stem_word(w));
  }
  std::mt19937_64 rng(33);
  std::size_t found = 0;
  for (int t = 0; t < 3000; ++t) {
    std::string text;
    const std::size_t n = rng() % 60;
    for (std::size_t k = 0; k < n; ++k) {
      text += pieces[rng() % pieces.size()];
      if (rng() % 3 != 0) text += ' ';
    }
    // Some queries with stems that start with ASCII only (the block scan), some with one that
    // does not (a word at a time at every width).
    const std::vector<std::string> query =
        t % 4 == 3 ? stems : std::vector<std::string>(stems.begin(), stems.begin() + 4);
    const auto reference = search::find_words(text, query, 1);
    found += reference.size();
    for (const std::size_t w : widths) {
      const auto words = search::find_words(text, query, w);
      ASSERT_EQ(words.size(), reference.size()) << w << " bytes: " << text;
      for (std::size_t i = 0; i < words.size(); ++i) {
        ASSERT_EQ(words[i].begin, reference[i].begin) << w << " bytes: " << text;
        ASSERT_EQ(words[i].end, reference[i].end) << w << " bytes: " << text;
      }
    }
  }
  EXPECT_GT(found, 3000u);
  EXPECT_THROW(search::find_words("rose", stems, 0), std::invalid_argument);
  EXPECT_THROW(search::find_words("rose", stems, 8), std::invalid_argument);
}

// ---- site chrome -------------------------------------------------------------------------------

// A generated site whose pages share a header (the site's navigation, then the page's own title
// between two parts of it), a footer (the previous and next pages' names between fixed words) and
// nothing else; each page's own text is its own. Another site with no shared text.
struct ChromeSite {
  std::vector<std::string> titles, own, texts;
  explicit ChromeSite(int pages) {
    const std::vector<std::string> topics = {"rivets",   "girders", "cranes",  "welding",
                                             "scaffold", "cement",  "pulleys", "bolts",
                                             "ladders",  "hoists",  "anchors", "beams"};
    for (int i = 0; i < pages; ++i) titles.push_back("Handbook of " + topics[i % topics.size()]);
    for (int i = 0; i < pages; ++i) {
      // Words of this page only, around a phrase every page has (templated text of its own,
      // shorter than kChromeLongRun and farther than kChromeGap words from the chrome).
      std::string mine[12];
      for (int k = 0; k < 12; ++k) mine[k] = topics[(i + k) % topics.size()] + std::to_string(i);
      own.push_back(mine[0] + " " + mine[1] + " " + mine[2] + " " + mine[3] + " " + mine[4] + " " +
                    mine[5] + " relate to site safety in detail " + mine[6] + " " + mine[7] + " " +
                    mine[8] + " " + mine[9] + " " + mine[10] + " " + mine[11] + ".");
      texts.push_back("Acme Builders Documentation Home Guides Reference Downloads " + titles[i] +
                      " Search this site Version 4.2 " + own[i] + " Previous page " +
                      titles[(i + pages - 1) % pages] + " Next page " + titles[(i + 1) % pages] +
                      " Copyright 2024 Acme Builders, all rights " + "reserved. Built with care.");
    }
  }
};

TEST(OwnTextTable, GivesEachPageItsSpansAndConcatenatesByPageRange) {
  const std::vector<TextSpan> a{{3, 10}, {20, 25}}, b{{0, 300}}, c{{128, 70000}, {70010, 70020}};
  // Two segments' tables (pages 0-99 and 100-): concatenated, one table.
  std::string first, second;
  search::OwnTextTable::append(first, 7, a);
  search::OwnTextTable::append(first, 99, b);
  search::OwnTextTable::append(second, 100, c);
  search::OwnTextTable::append(second, 4000000000u, a);
  const search::OwnTextTable table(first + second);
  EXPECT_EQ(table.pages(), 4u);
  const auto same = [](const std::vector<TextSpan>& x, const std::vector<TextSpan>& y) {
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), [](auto p, auto q) {
             return p.begin == q.begin && p.end == q.end;
           });
  };
  EXPECT_TRUE(same(table.spans(7), a));
  EXPECT_TRUE(same(table.spans(99), b));
  EXPECT_TRUE(same(table.spans(100), c));
  EXPECT_TRUE(same(table.spans(4000000000u), a));
  // Pages without chrome, before, between and after those that have it: no spans.
  for (const PageId u : {0u, 8u, 98u, 101u, 4000000001u}) EXPECT_TRUE(table.spans(u).empty()) << u;
  EXPECT_EQ(search::OwnTextTable().pages(), 0u);
  EXPECT_TRUE(search::OwnTextTable().spans(0).empty());
  EXPECT_EQ(search::OwnTextTable(std::string()).pages(), 0u);
}

TEST(OwnTextTable, RefusesATableItDidNotWriteSayingWhere) {
  std::string t;
  search::OwnTextTable::append(t, 5, {{1, 2}});
  const auto refused_at = [](const std::string& table) -> std::string {
    try {
      search::OwnTextTable{table};
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  // Its last entry cut short; a page twice (not ascending); a length past the end; a varint
  // that never ends.
  EXPECT_EQ(refused_at(t.substr(0, t.size() - 1)), "own-text table: malformed entry at byte 0");
  EXPECT_EQ(refused_at(t + t),
            "own-text table: malformed entry at byte " + std::to_string(t.size()));
  EXPECT_EQ(refused_at(std::string("\x01\x7f", 2)), "own-text table: malformed entry at byte 0");
  EXPECT_EQ(refused_at(std::string(12, '\xff')), "own-text table: malformed entry at byte 0");
  EXPECT_EQ(refused_at(t), "accepted");
}

TEST(SiteChrome, KeepsEachPagesOwnTextAndDropsWhatTheSiteRepeats) {
  const ChromeSite site(12);
  std::vector<std::pair<std::string, std::string_view>> pages;
  for (const std::string& t : site.texts) pages.emplace_back("acme.example", t);
  const std::string lone = "A page of another site that says Acme Builders Documentation Home";
  pages.emplace_back("other.example", lone);
  const search::SiteChrome chrome = search::SiteChrome::learn(pages);
  EXPECT_GT(chrome.common_windows(), 0u);
  for (std::size_t i = 0; i < site.texts.size(); ++i) {
    const std::vector<TextSpan> own = chrome.own_text("acme.example", site.texts[i]);
    ASSERT_EQ(own.size(), 1u) << site.texts[i];
    EXPECT_EQ(site.texts[i].substr(own[0].begin, own[0].end - own[0].begin), site.own[i]);
    // Stored in the index's own-text table and read back.
    const auto back = search::decode_spans(search::encode_spans(own));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].begin, own[0].begin);
    EXPECT_EQ(back[0].end, own[0].end);
  }
  // Where chrome ends, a bar's last mark and the page's title echoed by its heading (a
  // breadcrumb's last item) are chrome too; the heading is the page's own.
  std::vector<std::pair<std::string, std::string_view>> crumbs;
  std::vector<std::string> crumb_texts, crumb_titles, heading;
  for (std::size_t i = 0; i < site.texts.size(); ++i) {
    heading.push_back("Chapter" + std::to_string(i) + " on " + site.own[(i + 5) % 12].substr(0, 7));
    crumb_titles.push_back(heading[i] + " - Acme Builders");
    crumb_texts.push_back("Acme Builders Documentation Home Guides Reference Downloads " +
                          heading[i] + " | " + heading[i] + " " + site.own[i]);
  }
  for (const std::string& t : crumb_texts) crumbs.emplace_back("crumbs.example", t);
  const search::SiteChrome crumb_chrome = search::SiteChrome::learn(crumbs);
  for (std::size_t i = 0; i < crumb_texts.size(); ++i) {
    const auto own = crumb_chrome.own_text("crumbs.example", crumb_texts[i], crumb_titles[i]);
    ASSERT_EQ(own.size(), 1u);
    EXPECT_EQ(crumb_texts[i].substr(own[0].begin), heading[i] + " " + site.own[i]);
    // Without the title the echo is not known: the first copy and the bar stay.
    const auto untitled = crumb_chrome.own_text("crumbs.example", crumb_texts[i]);
    ASSERT_EQ(untitled.size(), 1u);
    EXPECT_EQ(crumb_texts[i].substr(untitled[0].begin),
              heading[i] + " | " + heading[i] + " " + site.own[i]);
  }
  // Chrome is per site: the same words on another site's single page are that page's own.
  const auto other = chrome.own_text("other.example", lone);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].end - other[0].begin, lone.size());
  // Too few pages to tell: two of three pages sharing text is chrome, one of a site of one not.
  EXPECT_EQ(search::chrome_min_pages(1), 2u);
  EXPECT_EQ(search::chrome_min_pages(4), 2u);
  EXPECT_EQ(search::chrome_min_pages(9), 5u);
  EXPECT_EQ(search::chrome_min_pages(5000), 5u);
  // A page that is a copy of others (all of its text repeated) keeps its text.
  std::vector<std::pair<std::string, std::string_view>> copies(6, {"copies.example", lone});
  const auto same = search::SiteChrome::learn(copies).own_text("copies.example", lone);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].end, lone.size());
}

TEST(SearchSnippet, StaysInThePagesOwnText) {
  const std::string text =
      "Roses Home Guides Roses Reference Downloads. Our roses page: prune the roses in spring. "
      "Footer roses roses roses roses links";
  const std::size_t b = text.find("Our"), e = text.find(" Footer");
  const std::vector<TextSpan> own{{b, e}};
  const Snippet s = search::make_snippet(text, {"rose"}, 200, own);
  EXPECT_EQ(s.text, "Our roses page: prune the roses in spring.");
  EXPECT_TRUE(s.cut_before);
  EXPECT_TRUE(s.cut_after);
  EXPECT_EQ(marked(s), (std::vector<std::string>{"roses", "roses"}));
  // Without a match in the own text: its start, not the page's.
  EXPECT_TRUE(search::make_snippet(text, {"footer"}, 20, own).text.starts_with("Our roses"));
}

// The text is read 8 KiB at a time until a passage holds every query word: a later, denser
// passage is not looked for; a passage missing a word does not stop the reading.
TEST(SearchSnippet, ReadsUntilAPassageHoldsEveryWord) {
  std::string text = "Pruning roses is an art. ";
  for (int i = 0; i < 600; ++i) text += "filler words here. ";  // past the first 8 KiB
  text += "Prune roses, prune roses, prune the roses. ";
  EXPECT_TRUE(search::make_snippet(text, {"prune", "rose"}, 100).text.starts_with("Pruning"));
  const Snippet later = search::make_snippet(text, {"prune", "rose", "art", "filler"}, 100);
  EXPECT_TRUE(later.text.starts_with("Pruning")) << later.text;  // all four in the first block
  const Snippet tulips = search::make_snippet(text + "Tulips and roses. ", {"tulip", "rose"}, 60);
  const auto words = marked(tulips);
  EXPECT_NE(std::find(words.begin(), words.end(), "Tulips"), words.end()) << tulips.text;
  EXPECT_TRUE(tulips.text.ends_with("Tulips and roses.")) << tulips.text;
}

TEST(SearchName, KeysOfTitlesQueriesAndUrlsMatch) {
  EXPECT_EQ(search::name_key("CREATE TABLE"), "create table");
  // plurals folded, nothing else: generators are not GENERATED
  EXPECT_EQ(search::name_key("create tables"), "create table");
  EXPECT_EQ(search::name_key("Libraries, Classes and Indexes"), "class index library");
  EXPECT_EQ(search::name_key("generators"), "generator");
  EXPECT_EQ(search::name_key("GENERATED"), "generated");
  EXPECT_EQ(search::name_key("status address glass analysis tables"),
            "address analysis glass status table");
  // in any order; stop words and section numbers name nothing
  EXPECT_EQ(search::name_key("9.16. The Date and Time Functions"), "date function time");
  EXPECT_EQ(search::name_key("functions: date and time"), "date function time");
  EXPECT_EQ(search::name_words("date function time"),
            (std::vector<std::string>{"date", "function", "time"}));
  EXPECT_EQ(search::name_key("3.11"), "");
  EXPECT_EQ(search::name_key("one two three four five six seven eight nine"), "");
  const auto q = search::parse_query("\"create tables\" site:example.org -temporary");
  EXPECT_EQ(search::query_name(q), "create table");
  EXPECT_EQ(search::query_name(search::parse_query("create OR alter")), "");
}

// ---- a small crawled site ----------------------------------------------------------------------

// The database of the html-dir `site` at `db`, ranked and indexed with the defaults (the steps of
// every site below), or only built.
void build_site(const fs::path& site, const fs::path& db, bool rank_and_index = true) {
  BuildOptions o;
  o.inputs = {site.string()};
  o.format = "html-dir";
  o.output = db;
  build_database(o);
  if (!rank_and_index) return;
  const Database built = Database::open(db);
  RankOptions ro;
  save_ranks(built, "pagerank", compute_rank(built.graph(), ro), ro);
  build_search_index(built);
}

// A gardening site: every page links home, so index.html ranks first.
struct Garden {
  TempDir dir;
  std::string base;
  fs::path db_path;

  Garden() {
    fs::create_directories(dir / "site");
    page("index.html", "Garden Handbook",
         "Welcome to the handbook. Read about roses, tulips, soil and pests.",
         {{"roses.html", "roses"},
          {"tulips.html", "tulip bulbs"},
          {"soil.html", "soil"},
          {"pests.html", "pests"},
          {"http://example.org/seeds", "seed catalogue"}});
    page("roses.html", "Garden Roses",
         "Roses need sun and well drained soil. Prune roses in early spring.",
         {{"index.html", "home"}, {"soil.html", "soil for roses"}});
    page("tulips.html", "Tulip Bulbs", "Plant tulip bulbs in autumn. Tulips flower in spring.",
         {{"index.html", "home"}});
    page("soil.html", "Garden Soil and Compost",
         "Compost improves soil for roses and tulips alike.",
         {{"index.html", "home"}, {"roses.html", "roses"}});
    page("pests.html", "Pests", "Aphids attack roses. Spray them with soap.",
         {{"index.html", "home"}, {"roses.html", "roses"}});
    db_path = dir / "garden.db";
    build_site(dir / "site", db_path);
    base = web::file_url(fs::absolute(dir / "site").lexically_normal().string()) + "/";
  }

  void page(const std::string& name, const std::string& title, const std::string& text,
            const std::vector<std::pair<std::string, std::string>>& links) {
    std::string html = "<html><head><title>" + title + "</title></head><body><p>" + text + "</p>";
    for (const auto& [href, anchor] : links) html += "<a href='" + href + "'>" + anchor + "</a> ";
    dir.write("site/" + name, html + "</body></html>");
  }

  std::vector<std::string> urls(const SearchResults& r) const {
    std::vector<std::string> out;
    for (const SearchHit& h : r.hits) {
      out.push_back(h.page.label.starts_with(base) ? h.page.label.substr(base.size())
                                                   : h.page.label);
    }
    return out;
  }
};

SearchOptions mode(SearchMode m, std::size_t k = 10) {
  SearchOptions o;
  o.mode = m;
  o.k = k;
  return o;
}

TEST(Search, ModesAndSyntaxOnAKnownSite) {
  Garden g;
  const Searcher s = Searcher::open(g.db_path);
  using V = std::vector<std::string>;
  // title: pages whose titles have every word, by rank (the home page first)
  const SearchResults garden = s.search("garden", mode(SearchMode::kTitle));
  EXPECT_EQ(g.urls(garden), (V{"index.html", "roses.html", "soil.html"}));
  for (std::size_t i = 1; i < garden.hits.size(); ++i) {
    EXPECT_GE(garden.hits[i - 1].page.rank, garden.hits[i].page.rank);
    EXPECT_EQ(garden.hits[i].score, garden.hits[i].page.rank);
  }
  const SearchResults spring_title = s.search("spring", mode(SearchMode::kTitle));
  EXPECT_TRUE(spring_title.hits.empty());
  EXPECT_EQ(spring_title.unknown_words, V{"spring"});  // in texts, in no title
  // text: every word somewhere (title, text, anchors, URL), stemmed
  EXPECT_EQ(g.urls(s.search("prune rose", mode(SearchMode::kText))), V{"roses.html"});
  V spring = g.urls(s.search("spring", mode(SearchMode::kText)));
  std::sort(spring.begin(), spring.end());
  EXPECT_EQ(spring, (V{"roses.html", "tulips.html"}));
  // phrases keep word order; exclusions, OR, intitle:, site:
  EXPECT_EQ(g.urls(s.search("\"early spring\"", mode(SearchMode::kText))), V{"roses.html"});
  EXPECT_TRUE(s.search("\"spring early\"", mode(SearchMode::kText)).hits.empty());
  V roses = g.urls(s.search("roses -aphids -compost", mode(SearchMode::kText)));
  std::sort(roses.begin(), roses.end());
  EXPECT_EQ(roses, (V{"index.html", "roses.html"}));
  V either = g.urls(s.search("aphids OR compost", mode(SearchMode::kText)));
  std::sort(either.begin(), either.end());
  EXPECT_EQ(either, (V{"pests.html", "soil.html"}));
  EXPECT_EQ(g.urls(s.search("intitle:roses", mode(SearchMode::kFull))), V{"roses.html"});
  // a page known only from a link is found by its anchor text, and by site:, when pages known
  // only from links are included (the home page has the words too: the text of its own link);
  // a crawl of one site leaves them out by default (Unfetched::kAuto)
  const auto with_unfetched = [](SearchOptions o, Unfetched u) {
    o.unfetched = u;
    return o;
  };
  const SearchOptions text_all = with_unfetched(mode(SearchMode::kText), Unfetched::kInclude);
  const SearchOptions full_all = with_unfetched(mode(SearchMode::kFull), Unfetched::kInclude);
  V seeds = g.urls(s.search("seed catalogue", text_all));
  std::sort(seeds.begin(), seeds.end());
  EXPECT_EQ(seeds, (V{"http://example.org/seeds", "index.html"}));
  EXPECT_EQ(g.urls(s.search("site:example.org", full_all)), V{"http://example.org/seeds"});
  EXPECT_TRUE(s.search("roses site:example.org", full_all).hits.empty());
  EXPECT_EQ(g.urls(s.search("seed catalogue", mode(SearchMode::kText))), V{"index.html"});
  EXPECT_EQ(g.urls(s.search("seed catalogue",
                            with_unfetched(mode(SearchMode::kText), Unfetched::kExclude))),
            V{"index.html"});
  EXPECT_TRUE(s.search("site:example.org", mode(SearchMode::kFull)).hits.empty());
  // nothing matches: say which words no page has
  const SearchResults none = s.search("roses xyzzy", mode(SearchMode::kFull));
  EXPECT_TRUE(none.hits.empty());
  EXPECT_EQ(none.unknown_words, V{"xyzzy"});
  // snippets mark the query words in the page's text (its links' texts included)
  const SearchResults prune = s.search("prune roses", mode(SearchMode::kFull));
  ASSERT_FALSE(prune.hits.empty());
  EXPECT_EQ(marked(prune.hits[0].snippet), (V{"Roses", "Prune", "roses", "roses"}));
}

// A crawled site whose pages share a navigation bar naming every page: the index finds each
// page's own text, a search's snippets come from it, and a page is not found by the words of
// its navigation alone as if they were its own.
TEST(Search, SnippetsAndWeightsOfTheSitesOwnWords) {
  TempDir dir;
  const ChromeSite site(12);
  fs::create_directories(dir / "site");
  std::string nav = "<nav>Acme Builders Documentation";
  for (std::size_t i = 0; i < site.titles.size(); ++i) {
    nav += " <a href='p" + std::to_string(i) + ".html'>" + site.titles[i] + "</a>";
  }
  nav += " Search this site Version 4.2</nav>";
  for (std::size_t i = 0; i < site.titles.size(); ++i) {
    dir.write("site/p" + std::to_string(i) + ".html",
              "<html><head><title>" + site.titles[i] + "</title></head><body>" + nav + "<p>" +
                  site.own[i] + "</p><footer>Copyright 2024 Acme Builders, all rights " +
                  "reserved.</footer></body></html>");
  }
  build_site(dir / "site", dir / "acme.db");
  const Searcher s = Searcher::open(dir / "acme.db");
  // "cement0" is own text of one page; every page's bar names every title.
  const SearchResults r = s.search("cement0 cement", mode(SearchMode::kText));
  ASSERT_EQ(r.hits.size(), 1u);
  EXPECT_TRUE(site.own[0].find(r.hits[0].snippet.text) != std::string::npos ||
              r.hits[0].snippet.text.starts_with(site.own[0].substr(0, 20)))
      << r.hits[0].snippet.text;
  const SearchResults bar = s.search("girders", mode(SearchMode::kText, 20));
  ASSERT_EQ(bar.hits.size(), 12u);  // every page has the word, in its bar at least
  // The page titled with it first, and no snippet starts in the bar.
  EXPECT_TRUE(bar.hits[0].page.title &&
              bar.hits[0].page.title->find("girders") != std::string::npos);
  for (const SearchHit& h : bar.hits) {
    EXPECT_FALSE(h.snippet.text.starts_with("Acme")) << h.snippet.text;
  }
}

TEST(Search, FullModeIsBm25RelativeToTheBestPlusRankPercentile) {
  Garden g;
  const Searcher s = Searcher::open(g.db_path);
  // The bonus of the pages each query names (docs/search.md, "Topic pages first"), read off
  // the site: roses.html is named "roses" by its URL (N, the one page with that name) and by
  // the anchor text of three links (A); "Garden Roses" by its title; "garden roses" names it
  // wholly by its title (N) and half by its URL and anchors ((N + A) / 2); soil.html is named by
  // its URL; no page is named "garden"; a query with OR names nothing.
  const double n = kDefaultNameWeight, a = kDefaultAnchorNameWeight;
  const std::map<std::string, std::map<std::string, double>> bonus = {
      {"roses", {{"roses.html", n + a}}},
      {"soil", {{"soil.html", n}}},
      {"garden", {}},
      {"garden roses", {{"roses.html", n + (n + a) / 2}}},
      {"spring OR compost", {}}};
  for (const auto& [query, named] : bonus) {
    const SearchResults text = s.search(query, mode(SearchMode::kText, 20));
    const SearchResults full = s.search(query, mode(SearchMode::kFull, 20));
    SearchOptions unnamed = mode(SearchMode::kFull, 20);
    unnamed.name_weight = unnamed.anchor_name_weight = 0;
    const SearchResults plain = s.search(query, unnamed);
    ASSERT_FALSE(text.hits.empty());
    ASSERT_EQ(text.hits.size(), full.hits.size());
    const double top = text.hits[0].score;
    std::map<PageId, double> bm25;
    for (const SearchHit& h : text.hits) bm25[h.page.page] = h.score;
    for (const SearchHit& h : plain.hits) {
      const double want = bm25.at(h.page.page) / top + kDefaultRankWeight * h.page.percentile / 100;
      EXPECT_NEAR(h.score, want, 1e-9) << query << " " << h.page.label;
    }
    for (const SearchHit& h : full.hits) {
      const std::string page = h.page.label.substr(g.base.size());
      const double extra = named.contains(page) ? named.at(page) : 0;
      const double want =
          bm25.at(h.page.page) / top + kDefaultRankWeight * h.page.percentile / 100 + extra;
      EXPECT_NEAR(h.score, want, 1e-9) << query << " " << h.page.label;
    }
    for (std::size_t i = 1; i < full.hits.size(); ++i) {
      EXPECT_GE(full.hits[i - 1].score, full.hits[i].score);
    }
  }
  // Weight 0 is text order; a large weight is rank order.
  SearchOptions o = mode(SearchMode::kFull);
  o.rank_weight = o.name_weight = o.anchor_name_weight = 0;
  EXPECT_EQ(g.urls(s.search("roses", o)), g.urls(s.search("roses", mode(SearchMode::kText))));
  o.rank_weight = 1000;
  const SearchResults by_rank = s.search("roses", o);
  for (std::size_t i = 1; i < by_rank.hits.size(); ++i) {
    EXPECT_GE(by_rank.hits[i - 1].page.rank, by_rank.hits[i].page.rank);
  }
}

// A handbook of 20 pages, every title ending in " | Handbook": ten pages of a family ("Syntax:
// ..."), a page titled "PL/pgSQL", one titled "Returning" and one "handbook-variables". The
// bonuses of compound names, of families and of names without the site's name (docs/search.md,
// "Topic pages first") are read off the scores: each is the difference a weight makes,
// everything else (BM25, rank) unchanged.
TEST(Search, CompoundNamesFamiliesAndSiteNames) {
  TempDir dir;
  fs::create_directories(dir / "site");
  std::string links;
  std::vector<std::pair<std::string, std::string>> pages = {
      {"PL/pgSQL", "The procedural language plpgsql, in short."},
      {"Returning", "The returning clause returns the rows changed; a returning clause."},
      {"handbook-variables", "The variables a handbook has."}};
  for (const std::string clause : {"returning", "where", "limit", "order", "group", "having",
                                   "window", "filter", "join", "values"}) {
    pages.push_back({"Syntax: " + clause + "-clause", "The " + clause + " clause, as a diagram."});
  }
  for (int i = 0; pages.size() < 20; ++i) {
    pages.push_back({"Chapter " + std::to_string(i), "Chapter text number " + std::to_string(i)});
  }
  for (std::size_t i = 0; i < pages.size(); ++i) {
    links += "<a href='p" + std::to_string(i) + ".html'>page " + std::to_string(i) + "</a> ";
  }
  for (std::size_t i = 0; i < pages.size(); ++i) {
    dir.write("site/p" + std::to_string(i) + ".html",
              "<html><head><title>" + pages[i].first + " | Handbook</title></head><body><p>" +
                  pages[i].second + "</p>" + links + "</body></html>");
  }
  build_site(dir / "site", dir / "handbook.db");
  const Database db = Database::open(dir / "handbook.db");
  // The family: the ten "Syntax:" pages; " | Handbook", on every page, heads none.
  const search::SiteTitles titles = search::SiteTitles::learn(db);
  for (PageId u = 0; u < db.num_pages(); ++u) {
    const bool member = search::page_bit(titles.family_bits, u);
    EXPECT_EQ(member, db.title(u)->starts_with("Syntax: ")) << *db.title(u);
  }
  // The site's name: " | Handbook", on every page.
  const std::vector<std::string>* site_words = titles.words_of(search::site_of(db.label(0)));
  ASSERT_NE(site_words, nullptr);
  EXPECT_EQ(*site_words, std::vector<std::string>{"handbook"});
  const Searcher s = Searcher::open(dir / "handbook.db");
  const auto score = [&](const std::string& query, const std::string& title,
                         const SearchOptions& options) {
    for (const SearchHit& h : s.search(query, options).hits) {
      if (h.page.title == title + " | Handbook") return h.score;
    }
    ADD_FAILURE() << title << " not found by " << query;
    return 0.0;
  };
  SearchOptions none = mode(SearchMode::kFull, 30);
  none.name_weight = none.anchor_name_weight = 0;
  SearchOptions named = none;
  named.name_weight = 0.3;
  // "PL/pgSQL" names plpgsql, its compound joined.
  EXPECT_NEAR(score("plpgsql", "PL/pgSQL", named) - score("plpgsql", "PL/pgSQL", none), 0.3, 1e-9);
  // A page of the family keeps family_name_weight of its own names' bonus; the page outside the
  // family its whole bonus (half: "returning" is half of the query).
  SearchOptions whole = named, kept = named;
  whole.family_name_weight = 1;
  kept.family_name_weight = 0.25;
  const std::string diagram = "Syntax: returning-clause";
  EXPECT_NEAR(score("returning clause", diagram, whole) - score("returning clause", diagram, none),
              0.3, 1e-9);
  EXPECT_NEAR(score("returning clause", diagram, kept) - score("returning clause", diagram, none),
              0.3 * 0.25, 1e-9);
  EXPECT_NEAR(
      score("returning clause", "Returning", kept) - score("returning clause", "Returning", none),
      0.3 / 2, 1e-9);
  // A family page keeps the same share of the bonus of its anchor names: every page is named
  // "page" by the links "page N" to it.
  SearchOptions anchored = none, anchored_kept = none;
  anchored.anchor_name_weight = anchored_kept.anchor_name_weight = 0.1;
  anchored_kept.family_name_weight = 0.25;
  const double outside = score("page", "Returning", anchored) - score("page", "Returning", none);
  EXPECT_GT(outside, 0);
  EXPECT_NEAR(score("page", diagram, anchored_kept) - score("page", diagram, none), 0.25 * outside,
              1e-9);
  // Without the site's name, "handbook-variables" is named "variables" (no other page is).
  EXPECT_NEAR(score("variables", "handbook-variables", named) -
                  score("variables", "handbook-variables", none),
              0.3, 1e-9);
}

TEST(SearchName, TitleNumberingAndDescriptions) {
  using search::title_numbering;
  EXPECT_EQ(title_numbering("Chapter 8. Data Types").level, 1);
  EXPECT_EQ(title_numbering("Chapter 8. Data Types").rest, "Data Types");
  EXPECT_EQ(title_numbering("37.2. Data Types").level, 2);
  EXPECT_EQ(title_numbering("37.2. Data Types").rest, "Data Types");
  EXPECT_EQ(title_numbering("F.49. uuid-ossp").level, 2);
  EXPECT_EQ(title_numbering("Part II. The SQL Language").level, 0);
  EXPECT_EQ(title_numbering("Appendix B. Date/Time Support").level, 1);
  // no numbering: words, a lone letter or numeral, a title that is only a number
  EXPECT_EQ(title_numbering("Data Types").level, -1);
  EXPECT_EQ(title_numbering("A. Foo").level, -1);
  EXPECT_EQ(title_numbering("I. Foo").level, -1);
  EXPECT_EQ(title_numbering("3D plots").level, -1);
  EXPECT_EQ(title_numbering("8.4.").level, -1);
  // A manual page's NAME line: after the page's name and a dash, to a heading in capitals.
  using search::page_description;
  const std::vector<std::string> git_clean = {search::name_key("git-clean")};
  EXPECT_EQ(page_description("git-clean(1) Manual Page NAME git-clean - Remove untracked files "
                             "from the working tree SYNOPSIS git clean [-d]",
                             git_clean),
            "Remove untracked files from the working tree");
  // to the end of its sentence, at most kDescriptionWords words
  EXPECT_EQ(page_description("CREATE TABLE \xE2\x80\x94 define a new table. Synopsis CREATE",
                             {search::name_key("CREATE TABLE")}),
            "define a new table.");
  // not after another name, nor past the start of the text
  EXPECT_EQ(page_description("NAME git-add - Add file contents to the index", git_clean), "");
  std::string late(40 * 4, ' ');
  for (std::size_t i = 0; i < 40; ++i) late.replace(i * 4, 3, "abc");
  EXPECT_EQ(page_description(late + " git-clean - Remove untracked files", git_clean), "");
}

// A web of several documentation sites as a crawl journals it (WARC responses, error statuses
// included), ranked and indexed.
struct CrawledSites {
  TempDir dir;
  std::string warc;
  fs::path db_path;

  void page(const std::string& url, int status, const std::string& title, const std::string& body) {
    const std::string html =
        "<html><head><title>" + title + "</title></head><body>" + body + "</body></html>";
    const std::string http = "HTTP/1.1 " + std::to_string(status) +
                             (status == 200 ? " OK" : " Not Found") +
                             "\r\nContent-Type: text/html\r\n\r\n" + html;
    warc += "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + url +
            "\r\nContent-Length: " + std::to_string(http.size()) + "\r\n\r\n" + http + "\r\n\r\n";
  }
  void build() {
    BuildOptions o;
    o.inputs = {dir.write("crawl.warc", warc)};
    o.output = db_path = dir / "crawl.db";
    build_database(o);
    const Database built = Database::open(db_path);
    RankOptions ro;
    save_ranks(built, "pagerank", compute_rank(built.graph(), ro), ro);
    build_search_index(built);
  }
};

std::string link(const std::string& href, const std::string& text) {
  return "<a href='" + href + "'>" + text + "</a> ";
}

// The cases of sites whose conventions the defaults were not tuned on (docs/search.md, "Topic
// pages first" and "Pages known only from links"): a one-page manual whose own table of contents
// names it after every section, a title suffix every page shares beside error pages, a chapter
// and a section of one title, a manual page whose title is its name alone, and links out of the
// crawl.
TEST(Search, SitesItWasNotTunedOn) {
  CrawledSites w;
  const std::string node = "http://node.test/api/";
  const std::string suffix = " | Node.js v18.20.4 Documentation";
  std::vector<std::string> topics = {"buffer", "cli",     "fs",     "http",   "net", "os",
                                     "path",   "process", "stream", "timers", "url", "zlib"};
  std::string nav = link("all.html", "View on one page");
  for (const std::string& t : topics) nav += link(t + ".html", t == "cli" ? "CLI" : t);
  // Every page links pages that are missing: the server's error pages, titled alike.
  for (int i = 0; i < 14; ++i) nav += link("missing" + std::to_string(i) + ".md", "source");
  for (const std::string& t : topics) {
    const std::string title = t == "buffer" ? "Buffer" : t == "cli" ? "Command-line API" : t;
    std::string body = "<h1>" + title + "</h1><p>The " + t + " module of Node.js.</p>";
    if (t == "buffer") body += "<p>A Buffer is a sequence of bytes. Buffer objects.</p>";
    if (t == "cli") body += "<p>Command-line options. Environment variables.</p>";
    w.page(node + t + ".html", 200, title + suffix, nav + body);
  }
  for (int i = 0; i < 14; ++i) {
    w.page(node + "missing" + std::to_string(i) + ".md", 404, "Error response",
           "<h1>Error response</h1><p>Error code: 404</p>");
  }
  // The one-page manual: every section, each named twice by its own table of contents.
  std::string all = nav;
  for (const std::string& t : topics) all += link("#" + t, t == "buffer" ? "Buffer" : t);
  all += link("#streams-overview", "Streams overview");
  for (const std::string& t : topics) {
    all += "<h2 id='" + t + "'>" + t + "</h2><p>" + link("#" + t, t == "buffer" ? "Buffer" : t) +
           "The " + t + " module of Node.js, its buffer and its bytes. Buffer buffer buffer.</p>";
  }
  all += "<h2 id='streams-overview'>Streams overview</h2><p>" +
         link("all.html#streams-overview", "Streams overview") + "Streams move bytes.</p>";
  w.page(node + "all.html", 200, "Node.js v18.20.4 Documentation", all);
  // PostgreSQL: a chapter and a section of one title; a manual page titled by its name.
  const std::string pg = "http://pg.test/docs/";
  w.page(pg + "datatype.html", 200, "Chapter 8. Data Types",
         link("infoschema-datatypes.html", "37.2. Data Types") +
             "<p>PostgreSQL has a rich set of data types. Numeric types, character types.</p>");
  w.page(pg + "infoschema-datatypes.html", 200, "37.2. Data Types",
         link("datatype.html", "Chapter 8. Data Types") +
             "<p>Every data type of the information schema: data types, data types, data types "
             "of columns, data types of attributes.</p>");
  const std::string git = "http://git.test/doc/";
  w.page(git + "git-clean.html", 200, "git-clean(1)",
         link("git-update-index.html", "git-update-index(1)") +
             "<h1>git-clean(1) Manual Page</h1><h2>NAME</h2><p>git-clean - Remove untracked "
             "files from the working tree</p><h2>SYNOPSIS</h2><p>git clean [-d] [-f]</p>"
             "<h2>DESCRIPTION</h2><p>Cleans the working tree by recursively removing files that "
             "are not under version control.</p>");
  w.page(git + "git-update-index.html", 200, "git-update-index(1)",
         link("git-clean.html", "git-clean(1)") + link("http://elsewhere.test/json", "json home") +
             "<h1>git-update-index(1) Manual Page</h1><h2>NAME</h2><p>git-update-index - Register "
             "file contents in the working tree to the index</p><h2>DESCRIPTION</h2><p>--remove "
             "removes files. The untracked cache: untracked files, untracked files, untracked "
             "files; remove untracked files from the cache; --force-remove removes files.</p>");
  w.build();
  const Database db = Database::open(w.db_path);
  const search::SiteTitles titles = search::SiteTitles::learn(db);
  // The error pages are no pages of the site: the suffix is the site's, no family.
  for (PageId u = 0; u < db.num_pages(); ++u) {
    EXPECT_FALSE(search::page_bit(titles.family_bits, u)) << db.label(u);
  }
  const std::vector<std::string>* boilerplate = titles.words_of("node.test");
  ASSERT_NE(boilerplate, nullptr);
  EXPECT_NE(std::find(boilerplate->begin(), boilerplate->end(), "documentation"),
            boilerplate->end());
  EXPECT_EQ(titles.fetched_sites, 3u);
  // Of the two "Data Types", the section gives the name to the chapter.
  EXPECT_TRUE(search::page_bit(titles.shadowed_bits, *db.find(pg + "infoschema-datatypes.html")));
  EXPECT_FALSE(search::page_bit(titles.shadowed_bits, *db.find(pg + "datatype.html")));

  const Searcher s = Searcher::open(w.db_path);
  const auto first = [&](const std::string& query) {
    const SearchResults r = s.search(query, mode(SearchMode::kFull));
    return r.hits.empty() ? std::string() : r.hits[0].page.label;
  };
  const auto bonus = [&](const std::string& query, const std::string& url) {
    SearchOptions none = mode(SearchMode::kFull, 50);
    none.name_weight = none.anchor_name_weight = 0;
    double with = -1, without = -1;
    for (const SearchHit& h : s.search(query, mode(SearchMode::kFull, 50)).hits) {
      if (h.page.label == url) with = h.score;
    }
    for (const SearchHit& h : s.search(query, none).hits) {
      if (h.page.label == url) without = h.score;
    }
    EXPECT_GE(with, 0) << url << " not found by " << query;
    return with - without;
  };
  // The manual's contents do not name it after a page ("Buffer"); a section no page is named
  // after names it.
  EXPECT_EQ(first("buffer"), node + "buffer.html");
  EXPECT_NEAR(bonus("buffer", node + "all.html"), 0, 1e-9);
  EXPECT_GT(bonus("buffer", node + "buffer.html"), 0.29);
  EXPECT_GT(bonus("streams overview", node + "all.html"), 0);
  EXPECT_EQ(first("command line api"), node + "cli.html");
  // The error pages are not searched: their title is the server's.
  SearchOptions all_pages = mode(SearchMode::kFull);
  all_pages.unfetched = Unfetched::kInclude;
  EXPECT_TRUE(s.search("error response", all_pages).hits.empty());
  // Equal titles: the chapter.
  EXPECT_EQ(first("data types"), pg + "datatype.html");
  // The NAME line weighs.
  EXPECT_EQ(first("remove untracked files"), git + "git-clean.html");
  EXPECT_GT(bonus("remove untracked files", git + "git-clean.html"), 0);
  // Links out of the crawl: a crawl of several sites keeps them (auto), unless excluded.
  EXPECT_EQ(first("json home"), "http://elsewhere.test/json");
  SearchOptions fetched_only = mode(SearchMode::kFull);
  fetched_only.unfetched = Unfetched::kExclude;
  for (const SearchHit& h : s.search("json home", fetched_only).hits) {
    EXPECT_NE(h.page.label, "http://elsewhere.test/json");
  }
}

// An index another version of webrank built (its names made otherwise) is refused with what to
// do, by the index's own information and by a search.
TEST(Search, AnIndexOfAnotherVersionIsRefused) {
  Garden g;
  const fs::path index = g.db_path / search::kIndexFile;
  {
    const fs::path glass = g.dir / "old.glass";
    Xapian::WritableDatabase w(glass.string(), Xapian::DB_CREATE | Xapian::DB_BACKEND_GLASS);
    w.set_metadata(search::kMetaVersion, std::to_string(search::kIndexVersion - 1));
    w.commit();
    w.close();
    fs::remove(index);
    Xapian::Database(glass.string()).compact(index.string(), Xapian::DBCOMPACT_SINGLE_FILE);
  }
  const Database db = Database::open(g.db_path);
  const std::string expected = "index version " + std::to_string(search::kIndexVersion - 1) +
                               ", this webrank reads version " +
                               std::to_string(search::kIndexVersion) + ": rebuild it with `index`";
  for (const auto& attempt : std::vector<std::function<void()>>{
           [&] { search_index_info(db); },
           [&] { Searcher::open(g.db_path).search("roses", mode(SearchMode::kFull)); }}) {
    try {
      attempt();
      ADD_FAILURE() << "an index of version " << search::kIndexVersion - 1 << " was read";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(Search, PaginationBoundsAndRanksOfTheCaller) {
  Garden g;
  const Searcher s = Searcher::open(g.db_path);
  const SearchResults all = s.search("roses", mode(SearchMode::kFull, 10));
  ASSERT_GE(all.hits.size(), 4u);
  SearchOptions page2 = mode(SearchMode::kFull, 2);
  page2.offset = 2;
  const SearchResults r = s.search("roses", page2);
  ASSERT_EQ(r.hits.size(), 2u);
  EXPECT_EQ(r.hits[0].position, 3u);
  EXPECT_EQ(r.hits[0].page.label, all.hits[2].page.label);
  EXPECT_EQ(r.matches_lower, all.hits.size());
  for (auto [field, set] : std::vector<std::pair<std::string, std::function<void(SearchOptions&)>>>{
           {"k", [](SearchOptions& o) { o.k = 0; }},
           {"k", [](SearchOptions& o) { o.k = kMaxResults + 1; }},
           {"offset", [](SearchOptions& o) { o.offset = kMaxOffset + 1; }},
           {"rank_weight", [](SearchOptions& o) { o.rank_weight = -1; }},
           {"bm25_b", [](SearchOptions& o) { o.bm25_b = 2; }}}) {
    SearchOptions o;
    set(o);
    try {
      s.search("roses", o);
      ADD_FAILURE() << field;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
      EXPECT_EQ(e.field(), field);
    }
  }
  // The caller's vector ranks the same index: title order follows it.
  const auto db = s.database();
  std::vector<double> reversed(db->num_pages());
  for (PageId u = 0; u < db->num_pages(); ++u) reversed[u] = 1.0 + u;
  SearchOptions mine = mode(SearchMode::kTitle);
  mine.ranks = std::make_shared<const PresentedRanks>(reversed, "by-id");
  const SearchResults t = s.search("garden", mine);
  EXPECT_EQ(t.ranks, "by-id");
  for (std::size_t i = 1; i < t.hits.size(); ++i) {
    EXPECT_GT(t.hits[i - 1].page.page, t.hits[i].page.page);
  }
  mine.ranks = std::make_shared<const PresentedRanks>(std::vector<double>{1.0}, "short");
  EXPECT_THROW(s.search("garden", mine), Error);
}

TEST(Search, ManyThreadsOneSearcher) {
  Garden g;
  const Searcher s = Searcher::open(g.db_path);
  const std::vector<std::string> queries = {
      "roses", "garden", "spring", "\"early spring\"", "aphids OR compost", "soil -compost"};
  std::vector<std::vector<std::string>> want;
  for (const auto& q : queries) want.push_back(g.urls(s.search(q)));
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        const std::size_t q = (t + i) % queries.size();
        if (g.urls(s.search(queries[q])) != want[q]) ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

TEST(Search, ReopenSeesANewIndexAndANewVector) {
  Garden g;
  Searcher s = Searcher::open(g.db_path);
  EXPECT_FALSE(s.reopen());
  const double before = s.search("garden", mode(SearchMode::kTitle)).hits[0].page.rank;
  // A new vector under the searcher's name: seen after reopen, and only then.
  {
    const Database db = Database::open(g.db_path);
    RankOptions ro;
    ro.damping = 0.5;
    save_ranks(db, "pagerank", compute_rank(db.graph(), ro), ro);
  }
  EXPECT_EQ(s.search("garden", mode(SearchMode::kTitle)).hits[0].page.rank, before);
  EXPECT_TRUE(s.reopen());
  EXPECT_NE(s.search("garden", mode(SearchMode::kTitle)).hits[0].page.rank, before);
  // A rebuilt index (title words weighing nothing more than text words): seen after reopen.
  const double bulbs = s.search("bulbs", mode(SearchMode::kText)).hits.at(0).score;
  {
    const Database db = Database::open(g.db_path);
    IndexOptions io;
    io.field_weights = {1, 1, 1, 1};
    build_search_index(db, io);
  }
  EXPECT_EQ(s.search("bulbs", mode(SearchMode::kText)).hits.at(0).score, bulbs);
  EXPECT_TRUE(s.reopen());
  EXPECT_FALSE(s.reopen());
  EXPECT_LT(s.search("bulbs", mode(SearchMode::kText)).hits.at(0).score, bulbs);
}

TEST(SearchIndex, AStoppedBuildLeavesTheOldIndexAndNoTemporaries) {
  Garden g;
  const fs::path file = g.db_path / "search.xapian";
  std::ifstream in(file, std::ios::binary);
  const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Database db = Database::open(g.db_path);
  std::stop_source stop;
  stop.request_stop();
  IndexOptions o;
  o.stop = stop.get_token();
  try {
    build_search_index(db, o);
    FAIL() << "not stopped";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCancelled);
  }
  std::ifstream again(file, std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()),
            old);
  for (const auto& entry : fs::directory_iterator(g.db_path)) {
    EXPECT_EQ(entry.path().filename().string().find("webrank-tmp"), std::string::npos)
        << entry.path();
  }
  EXPECT_FALSE(Searcher::open(g.db_path).search("roses").hits.empty());
}

TEST(SearchIndex, BelongsToItsDatabase) {
  Garden g;
  const Database db = Database::open(g.db_path);
  const auto info = search_index_info(db);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->documents, db.num_pages());  // every page has a title or an anchor text
  EXPECT_EQ(info->field_weights.anchor, FieldWeights{}.anchor);
  // Another database's index, copied in: refused.
  Garden other;
  other.page("extra.html", "Extra", "one more page", {});
  build_site(other.dir / "site", other.dir / "other.db", false);
  fs::copy_file(g.db_path / "search.xapian", other.dir / "other.db" / "search.xapian");
  try {
    Searcher::open(other.dir / "other.db");
    FAIL() << "opened another database's index";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kCorrupt);
    EXPECT_NE(std::string(e.what()).find("built for another database"), std::string::npos);
  }
  // No index at all: not found, saying how to make one.
  fs::remove(other.dir / "other.db" / "search.xapian");
  try {
    Searcher::open(other.dir / "other.db");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotFound);
    EXPECT_NE(std::string(e.what()).find("webrank index"), std::string::npos);
  }
  // A damaged index file: corrupt, not a crash.
  fs::copy_file(g.db_path / "search.xapian", other.dir / "x.xapian");
  std::ofstream(g.db_path / "search.xapian", std::ios::binary) << "not an index";
  EXPECT_THROW(Searcher::open(g.db_path), Error);
}

TEST(SearchLinks, BacklinksByRankAndForwardLinksWithNofollow) {
  Garden g;
  const Database db = Database::open(g.db_path);
  const PresentedRanks ranks(load_ranks(db, "pagerank").values, "pagerank");
  const PageId roses = *find_page(db, g.base + "roses.html");
  const Backlinks b = backlinks(db, ranks, roses, 10);
  EXPECT_EQ(b.total, 3u);  // index, soil, pests
  ASSERT_EQ(b.pages.size(), 3u);
  EXPECT_EQ(b.pages[0].label, g.base + "index.html");
  for (std::size_t i = 1; i < b.pages.size(); ++i) EXPECT_GE(b.pages[i - 1].rank, b.pages[i].rank);
  const Backlinks tail = backlinks(db, ranks, roses, 10, 2);
  ASSERT_EQ(tail.pages.size(), 1u);
  EXPECT_EQ(tail.pages[0].label, b.pages[2].label);
  const auto home = find_page(db, g.base + "index.html");
  const std::vector<ForwardLink> out = forward_links(db, ranks, *home);
  ASSERT_EQ(out.size(), 5u);
  for (std::size_t i = 1; i < out.size(); ++i)
    EXPECT_GE(out[i - 1].target.rank, out[i].target.rank);
  EXPECT_GT(out[0].target.bar, 0);
  // a URL is found as given or normalized
  EXPECT_EQ(find_page(db, "HTTP://EXAMPLE.ORG:80/seeds"),
            find_page(db, "http://example.org/seeds"));
  EXPECT_FALSE(find_page(db, "http://example.org/nothing"));
}

// ---- evaluation --------------------------------------------------------------------------------

TEST(SearchEval, MeasuresEachModeOnKnownAnswers) {
  Garden g;
  const std::string set = g.dir.write("queries.tsv",
                                      "# comment\n"
                                      "\n"
                                      "prune roses\troses.html\n"
                                      "garden\tindex.html\tsoil.html, roses.html\n"
                                      "spring\ttulips.html\n"
                                      "seed catalogue\thttp://example.org/seeds\n");
  const auto queries = read_query_set(set);
  ASSERT_EQ(queries.size(), 4u);
  EXPECT_EQ(queries[1].answers,
            (std::vector<std::string>{"index.html", "soil.html", "roses.html"}));
  EXPECT_EQ(queries[1].line, 4u);
  const Searcher s = Searcher::open(g.db_path);
  const EvalReport r = evaluate_search(s, queries, set);
  ASSERT_EQ(r.modes.size(), 3u);
  // title mode: "garden" finds the home page first; the others are in no title
  const ModeQuality& title = r.modes[0];
  EXPECT_EQ(r.outcomes[1].positions[0], 1u);
  EXPECT_EQ(r.outcomes[0].positions[0], 0u);
  EXPECT_DOUBLE_EQ(title.hit1, 0.25);
  EXPECT_DOUBLE_EQ(title.mrr, 0.25);
  // every measure is a mean over the queries, in [0, 1]
  for (const ModeQuality& m : r.modes) {
    for (double x : {m.hit1, m.hit3, m.mrr, m.ndcg10}) {
      EXPECT_GE(x, 0);
      EXPECT_LE(x, 1);
    }
    EXPECT_LE(m.hit1, m.hit3);
  }
  // bad sets: the file and line named
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"no tab here\n", "queries.tsv:1: expected query<TAB>expected page"},
      {"roses\t\n", "queries.tsv:1: no expected page"},
      {"\troses.html\n", "queries.tsv:1: empty query"},
      {"roses\tnowhere.html\n", "queries.tsv:1: no page of"},
      {"# x\nroses\t.html\n", "queries.tsv:2: "},
      {"roses OR\troses.html\n", "queries.tsv:1: query at character 7"},
  };
  for (const auto& [text, want] : bad) {
    const std::string f = g.dir.write("queries.tsv", text);
    try {
      evaluate_search(s, read_query_set(f), f);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << text << " -> " << e.what();
    }
  }
}

// ---- the synthetic text web --------------------------------------------------------------------

TEST(TextWeb, HasTheWebModelsLinksAndTextToFind) {
  TempDir dir;
  GenerateOptions o;
  o.pages = 300;
  o.links = 2000;
  o.seed = 5;
  o.output = dir.write("web.tsv", "");
  generate_graph(o);
  o.output = (dir / "web.warc.gz").string();
  const TextWebReport r = generate_text_web(o);
  EXPECT_EQ(r.pages, 300u);
  EXPECT_EQ(r.links, 2000u);
  BuildOptions b;
  b.inputs = {o.output};
  b.output = dir / "web.db";
  build_database(b);
  BuildOptions e;
  e.inputs = {(dir / "web.tsv").string()};
  e.output = dir / "edges.db";
  build_database(e);
  const Database text = Database::open(dir / "web.db"), edges = Database::open(dir / "edges.db");
  // the same links between the same URLs (the text web has every page, linked or not)
  std::set<std::pair<std::string, std::string>> a, c;
  for (PageId u = 0; u < text.num_pages(); ++u) {
    for (PageId v : text.graph().out.neighbors(u)) a.emplace(text.label(u), text.label(v));
  }
  for (PageId u = 0; u < edges.num_pages(); ++u) {
    for (PageId v : edges.graph().out.neighbors(u)) c.emplace(edges.label(u), edges.label(v));
  }
  EXPECT_EQ(a, c);
  EXPECT_EQ(text.num_pages(), 300u);
  // every page has a title and text; anchors are the targets' titles
  const PageId root = *text.find("http://host0.example/");
  ASSERT_TRUE(text.title(root));
  EXPECT_GE(text.title(root)->size(), 4u);
  EXPECT_GT(text.text(root)->size(), 100u);
  EXPECT_NE(text.anchor_text(root)->find(std::string(*text.title(root))), std::string::npos);
  // deterministic: the same options give the same pages
  o.output = (dir / "again.warc").string();
  generate_text_web(o);
  b.inputs = {o.output};
  b.output = dir / "again.db";
  build_database(b);
  const Database again = Database::open(dir / "again.db");
  for (PageId u = 0; u < text.num_pages(); ++u) {
    EXPECT_EQ(text.text(u), again.text(*again.find(text.label(u))));
  }
  o.model = GraphModel::kRmat;
  EXPECT_THROW(generate_text_web(o), Error);
}

}  // namespace
}  // namespace webrank::testing
