// facet: `facet [view] [MODEL]` opens the viewer, `facet render` draws one frame headless,
// `facet bench` measures the pipeline against the OpenGL driver.
#include <cstdio>

#include "app/command.h"

int main(int argc, char** argv) {
  CLI::App app{"facet: a real-time software rasterizer in CUDA (with a CPU fallback)", "facet"};
  facet::Command view = facet::add_view_command(app);
  facet::Command render = facet::add_render_command(app);
  facet::Command bench = facet::add_bench_command(app);
  app.require_subcommand(0, 1);
  // `facet MODEL.obj` is `facet view MODEL.obj`.
  app.prefix_command(false);
  app.allow_extras(true);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (render.parser->parsed()) return render.run();
  if (bench.parser->parsed()) return bench.run();
  if (!view.parser->parsed()) {
    // No subcommand: parse the remaining arguments as the viewer's.
    std::vector<std::string> rest = app.remaining_for_passthrough(true);
    try {
      view.parser->parse(rest);
    } catch (const CLI::ParseError& e) {
      return view.parser->exit(e);
    }
  }
  return view.run();
}
