// The server's pages come from templates (src/serve/templates/*.tpl, built into the binary) that
// ctemplate expands with auto-escaping: each template starts with {{%AUTOESCAPE context="HTML"}},
// and ctemplate's HTML parser picks, when the template is loaded, the escaping of every variable
// from where it stands (element text and quoted attributes: HTML-escaped; a whole URL in href:
// its scheme checked, anything but http, https or a relative URL replaced by "#", then
// HTML-escaped). Values go into a dictionary as plain text; a template writes a value unescaped
// only with :none, and only where the value is HTML webrank wrote itself (each such place says
// why). docs/serve.md, "How pages are made", says why ctemplate.
#pragma once

#include <ctemplate/template.h>
#include <ctemplate/template_cache.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace webrank::serve {

using Dictionary = ctemplate::TemplateDictionary;

// A frozen set of templates: loaded once, expanded by any number of threads at once, never read
// from the disk (an include of a name that is not in the set fails instead).
class Templates {
 public:
  using File = std::pair<std::string_view, std::string_view>;  // name, text

  // Throws Error(kInternal) naming a template that does not start with the AUTOESCAPE pragma or
  // that ctemplate refuses (a variable where no escaping is safe, e.g. an unquoted URL attribute).
  explicit Templates(std::span<const File> files);
  ~Templates();

  // The templates built into the binary, loaded at the first call.
  static const Templates& built_in();

  // Template `name` with `dict`'s values. Invalid UTF-8 and control characters (but tab and
  // newline) in the output are replaced by U+FFFD: ctemplate escapes markup, not bytes.
  std::string expand(std::string_view name, const Dictionary& dict) const;

 private:
  std::unique_ptr<ctemplate::TemplateCache> cache_;
};

// Template `name` of the built-in set.
std::string expand(std::string_view name, const Dictionary& dict);

// A variable, section or include name for a dictionary: `literal` (a string literal) with its
// ctemplate id computed and registered once per thread. A name without one costs a hash and a
// process-wide reader lock at every value set (ctemplate's map of ids to names), which the
// server's threads would all take for the ~250 values of a page of results.
ctemplate::TemplateString key(const char* literal);

// Includes template `file` at {{>marker}} of `dict` (once more per call) and returns the
// included template's dictionary.
Dictionary* include(Dictionary& dict, const char* marker, const char* file);

}  // namespace webrank::serve
