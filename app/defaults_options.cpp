// The defaults file's values given to their options (defaults_options.h).
#include "app/defaults_options.h"

#include <algorithm>
#include <map>
#include <set>

#include "app/camera_options.h"
#include "app/defaults_file.h"
#include "app/input_limits.h"
#include "engine/base/platform.h"
#include "engine/formats/format_messages.h"

namespace facet {

namespace {

// The longest message about one value: CLI11's own messages repeat the value whole.
constexpr size_t kMaxProblemBytes = 300;
// A value longer than this is shown quoted and cut short (facet::quoted) where a message repeats it.
constexpr size_t kLongValueBytes = 40;

const char* const kCameraKeys[] = {"eye", "target", "up", "view-dir", "fov-y", "focal-px", "ortho", "near", "far"};

bool is_camera_key(const std::string& key) {
  for (const char* k : kCameraKeys)
    if (key == k) return true;
  return false;
}

CLI::App* command_of(CLI::App& app, const std::string& section) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (!section.empty() && sub->get_name() == section) return sub;
  return nullptr;
}

// The option a key names, as CLI11 finds a config key: --KEY, else -K; never a positional.
CLI::Option* option_of(CLI::App* command, const std::string& key) {
  if (!command) return nullptr;
  CLI::Option* op = command->get_option_no_throw("--" + key);
  if (!op && key.size() == 1) op = command->get_option_no_throw("-" + key);
  return op && op->get_configurable() ? op : nullptr;
}

// A value given to an option the way CLI11 gives a config file's, callback and checks run.
void give(CLI::Option* op, const DefaultsValue& v) {
  op->clear();
  if (op->get_expected_min() == 0) {
    if (v.values.size() != 1) throw CLI::ConversionError(op->get_name(), "a flag takes one value, true or false");
    op->add_result(op->get_flag_value(v.key, v.values[0]));
  } else {
    op->add_result(v.values);
  }
  op->run_callback();
}

// The problem of giving `v` to `op`, or "": CLI11's message without the option's name in front.
std::string problem_of(CLI::Option* op, const DefaultsValue& v) {
  std::string message;
  try {
    give(op, v);
    return "";
  } catch (const std::exception& e) {
    message = e.what();
  }
  for (const std::string& prefix : {"--" + v.key + ": ", op->get_name() + ": "})
    if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
  // CLI11's messages repeat the value whole: a long one is shown quoted and cut.
  for (const std::string& value : v.values) {
    if (value.size() <= kLongValueBytes) continue;
    const std::string shown = facet::quoted(value);
    for (size_t at = message.find(value); at != std::string::npos; at = message.find(value, at + shown.size()))
      message.replace(at, value.size(), shown);
  }
  return safe_line(message, kMaxProblemBytes);
}

// set_camera_value for a value that its option has accepted already; false should it refuse.
bool try_set(CameraOptions& o, const std::string& key, const std::string& text) {
  try {
    return set_camera_value(o, key, text);
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// One value of the file on its way to an option.
struct Pending {
  const DefaultsValue* value;
  CLI::Option* option;  // in the parsed app
  bool kept = true;
};

class Applier {
 public:
  Applier(CLI::App& app, CLI::App& scratch, std::string path)
      : m_app(app), m_scratch(scratch), m_path(shown_path(path)) {}

  std::vector<std::string> run(const DefaultsText& text) {
    for (const DefaultsProblem& p : text.problems) warn(p.line, p.message);
    for (const DefaultsValue& v : text.values) consider(v);
    resolve_camera_conflicts();
    for (Pending& p : m_pending) {
      if (!p.kept) continue;
      try {
        // A camera value is named by this line in every later message (the checks against the
        // frame and the model come after this), never by its option.
        const CameraValueSource source(is_camera_key(p.value->key) ? value_name(*p.value) : "");
        give(p.option, *p.value);
      } catch (const std::exception& e) {
        warn(p.value->line, safe_line(e.what(), kMaxProblemBytes));
      }
    }
    // In the file's order, the first few; then how many more.
    std::stable_sort(m_warnings.begin(), m_warnings.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> shown;
    for (size_t i = 0; i < m_warnings.size() && i < kMaxDefaultsWarnings; ++i) shown.push_back(m_warnings[i].second);
    if (m_warnings.size() > kMaxDefaultsWarnings)
      shown.push_back(m_path + ": and " + std::to_string(m_warnings.size() - kMaxDefaultsWarnings) +
                      " more problems like these");
    return shown;
  }

 private:
  void warn(int line, const std::string& problem) {
    m_warnings.push_back({line, m_path + ":" + std::to_string(line) + ": " + problem + "; ignored"});
  }
  std::string key_text(const DefaultsValue& v) const { return "[" + v.section + "] " + facet::quoted(v.key); }
  // "FILE:LINE: [render] 'near'": the value as later messages name it.
  std::string value_name(const DefaultsValue& v) const {
    return m_path + ":" + std::to_string(v.line) + ": " + key_text(v);
  }

  void consider(const DefaultsValue& v) {
    CLI::App* command = command_of(m_app, v.section);
    if (v.section.empty())
      return warn(v.line, facet::quoted(v.key) + " is outside a section ([view], [render] or [bench])");
    if (!command) {
      if (m_unknown_sections.insert(v.section).second)
        warn(v.line, "[" + facet::quoted(v.section) + "] is not a command (view, render or bench)");
      return;
    }
    CLI::Option* op = option_of(command, v.key);
    CLI::Option* trial = option_of(command_of(m_scratch, v.section), v.key);
    if (!op || !trial) return warn(v.line, key_text(v) + " is not an option of facet " + v.section);
    if (op->count() > 0) return;  // given on the command line, which wins
    if (const std::string p = problem_of(trial, v); !p.empty()) return warn(v.line, key_text(v) + ": " + p);
    for (CLI::Option* other : op->get_excludes()) {
      if (!other->empty()) return;  // given on the command line, whose choice wins
      if (m_from_file.count(other))
        return warn(v.line, key_text(v) + " excludes " + other->get_name() + " (line " +
                                std::to_string(m_from_file[other]) + ")");
    }
    m_from_file[op] = v.line;
    m_pending.push_back({&v, op});
  }

  // The camera values of one command: the command line's and the file's kept ones.
  CameraOptions camera_of(const std::string& section, std::map<std::string, Pending*>& from_file) {
    CameraOptions o;
    CLI::App* command = command_of(m_app, section);
    for (const char* key : kCameraKeys) {
      CLI::Option* op = option_of(command, key);
      if (op && op->count() > 0 && !m_from_file.count(op) && op->results().size() == 1)
        try_set(o, key, op->results()[0]);
    }
    for (Pending& p : m_pending) {
      if (!p.kept || p.value->section != section || !is_camera_key(p.value->key) || p.value->values.size() != 1)
        continue;
      if (!try_set(o, p.value->key, p.value->values[0])) continue;
      camera_value_name(o.names, p.value->key) = p.value->key + " (line " + std::to_string(p.value->line) + ")";
      from_file[p.value->key] = &p;
    }
    return o;
  }

  // Values that are each fine but not together: the file's ones involved are left out.
  void resolve_camera_conflicts() {
    std::set<std::string> sections;
    for (const Pending& p : m_pending)
      if (is_camera_key(p.value->key)) sections.insert(p.value->section);
    for (const std::string& section : sections) {
      for (;;) {
        std::map<std::string, Pending*> from_file;
        const std::optional<CameraConflict> c = camera_conflict(camera_of(section, from_file));
        if (!c) break;
        bool dropped = false;
        for (const std::string& key : c->keys) {
          if (!from_file.count(key)) continue;
          Pending* p = from_file[key];
          p->kept = false;
          m_from_file.erase(p->option);
          if (!dropped) warn(p->value->line, "[" + section + "] " + c->message);
          dropped = true;
        }
        if (!dropped) break;  // the command line's own conflict: its error, later
      }
    }
  }

  CLI::App& m_app;
  CLI::App& m_scratch;
  std::string m_path;                                   // shown_path of the file
  std::vector<std::pair<int, std::string>> m_warnings;  // line, warning
  std::vector<Pending> m_pending;
  std::map<CLI::Option*, int> m_from_file;  // options the file sets -> line
  std::set<std::string> m_unknown_sections;
};

}  // namespace

std::string read_defaults_file(const std::string& path, std::string& text) {
  return platform::read_small_file(path, kMaxDefaultsFileBytes, text);
}

std::vector<std::string> apply_defaults(CLI::App& app, CLI::App& scratch, const std::string& path,
                                        const std::string& text) {
  const DefaultsText parsed = parse_defaults_text(text);
  return Applier(app, scratch, path).run(parsed);
}

}  // namespace facet
