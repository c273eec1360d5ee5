// facet_ply_bench: the binary PLY reader's throughput on a large model.
//   facet_ply_bench --write OUT.ply [--copies N] [MODEL]   write MODEL (default: the dragon OBJ)
//                                                          tiled N times (default 100) on a grid,
//                                                          as binary little-endian PLY
//   facet_ply_bench FILE.ply [-n RUNS]                     load it RUNS times (default 3): median
//                                                          total and per stage, MB/s, triangles/s,
//                                                          next to the floor of reading the bytes
// The big file is made here rather than shipped (issue 15: 100 dragons are 1.6 GB of PLY).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "engine/load/load_model.h"

using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int write_tiled(const std::string& model, const std::string& out, int copies) {
  facet::LoadOptions in_file_order;  // runs: the triangles as the file has them, not renumbered
  in_file_order.meshlets = facet::MeshletGrouping::FileOrder;
  facet::Scene s = facet::load_model(model, in_file_order);
  const int side = (int)std::ceil(std::sqrt((double)copies));
  const facet::Vec3 size = s.bounds.max - s.bounds.min;
  const float step = 1.2f * std::max(size.x, size.z);  // a gap of a fifth of the model between copies
  FILE* f = std::fopen(out.c_str(), "wb");
  if (!f) return std::perror(out.c_str()), 1;
  const uint64_t nv = (uint64_t)s.vertex_count() * copies, nt = (uint64_t)s.triangle_count() * copies;
  std::fprintf(f,
               "ply\nformat binary_little_endian 1.0\ncomment %d copies of %s\nelement vertex %llu\n"
               "property float x\nproperty float y\nproperty float z\nelement face %llu\n"
               "property list uchar int vertex_indices\nend_header\n",
               copies, model.c_str(), (unsigned long long)nv, (unsigned long long)nt);
  std::vector<char> buf;
  for (int c = 0; c < copies; ++c) {
    const float dx = step * (c % side), dz = step * (c / side);
    buf.resize(s.positions.size() * 12);
    for (size_t i = 0; i < s.positions.size(); ++i) {
      const float p[3] = {s.positions[i].x + dx, s.positions[i].y, s.positions[i].z + dz};
      std::memcpy(&buf[i * 12], p, 12);
    }
    std::fwrite(buf.data(), 1, buf.size(), f);
  }
  for (int c = 0; c < copies; ++c) {
    buf.resize((size_t)s.triangle_count() * 13);
    for (size_t t = 0; t < s.triangle_count(); ++t) {
      buf[t * 13] = 3;
      const int32_t idx[3] = {(int32_t)(s.indices[t * 3] + (uint64_t)c * s.vertex_count()),
                              (int32_t)(s.indices[t * 3 + 1] + (uint64_t)c * s.vertex_count()),
                              (int32_t)(s.indices[t * 3 + 2] + (uint64_t)c * s.vertex_count())};
      std::memcpy(&buf[t * 13 + 1], idx, 12);
    }
    std::fwrite(buf.data(), 1, buf.size(), f);
  }
  if (std::fclose(f) != 0) return std::perror(out.c_str()), 1;
  std::printf("wrote %s: %llu vertices, %llu triangles\n", out.c_str(), (unsigned long long)nv, (unsigned long long)nt);
  return 0;
}

// Seconds to read the whole file through read() in 1 MiB blocks (from the page cache once warm):
// the floor any reader of these bytes pays.
double read_floor(const std::string& path, double& bytes) {
  std::vector<char> block(1 << 20);
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return -1;
  Clock::time_point t0 = Clock::now();
  bytes = 0;
  for (ssize_t n; (n = ::read(fd, block.data(), block.size())) > 0;) bytes += (double)n;
  ::close(fd);
  return seconds_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, write_to, model = FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj";
  int runs = 3, copies = 100;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--copies") && i + 1 < argc)
      copies = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--write") && i + 1 < argc)
      write_to = argv[++i];
    else if (argv[i][0] == '-')
      return std::printf("usage: see the top of bench/ply_bench.cpp\n"), 2;
    else
      path = argv[i];
  }
  try {
    if (!write_to.empty()) return write_tiled(path.empty() ? model : path, write_to, copies);
    if (path.empty()) return std::printf("usage: see the top of bench/ply_bench.cpp\n"), 2;
    std::vector<double> totals, floors;
    std::map<std::string, std::vector<double>> stages, stage_cpu;
    std::vector<double> cpu_totals;
    std::vector<std::string> order;
    facet::Scene scene;
    double bytes = 0;
    for (int r = 0; r < runs; ++r) {
      floors.push_back(read_floor(path, bytes));
      std::string stage;
      Clock::time_point at;
      std::clock_t cpu_at = 0;
      // A stage reported many times (the meshlet build reports its progress) adds up to one
      // figure a run.
      std::map<std::string, double> run_wall, run_cpu;
      facet::LoadOptions options;
      options.progress = [&](float, const char* name) {
        if (!stage.empty()) {
          run_wall[stage] += seconds_since(at);
          run_cpu[stage] += (double)(std::clock() - cpu_at) / CLOCKS_PER_SEC;
        }
        stage = name;
        at = Clock::now();
        cpu_at = std::clock();
        if (r == 0 && std::find(order.begin(), order.end(), stage) == order.end()) order.push_back(stage);
      };
      scene = facet::Scene{};
      Clock::time_point t0 = Clock::now();
      std::clock_t c0 = std::clock();
      scene = facet::load_model(path, options);
      totals.push_back(seconds_since(t0));
      for (const auto& [name, seconds] : run_wall) {
        stages[name].push_back(seconds);
        stage_cpu[name].push_back(run_cpu[name]);
      }
      cpu_totals.push_back((double)(std::clock() - c0) / CLOCKS_PER_SEC);
    }
    const double t = median(totals), mb = bytes / 1e6;
    std::printf("file       %s (%.1f MB, %u triangles)\n", path.c_str(), mb, scene.triangle_count());
    std::printf("floor      read() of the bytes: median %.1f ms (%.0f MB/s)\n", 1e3 * median(floors),
                mb / median(floors));
    std::printf(
        "load       median of %d: %.1f ms, %.0f MB/s, %.1f M triangles/s (CPU time of all "
        "threads %.1f ms)\n",
        runs, 1e3 * t, mb / t, scene.triangle_count() / t / 1e6, 1e3 * median(cpu_totals));
    // CPU time beside wall time: on a shared machine the wall time also counts other processes.
    for (const std::string& name : order)
      if (stages.count(name))
        std::printf("  %-10s %.1f ms (CPU %.1f ms)\n", name.c_str(), 1e3 * median(stages[name]),
                    1e3 * median(stage_cpu[name]));
    if (stages.count("parsing")) std::printf("parse      %.0f MB/s\n", mb / median(stages["parsing"]));
  } catch (const facet::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
