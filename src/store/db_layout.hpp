// File names inside a database directory, shared by the builder and the reader.
#pragma once

namespace webrank::layout {

inline constexpr const char* kManifest = "manifest.json";
inline constexpr const char* kFormatName = "webrank-db";
inline constexpr const char* kFwdOffsets = "fwd.offsets";
inline constexpr const char* kFwdTargets = "fwd.targets";
inline constexpr const char* kFwdWeights = "fwd.weights";
inline constexpr const char* kBwdOffsets = "bwd.offsets";
inline constexpr const char* kBwdSources = "bwd.sources";
inline constexpr const char* kBwdWeights = "bwd.weights";
inline constexpr const char* kLabelOffsets = "labels.offsets";
inline constexpr const char* kLabelBytes = "labels.bytes";
inline constexpr const char* kLabelIndex = "labels.index";
inline constexpr const char* kRanksDir = "ranks";
// A stored vector NAME is ranks/NAME.ranks (its values) and ranks/NAME.json (its record); a
// record being replaced waits as ranks/.NAME.json.pending (store/paths.cpp spells them).
inline constexpr const char* kRankValuesSuffix = ".ranks";
inline constexpr const char* kRankRecordSuffix = ".json";

// Optional page data of crawled webs (docs/format.md): {file name, section name}. Section
// headers hold at most 15 name bytes, hence the shorter section names.
struct SectionName {
  const char* file;
  const char* name;
};
inline constexpr SectionName kPageStatus{"pages.status", "pg.status"};
inline constexpr SectionName kPageHash{"pages.hash", "pg.hash"};
inline constexpr SectionName kPageFinalUrlOffsets{"pages.final_url.offsets", "pg.furl.off"};
inline constexpr SectionName kPageFinalUrlBytes{"pages.final_url.bytes", "pg.furl.bytes"};
inline constexpr SectionName kPageTitleOffsets{"pages.title.offsets", "pg.title.off"};
inline constexpr SectionName kPageTitleBytes{"pages.title.bytes", "pg.title.bytes"};
inline constexpr SectionName kPageTextOffsets{"pages.text.offsets", "pg.text.off"};
inline constexpr SectionName kPageTextBytes{"pages.text.bytes", "pg.text.bytes"};
inline constexpr SectionName kPageAnchorOffsets{"pages.anchors.offsets", "pg.anchor.off"};
inline constexpr SectionName kPageAnchorBytes{"pages.anchors.bytes", "pg.anchor.bytes"};
// The stored copy of each HTML page, one zstd frame per page (manifest "page_html": true).
inline constexpr SectionName kPageHtmlOffsets{"pages.html.offsets", "pg.html.off"};
inline constexpr SectionName kPageHtmlBytes{"pages.html.bytes", "pg.html.bytes"};
// What a recrawl's conditional requests need (manifest "page_validators": true): the ETag and
// Last-Modified fields of each page's response, and its body's size (what a 304 saves).
inline constexpr SectionName kPageEtagOffsets{"pages.etag.offsets", "pg.etag.off"};
inline constexpr SectionName kPageEtagBytes{"pages.etag.bytes", "pg.etag.bytes"};
inline constexpr SectionName kPageModifiedOffsets{"pages.last_modified.offsets", "pg.lmod.off"};
inline constexpr SectionName kPageModifiedBytes{"pages.last_modified.bytes", "pg.lmod.bytes"};
inline constexpr SectionName kPageBodyBytes{"pages.body_bytes", "pg.body.bytes"};
inline constexpr SectionName kNofollowOffsets{"nofollow.offsets", "nofollow.off"};
inline constexpr SectionName kNofollowTargets{"nofollow.targets", "nofollow.tgt"};

}  // namespace webrank::layout
