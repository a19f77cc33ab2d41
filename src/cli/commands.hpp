// The table of `webrank`'s commands (command.hpp), one function per group of renderers.
#pragma once

#include <vector>

#include "command.hpp"

namespace webrank::cli {

void add_ranking_commands(std::vector<Command>& table);  // render_ranking.cpp
void add_inspect_commands(std::vector<Command>& table);  // render_inspect.cpp
void add_spam_commands(std::vector<Command>& table);     // render_spam.cpp
void add_search_commands(std::vector<Command>& table);   // render_search.cpp
void add_making_commands(std::vector<Command>& table);   // render_studies.cpp
void add_studies_commands(std::vector<Command>& table);  // render_studies.cpp

// Every command of the table, in the order of `webrank --help`.
std::vector<Command> command_table();

}  // namespace webrank::cli
