// The defaults file's text (docs/cli.md, "The defaults file"): the part of TOML that option
// defaults need, `[section]` headers and `key = value` lines whose value is a string, a number,
// a boolean, a bare word or a one-level array of those, with # comments. Each value keeps its
// line for messages; a line this does not read is a problem of that line, and the rest of the
// file still counts. It knows no option: app/defaults_options.cpp gives each value to its own.
#pragma once
#include <string>
#include <vector>

namespace facet {

struct DefaultsValue {
  std::string section;              // "render", "view", "bench", ...; "" before any header
  std::string key;                  // as written, unquoted ("fov-y")
  std::vector<std::string> values;  // one, or an array's elements; strings unquoted, escapes decoded
  bool array = false;               // written as [a, b, ...]
  int line = 0;                     // 1-based line of the key
};

struct DefaultsProblem {
  int line = 0;         // 1-based
  std::string message;  // what is wrong, user text quoted and capped
};

struct DefaultsText {
  std::vector<DefaultsValue> values;      // in file order, a repeated key once (its first)
  std::vector<DefaultsProblem> problems;  // in file order
};

// Reads `text` whole; never throws for any bytes.
DefaultsText parse_defaults_text(const std::string& text);

}  // namespace facet
