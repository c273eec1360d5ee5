// run_facet: popen of the executable CMake built (FACET_EXE), output captured whole.
#include "tests/cli/cli_run.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>

#include "engine/scene/texture_file.h"
#include "tests/support/test_scenes.h"

namespace facet::test {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

CliResult run_facet(const std::string& args, const std::string& config_home, int timeout_s) {
  const std::string home = config_home.empty() ? "/nonexistent/facet-test-home" : config_home;
  const std::string limit = timeout_s > 0 ? "timeout -k 5 " + std::to_string(timeout_s) + " " : "";
  const std::string cmd =
      "XDG_CONFIG_HOME=" + quote(home) + " HOME=" + quote(home) + " " + limit + quote(FACET_EXE) + " " + args + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "cannot run " << cmd;
    return r;
  }
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool read_png(const std::string& path, int& width, int& height, std::vector<Rgba8>& rgba) {
  TextureImage image;
  std::string error;
  if (!read_texture_file(path, &image, &error)) {
    ADD_FAILURE() << path << ": " << error;
    return false;
  }
  width = image.width;
  height = image.height;
  rgba = std::move(image.texels);
  return true;
}

std::vector<Rgba8> read_png_of_size(const std::string& path, int width, int height) {
  int w = 0, h = 0;
  std::vector<Rgba8> rgba;
  if (read_png(path, w, h, rgba)) {
    EXPECT_EQ(w, width) << path;
    EXPECT_EQ(h, height) << path;
  }
  return rgba;
}

bool same_pixels(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  if (a.size() != b.size() || a.empty()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].r != b[i].r || a[i].g != b[i].g || a[i].b != b[i].b || a[i].a != b[i].a) return false;
  return true;
}

std::string spot_model() { return project_asset("spot/spot_triangulated_with_mtl.obj"); }

}  // namespace facet::test
