// The Renderer: a scene uploaded once, then frames drawn for a camera. Two backends share the
// pipeline math in kernels/: CUDA (the product) and CPU (reference and fallback). What a backend
// can do beyond the common frame is in its BackendCapabilities, for callers to ask.
// Frames are RGBA8, row 0 = the top of the image.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/render/camera.h"
#include "engine/render/frame_outputs.h"
#include "engine/render/frame_plan.h"
#include "engine/scene/scene.h"

namespace facet {

enum class Backend { Auto, Cpu, Cuda };

struct RenderOptions {
  Shading shading = Shading::Lit;     // what each pixel shows
  Filter filter = Filter::Trilinear;  // texture filter
  bool cull_backfaces = false;        // drop every back face; off by default: scans have holes
                                      //   and mixed winding
  bool two_sided = false;             // draw back faces even where they cannot show: a closed
                                      //   surface seen from outside otherwise skips them
                                      //   (make_frame_params)
  bool wireframe = false;             // overlay triangle edges
  bool clamp_uv = false;              // clamp instead of repeat
  Rgba8 background{40, 42, 48, 255};  // where no triangle is
  bool ground_grid = false;           // a grid on the plane under the model, depth-tested
                                      //   (engine/render/ground_grid.h)
  uint8_t samples = 1;                // anti-aliasing samples a pixel: 1, 4 or 8
                                      //   (kernels/frame/raster/samples.h); the CLI and viewer default to 4
};

// Where a frame is written: the renderer's own image, or, on a backend whose frames are on the
// device (BackendCapabilities::device_frames), a surface or the caller's device memory. The engine
// never includes GL: the viewer passes a CUDA surface object (from a registered GL texture) as an
// integer.
struct FrameTarget {
  enum class Kind { Internal, Surface, Device } kind = Kind::Internal;
  unsigned long long surface = 0;  // cudaSurfaceObject_t of an RGBA8 2D array, when kind == Surface
  Rgba8* pixels = nullptr;         // when kind == Device: the caller's device memory, width *
                                   //   height, row 0 = top, written instead of the renderer's own
                                   //   image (no copy after the frame). Ordered as read_outputs'
                                   //   device outputs are: after the work enqueued before on the
                                   //   legacy default stream, before the work after.
};

// GPU (or CPU wall-clock) time of each stage of the last frame whose timings are available, ms.
// The same stages on both backends: clear, then geometry (vertex projection, whole-meshlet and
// per-triangle culling, clipping, setup and rasterization into the visibility buffer), then
// resolve.
struct StageTimes {
  float clear = 0;     // resetting the visibility buffer (CUDA clears one frame in four: the
                       //   frames between carry a tag in their keys instead, and read 0 here)
  float geometry = 0;  // everything from the scene's vertices to the filled visibility buffer
  float resolve = 0;   // shading each pixel once, writing RGBA8
  float total = 0;     // the whole frame
  // The stage figures were measured on this frame; false on some frames of a backend with
  // BackendCapabilities::sampled_stage_times (CUDA times the stages on one frame in four, since
  // events between the stages cost time themselves, and the whole frame on every frame).
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
  uint32_t triangles_in = 0;       // triangles in the scene
  TriCounters tris{};              // culled / clipped / NaN / drawn / occluded
  StageTimes times{};              // one frame late on CUDA (never stalls a frame)
  size_t scene_bytes = 0;          // memory the uploaded scene holds
  size_t frame_bytes = 0;          // per-frame buffers (visibility buffer, queues, image)
  size_t peak_bytes = 0;           // the most device memory the process's buffers held at once, an
                                   //   upload's moments included (0 for the CPU backend)
  uint64_t overflow_events = 0;    // frames re-rendered because a fixed-size buffer overflowed
  bool back_faces_culled = false;  // the last frame dropped back faces: asked, or hidden
                                   //   (a closed model seen from outside, make_frame_params)
};

// What a backend can do besides drawing a frame into its own image, for callers to ask instead
// of comparing backend names. All false: a backend that draws on the host and has finished each
// frame when render returns (the CPU backend).
struct BackendCapabilities {
  // Frames are drawn in device memory, queued on native_stream(): render returns before the frame
  // is done (finish waits for it), FrameTarget::Surface and ::Device and FrameOutputs::on_device
  // are accepted, and FrameStats::peak_bytes counts device memory.
  bool device_frames = false;
  // upload_ahead, closed_outward_ahead and centroid_order_ahead do their work ahead of set_scene,
  // on another thread; elsewhere they do nothing and answer "not here", and the caller does it.
  bool work_ahead = false;
  bool occlusion_culling = false;  // culls hidden meshlets by what the previous frame showed
                                   //   (BackendOptions::occlusion)
  bool graph_launch = false;       // launches a frame as one graph (BackendOptions::graph_launch)
  // Times the stages on some frames only (StageTimes::stages_this_frame: the marks between the
  // stages cost time of their own), the whole frame on every frame.
  bool sampled_stage_times = false;
};

// How a backend computes a frame, never what it shows: `facet bench` and the tests compare the
// choices. A backend ignores what it does not have (capabilities() says what it has).
struct BackendOptions {
  bool graph_launch = true;                       // a frame as one graph launch (false: call by call, to
                                                  //   measure what the graph saves)
  OcclusionMode occlusion = OcclusionMode::Auto;  // occlusion culling of whole meshlets
  bool claiming_geometry = false;                 // geometry blocks that claim meshlets whatever the scene's
                                                  //   size, on a backend that has them (tests run both shapes
                                                  //   of the stage on small scenes)
};

// What one pixel of the last frame shows, decoded from its visibility key (no extra pass).
struct PixelHit {
  uint32_t triangle = ~0u;  // scene triangle index, ~0u where no triangle was drawn
  float depth = 1.0f;       // window depth in [0, 1] (0 = near plane)
  bool hit() const { return triangle != ~0u; }
};

// What Renderer::upload_ahead sends.
enum class UploadPart { Shading, Whole };

class Renderer {
 public:
  virtual ~Renderer() = default;
  // The backend's name as --backend spells it (option_names.h), for messages and reports; what
  // it can do is capabilities()'s to say.
  virtual const char* name() const = 0;
  virtual BackendCapabilities capabilities() const = 0;
  // The meshlets this backend draws fastest from, for the load to build (LoadOptions::meshlets).
  virtual MeshletGrouping meshlet_grouping() const { return MeshletGrouping::Auto; }

  // Makes `scene` the one drawn; uploads it once. On failure (e.g. out of device memory) throws
  // and keeps the previous scene.
  virtual void set_scene(std::shared_ptr<const Scene> scene) = 0;

  // Work ahead of set_scene, from another thread (BackendCapabilities::work_ahead; a backend
  // without it does nothing and answers "not here", and the caller does the work itself).
  // upload_ahead: a head start on set_scene(scene), so that set_scene has less or nothing left to
  // send. UploadPart::Shading sends every array but the meshlets and does not read those (a
  // load's while_preparing, while they are being built); UploadPart::Whole sends the meshlets too
  // (set_scene then only swaps). set_scene uses it when given this scene (the same arrays, moved
  // into a shared_ptr or not); another scene makes it useless. Frames may run meanwhile,
  // set_scene and another upload_ahead may not. Throws on failure (set_scene then sends it all).
  virtual void upload_ahead(const Scene& scene, UploadPart part) {
    (void)scene;
    (void)part;
  }
  // Whether `scene`, sent by upload_ahead, is a closed surface facing outward (closed_outward,
  // closed_surface.h, about scene.bounds.center), decided where it was sent, while the CPU builds
  // the meshlets: the same answer as closed_outward, bit for bit. Empty where this backend cannot
  // (no work ahead, or not of this scene): the caller asks the CPU. The same threads as
  // upload_ahead. Throws on failure.
  virtual std::optional<bool> closed_outward_ahead(const Scene& scene) {
    (void)scene;
    return std::nullopt;
  }
  // The triangles of `scene`, sent by upload_ahead, sorted for the patch meshlets (PatchRanges::
  // order, meshlet_ranges.h) where it was sent: the same array as the CPU's sort. Null where this
  // backend cannot (as above): the CPU sorts. The same threads as upload_ahead. Throws on failure.
  virtual std::unique_ptr<uint32_t[]> centroid_order_ahead(const Scene& scene) {
    (void)scene;
    return nullptr;
  }

  // How the next frames are computed (never what they show).
  virtual void set_options(const BackendOptions& options) { (void)options; }
  virtual void render(const Camera& camera, const RenderOptions& settings, int width, int height,
                      const FrameTarget& target = {}) = 0;
  // A frame from explicit parameters (make_frame_params; tests and the bench share them between
  // backends and with OpenGL).
  virtual void render(const FrameParams& params, const FrameTarget& target = {}) = 0;
  // Waits for the frame in flight; its timings and counters are then in stats(). Without
  // BackendCapabilities::device_frames a frame is finished when render returns.
  virtual void finish() {}
  // The device stream the frames are queued on (a cudaStream_t on the CUDA backend), for interop
  // that orders its own work with the frames (the viewer maps and unmaps its GL texture on it);
  // null without BackendCapabilities::device_frames.
  virtual void* native_stream() const { return nullptr; }

  // The last frame's pixels, row 0 = top. Waits for the frame to finish.
  virtual void read_rgba(std::vector<Rgba8>& out) = 0;
  // The last frame's visibility: triangle index per pixel, or ~0u where no triangle is.
  virtual void read_triangle_ids(std::vector<uint32_t>& out) = 0;
  // The last frame's colour, depth, triangle ids and barycentrics (frame_outputs.h) into the
  // caller's buffers, each width * height of the last frame; null ones are skipped. Waits for
  // the frame. Throws when out.on_device is asked of a backend without device_frames; the
  // default (a renderer that does not keep its visibility, e.g. a test double) always throws.
  virtual void read_outputs(const FrameOutputs& out);
  // The last frame's visibility at pixel (x, y), row 0 = top; none outside the frame. Reads one
  // key (on the device: one 8-byte copy after the frame), never the whole buffer. Both backends
  // override it; the default (test doubles) picks nothing.
  virtual PixelHit pick(int /*x*/, int /*y*/) { return {}; }
  virtual FrameStats stats() const = 0;
};

// Decodes a visibility key of the frame tagged `tag` (kernels/frame/raster/raster.h) for Renderer::pick.
PixelHit pixel_hit_of_key(uint64_t key, uint32_t tag);

// Whether a CUDA device is usable here; `why` says why not.
bool cuda_available(std::string* why = nullptr);
// Whether a CUDA driver is installed here: the Linux kernel module's /proc entry, else (WSL)
// whether the driver's library loads, which then stays loaded for CUDA. Where none is, no device
// can be used. Cheap next to cuda_available, which starts the driver (a good part of a second
// where there is a device).
bool cuda_driver_installed();
// Auto picks CUDA when a device is usable, else the CPU. Throws when Cuda is asked for and none is.
std::unique_ptr<Renderer> make_renderer(Backend backend);
// `asked`, with Auto made Cpu where no CUDA driver is installed: known before a load starts, so
// that the load builds what the CPU backend draws from (meshlet_grouping). Elsewhere Auto stays
// Auto, and make_renderer decides.
Backend backend_known_early(Backend asked);

// FrameParams for one frame (used by both backends). Back faces are culled when the settings ask,
// and also, unless settings.two_sided, when they cannot show: the scene is a closed surface
// facing outward (bounds.closed) and its bounding sphere lies wholly beyond the near plane, so
// the eye is outside it and nothing is cut open. Every back face is then behind a front face
// (closed_surface.h); the pixels change only where the two lie within float rounding of each
// other, and that choice goes to the front face.
FrameParams make_frame_params(const Camera& camera, const RenderOptions& settings, const Bounds& bounds, int width,
                              int height);
// Whether a frame of the scene with these bounds may skip its back faces as above.
bool back_faces_hidden(const FrameParams& fp, const Bounds& bounds);
// The bounds to make a scene's frames with: its own, but never `closed` when some material cuts
// samples away (scene_has_cutouts), since the inside shows through a hole.
Bounds frame_bounds(const Scene& scene);

}  // namespace facet
