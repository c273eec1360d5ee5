// Stand-alone throughput measurements for `facet bench`: the vertex projection alone (the NumPy
// snippet's operation) and the card's device-to-device copy bandwidth it is judged against.
#pragma once
#include <cstdint>

namespace facet {

struct VertexBenchResult {
  uint64_t vertices = 0;
  double median_ms = 0;  // one projection pass over all vertices
  double gvertices_per_s = 0;
  double gbytes_per_s = 0;  // 12 bytes read + 16 written per vertex (ProjectedVertex)
};

// Projects `vertices` random positions `reps` times (after a warm-up); CUDA events, median.
VertexBenchResult bench_vertex_projection(uint64_t vertices, int reps);
// Device-to-device copy of `bytes`, counting bytes read plus written, median of `reps`, GB/s.
double bench_copy_bandwidth(uint64_t bytes, int reps);

}  // namespace facet
