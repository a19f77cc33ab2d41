// A sharded index (docs/search.md, "A sharded index"): shards built by `index --shard I/N`, listed
// in order in a shard list, a Xapian stub file, and searched as one Xapian multi-database, local
// files and xapian-tcpsrv servers alike.
//
// Shard I of N holds the pages u with u % N == I, page u as its document u / N + 1. Xapian numbers
// document d of shard I of a multi-database of N as (d - 1) * N + I + 1, which is u + 1: the whole
// sharded index has the docids of a whole index, and everything keyed by page id (the rank
// vector, the own-text table, the family bitmap, the name terms' postings) reads it unchanged.
#pragma once

#include <xapian.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "search/chrome.hpp"
#include "webrank/search/search.hpp"
#include "webrank/store/database.hpp"

namespace webrank::search {

// One line of a shard list: "auto PATH" or "glass PATH" (a local index file, relative to the
// list's directory), or "remote HOST:PORT" (a xapian-tcpsrv serving the shard; "[ADDR]:PORT"
// for an IPv6 address). '#' starts a comment.
struct ShardEntry {
  std::string where;           // the line as written, for messages ("remote 127.0.0.2:4001")
  std::filesystem::path path;  // a local shard
  std::string host;            // a remote shard
  unsigned port = 0;
  bool remote() const { return !host.empty(); }
};

// The shards listed in `list`, in order. Throws Error: kNotFound when the file cannot be read,
// kInvalidInput naming the file and line for a line that is none of the above or a list with no
// shard.
std::vector<ShardEntry> read_shard_list(const std::filesystem::path& list);

// How long a front end waits for a remote shard to accept and answer (milliseconds).
inline constexpr unsigned kShardTimeoutMs = 10000;

// "shard 1 (remote 127.0.0.2:4001) of LIST": how messages name a shard.
std::string shard_name(const std::filesystem::path& list, std::size_t index,
                       const ShardEntry& shard);

// The shards of `list` opened, checked against `db` and each other, and joined: throws Error
// naming the shard: kIo when a remote shard is unreachable, kNotFound when a local one is
// missing, kCorrupt when one is damaged, of another index version, built for another database or
// with other field weights than shard 0, kInvalidInput when the shard is not the one its place
// in the list needs (shard I of N at line I + 1 of a list of N).
struct ShardedIndex {
  std::vector<ShardEntry> shards;
  std::unique_ptr<Xapian::Database> all;  // the multi-database, docid = page id + 1
  OwnTextTable own_text;                  // the shards' tables merged
  std::string family_pages;               // shard 0's (every shard has the whole bitmap)
  std::size_t fetched_sites = 0;          // shard 0's (a property of the whole database)
  FieldWeights field_weights;
};
ShardedIndex open_sharded_index(const std::filesystem::path& list, const Database& db);

// Another handle on the same shards, unchecked (for a pool of handles): throws as above for a
// shard that cannot be opened.
std::unique_ptr<Xapian::Database> open_shards(const std::filesystem::path& list,
                                              const std::vector<ShardEntry>& shards);

}  // namespace webrank::search
