// measure_frames: one measuring path for both backends, so that every bench option means the
// same on the CPU as on CUDA.
#include "app/bench_measure.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace facet {

namespace {

// One frame, drawn to the end, so that its stage times are its own.
void draw_frame(Renderer& renderer, const Camera& camera, const Bounds& bounds, const MeasureParams& p) {
  renderer.render(make_frame_params(camera, p.settings, bounds, p.width, p.height));
  renderer.finish();
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

Camera orbit_camera(const Camera& camera, const Vec3& centre, float degrees) {
  const glm::vec3 c{centre.x, centre.y, centre.z};
  const glm::mat4 turn = glm::rotate(glm::mat4(1.0f), glm::radians(degrees), glm::vec3(0, 1, 0));
  Camera turned = camera;
  turned.eye = c + glm::vec3(turn * glm::vec4(camera.eye - c, 0.0f));
  return turned;
}

Measurement measure_frames(Renderer& renderer, const Camera& camera, const Bounds& bounds, const MeasureParams& p) {
  std::vector<double> clear, geometry, resolve, frame;
  for (int i = 0; i < p.warmup + p.frames; ++i) {
    // A moving camera: what the frame before drew differs.
    const Camera cam = p.orbit_deg != 0.0f ? orbit_camera(camera, bounds.center, p.orbit_deg * (float)i) : camera;
    draw_frame(renderer, cam, bounds, p);
    if (i < p.warmup) continue;
    StageTimes t = renderer.stats().times;
    frame.push_back(t.total);
    if (t.stages_this_frame) {  // CUDA: one frame in four (renderer.h)
      clear.push_back(t.clear);
      geometry.push_back(t.geometry);
      resolve.push_back(t.resolve);
    }
  }
  Measurement m;
  m.last = renderer.stats();
  if (clear.empty()) {  // too few frames for a timed one: the stages of the last (a warm-up)
    clear.push_back(m.last.times.clear);
    geometry.push_back(m.last.times.geometry);
    resolve.push_back(m.last.times.resolve);
  }
  m.clear = median(clear);
  m.geometry = median(geometry);
  m.resolve = median(resolve);
  m.frame = median(frame);
  return m;
}

}  // namespace facet
