#include "writer/component_sections.hpp"

#include "algo/strong_components.hpp"
#include "store/manifest_section.hpp"

namespace webrank {

void write_component_sections(const std::filesystem::path& dir, const GraphView& links,
                              nlohmann::json& manifest) {
  StrongComponents c = strong_components(links);
  find_closed_components(links, c);
  write_section(dir, layout::kComponentPages, std::span<const PageId>(c.pages), manifest);
  write_section(dir, layout::kComponentBegin, std::span<const std::uint64_t>(c.begin), manifest);
  write_section(dir, layout::kComponentLevel, std::span<const std::uint32_t>(c.level), manifest);
  write_section(dir, layout::kComponentClosed, std::span<const std::uint32_t>(c.closed), manifest);
  manifest["components"] = c.count();
}

void write_component_sections(const std::filesystem::path& dir, nlohmann::json& manifest) {
  const auto count = [&](const char* file) {
    return manifest["sections"][file]["count"].get<std::uint64_t>();
  };
  const Section fwd_offsets = Section::open(dir / layout::kFwdOffsets, layout::kFwdOffsets, 8);
  const Section fwd_targets = Section::open(dir / layout::kFwdTargets, layout::kFwdTargets, 4);
  const Section bwd_offsets = Section::open(dir / layout::kBwdOffsets, layout::kBwdOffsets, 8);
  const Section bwd_sources = Section::open(dir / layout::kBwdSources, layout::kBwdSources, 4);
  GraphView g;
  g.num_pages = static_cast<PageId>(count(layout::kFwdOffsets) - 1);
  g.num_links = count(layout::kFwdTargets);
  g.out.offsets = fwd_offsets.as<std::uint64_t>();
  g.out.ids = fwd_targets.as<PageId>();
  g.in.offsets = bwd_offsets.as<std::uint64_t>();
  g.in.ids = bwd_sources.as<PageId>();
  write_component_sections(dir, g, manifest);
}

}  // namespace webrank
