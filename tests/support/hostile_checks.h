// Checks shared by the hostile-geometry tests (tests/cpu/test_hostile_*.cpp) and the coverage
// tests: a CPU frame with its ids, colours and triangle counters; a check that a frame holds no
// garbage; per-pixel hit counts through the shared front end (process_triangle + raster_rect,
// no depth test); a comparison against the double-precision ray caster (ray_cast.h); and hit
// counts checked over many cameras (watertightness). Scenes come from hostile_scenes.h; this
// file builds none.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/render/renderer.h"
#include "tests/support/ray_cast.h"
#include "tests/support/test_scenes.h"

namespace facet::test {

// What the CPU backend drew.
struct Frame {
  std::vector<uint32_t> ids;  // triangle per pixel, kNoTriangle where none
  std::vector<Rgba8> rgba;
  TriCounters tris{};
};
Frame render(const std::shared_ptr<Scene>& scene, const FrameParams& fp);
Frame render(const Scene& scene, const FrameParams& fp);

// No garbage: a covered pixel holds a triangle of the scene that `allowed` accepts and, with Lit
// shading of the hostile grey material, a grey between kd * ambient and kd; an empty pixel holds
// exactly the background colour. Returns the number of covered pixels.
size_t expect_clean(const Frame& f, const Scene& s, const FrameParams& fp, const std::string& label,
                    const std::function<bool(uint32_t)>& allowed = nullptr);

// Hits per pixel of every triangle through the shared front end, without a depth test, the
// lowest id covering each pixel, and the pixels of all raster boxes handed out (the raster work).
struct Hits {
  std::vector<int> count;
  std::vector<uint32_t> min_id;
  TriCounters tris{};
  uint64_t box_pixels = 0;
};
Hits hit_counts(const Scene& s, const FrameParams& fp);

// Renders two-sided and compares against the ray caster: only pixels next to an edge may differ,
// at most 1 in 20 of the covered ones, and the reference must see something.
void expect_matches_ray_cast(const Scene& s, const Camera& c, int w, int h, const std::string& label);

// Checks every camera's two-sided hit counts with `ok(count)`, and that at least `min_covered`
// pixels are hit; `what` names the expectation in the message.
void expect_hits(const Scene& s, const std::vector<Camera>& cams, int w, int h, const char* what,
                 const std::function<bool(int)>& ok, size_t min_covered = 50);

// The camera most hostile scenes are seen from: on +Z at 5 looking at the origin, near plane 0.5.
inline const Camera kFront = look_at({0, 0, 5}, {0, 0, 0}, 50.0f, 0.5f, 100.0f);

inline bool hit_even(int n) { return n % 2 == 0; }
inline bool hit_once(int n) { return n == 1; }
inline bool hit_odd(int n) { return n % 2 == 1; }

}  // namespace facet::test
