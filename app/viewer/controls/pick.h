// Picking and measuring on the host: the world point a pixel shows, from the renderer's pick
// (the triangle in the last frame's visibility buffer) and the camera ray through the pixel,
// intersected with that triangle's plane in double. Also the screen position of a world point,
// for drawing measurements. No GL, no ImGui: the viewer calls these and draws the results.
#pragma once
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "engine/render/camera.h"
#include "engine/render/renderer.h"
#include "engine/scene/scene.h"

namespace facet {

// The ray from the eye through the centre of pixel (x, y) of a width x height frame (row 0 = top);
// orthographic: from the pixel's point on the eye's plane, along the view direction.
struct PixelRay {
  glm::dvec3 origin;
  glm::dvec3 direction;  // unit length
};
PixelRay pixel_ray(const Camera& camera, double x, double y, int width, int height);

// What the cursor is over.
struct SurfacePick {
  bool hit = false;
  uint32_t triangle = ~0u;  // the triangle's index in the file (Scene::file_index)
  float depth = 1.0f;       // window depth from the visibility key, [0, 1]
  glm::dvec3 position{0};   // world position on the triangle
  double distance = 0;      // from the eye (orthographic: the eye's plane), world units
  std::string material;     // the triangle's material name ("" when the file named none)
};
// The surface under pixel (x, y) of the last frame (rendered at width x height with `camera`).
SurfacePick pick_surface(Renderer& renderer, const Scene& scene, const Camera& camera, int x, int y, int width,
                         int height);
// The same from a hit already read (tests and callers that picked themselves).
SurfacePick surface_from_hit(const Scene& scene, const Camera& camera, PixelHit hit, int x, int y, int width,
                             int height);

// Where a world point lands in a viewport_w x viewport_h window (y down); false behind the eye.
bool project_to_window(const Camera& camera, glm::dvec3 p, float viewport_w, float viewport_h, glm::vec2* out);

// Two clicks in measure mode: the points so far (0, 1 or 2; a third click starts again).
struct Measurement {
  std::vector<glm::dvec3> points;
  void click(glm::dvec3 p) {
    if (points.size() >= 2) points.clear();
    points.push_back(p);
  }
  bool complete() const { return points.size() == 2; }
  double length() const { return complete() ? glm::length(points[1] - points[0]) : 0.0; }
};

}  // namespace facet
