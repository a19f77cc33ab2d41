// The graph-file forms of export_database() (webrank/ingest/export.hpp): GML and GraphML, directed,
// with labels, titles, rank vectors as node attributes and link weights; read back by webrank's
// own readers (formats/gml.cpp, formats/graphml.cpp), NetworkX, igraph, Gephi and Cytoscape.
#include "ingest/export_graph.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "webrank/util/error.hpp"

#include "webrank/store/rank_store.hpp"

namespace webrank {
namespace {

// The shortest decimal that reads back as x; GML reals need a '.' ("1e-05" would read as the
// integer 1 followed by a key).
std::string number(double x, bool gml) {
  char digits[40];
  std::string s(digits, std::to_chars(digits, digits + sizeof digits, x).ptr);
  if (gml && s.find_first_of(".ni") == std::string::npos) {  // not "inf", "nan"
    const std::size_t e = s.find('e');
    s.insert(e == std::string::npos ? s.size() : e, ".0");
  }
  return s;
}

// Code points of UTF-8 text; a byte that does not start a valid sequence is U+FFFD.
template <typename Emit>
void for_each_code_point(std::string_view s, Emit emit) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    std::uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      ok = (d & 0xC0) == 0x80;
      cp = cp << 6 | (d & 0x3F);
    }
    if (!ok) {
      emit(0xFFFD);
      ++i;
      continue;
    }
    emit(cp);
    i += static_cast<std::size_t>(len);
  }
}

// A GML string: ASCII, with '"', '&' and everything else outside printable ASCII as entities.
std::string gml_string(std::string_view s) {
  std::string out = "\"";
  for_each_code_point(s, [&](std::uint32_t cp) {
    if (cp == '"') {
      out += "&quot;";
    } else if (cp == '&') {
      out += "&amp;";
    } else if (cp >= 0x20 && cp < 0x7F) {
      out += static_cast<char>(cp);
    } else {
      out += cat("&#", cp, ";");
    }
  });
  return out + "\"";
}

// XML character data or attribute text. Characters XML 1.0 cannot carry (controls other than
// tab and line ends) become U+FFFD.
std::string xml_text(std::string_view s) {
  std::string out;
  for_each_code_point(s, [&](std::uint32_t cp) {
    switch (cp) {
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '"':
        out += "&quot;";
        return;
      case '\t':
      case '\n':
      case '\r':
        out += cat("&#", cp, ";");
        return;
    }
    if (cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF) cp = 0xFFFD;
    char u[4];
    int n = 0;
    if (cp < 0x80) {
      u[n++] = static_cast<char>(cp);
    } else if (cp < 0x800) {
      u[n++] = static_cast<char>(0xC0 | cp >> 6);
      u[n++] = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      u[n++] = static_cast<char>(0xE0 | cp >> 12);
      u[n++] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      u[n++] = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      u[n++] = static_cast<char>(0xF0 | cp >> 18);
      u[n++] = static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      u[n++] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      u[n++] = static_cast<char>(0x80 | (cp & 0x3F));
    }
    out.append(u, static_cast<std::size_t>(n));
  });
  return out;
}

}  // namespace

std::vector<std::string> gml_keys(const std::vector<std::string>& names) {
  std::vector<std::string> keys, taken{"id", "label", "title", "graphics"};
  for (const std::string& name : names) {
    std::string key;
    for (char c : name) key += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (key.empty() || !std::isalpha(static_cast<unsigned char>(key[0]))) key.insert(0, "r_");
    std::string unique = key;
    for (int k = 2; std::find(taken.begin(), taken.end(), unique) != taken.end(); ++k)
      unique = cat(key, "_", k);
    taken.push_back(unique);
    keys.push_back(unique);
  }
  return keys;
}

void write_graph_file(const Database& db, const ExportOptions& o,
                      const std::function<void(std::string_view)>& put) {
  const GraphView& g = db.graph();
  std::vector<StoredRanks> vectors;
  for (const auto& name : o.all_ranks ? db.rank_names() : o.ranks)
    vectors.push_back(load_ranks(db, name));
  const bool titles = db.has_page_data();
  std::vector<std::string> names;
  for (const StoredRanks& v : vectors) names.push_back(v.name);
  const std::vector<std::string> keys = gml_keys(names);
  const bool gml = o.format == ExportFormat::kGml;
  std::string s;
  auto flush = [&](bool force) {
    if (force || s.size() > (1 << 20)) {
      put(s);
      s.clear();
    }
  };
  if (gml) {
    s += "Creator \"webrank export\"\ngraph [\n  directed 1\n";
  } else {
    s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
         "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
         "  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n";
    if (titles)
      s += "  <key id=\"title\" for=\"node\" attr.name=\"title\" attr.type=\"string\"/>\n";
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      s += cat("  <key id=\"r", i, "\" for=\"node\" attr.name=\"", xml_text(vectors[i].name),
               "\" attr.type=\"double\"/>\n");
    }
    if (g.weighted())
      s += "  <key id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n";
    s += "  <graph id=\"G\" edgedefault=\"directed\">\n";
  }
  for (PageId u = 0; u < db.num_pages(); ++u) {
    const auto title = titles ? db.title(u) : std::nullopt;
    if (gml) {
      s += cat("  node [\n    id ", u, "\n    label ", gml_string(db.label(u)), "\n");
      if (title && !title->empty()) s += "    title " + gml_string(*title) + "\n";
      for (std::size_t i = 0; i < vectors.size(); ++i)
        s += "    " + keys[i] + " " + number(vectors[i].values[u], true) + "\n";
      s += "  ]\n";
    } else {
      s += cat("    <node id=\"n", u, "\"><data key=\"label\">", xml_text(db.label(u)), "</data>");
      if (title && !title->empty()) s += "<data key=\"title\">" + xml_text(*title) + "</data>";
      for (std::size_t i = 0; i < vectors.size(); ++i)
        s += cat("<data key=\"r", i, "\">", number(vectors[i].values[u], false), "</data>");
      s += "</node>\n";
    }
    flush(false);
  }
  for (PageId u = 0; u < db.num_pages(); ++u) {
    for (std::uint64_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) {
      if (gml) {
        s += cat("  edge [\n    source ", u, "\n    target ", g.out.ids[i], "\n");
        if (g.weighted()) s += "    weight " + number(g.out.weights[i], true) + "\n";
        s += "  ]\n";
      } else {
        s += cat("    <edge source=\"n", u, "\" target=\"n", g.out.ids[i], "\"");
        s += g.weighted()
                 ? "><data key=\"weight\">" + number(g.out.weights[i], false) + "</data></edge>\n"
                 : "/>\n";
      }
      flush(false);
    }
  }
  s += gml ? "]\n" : "  </graph>\n</graphml>\n";
  flush(true);
}

std::span<const Named<ExportFormat>> names(ExportFormat) {
  static constexpr Named<ExportFormat> kNames[] = {{ExportFormat::kEdges, "edges"},
                                                   {ExportFormat::kGml, "gml"},
                                                   {ExportFormat::kGraphml, "graphml"}};
  return kNames;
}

}  // namespace webrank
