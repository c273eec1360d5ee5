// Backend choice and the per-frame parameters both backends share.
#include "engine/render/renderer.h"

#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <stdexcept>

#include "engine/render/cpu_renderer.h"
#include "engine/render/frame_setup.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/raster/samples.h"
#if FACET_HAVE_CUDA
#include "engine/cuda/cuda_renderer.h"
#endif

namespace facet {

void Renderer::read_outputs(const FrameOutputs&) {
  throw std::logic_error(std::string(name()) + " renderer: no per-pixel outputs");
}

#if !FACET_HAVE_CUDA
bool cuda_available(std::string* why) {
  if (why) *why = "this facet was built without the CUDA backend (no nvcc at build time)";
  return false;
}
bool cuda_driver_installed() { return false; }
#endif

Backend backend_known_early(Backend asked) {
  return asked == Backend::Auto && !cuda_driver_installed() ? Backend::Cpu : asked;
}

PixelHit pixel_hit_of_key(uint64_t key, uint32_t tag) {
  PixelHit hit;
  if (!key_current(key, tag)) return hit;
  hit.triangle = key_triangle(key);
  // The depth's float bits sit below the two tag bits (vis_key, tag_key).
  uint32_t bits = (uint32_t)(key >> 32) & 0x3fffffffu;
  std::memcpy(&hit.depth, &bits, sizeof bits);
  return hit;
}

std::unique_ptr<Renderer> make_renderer(Backend backend) {
  std::string why;
  if (backend == Backend::Cpu) return std::make_unique<CpuRenderer>();
  if (cuda_available(&why)) {
#if FACET_HAVE_CUDA
    return std::make_unique<CudaRenderer>();
#endif
  }
  if (backend == Backend::Cuda) throw std::runtime_error("CUDA backend unavailable: " + why);
  return std::make_unique<CpuRenderer>();
}

bool back_faces_hidden(const FrameParams& fp, const Bounds& bounds) {
  if (!bounds.closed) return false;
  // The near plane of the frame's clip volume, in world space; the sphere wholly on its inside,
  // with the slack of the float rounding that the meshlet cull allows too.
  const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
  if (!k.enabled) return false;
  const Plane& near = k.clip[0];
  return plane_eval(near, bounds.center) >
         sphere_reach(near, bounds.radius, coordinate_magnitude(bounds.center, bounds.radius));
}

Bounds frame_bounds(const Scene& scene) {
  Bounds b = scene.bounds;
  b.closed = b.closed && !scene_has_cutouts(scene);
  return b;
}

FrameParams make_frame_params(const Camera& camera, const RenderOptions& settings, const Bounds& bounds, int width,
                              int height) {
  if (width <= 0 || height <= 0 || width > kMaxFrameSide || height > kMaxFrameSide)
    throw std::invalid_argument("frame size " + std::to_string(width) + "x" + std::to_string(height) +
                                " is outside 1.." + std::to_string(kMaxFrameSide));
  FrameParams p{};
  glm::mat4 vp = camera.view_projection((float)width / (float)height);
  const float* m = glm::value_ptr(vp);
  for (int i = 0; i < 16; ++i) p.view_proj.m[i] = m[i];
  p.width = width;
  p.height = height;
  p.eye = {camera.eye.x, camera.eye.y, camera.eye.z};
  const glm::vec3 f = camera.forward();
  p.orthographic = camera.orthographic();
  p.view_dir = {f.x, f.y, f.z};
  // Depth shading spans the model's bounding sphere as seen from the eye (in orthographic, from
  // the eye's plane: kernels/frame/view.h).
  glm::vec3 c{bounds.center.x, bounds.center.y, bounds.center.z};
  float d = p.orthographic ? glm::dot(c - camera.eye, f) : glm::length(camera.eye - c);
  p.depth_near = std::max(d - bounds.radius, camera.near_plane);
  p.depth_far = std::max(d + bounds.radius, p.depth_near * 1.0001f);
  p.shading = settings.shading;
  p.filter = settings.filter;
  p.cull_backfaces = settings.cull_backfaces || (!settings.two_sided && back_faces_hidden(p, bounds));
  p.wireframe = settings.wireframe;
  p.clamp_uv = settings.clamp_uv;
  p.background = settings.background;
  if (!valid_sample_count(settings.samples))
    throw std::invalid_argument(std::to_string(settings.samples) + " samples a pixel: use 1, 4 or 8");
  p.samples = settings.samples;
  p.vis_tag = 3;  // a backend that keeps its visibility buffer across frames counts it down
  return p;
}

}  // namespace facet
