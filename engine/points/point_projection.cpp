// facet.project on the host: the shared per-point math over all cores. The CUDA half lives in
// engine/cuda/point_projection_device.cpp; without CUDA, project_points_device refuses.
#include "engine/points/point_projection.h"

#include <stdexcept>

#include "engine/base/parallel.h"

namespace facet {

namespace {
constexpr uint64_t kPointsPerChunk = 1 << 16;  // 1.6 MB of points a chunk: cheap to hand out, even spread
}

void project_points_host(const PointProjectionParams& p) {
  parallel_for(p.count, kPointsPerChunk, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t i = b; i < e; ++i) {
      const ProjectedPoint r = project_point(p, p.points[3 * i], p.points[3 * i + 1], p.points[3 * i + 2]);
      p.xy[2 * i] = r.x;
      p.xy[2 * i + 1] = r.y;
      p.depth[i] = r.depth;
      p.valid[i] = r.valid;
    }
  });
}

#ifndef FACET_HAVE_CUDA
void project_points_device(const PointProjectionParams&) {
  throw std::runtime_error("facet was built without CUDA: device arrays cannot be projected");
}
#endif

}  // namespace facet
