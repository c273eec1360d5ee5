// The check every gpu test makes: the CUDA backend against the CPU reference on one frame.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/cuda/cuda_renderer.h"
#include "engine/render/cpu_renderer.h"
#include "tests/support/image_compare.h"

namespace facet::test {

// Renders `fp` on both backends (`gpu` already holds `scene`): every pixel's triangle id
// identical and a triangle of the scene, colours within 1/255, identical triangle counters (or,
// where the GPU culled occluded meshlets, counters that account for them). Writes
// LABEL-diff.png when ids differ. Returns the number of covered pixels.
inline size_t expect_backends_agree(CudaRenderer& gpu, const std::shared_ptr<Scene>& scene, const FrameParams& fp,
                                    const std::string& label) {
  CpuRenderer cpu;
  cpu.set_scene(scene);
  cpu.render(fp);
  gpu.render(fp);
  std::vector<uint32_t> ids_cpu, ids_gpu;
  std::vector<Rgba8> rgb_cpu, rgb_gpu;
  cpu.read_triangle_ids(ids_cpu);
  cpu.read_rgba(rgb_cpu);
  gpu.read_triangle_ids(ids_gpu);
  gpu.read_rgba(rgb_gpu);
  EXPECT_EQ(ids_cpu.size(), ids_gpu.size()) << label;
  if (ids_cpu.size() != ids_gpu.size()) return 0;
  size_t differing = 0, covered = 0, out_of_range = 0;
  for (size_t i = 0; i < ids_cpu.size(); ++i) {
    differing += ids_cpu[i] != ids_gpu[i];
    covered += ids_cpu[i] != ~0u;
    out_of_range += ids_gpu[i] != ~0u && ids_gpu[i] >= scene->triangle_count();
  }
  if (differing) write_id_diff(label, ids_cpu, ids_gpu, fp.width, fp.height);
  EXPECT_EQ(differing, 0u) << label << ": " << differing << " pixels with another triangle";
  EXPECT_EQ(out_of_range, 0u) << label << ": ids that are no triangle of the scene";
  ColorComparison cc = compare_rgba(rgb_cpu, rgb_gpu, 1);
  EXPECT_EQ(cc.pixels_over, 0u) << label << ": max channel difference " << cc.max_channel_diff;
  const TriCounters a = cpu.stats().tris, b = gpu.stats().tris;
  EXPECT_EQ(a.nan, b.nan) << label;
  EXPECT_EQ(a.occluded, 0u) << label << ": the CPU backend culls no occluded meshlets";
  if (b.occluded == 0) {
    EXPECT_EQ(a.culled, b.culled) << label;
    EXPECT_EQ(a.clipped, b.clipped) << label;
    EXPECT_EQ(a.drawn, b.drawn) << label;
  } else {
    // Occlusion culling (occlusion.h) skipped whole meshlets that the CPU set up one triangle at
    // a time: each of their triangles is at least one more culled, clipped or drawn there.
    EXPECT_LE(b.culled, a.culled) << label;
    EXPECT_LE(b.clipped, a.clipped) << label;
    EXPECT_LE(b.drawn, a.drawn) << label;
    EXPECT_GE((uint64_t)(a.culled - b.culled) + (a.clipped - b.clipped) + (a.drawn - b.drawn), (uint64_t)b.occluded)
        << label;
  }
  return covered;
}

}  // namespace facet::test
