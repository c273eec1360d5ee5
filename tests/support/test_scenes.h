// Shared helpers for tests: asset paths, cameras and frame parameters for known scenes.
#pragma once
#include <functional>
#include <string>

#include "engine/render/renderer.h"

namespace facet::test {

// Path of a file under ../shared/assets (large models, edge cases) or the project's assets/.
std::string shared_asset(const std::string& relative);
std::string project_asset(const std::string& relative);

// load_model's refusal of `path` (its LoadError's message), or "" when the file loaded.
std::string load_refusal(const std::string& path);

// Calls `each(scene, path)` for every edge-case OBJ (../shared/assets/edge-cases) that loads;
// returns how many did.
int for_each_loadable_edge_case(const std::function<void(const Scene&, const std::string&)>& each);

// A camera at `eye` looking at `target`, +Y up, with the given vertical FOV (degrees).
Camera look_at(glm::vec3 eye, glm::vec3 target, float fov_y_deg, float near_plane, float far_plane);

// An orthographic camera at `eye` looking at `target`, +Y up, its frame `height` world units tall.
Camera ortho_look_at(glm::vec3 eye, glm::vec3 target, float height, float near_plane, float far_plane);

// Settings that draw every triangle, back faces of closed meshes too: for tests that count the
// layers the rasterizer covers (hit counts, watertightness), which skipping hidden back faces
// (make_frame_params) would halve, or that compare a frame against one that skips them.
RenderOptions two_sided();

// Frame parameters with default settings (lit, trilinear) for a scene and camera.
FrameParams frame_params(const Scene& scene, const Camera& camera, int width, int height, RenderOptions settings = {});

// Gives every material of `scene` a columns x rows checker alpha map over its uvs: texel (i, j)
// opaque (alpha 255) where i + j is even, a hole (alpha 0) where odd. Returns the texture.
int32_t add_checker_alpha_map(Scene& scene, int columns, int rows);

}  // namespace facet::test
