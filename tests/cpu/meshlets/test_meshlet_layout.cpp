// The meshlet layout of the shading (params.h, MeshletShading: what the CUDA backend keeps on the
// device) against the scene vertex layout the CPU backend reads: every triangle reaches the same
// vertex values through its slot code and meshlet, and so every shading mode, the wireframe, the
// cut-out test and the frame outputs give the same bits, for meshlets kept in the file's order
// and for grown patches, with uvs, vertex colours, several materials and an alpha map. The host
// build (tests/support/meshlet_shading.h) is the same function as the device's kernel, which the
// gpu tests hold to it.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/generate.h"
#include "kernels/frame/outputs/frame_outputs.h"
#include "kernels/frame/raster/cutout.h"
#include "kernels/frame/resolve/shade.h"
#include "tests/support/meshlet_shading.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

bool same_bits(const void* a, const void* b, size_t n) { return std::memcmp(a, b, n) == 0; }

// A sphere with vertex colours and a second material on every third triangle.
Scene coloured_sphere() {
  Scene s = make_sphere(20000);
  for (uint32_t v = 0; v < s.vertex_count(); ++v)
    s.colors.push_back({(uint8_t)(v * 37), (uint8_t)(v * 101 >> 3), (uint8_t)(255 - v % 200), 255});
  s.materials.push_back({{0.9f, 0.3f, 0.1f}, -1});
  for (size_t t = 0; t < s.tri_material.size(); t += 3) s.tri_material[t] = 1;
  s.meshlets = nullptr;
  return s;
}

struct Case {
  std::string label;
  Scene scene;
  std::shared_ptr<const Meshlets> meshlets;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  {
    Scene s = coloured_sphere();
    auto runs = std::make_shared<const Meshlets>(build_meshlet_runs(s));
    auto patches = std::make_shared<const Meshlets>(build_meshlet_patches(s));
    out.push_back({"coloured sphere, runs", s, runs});
    out.push_back({"coloured sphere, patches", std::move(s), patches});
  }
  {
    Scene spot = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
    test::add_checker_alpha_map(spot, 8, 8);  // cut-outs that read the uvs
    auto m = std::make_shared<const Meshlets>(build_meshlet_patches(spot));
    out.push_back({"Spot with an alpha map, patches", std::move(spot), m});
  }
  return out;
}

// A case's scene read through both layouts (the views point into `shade` and `h`).
struct BothLayouts {
  std::vector<ShadeVertex> shade;
  HostMeshletShading h;
  SceneView scene_layout, meshlet_view;
};
std::unique_ptr<BothLayouts> both_layouts(const Case& c) {
  auto b = std::make_unique<BothLayouts>();
  b->shade = interleave_shade_vertices(c.scene);
  b->h = host_meshlet_shading(c.scene, c.meshlets, b->shade);
  b->scene_layout = c.scene.view(b->shade.data());
  b->meshlet_view = b->h.view(b->scene_layout);
  return b;
}

}  // namespace

TEST(MeshletLayout, EveryTriangleReadsTheSameVertexValues) {
  for (const Case& c : cases()) {
    const Scene& s = c.scene;
    const std::unique_ptr<BothLayouts> both = both_layouts(c);
    const HostMeshletShading& h = both->h;
    const SceneView &scene_layout = both->scene_layout, &meshlet_view = both->meshlet_view;
    ASSERT_TRUE(meshlet_layout(meshlet_view) && !meshlet_layout(scene_layout)) << c.label;
    EXPECT_EQ(h.colors.empty(), s.colors.empty()) << c.label;
    EXPECT_EQ(h.uvs.empty(), s.uvs.empty()) << c.label;
    // The positions the device builds are the geometry stage's copies (Meshlets::positions).
    size_t moved = 0;
    for (size_t v = 0; v < h.points.size(); ++v) moved += !same_bits(&h.points[v].p, &c.meshlets->positions[v], 12);
    EXPECT_EQ(moved, 0u) << c.label << ": meshlet vertices whose position is not the meshlet's copy";
    size_t differ = 0, unwritten = 0;
    for (uint32_t t = 0; t < s.triangle_count(); ++t) {
      const bool written = h.corners[t] != ~0u;
      unwritten += !written;
      if (!written) continue;
      const TriangleCorners a = triangle_corners(scene_layout, t), b = triangle_corners(meshlet_view, t);
      const uint32_t ia[3] = {a.i0, a.i1, a.i2}, ib[3] = {b.i0, b.i1, b.i2};
      for (int k = 0; k < 3; ++k) {
        const ShadeVertex va = shade_vertex(scene_layout, ia[k]), vb = shade_vertex(meshlet_view, ib[k]);
        bool same = same_bits(&va, &vb, sizeof va);
        if (!s.colors.empty()) same = same && same_bits(&scene_layout.colors[ia[k]], &meshlet_view.colors[ib[k]], 4);
        differ += !same;
      }
    }
    EXPECT_EQ(unwritten, 0u) << c.label << ": triangles without corners";
    EXPECT_EQ(differ, 0u) << c.label << ": corners whose values differ, of " << 3 * (size_t)s.triangle_count();
  }
}

// A key at each sampled triangle's centroid pixel, shaded through both layouts in every mode.
TEST(MeshletLayout, ShadesCutsAndOutputsTheSameBits) {
  for (const Case& c : cases()) {
    const std::unique_ptr<BothLayouts> both = both_layouts(c);
    const SceneView &scene_layout = both->scene_layout, &meshlet_view = both->meshlet_view;
    const Scene& s = c.scene;
    const std::vector<ShadeVertex>& shade = both->shade;
    const Camera cam = test::look_at({0.6f * s.bounds.radius, 0.8f * s.bounds.radius, 2.8f * s.bounds.radius},
                                     {s.bounds.center.x, s.bounds.center.y, s.bounds.center.z}, 45.0f,
                                     0.05f * s.bounds.radius, 10.0f * s.bounds.radius);
    const int w = 160, ht = 120;
    int compared = 0, distinct = 0;
    for (Shading mode : {Shading::Lit, Shading::Texture, Shading::Normals, Shading::Depth}) {
      for (bool wire : {false, true}) {
        FrameParams fp = test::frame_params(s, cam, w, ht);
        fp.shading = mode;
        fp.wireframe = wire;
        Rgba8 first{};
        for (uint32_t t = 0; t < s.triangle_count(); t += 97) {
          const ShadeVertex v0 = shade[s.indices[3 * t]], v1 = shade[s.indices[3 * t + 1]],
                            v2 = shade[s.indices[3 * t + 2]];
          const Vec4 clip = project_vertex(fp.view_proj, (v0.p + v1.p + v2.p) * (1.0f / 3.0f));
          if (!(clip.w > 0.0f)) continue;
          const int px = (int)((clip.x / clip.w + 1.0f) * 0.5f * w), py = (int)((1.0f - clip.y / clip.w) * 0.5f * ht);
          if (px < 0 || py < 0 || px >= w || py >= ht) continue;
          const uint64_t key = tag_key(vis_key(0.5f, t), fp.vis_tag);
          const Rgba8 a = shade_pixel(scene_layout, fp, px, py, key), b = shade_pixel(meshlet_view, fp, px, py, key);
          EXPECT_TRUE(same_bits(&a, &b, 4))
              << c.label << ", mode " << (int)mode << ", wire " << wire << ", triangle " << t;
          const float x = px + 0.3f, y = py + 0.7f;
          EXPECT_EQ(cutout_keeps(scene_layout, fp, t, x, y), cutout_keeps(meshlet_view, fp, t, x, y))
              << c.label << " " << t;
          // The frame outputs at that pixel, from a visibility buffer holding the key there.
          std::vector<uint64_t> vis((size_t)w * ht, kEmptyKey);
          const size_t at = (size_t)py * w + px;
          vis[at] = key;
          struct Outputs {
            float depth, bary[3];
            int32_t id;
          };
          auto outputs = [&](const SceneView& view) {
            std::vector<float> depth((size_t)w * ht), bary(3 * (size_t)w * ht);
            std::vector<int32_t> id((size_t)w * ht);
            write_pixel_outputs({view, fp, vis.data(), depth.data(), id.data(), bary.data()}, px, py);
            return Outputs{depth[at], {bary[3 * at], bary[3 * at + 1], bary[3 * at + 2]}, id[at]};
          };
          const Outputs oa = outputs(scene_layout), ob = outputs(meshlet_view);
          EXPECT_TRUE(same_bits(&oa, &ob, sizeof oa)) << c.label << " outputs, triangle " << t;
          ++compared;
          if (compared == 1) first = a;
          distinct += !same_bits(&a, &first, 4);
        }
      }
    }
    EXPECT_GT(compared, 100) << c.label;
    EXPECT_GT(distinct, 10) << c.label << ": every pixel the same colour, the comparison tells nothing";
  }
}
