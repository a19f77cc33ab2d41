#include "search/shards.hpp"

#include <cstdio>
#include <stdexcept>

#include "search/document.hpp"
#include "util/regular_file.hpp"
#include "webrank/util/error.hpp"

namespace webrank::search {
namespace fs = std::filesystem;

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return std::string(s);
}

// A Xapian error met while opening or reading `name`, as webrank's kind.
[[noreturn]] void fail_shard(const std::string& name, const Xapian::Error& e) {
  const std::string what = e.get_msg().empty() ? e.get_type() : e.get_msg();
  const std::string type = e.get_type();
  if (type.starts_with("Network")) {  // NetworkError, NetworkTimeoutError
    fail(ErrorKind::kIo, name, ": unreachable (", what,
         "): is its xapian-tcpsrv running, and the host and port right?");
  }
  if (type == "DatabaseNotFoundError") {
    fail(ErrorKind::kNotFound, name, ": no index there (", what,
         "): build it with `webrank index DB --shard I/N --output PATH`");
  }
  fail(ErrorKind::kCorrupt, name, ": damaged shard (", e.get_type(), ": ", what, ")");
}

Xapian::Database open_one(const fs::path& list, std::size_t index, const ShardEntry& s) {
  try {
    if (s.remote()) return Xapian::Remote::open(s.host, s.port, kShardTimeoutMs, kShardTimeoutMs);
    std::error_code ec;
    if (!fs::exists(s.path, ec)) {
      fail(ErrorKind::kNotFound, shard_name(list, index, s), ": no such file ", s.path.string());
    }
    return Xapian::Database(s.path.string());
  } catch (const Xapian::Error& e) {
    fail_shard(shard_name(list, index, s), e);
  }
}

}  // namespace

std::string shard_name(const fs::path& list, std::size_t index, const ShardEntry& shard) {
  return cat("shard ", index, " (", shard.where, ") of ", list.string());
}

std::vector<ShardEntry> read_shard_list(const fs::path& list) {
  const std::optional<std::string> text = read_regular_file(list);
  if (!text) fail(ErrorKind::kNotFound, list.string(), ": no shard list there (cannot be read)");
  std::vector<ShardEntry> out;
  std::size_t line_no = 0, at = 0;
  while (at < text->size()) {
    std::size_t end = text->find('\n', at);
    if (end == std::string::npos) end = text->size();
    std::string line = trim(std::string_view(*text).substr(at, end - at));
    at = end + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string::npos)
      line = trim(line.substr(0, hash));
    if (line.empty()) continue;
    const auto space = line.find_first_of(" \t");
    const std::string type = line.substr(0, space);
    const std::string arg = space == std::string::npos ? "" : trim(line.substr(space));
    ShardEntry e;
    e.where = type + " " + arg;
    const auto bad = [&](const std::string& why) {
      fail(ErrorKind::kInvalidInput, list.string(), ":", line_no, ": ", why, " ('", line,
           "'; a shard is `auto PATH` or `remote HOST:PORT`)");
    };
    if (arg.empty()) bad("no value");
    if (type == "auto" || type == "glass") {
      e.path = fs::path(arg).is_absolute() ? fs::path(arg) : list.parent_path() / arg;
    } else if (type == "remote") {
      const auto colon = arg.rfind(':');
      unsigned port = 0;
      char extra;
      if (colon == std::string::npos || colon == 0 ||
          std::sscanf(arg.c_str() + colon + 1, "%u%c", &port, &extra) != 1 || port == 0 ||
          port > 65535) {
        bad("a remote shard is HOST:PORT");
      }
      e.host = arg.substr(0, colon);
      if (e.host.size() > 2 && e.host.front() == '[' && e.host.back() == ']') {
        e.host = e.host.substr(1, e.host.size() - 2);
      }
      e.port = port;
    } else {
      bad("unknown kind '" + type + "'");
    }
    out.push_back(std::move(e));
  }
  if (out.empty()) fail(ErrorKind::kInvalidInput, list.string(), ": lists no shard");
  return out;
}

std::unique_ptr<Xapian::Database> open_shards(const fs::path& list,
                                              const std::vector<ShardEntry>& shards) {
  auto all = std::make_unique<Xapian::Database>();
  for (std::size_t i = 0; i < shards.size(); ++i) all->add_database(open_one(list, i, shards[i]));
  return all;
}

ShardedIndex open_sharded_index(const fs::path& list, const Database& db) {
  ShardedIndex r;
  r.shards = read_shard_list(list);
  const std::size_t n = r.shards.size();
  const std::string identity = database_identity(db);
  std::vector<std::string> own_text(n);
  r.all = std::make_unique<Xapian::Database>();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = shard_name(list, i, r.shards[i]);
    Xapian::Database x = open_one(list, i, r.shards[i]);
    try {
      const std::string version = x.get_metadata(kMetaVersion);
      if (version.empty()) fail(ErrorKind::kCorrupt, name, ": not a webrank search index");
      if (version != std::to_string(kIndexVersion)) {
        fail(ErrorKind::kCorrupt, name, ": index version ", version,
             ", this webrank reads version ", kIndexVersion,
             ": rebuild the shard with `index --shard`");
      }
      if (x.get_metadata(kMetaDatabase) != identity) {
        fail(ErrorKind::kCorrupt, name, ": built for another database than ", db.path().string(),
             " (or before it was rebuilt): rebuild the shard with `index --shard` from this one");
      }
      std::string shard = x.get_metadata(kMetaShard);
      if (shard.empty()) shard = "0/1";
      if (shard != cat(i, "/", n)) {
        fail(ErrorKind::kInvalidInput, name, ": holds shard ", shard, ", but line ", i + 1,
             " of a list of ", n, " shards must hold shard ", i, "/", n,
             " (list the shards in order, all of them)");
      }
      const auto fields = parse_field_weights(x.get_metadata(kMetaFields));
      if (!fields) fail(ErrorKind::kCorrupt, name, ": no field weights recorded");
      if (i == 0) {
        r.field_weights = *fields;
        r.family_pages = x.get_metadata(kMetaFamilyPages);
        const std::string sites = x.get_metadata(kMetaFetchedSites);
        r.fetched_sites = sites.empty() ? 0 : std::stoull(sites);
      } else if (to_string(*fields) != to_string(r.field_weights)) {
        fail(ErrorKind::kCorrupt, name, ": built with field weights ", to_string(*fields),
             ", shard 0 with ", to_string(r.field_weights), ": rebuild the shards alike");
      }
      own_text[i] = x.get_metadata(kMetaOwnText);
    } catch (const Xapian::Error& e) {
      fail_shard(name, e);
    }
    r.all->add_database(x);
  }
  try {
    r.own_text = OwnTextTable(OwnTextTable::merge(own_text));
  } catch (const std::invalid_argument& e) {
    fail(ErrorKind::kCorrupt, list.string(), ": the shards' own-text tables do not join (",
         e.what(), "): rebuild the shards");
  }
  return r;
}

}  // namespace webrank::search
