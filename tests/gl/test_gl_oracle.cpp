// OpenGL as the oracle: the same scene, camera and FrameParams drawn by our CPU renderer and by
// the GL driver (GlReference through EGL), compared per pixel.
//
// Tolerance (the rule every case below is held to):
//  * Interior pixels must agree exactly. A pixel is interior when every pixel within 1 px of it
//    (its 3x3 neighbourhood) has the same triangle id in OUR image: it is more than a pixel away
//    from any triangle boundary, so no snapping or tie rule can legitimately change it.
//  * Edge pixels may differ (GL snaps and breaks ties on edges its own way, e.g. how it rounds
//    the viewport transform before snapping), but differing pixels must stay under
//    kMaxDifferingFraction (0.5 %) of the pixels our image covers.
//  * Coverage (covered vs background) follows the same rule and must disagree on under
//    kMaxCoverageFraction (0.2 %) of the covered pixels.
//  * Colour (normals and lit shading, where it is checked): on interior pixels of both images,
//    channels within kColorTolerance (2/255) for all but kMaxColorFraction (0.1 %) of them. GL
//    shades with its own interpolation and derivative hardware, so colours are near, not equal.
// On failure a diff image NAME-gl-diff.png is written to the working directory: our ids | GL's
// ids | classification (grey: agree, yellow: edge mismatch, red: interior mismatch).
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "tests/gl/gl_test_env.h"
#include "tests/support/image_compare.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

constexpr double kMaxDifferingFraction = 0.005;
constexpr double kMaxCoverageFraction = 0.002;
constexpr int kColorTolerance = 2;
constexpr double kMaxColorFraction = 0.001;

// A stable, well-spread colour per triangle id, so neighbouring triangles are told apart.
Rgba8 id_color(uint32_t id) {
  if (id == ~0u) return {0, 0, 0, 255};
  uint32_t h = id * 2654435761u;
  h ^= h >> 15;
  return {(uint8_t)(64 + (h & 191)), (uint8_t)(64 + ((h >> 8) & 191)), (uint8_t)(64 + ((h >> 16) & 191)), 255};
}

bool interior(const std::vector<uint32_t>& ids, int w, int h, int x, int y) {
  return !test::near_id_change(ids, w, h, x, y, 1);
}

std::string write_diff_png(const std::string& name, const std::vector<uint32_t>& ours,
                           const std::vector<uint32_t>& theirs, int w, int h) {
  std::vector<Rgba8> img((size_t)w * 3 * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      size_t i = (size_t)y * w + x;
      Rgba8 cls = ours[i] == ~0u ? Rgba8{0, 0, 0, 255} : Rgba8{90, 90, 90, 255};
      if (ours[i] != theirs[i]) cls = interior(ours, w, h, x, y) ? Rgba8{255, 0, 0, 255} : Rgba8{255, 220, 0, 255};
      Rgba8* row = &img[(size_t)y * w * 3];
      row[x] = id_color(ours[i]);
      row[w + x] = id_color(theirs[i]);
      row[2 * w + x] = cls;
    }
  std::string file = name + "-gl-diff.png";
  stbi_write_png(file.c_str(), w * 3, h, 4, img.data(), w * 3 * 4);
  return std::filesystem::absolute(file).string();
}

struct OracleCase {
  std::string name;
  std::function<std::shared_ptr<const Scene>()> scene;
  std::function<Camera(const Scene&, float aspect)> camera;
  int width = 320, height = 240;
  Shading shading = Shading::Lit;
  bool cull_backfaces = false;
  bool check_color = false;   // compare interior colours too (normals, lit)
  size_t min_covered = 1000;  // guards against comparing two empty frames
};

// GoogleTest prints a failing case by its name rather than as raw bytes.
void PrintTo(const OracleCase& c, std::ostream* os) { *os << c.name; }

// Scenes are built once per process and shared by the cases.
std::shared_ptr<const Scene> cached(const std::string& key, std::function<Scene()> make) {
  static std::map<std::string, std::shared_ptr<const Scene>> cache;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, std::make_shared<const Scene>(make())).first;
  return it->second;
}

std::shared_ptr<const Scene> sphere(uint64_t triangles) {
  return cached("sphere" + std::to_string(triangles), [=] { return make_sphere(triangles); });
}
std::shared_ptr<const Scene> quad() {
  return cached("quad", [] { return make_quad(); });
}
std::shared_ptr<const Scene> spot() {
  return cached("spot", [] { return load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj")); });
}

// Spot with every material term the colour pipeline has: its texture also as specular and
// emission map, Ks/Ns, a tinted Ka, Ke, and vertex colours varying over the model.
std::shared_ptr<const Scene> spot_materials() {
  return cached("spot_materials", [] {
    Scene s = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
    Material& m = s.materials.at(0);
    m.ks = {0.6f, 0.5f, 0.4f};
    m.ns = 37;
    m.specular_texture = m.texture;
    m.ka = {0.3f, 0.6f, 0.9f};
    m.ke = {0.02f, 0.01f, 0.0f};
    m.emission_texture = m.texture;
    s.colors.resize(s.vertex_count());
    for (uint32_t v = 0; v < s.vertex_count(); ++v)
      s.colors[v] = {(uint8_t)(128 + v % 128), (uint8_t)(255 - v % 97), (uint8_t)(200 + v % 56), 255};
    return s;
  });
}

std::function<Camera(const Scene&, float)> framing(float fill = 0.9f) {
  return [=](const Scene& s, float aspect) { return Camera::framing(s.bounds, aspect, glm::radians(45.0f), fill); };
}
std::function<Camera(const Scene&, float)> look(glm::vec3 eye, glm::vec3 target, float fov_deg, float near_plane,
                                                float far_plane = 100.0f) {
  return [=](const Scene&, float) { return test::look_at(eye, target, fov_deg, near_plane, far_plane); };
}

// Orthographic: the framing's camera switched with the model's size at the target kept, and a
// camera of a given view height.
std::function<Camera(const Scene&, float)> ortho_framing() {
  return [](const Scene& s, float aspect) {
    Camera c = Camera::framing(s.bounds, aspect);
    c.set_projection(Projection::Orthographic);
    c.fit_clip_planes(s.bounds);
    return c;
  };
}
std::function<Camera(const Scene&, float)> ortho(glm::vec3 eye, glm::vec3 target, float height, float near_plane,
                                                 float far_plane = 100.0f) {
  return [=](const Scene&, float) { return test::ortho_look_at(eye, target, height, near_plane, far_plane); };
}

class GlOracle : public ::testing::TestWithParam<OracleCase> {};

TEST_P(GlOracle, TriangleIdsAgreeExceptAlongEdges) {
  GL_TEST_SETUP();
  const OracleCase& c = GetParam();
  std::shared_ptr<const Scene> scene = c.scene();
  const int w = c.width, h = c.height;
  Camera camera = c.camera(*scene, (float)w / (float)h);
  RenderOptions settings;
  settings.shading = c.shading;
  settings.cull_backfaces = c.cull_backfaces;

  std::unique_ptr<Renderer> cpu = make_renderer(Backend::Cpu);
  cpu->set_scene(scene);
  cpu->render(camera, settings, w, h);
  std::vector<uint32_t> ours, theirs;
  cpu->read_triangle_ids(ours);

  gl.set_scene(*scene);
  gl.render(make_frame_params(camera, settings, scene->bounds, w, h));
  gl.read_triangle_ids(theirs);
  ASSERT_EQ(ours.size(), (size_t)w * h);
  ASSERT_EQ(theirs.size(), ours.size());

  test::IdComparison r = test::compare_ids(ours, theirs, w, h, /*edge_radius=*/1);
  double covered = (double)std::max<size_t>(r.covered, 1);
  std::printf(
      "[ oracle   ] %s: %dx%d, %u triangles, %zu covered px, %zu differ (%.3f %%), "
      "%zu interior, %zu coverage\n",
      c.name.c_str(), w, h, scene->triangle_count(), r.covered, r.differing, 100.0 * r.differing / covered,
      r.interior_differing, r.coverage_differing);
  EXPECT_GE(r.covered, c.min_covered) << "the camera misses the scene";
  EXPECT_EQ(r.interior_differing, 0u) << "pixels more than 1 px from any edge differ";
  EXPECT_LE(r.differing, kMaxDifferingFraction * covered) << "too many edge pixels differ";
  EXPECT_LE(r.coverage_differing, kMaxCoverageFraction * covered) << "coverage disagrees";

  if (c.check_color) {
    std::vector<Rgba8> ours_rgb, theirs_rgb;
    cpu->read_rgba(ours_rgb);
    gl.read_rgba(theirs_rgb);
    size_t compared = 0, over = 0;
    int worst = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        size_t i = (size_t)y * w + x;
        if (ours[i] == ~0u || ours[i] != theirs[i] || !interior(ours, w, h, x, y) || !interior(theirs, w, h, x, y))
          continue;
        Rgba8 a = ours_rgb[i], b = theirs_rgb[i];
        int d = std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
        worst = std::max(worst, d);
        ++compared;
        over += d > kColorTolerance;
      }
    std::printf("[ oracle   ] %s colour: %zu interior px, %zu over %d/255, worst %d/255\n", c.name.c_str(), compared,
                over, kColorTolerance, worst);
    EXPECT_GT(compared, 0u);
    EXPECT_LE(over, kMaxColorFraction * (double)compared) << "colours differ (worst " << worst << ")";
  }
  if (HasFailure()) ADD_FAILURE() << "diff image: " << write_diff_png(c.name, ours, theirs, w, h);
}

const glm::vec3 kOrigin{0, 0, 0};

INSTANTIATE_TEST_SUITE_P(
    Scenes, GlOracle,
    ::testing::Values(
        // Spheres: from a few large triangles to ones smaller than a pixel.
        OracleCase{"sphere_200_framed", [] { return sphere(200); }, framing(), 320, 240, Shading::Normals, false, true},
        OracleCase{"sphere_5k_framed", [] { return sphere(5000); }, framing(), 400, 300, Shading::Lit, false, true},
        OracleCase{"sphere_50k_oblique", [] { return sphere(50000); }, look({1.6f, 1.1f, 2.2f}, kOrigin, 40.0f, 0.1f),
                   512, 384, Shading::Normals, false, true},
        OracleCase{"sphere_200k_subpixel", [] { return sphere(200000); }, framing(0.5f), 320, 240},
        OracleCase{"sphere_5k_culled", [] { return sphere(5000); }, framing(), 320, 240, Shading::Lit, true},
        // Partly outside the frame: clipping to the frame edges and the guard band.
        OracleCase{"sphere_5k_off_frame", [] { return sphere(5000); },
                   look({0.9f, -0.7f, 2.2f}, {0.9f, -0.7f, 0.0f}, 50.0f, 0.1f), 300, 200},
        // A quad filling the whole frame: one long diagonal edge, all else interior.
        OracleCase{"quad_full_screen", [] { return quad(); }, look({0, 0, 0.5f}, kOrigin, 90.0f, 0.1f), 256, 200},
        // Triangles crossing the near plane: the camera inside the sphere's bounding box with the
        // near plane cutting the cap, and a quad seen edge-on from above its end, with vertices
        // behind the eye.
        OracleCase{"sphere_5k_near_plane_cut", [] { return sphere(5000); },
                   look({0.2f, 0.1f, 1.3f}, kOrigin, 60.0f, 0.5f), 320, 240, Shading::Normals, false, true},
        OracleCase{"quad_behind_the_eye", [] { return quad(); },
                   look({0.1f, -0.6f, 0.25f}, {0.0f, 1.0f, 0.0f}, 70.0f, 0.05f), 320, 240},
        // The default model, framed, and close up with the near plane through it.
        OracleCase{"spot_framed", [] { return spot(); }, framing(), 480, 360, Shading::Normals, false, true},
        OracleCase{"spot_textured_lit", [] { return spot(); }, framing(), 480, 360, Shading::Lit, false, true},
        OracleCase{"spot_materials_lit", [] { return spot_materials(); }, framing(), 480, 360, Shading::Lit, false,
                   true},
        OracleCase{"spot_materials_texture", [] { return spot_materials(); }, framing(), 480, 360, Shading::Texture,
                   false, true},
        OracleCase{"spot_near_plane", [] { return spot(); },
                   [](const Scene& s, float) {
                     glm::vec3 c{s.bounds.center.x, s.bounds.center.y, s.bounds.center.z};
                     float r = s.bounds.radius;
                     return test::look_at(c + glm::vec3(0.3f, 0.2f, 0.6f) * r, c, 60.0f, 0.35f * r, 10.0f * r);
                   },
                   400, 300},
        // Orthographic: framed (lit: the headlight along the view), oblique with back faces
        // culled, zoomed in past the frame's edges, and with the near plane cutting the sphere.
        OracleCase{"sphere_5k_ortho_framed", [] { return sphere(5000); }, ortho_framing(), 400, 300, Shading::Lit,
                   false, true},
        OracleCase{"sphere_50k_ortho_culled", [] { return sphere(50000); },
                   ortho({1.6f, 1.1f, 2.2f}, kOrigin, 2.4f, 0.1f), 512, 384, Shading::Normals, true, true},
        OracleCase{"sphere_50k_ortho_off_frame", [] { return sphere(50000); },
                   ortho({0.2f, 0.5f, 3.0f}, {0.9f, -0.7f, 0.0f}, 0.8f, 0.1f), 300, 200},
        OracleCase{"sphere_5k_ortho_near_plane_cut", [] { return sphere(5000); },
                   ortho({0.2f, 0.1f, 1.3f}, kOrigin, 2.5f, 0.8f), 320, 240, Shading::Normals, false, true},
        OracleCase{"spot_ortho_textured_lit", [] { return spot(); }, ortho_framing(), 480, 360, Shading::Lit, false,
                   true}),
    [](const ::testing::TestParamInfo<OracleCase>& info) { return info.param.name; });

}  // namespace
}  // namespace facet
