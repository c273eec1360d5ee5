// The process exit codes every facet command uses: 0 success, 1 a failure while doing the work
// (a model that cannot be loaded, a file that cannot be written, no device), 2 a usage error (an
// unknown option, a malformed value, options that contradict each other).
#pragma once
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/formats/format_messages.h"

namespace facet {

constexpr int kExitSuccess = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Thrown by option checks that run after CLI11's parse (sizes, colours, cameras, camera files):
// the command line asked for something unusable.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Runs an option check (parse_size, make_render_options, make_camera, ...: they throw
// std::invalid_argument) and turns its refusal into a UsageError. The engine throws
// std::invalid_argument too, for failures, so the type alone cannot say whose fault it was.
template <class F>
auto as_usage(F&& check) -> decltype(check()) {
  try {
    return check();
  } catch (const UsageError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// The most of one line of an error printed: a path from a cameras file or a value from the user
// is never echoed whole past it.
constexpr size_t kMaxReportedLineBytes = 500;

// Prints "facet COMMAND: what" (escaped) and returns the exit code for the exception: a UsageError is a
// usage error, anything else a failure.
inline int report_error(const char* command, const std::exception& e) {
  // Each line with its control characters escaped: a path from a cameras file, or a name that a
  // message carries from a model, cannot forge another line or drive the terminal.
  std::string text = e.what(), shown;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = shown_path(std::string_view(text).substr(start, end - start));
    if (line.size() > kMaxReportedLineBytes)
      line = line.substr(0, kMaxReportedLineBytes) + "... (" + std::to_string(line.size()) + " bytes)";
    shown += (start ? "\n" : "") + line;
    start = end + 1;
  }
  std::fprintf(stderr, "facet %s: %s\n", command, shown.c_str());
  return dynamic_cast<const UsageError*>(&e) ? kExitUsage : kExitFailure;
}

}  // namespace facet
