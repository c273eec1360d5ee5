// The Renderer: a scene uploaded once, then frames drawn for a camera. Two backends share the
// pipeline math in kernels/: CUDA (the product) and CPU (reference and fallback).
// Frames are RGBA8, row 0 = the top of the image.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/camera.h"
#include "engine/scene.h"

namespace facet {

enum class Backend { Auto, Cpu, Cuda };

struct RenderSettings {
  Shading shading = Shading::Lit;      // what each pixel shows
  Filter filter = Filter::Trilinear;   // texture filter
  bool cull_backfaces = false;         // drop every back face; off by default: scans have holes
                                       //   and mixed winding
  bool two_sided = false;              // draw back faces even where they cannot show: a closed
                                       //   surface seen from outside otherwise skips them
                                       //   (make_frame_params)
  bool wireframe = false;              // overlay triangle edges
  bool clamp_uv = false;               // clamp instead of repeat
  Rgba8 background{40, 42, 48, 255};   // where no triangle is
  bool ground_grid = false;            // a grid on the plane under the model, depth-tested
                                       //   (engine/decorate.h)
};

// Where the CUDA backend writes a frame. The engine never includes GL: the viewer passes a CUDA
// surface object (from a registered GL texture) as an integer.
struct FrameTarget {
  enum class Kind { Internal, Surface } kind = Kind::Internal;
  unsigned long long surface = 0;  // cudaSurfaceObject_t of an RGBA8 2D array, when kind == Surface
};

// GPU (or CPU wall-clock) time of each stage of the last frame whose timings are available, ms.
struct StageTimes {
  float vertex = 0;    // vertex projection; when vertices_in_raster, the buffer clears alone
  bool vertices_in_raster = false;  // CUDA: vertices are projected per meshlet inside raster
  float raster = 0;    // triangle setup, clipping and rasterization into the visibility buffer
  float resolve = 0;   // shading each pixel once, writing RGBA8
  float total = 0;     // the whole frame
  // The stage figures were measured on this frame. CUDA times the stages on one frame in four
  // (events between the stages cost time themselves) and the whole frame on every frame.
  bool stages_this_frame = true;
};

// Sums per-worker or per-block copies of the triangle counters.
inline void add_counters(TriCounters& total, const TriCounters& c) {
  total.culled += c.culled;
  total.clipped += c.clipped;
  total.nan += c.nan;
  total.drawn += c.drawn;
  total.occluded += c.occluded;
}

struct FrameStats {
  uint32_t triangles_in = 0;     // triangles in the scene
  TriCounters tris{};            // culled / clipped / NaN / drawn / occluded
  StageTimes times{};            // one frame late on CUDA (never stalls a frame)
  size_t scene_bytes = 0;        // memory the uploaded scene holds
  size_t frame_bytes = 0;        // per-frame buffers (visibility buffer, queues, image)
  uint64_t overflow_events = 0;  // frames re-rendered because a fixed-size buffer overflowed
  bool back_faces_culled = false;  // the last frame dropped back faces: asked, or hidden
                                   //   (a closed model seen from outside, make_frame_params)
};

// What one pixel of the last frame shows, decoded from its visibility key (no extra pass).
struct PixelHit {
  uint32_t triangle = ~0u;  // scene triangle index, ~0u where no triangle was drawn
  float depth = 1.0f;       // window depth in [0, 1] (0 = near plane)
  bool hit() const { return triangle != ~0u; }
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  virtual const char* name() const = 0;
  // Makes `scene` the one drawn; uploads it once. On failure (e.g. out of device memory) throws
  // and keeps the previous scene.
  virtual void set_scene(std::shared_ptr<const Scene> scene) = 0;
  virtual void render(const Camera& camera, const RenderSettings& settings, int width, int height,
                      const FrameTarget& target = {}) = 0;
  // The last frame's pixels, row 0 = top. Waits for the frame to finish.
  virtual void read_rgba(std::vector<Rgba8>& out) = 0;
  // The last frame's visibility: triangle index per pixel, or ~0u where no triangle is.
  virtual void read_triangle_ids(std::vector<uint32_t>& out) = 0;
  virtual FrameStats stats() const = 0;
  // The last frame's visibility at pixel (x, y), row 0 = top; none outside the frame. Reads one
  // key (CUDA: one 8-byte copy after the frame), never the whole buffer. Both backends override
  // it; the default (test doubles) picks nothing.
  virtual PixelHit pick(int /*x*/, int /*y*/) { return {}; }
};

// Decodes a visibility key of the frame tagged `tag` (kernels/raster.h) for Renderer::pick.
PixelHit pixel_hit_of_key(uint64_t key, uint32_t tag);

// Whether a CUDA device is usable here; `why` says why not.
bool cuda_available(std::string* why = nullptr);
// Auto picks CUDA when a device is usable, else the CPU. Throws when Cuda is asked for and none is.
std::unique_ptr<Renderer> make_renderer(Backend backend);

// FrameParams for one frame (used by both backends). Back faces are culled when the settings ask,
// and also, unless settings.two_sided, when they cannot show: the scene is a closed surface
// facing outward (bounds.closed) and its bounding sphere lies wholly beyond the near plane, so
// the eye is outside it and nothing is cut open. Every back face is then behind a front face
// (closed_surface.h); the pixels change only where the two lie within float rounding of each
// other, and that choice goes to the front face (NOTES.md, v11).
FrameParams make_frame_params(const Camera& camera, const RenderSettings& settings,
                              const Bounds& bounds, int width, int height);
// Whether a frame of the scene with these bounds may skip its back faces as above.
bool back_faces_hidden(const FrameParams& fp, const Bounds& bounds);

}  // namespace facet
