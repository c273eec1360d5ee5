// facet.project's CUDA kernel: bandwidth-bound (12 bytes in, 13 out per point), so each thread
// takes four points as three 16-byte loads and writes two 16-byte xy stores, one 16-byte depth
// store and one 4-byte flag store; a scalar tail (and a scalar kernel for buffers not 16-byte
// aligned) handles the rest. The math is point_projection.h, shared with the CPU loop.
#include <cuda_runtime.h>

#include "kernels/base/launch.h"
#include "kernels/frame/tuning.h"
#include "kernels/points/point_projection.h"
#include "kernels/points/point_projection_launch.h"

namespace facet {

namespace {
constexpr int kBlock = kPointProjectionThreads;
constexpr int kPointsPerThread = 4;  // four points = 48 bytes = three float4 loads (the format)
}  // namespace

__global__ void __launch_bounds__(kBlock) project_points_vec4(PointProjectionParams p, uint64_t quads) {
  const uint64_t q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= quads) return;
  const float4* in = reinterpret_cast<const float4*>(p.points) + q * 3;
  const float4 a = __ldcs(in), b = __ldcs(in + 1), c = __ldcs(in + 2);
  const ProjectedPoint r0 = project_point(p, a.x, a.y, a.z);
  const ProjectedPoint r1 = project_point(p, a.w, b.x, b.y);
  const ProjectedPoint r2 = project_point(p, b.z, b.w, c.x);
  const ProjectedPoint r3 = project_point(p, c.y, c.z, c.w);
  float4* xy = reinterpret_cast<float4*>(p.xy) + q * 2;
  __stcs(xy, make_float4(r0.x, r0.y, r1.x, r1.y));
  __stcs(xy + 1, make_float4(r2.x, r2.y, r3.x, r3.y));
  __stcs(reinterpret_cast<float4*>(p.depth) + q, make_float4(r0.depth, r1.depth, r2.depth, r3.depth));
  reinterpret_cast<uchar4*>(p.valid)[q] = make_uchar4(r0.valid, r1.valid, r2.valid, r3.valid);
}

__global__ void __launch_bounds__(kBlock) project_points_scalar(PointProjectionParams p, uint64_t first) {
  const uint64_t i = first + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.count) return;
  const ProjectedPoint r = project_point(p, p.points[3 * i], p.points[3 * i + 1], p.points[3 * i + 2]);
  p.xy[2 * i] = r.x;
  p.xy[2 * i + 1] = r.y;
  p.depth[i] = r.depth;
  p.valid[i] = r.valid;
}

namespace {
bool aligned16(const void* ptr) { return (reinterpret_cast<uintptr_t>(ptr) & 15u) == 0; }
unsigned blocks_for(uint64_t n) { return (unsigned)((n + kBlock - 1) / kBlock); }
}  // namespace

void launch_point_projection(const PointProjectionParams& p, cudaStream_t stream) {
  if (p.count == 0) return;
  const bool vec =
      aligned16(p.points) && aligned16(p.xy) && aligned16(p.depth) && (reinterpret_cast<uintptr_t>(p.valid) & 3u) == 0;
  const uint64_t quads = vec ? p.count / kPointsPerThread : 0;
  if (quads) launch_kernel(project_points_vec4, blocks_for(quads), kBlock, stream, false, p, quads);
  const uint64_t first = quads * kPointsPerThread;
  if (first < p.count)
    launch_kernel(project_points_scalar, blocks_for(p.count - first), kBlock, stream, false, p, first);
}

}  // namespace facet
