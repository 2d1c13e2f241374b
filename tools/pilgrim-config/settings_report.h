// The settings table written out for people: as a terminal listing, a
// Markdown table (docs/guide/tracing.md) and a man page (libpilgrim(7)), and
// the environment checked against it.
#pragma once

#include "pilgrim/settings_table.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace pilgrim::settings {

// The settings to show: all, or one reader's.
std::vector<const Setting *> selected(std::optional<Reader> reader);

// NAME [reader] now: VALUE / allowed values / default / what it does.
void print_listing(std::ostream &out, const std::vector<const Setting *> &rows);
// | Variable | Read by | Values | Default | What it does |
void print_markdown(std::ostream &out, const std::vector<const Setting *> &rows);
// A roff page, libpilgrim(7): how the tracer is used and its settings.
void print_man(std::ostream &out, const std::string &version);

// One line per problem of the environment: an unknown PILGRIM_* name (with
// the closest known one) or a value the setting does not allow.
std::vector<std::string> check_environment(char **environ);

} // namespace pilgrim::settings
