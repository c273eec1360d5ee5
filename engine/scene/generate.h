// Generated scenes for tests and benchmarks (large ones are generated, not committed).
#pragma once
#include "engine/render/camera.h"
#include "engine/scene/scene.h"

namespace facet {

// A closed UV sphere of about `triangles` triangles (at least 8), centred at `center`, with
// outward counter-clockwise winding, per-vertex normals and UVs, one grey material.
Scene make_sphere(uint64_t triangles, float radius = 1.0f, Vec3 center = {0, 0, 0});

// A unit quad in the z = 0 plane spanning [-1, 1]^2, two triangles, UVs 0..1, textured with the
// given RGBA8 image (width x height, row 0 = top) when it is not empty.
Scene make_quad(const std::vector<Rgba8>& image = {}, int width = 0, int height = 0);

// Eye distance at which a sphere of radius r covers `fraction` of a width x height frame seen
// with vertical field of view fov_y (radians).
float distance_for_coverage(float r, float fraction, int width, int height, float fov_y);

// `facet bench`'s camera for a scene with bounds `b` in a width x height frame (45 degrees, looking
// down -z at the centre): a generated sphere covers 28 % of the frame, any other model's bounding
// sphere spans 80 % of its height; with `ortho` the same view, orthographic.
Camera bench_camera(const Bounds& b, bool sphere, int width, int height, bool ortho = false);

}  // namespace facet
