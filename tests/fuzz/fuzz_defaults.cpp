// The defaults file's fuzz target (libFuzzer; also built into facet_fuzz_defaults_replay, which
// replays saved inputs without libFuzzer). One input is a defaults file's text (facet.toml),
// parsed (app/defaults_file.h) and given to a command line of `render` and `view` with the real
// camera and shading options (app/defaults_options.h), as `facet render` gives it. Whatever the
// bytes, that must end with warnings, never an exception, and every warning must stay short (no
// value echoed whole); a crash, a sanitizer report or an exception is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "app/camera_options.h"
#include "app/defaults_file.h"
#include "app/defaults_options.h"

namespace {

// Where the options write; a command line of two commands, as app/main.cpp builds (the options
// that take a defaults file's values most often).
struct Options {
  facet::CameraOptions camera, view_camera;
  facet::RenderOptionArgs shading, view_shading;
  std::string size, backend;
};

std::unique_ptr<CLI::App> make_app(Options& o) {
  auto app = std::make_unique<CLI::App>("fuzz", "facet");
  CLI::App* render = app->add_subcommand("render");
  facet::add_camera_options(render, o.camera);
  facet::add_render_options(render, o.shading);
  facet::add_backend_option(render, o.backend);
  render->add_option("--size", o.size)->check(facet::size_check());
  CLI::App* view = app->add_subcommand("view");
  facet::add_camera_options(view, o.view_camera);
  facet::add_render_options(view, o.view_shading);
  return app;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool verbose = std::getenv("FACET_FUZZ_VERBOSE") != nullptr;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Options parsed, scratch;
  std::unique_ptr<CLI::App> app = make_app(parsed), trial = make_app(scratch);
  // `render --near 0.5` (CLI11 takes the arguments reversed): one value of the command line's
  // own, which the file's must not replace.
  app->parse(std::vector<std::string>{"0.5", "--near", "render"});
  for (const std::string& w : facet::apply_defaults(*app, *trial, "fuzz.toml", text)) {
    if (w.size() > 2000) std::abort();  // a value echoed whole
    if (verbose) std::printf("  %s\n", w.c_str());
  }
  if (parsed.camera.near_plane != 0.5f) std::abort();
  return 0;
}
