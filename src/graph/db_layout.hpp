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

}  // namespace webrank::layout
