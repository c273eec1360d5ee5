// Vertex projection and copy bandwidth measured with CUDA events (median of many runs).
#include "engine/cuda/throughput_bench.h"

#include <algorithm>
#include <random>
#include <vector>

#include "engine/cuda/device_buffer.h"
#include "kernels/frame/stages.h"

namespace facet {

namespace {

template <class Fn>
double median_ms(int reps, cudaStream_t stream, Fn&& fn) {
  cudaEvent_t a, b;
  FACET_CUDA_CHECK(cudaEventCreate(&a));
  FACET_CUDA_CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) fn();  // warm-up
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    FACET_CUDA_CHECK(cudaEventRecord(a, stream));
    fn();
    FACET_CUDA_CHECK(cudaEventRecord(b, stream));
    FACET_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    FACET_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  FACET_CUDA_CHECK(cudaEventDestroy(a));
  FACET_CUDA_CHECK(cudaEventDestroy(b));
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

}  // namespace

VertexBenchResult bench_vertex_projection(uint64_t n, int reps) {
  // Random positions (never zeros: they can run faster than real data).
  std::vector<Vec3> host(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& p : host) p = {u(rng), u(rng), u(rng)};
  DeviceBuffer<Vec3> pos;
  pos.upload(host, "benchmark positions");
  DeviceBuffer<ProjectedVertex> out(n, "benchmark projected vertices");
  ProjectPointsParams p{pos.data(), out.data(), (uint32_t)n, {}, 1920, 1080};
  // A perspective view of the unit cube from z = 3: every vertex is in front and inside.
  const float m[16] = {1.3f, 0, 0, 0, 0, 2.4f, 0, 0, 0, 0, -1.02f, -1, 0, 0, 2.8f, 3};
  for (int i = 0; i < 16; ++i) p.view_proj.m[i] = m[i];
  double ms = median_ms(reps, nullptr, [&] {
    launch_project_points(p, nullptr);
    FACET_CUDA_CHECK(cudaGetLastError());
  });
  VertexBenchResult r;
  r.vertices = n;
  r.median_ms = ms;
  r.gvertices_per_s = n / (ms * 1e-3) / 1e9;
  r.gbytes_per_s = n * 28.0 / (ms * 1e-3) / 1e9;
  return r;
}

double bench_copy_bandwidth(uint64_t bytes, int reps) {
  DeviceBuffer<uint8_t> a(bytes, "copy benchmark source"), b(bytes, "copy benchmark target");
  FACET_CUDA_CHECK(cudaMemset(a.data(), 1, bytes));
  double ms = median_ms(reps, nullptr, [&] {
    FACET_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, nullptr));
  });
  return 2.0 * bytes / (ms * 1e-3) / 1e9;
}

}  // namespace facet
