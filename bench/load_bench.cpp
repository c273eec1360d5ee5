// facet_load_bench: loads a model N times and prints the median time of each loader stage (from
// the progress callback) with its MB/s and triangles/s, beside `wc -l` on the same file in the
// same run: the floor of reading the bytes once.
//   facet_load_bench [MODEL.obj] [-n RUNS] [--tile N [--keep]]
// Default: the 871k-triangle Stanford dragon. --tile N writes N copies of the model side by side
// into a temporary OBJ (removed afterwards, kept with --keep for other timings) and loads that:
// big models without shipping them
// (geometry only: the copy lives in the temp folder, away from any MTL).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/load/load_model.h"

using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The loader's progress stages, grouped into what the bench reports.
const char* bench_stage(const std::string& stage) {
  if (stage == "reading") return "read/map";
  if (stage == "parsing") return "parse";
  if (stage == "stitching") return "stitch";
  if (stage == "building" || stage == "normals") return "mesh";
  if (stage == "materials" || stage == "textures" || stage == "mips") return "materials";
  if (stage == "preparing") return "prepare";
  return nullptr;
}

// N copies of an OBJ of v / vt / vn / f lines, each copy moved along x by `step`; positive
// indices shifted per copy, relative ones kept. Other statements are written once.
std::string write_tiled(const std::string& path, int copies, float step) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  size_t counts[3] = {0, 0, 0};
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("v ", 0) == 0) ++counts[0];
    if (line.rfind("vt ", 0) == 0) ++counts[1];
    if (line.rfind("vn ", 0) == 0) ++counts[2];
    lines.push_back(std::move(line));
  }
  char name[] = "/tmp/facet_tiled_XXXXXX.obj";
  int fd = mkstemps(name, 4);
  if (fd < 0) return "";
  close(fd);
  std::ofstream out(name, std::ios::binary);
  for (int k = 0; k < copies; ++k) {
    for (const std::string& line : lines) {
      if (line.rfind("v ", 0) == 0) {
        float x = 0, y = 0, z = 0;
        std::sscanf(line.c_str() + 2, "%f %f %f", &x, &y, &z);
        out << "v " << x + step * (float)k << ' ' << y << ' ' << z << '\n';
      } else if (line.rfind("f ", 0) == 0) {
        std::istringstream corners(line.substr(2));
        out << 'f';
        for (std::string c; corners >> c;) {
          out << ' ';
          int part = 0;
          for (size_t p = 0; p <= c.size(); ++part) {
            size_t slash = std::min(c.find('/', p), c.size());
            std::string s = c.substr(p, slash - p);
            long v = s.empty() ? 0 : std::atol(s.c_str());
            if (v > 0) v += (long)(counts[part] * (size_t)k);
            if (part) out << '/';
            if (!s.empty()) out << v;
            p = slash + 1;
          }
        }
        out << '\n';
      } else if (k == 0 || line.rfind("vt ", 0) == 0 || line.rfind("vn ", 0) == 0) {
        out << line << '\n';
      }
    }
  }
  return name;
}

// Seconds `wc -l` takes on the file (it prints its count to /dev/null).
double wc_seconds(const std::string& path) {
  std::string cmd = "wc -l '" + path + "' > /dev/null";
  Clock::time_point t0 = Clock::now();
  if (std::system(cmd.c_str()) != 0) return 0;
  return seconds_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj";
  int runs = 3, tile = 0;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--tile") && i + 1 < argc)
      tile = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--keep"))
      keep = true;
    else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::printf("usage: %s [MODEL.obj] [-n RUNS] [--tile N [--keep]]\n", argv[0]);
      return 0;
    } else
      path = argv[i];
  }
  std::string tiled;
  if (tile > 1) {
    facet::Scene one = facet::load_model(path);
    tiled = write_tiled(path, tile, 1.1f * (one.bounds.max.x - one.bounds.min.x));
    if (tiled.empty()) return 1;
    path = tiled;
  }
  std::ifstream probe(path, std::ios::binary | std::ios::ate);
  const double mb = (double)probe.tellg() / 1e6;

  std::vector<double> totals, wc;
  std::map<std::string, std::vector<double>> stages;  // bench stage -> seconds per run
  const std::vector<std::string> order = {"read/map", "parse", "stitch", "mesh", "materials", "prepare"};
  facet::Scene scene;
  for (int r = 0; r < runs; ++r) {
    wc.push_back(wc_seconds(path));
    std::string stage;
    Clock::time_point stage_start;
    std::map<std::string, double> this_run;
    facet::LoadOptions options;
    options.progress = [&](float, const char* name) {
      Clock::time_point now = Clock::now();
      const char* group = stage.empty() ? nullptr : bench_stage(stage);
      if (group) this_run[group] += std::chrono::duration<double>(now - stage_start).count();
      stage = name;
      stage_start = now;
    };
    Clock::time_point t0 = Clock::now();
    try {
      scene = facet::load_model(path, options);
    } catch (const facet::LoadError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
    totals.push_back(seconds_since(t0));
    for (const std::string& name : order) stages[name].push_back(this_run[name]);
  }
  if (!tiled.empty() && !keep) std::remove(tiled.c_str());

  const double tris = scene.triangle_count();
  std::printf("model      %s%s\n", path.c_str(), tiled.empty() ? "" : keep ? " (tiled, kept)" : " (tiled, removed)");
  std::printf("size       %.1f MB, %.0f triangles, %u vertices, %zu materials, %zu textures\n", mb, tris,
              scene.vertex_count(), scene.materials.size(), scene.textures.size());
  std::printf("runs       %d (medians below)\n", runs);
  std::printf("wc -l      %8.1f ms  %8.0f MB/s   (floor: reading the bytes once)\n", 1e3 * median(wc), mb / median(wc));
  for (const std::string& name : order) {
    double s = median(stages[name]);
    std::printf("  %-9s %8.1f ms  %8.0f MB/s  %8.1f M triangles/s\n", name.c_str(), 1e3 * s, s > 0 ? mb / s : 0.0,
                s > 0 ? tris / s / 1e6 : 0.0);
  }
  double total = median(totals);
  std::printf("total      %8.1f ms  %8.0f MB/s  %8.1f M triangles/s\n", 1e3 * total, mb / total, tris / total / 1e6);
  for (const std::string& w : scene.warnings) std::printf("warning    %s\n", w.c_str());
  return 0;
}
