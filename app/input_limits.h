// The bounds on the small text files a user names (the defaults file, a cameras file, the
// viewer's viewer.json), in one place with their reasons. Each is read whole through
// platform::read_small_file, which refuses a folder, a FIFO or a device before reading, and a
// file past its cap by its size, so that `--config /dev/zero` or a pipe nobody writes never hangs
// and a gigabyte file is never read into memory.
#pragma once
#include <cstddef>
#include <cstdint>

#include "engine/formats/format_messages.h"
#include "engine/formats/gltf/gltf_files.h"

namespace facet {

// A defaults file is a few dozen `key = value` lines; a MiB is ten thousand times that.
constexpr uint64_t kMaxDefaultsFileBytes = uint64_t(1) << 20;
// A cameras file: about 150 bytes a camera, so some 400,000 cameras; its JSON tree takes about
// ten times the text in memory.
constexpr uint64_t kMaxCamerasFileBytes = uint64_t(64) << 20;
// viewer.json is written by facet itself at about 2 KiB (ten recent paths and the settings).
constexpr uint64_t kMaxViewerConfigBytes = uint64_t(1) << 20;
// The longest output path a cameras file may name: Linux's PATH_MAX, beyond which no open succeeds.
constexpr size_t kMaxOutputPathBytes = 4096;
// Warnings printed about one defaults file before the rest are counted: a file of a million bad
// lines says so in four lines, as a model file's readers do (FormatWarnings::kShown).
constexpr size_t kMaxDefaultsWarnings = FormatWarnings::kShown;
// The JSON files' deepest nesting: the glTF reader's bound (kMaxJsonDepth), checked by one linear
// pass before nlohmann-json, whose parser recurses once a level, sees the text. A cameras file
// needs 3 levels, viewer.json 3.
constexpr size_t kMaxSettingsJsonDepth = kMaxJsonDepth;

}  // namespace facet
