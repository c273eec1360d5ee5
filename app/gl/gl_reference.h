// The OpenGL reference renderer: the same scene and the same world -> clip matrix drawn by the GL
// driver's own pipeline (shaders/reference.vert/.frag), into an offscreen framebuffer with the
// triangle index per pixel (R32UI), RGBA8 colour shaded like kernels/frame/resolve/shade.h and 32-bit float
// depth with GL_LESS. It is the oracle for the visibility tests (tests/gl/) and the OpenGL figure
// of `facet bench` (clear + draw, timed by GlClock).
// Needs a current OpenGL 4.5 core context (EglContext, or the viewer's window); every call must be
// made with that context current. It does not create or own the context.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/gl/gl_clock.h"
#include "app/gl/gl_objects.h"
#include "engine/scene/scene.h"

namespace facet {

class GlReference {
 public:
  // Compiles the reference program. Throws GlError (compile/link log) on failure.
  GlReference();

  // Uploads `scene` once (positions, normals, UVs, 32-bit indices, per-triangle materials,
  // materials, texture descriptors and texels) and drops the previous one. Throws GlError naming
  // the buffer when GL runs out of memory or a limit is exceeded; the previous scene is then gone.
  void set_scene(const Scene& scene);

  // Draws every triangle of the scene in one glDrawElements into a framebuffer of fp.width x
  // fp.height (recreated when the size or sample count changes), cleared to fp.background, ids ~0u
  // and depth 1. With fp.samples > 1 it draws into a multisample framebuffer of that many samples
  // (the driver's own pattern; llvmpipe's 4x is ours, kernels/frame/raster/samples.h) and resolves
  // it into the single-sample one with glBlitFramebuffer: colour averaged by the driver, ids one
  // sample's (GL picks which). Uses fp.view_proj, eye, depth range, shading, filter, clamp_uv and
  // cull_backfaces (counter-clockwise in NDC is front); wireframe is ignored. Does not wait for the
  // GPU.
  void render(const FrameParams& fp);

  // The last frame's triangle index per pixel, row 0 = the top of the image, ~0u where nothing
  // was drawn. width * height values. Waits for the frame.
  void read_triangle_ids(std::vector<uint32_t>& out);
  // The last frame's colour, same orientation.
  void read_rgba(std::vector<Rgba8>& out);

  // Renders `warmup` untimed frames, then `frames` frames, each timed from before its clear
  // (colour + depth) to after its draw by clock(); returns milliseconds per frame.
  // Only the colour and depth attachments are written while timing (the id attachment is
  // switched off), so the figure is a plain colour + depth pass. Leaves the last frame's ids stale.
  std::vector<double> time_frames(const FrameParams& fp, int warmup, int frames);

  // How time_frames measures on this context's driver (gl_clock_for_renderer of its GL_RENDERER).
  GlClock clock() const { return m_clock; }

  int width() const { return m_width; }
  int height() const { return m_height; }
  uint32_t triangle_count() const { return m_index_count / 3; }
  // Bytes of GL memory the uploaded scene holds, and the framebuffer (colour + ids + depth).
  size_t scene_bytes() const { return m_scene_bytes; }
  size_t frame_bytes() const { return (size_t)m_width * (size_t)m_height * 12 * (m_samples > 1 ? m_samples + 1 : 1); }

 private:
  void ensure_framebuffer(int width, int height, int samples);
  void resolve_samples(bool write_ids);
  void draw(const FrameParams& fp, bool write_ids);
  void set_sample_offsets();  // u_sample_offsets from the multisample framebuffer bound for drawing
  void read_attachment(GLenum attachment, GLenum format, GLenum type, void* out, const char* what);

  GlProgram m_program;
  GLint m_loc_view_proj = -1, m_loc_shading = -1, m_loc_eye = -1, m_loc_depth_range = -1, m_loc_ortho = -1,
        m_loc_view_dir = -1, m_loc_filter = -1, m_loc_clamp_uv = -1, m_loc_has_uvs = -1, m_loc_single_material = -1,
        m_loc_has_colors = -1, m_loc_has_cutouts = -1, m_loc_sample_offsets = -1;

  // The scene.
  GlVertexArray m_vao;
  GlBuffer m_vertices;  // interleaved GlVertex (position, normal, uv): one fetch stream
  GlBuffer m_indices;
  GlBuffer m_colors;  // sRGB vertex colours (Rgba8), second vertex stream; empty without them
  GlBuffer m_tri_material, m_materials, m_textures, m_texels;  // SSBO bindings 0..3
  uint32_t m_index_count = 0;
  bool m_has_normals = false, m_has_uvs = false;
  bool m_has_colors = false, m_has_cutouts = false;  // Scene::colors, scene_has_cutouts
  int32_t m_single_material = 0;                     // material of every triangle, or -1 when they differ
  size_t m_scene_bytes = 0;

  // The frame.
  GlFramebuffer m_fbo;
  GlRenderbuffer m_color, m_ids, m_depth;
  GlFramebuffer m_ms_fbo;  // multisample, when m_samples > 1
  GlRenderbuffer m_ms_color, m_ms_ids, m_ms_depth;
  int m_width = 0, m_height = 0, m_samples = 1;
  bool m_ids_valid = false;
  GlClock m_clock = GlClock::TimerQueries;
};

}  // namespace facet
