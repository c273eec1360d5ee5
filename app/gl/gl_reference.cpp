// GlReference: upload a Scene into GL buffers once, draw it in one glDrawElements per frame into
// an offscreen framebuffer (RGBA8 colour, R32UI triangle ids, 32-bit float depth), read it back,
// and time it with GL timer queries.
//
// Why the window origin is the upper left (glClipControl): our backends put pixel row 0 at the
// top and apply the top-left fill rule there. With GL_UPPER_LEFT, GL's window y runs down too, so
// its fill rule and its pixel-centre positions are ours and glReadPixels returns rows top first:
// no row flip, and GL's own tie-breaking along edges is the only remaining difference.
#include "app/gl/gl_reference.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>

#include "engine/scene/colour_space.h"
#include "kernels/frame/raster/samples.h"
#include "kernels/frame/resolve/srgb.h"
#include "shaders/shader_source.h"

namespace facet {
namespace {

constexpr GLuint kAttribPosition = 0, kAttribNormal = 1, kAttribUv = 2, kAttribColor = 3;
// SSBO binding points, as declared in reference.frag.
constexpr GLuint kBindTriMaterial = 0, kBindMaterials = 1, kBindTextures = 2, kBindTexels = 3;

// Immutable storage holding `bytes` (at least 16, so that an empty array still binds).
GlBuffer upload(const void* data, size_t bytes, const char* what, size_t& total) {
  GlBuffer b = make_gl_buffer();
  static const uint8_t zeros[16] = {};
  if (bytes == 0) {
    data = zeros;
    bytes = sizeof(zeros);
  }
  glNamedBufferStorage(b.id(), (GLsizeiptr)bytes, data, 0);
  gl_check_errors("GlReference::set_scene: uploading " + std::string(what) + " (" + std::to_string(bytes) + " bytes)");
  total += bytes;
  return b;
}

template <class T, class A>
GlBuffer upload(const std::vector<T, A>& v, const char* what, size_t& total) {
  return upload(v.data(), v.size() * sizeof(T), what, total);
}

// One vertex as the reference draw reads it. Interleaved, so the vertex fetch reads one 32-byte
// record instead of three streams (a 20 M-triangle sphere is geometry-bound).
struct GlVertex {
  Vec3 position;
  Vec3 normal;  // (0, 0, 1) when the scene has none
  Vec2 uv;      // (0, 0) when the scene has none
};
static_assert(sizeof(GlVertex) == 32, "tightly packed");

// Interleaves the scene's vertex arrays into a GL buffer, a chunk at a time so a 10 M-vertex scene
// does not need a second full copy in host memory.
GlBuffer upload_vertices(const Scene& scene, bool has_normals, bool has_uvs, size_t& total) {
  const size_t n = scene.positions.size();
  const size_t bytes = std::max<size_t>(n * sizeof(GlVertex), 16);
  GlBuffer b = make_gl_buffer();
  glNamedBufferStorage(b.id(), (GLsizeiptr)bytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
  gl_check_errors("GlReference::set_scene: allocating vertices (" + std::to_string(bytes) + " bytes)");
  constexpr size_t kChunk = 1 << 20;
  std::vector<GlVertex> chunk;
  for (size_t first = 0; first < n; first += kChunk) {
    size_t count = std::min(kChunk, n - first);
    chunk.resize(count);
    for (size_t i = 0; i < count; ++i) {
      chunk[i].position = scene.positions[first + i];
      chunk[i].normal = has_normals ? scene.normals[first + i] : Vec3{0, 0, 1};
      chunk[i].uv = has_uvs ? scene.uvs[first + i] : Vec2{0, 0};
    }
    glNamedBufferSubData(b.id(), (GLintptr)(first * sizeof(GlVertex)), (GLsizeiptr)(count * sizeof(GlVertex)),
                         chunk.data());
  }
  gl_check_errors("GlReference::set_scene: uploading vertices");
  total += bytes;
  return b;
}

}  // namespace

GlReference::GlReference() {
  const GLubyte* renderer = glGetString(GL_RENDERER);
  m_clock = gl_clock_for_renderer(renderer ? reinterpret_cast<const char*>(renderer) : "");
  m_program = link_gl_program(shader_source("reference.vert"), shader_source("reference.frag"),
                              "shaders/reference.vert", "shaders/reference.frag");
  GLuint p = m_program.id();
  m_loc_view_proj = glGetUniformLocation(p, "u_view_proj");
  m_loc_shading = glGetUniformLocation(p, "u_shading");
  m_loc_eye = glGetUniformLocation(p, "u_eye");
  m_loc_ortho = glGetUniformLocation(p, "u_ortho");
  m_loc_view_dir = glGetUniformLocation(p, "u_view_dir");
  m_loc_depth_range = glGetUniformLocation(p, "u_depth_range");
  m_loc_filter = glGetUniformLocation(p, "u_filter");
  m_loc_clamp_uv = glGetUniformLocation(p, "u_clamp_uv");
  m_loc_has_uvs = glGetUniformLocation(p, "u_has_uvs");
  m_loc_single_material = glGetUniformLocation(p, "u_single_material");
  m_loc_has_colors = glGetUniformLocation(p, "u_has_colors");
  m_loc_has_cutouts = glGetUniformLocation(p, "u_has_cutouts");
  m_loc_sample_offsets = glGetUniformLocation(p, "u_sample_offsets");
  gl_check_errors("GlReference: setting up the reference program");
}

void GlReference::set_scene(const Scene& scene) {
  // Drop the old scene first: on a big GPU scene the two might not fit side by side.
  m_vao.reset();
  m_vertices.reset();
  m_indices.reset();
  m_colors.reset();
  m_tri_material.reset();
  m_materials.reset();
  m_textures.reset();
  m_texels.reset();
  m_index_count = 0;
  m_scene_bytes = 0;
  gl_check_errors("GlReference::set_scene: before upload");

  if (scene.indices.size() > (size_t)std::numeric_limits<GLsizei>::max())
    throw GlError("GlReference::set_scene: " + std::to_string(scene.indices.size()) +
                  " indices exceed one glDrawElements (GLsizei)");
  size_t total = 0;
  m_has_normals = scene.normals.size() == scene.positions.size() && !scene.normals.empty();
  m_has_uvs = scene.uvs.size() == scene.positions.size() && !scene.uvs.empty();
  m_vertices = upload_vertices(scene, m_has_normals, m_has_uvs, total);
  m_indices = upload(scene.indices, "indices", total);
  m_has_colors = scene.colors.size() == scene.positions.size() && !scene.colors.empty();
  if (m_has_colors) m_colors = upload(scene.colors, "vertex colours", total);
  m_has_cutouts = scene_has_cutouts(scene);

  // Per-triangle materials only when they differ: a one-material 20 M-triangle scene then needs
  // no 80 MB lookup buffer (and no SSBO near the driver's block size limit).
  m_single_material = scene.tri_material.empty() ? 0 : (int32_t)scene.tri_material[0];
  for (uint32_t m : scene.tri_material)
    if ((int32_t)m != m_single_material) {
      m_single_material = -1;
      break;
    }
  if (m_single_material >= 0 && (size_t)m_single_material >= scene.materials.size()) m_single_material = 0;
  if (m_single_material < 0) {
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    size_t bytes = scene.tri_material.size() * sizeof(uint32_t);
    if ((GLint64)bytes > max_block)
      throw GlError("GlReference::set_scene: per-triangle materials (" + std::to_string(bytes) +
                    " bytes) exceed GL_MAX_SHADER_STORAGE_BLOCK_SIZE (" + std::to_string((long long)max_block) + ")");
  }
  m_tri_material =
      upload(m_single_material < 0 ? scene.tri_material : BigVector<uint32_t>{}, "per-triangle materials", total);
  std::vector<Material> materials = scene.materials;
  if (materials.empty())  // as a loader's default
    materials.push_back({{kDefaultGreyLinear, kDefaultGreyLinear, kDefaultGreyLinear}, -1});
  static_assert(sizeof(Material) == 80, "reference.frag reads Material as 80 bytes (std430)");
  static_assert(sizeof(TextureDesc) == 16, "reference.frag reads TextureDesc as 16 bytes");
  static_assert(sizeof(Rgba8) == 4, "reference.frag unpacks one uint per texel");
  m_materials = upload(materials, "materials", total);
  m_textures = upload(scene.textures, "texture descriptors", total);
  m_texels = upload(scene.texels, "texels", total);

  m_vao = make_gl_vertex_array();
  GLuint vao = m_vao.id();
  glVertexArrayVertexBuffer(vao, 0, m_vertices.id(), 0, sizeof(GlVertex));
  glVertexArrayAttribFormat(vao, kAttribPosition, 3, GL_FLOAT, GL_FALSE, offsetof(GlVertex, position));
  glVertexArrayAttribFormat(vao, kAttribNormal, 3, GL_FLOAT, GL_FALSE, offsetof(GlVertex, normal));
  glVertexArrayAttribFormat(vao, kAttribUv, 2, GL_FLOAT, GL_FALSE, offsetof(GlVertex, uv));
  for (GLuint a : {kAttribPosition, kAttribNormal, kAttribUv}) {
    glVertexArrayAttribBinding(vao, a, 0);
    glEnableVertexArrayAttrib(vao, a);
  }
  if (m_has_colors) {  // a stream of its own: scenes without colours keep the 32-byte vertex
    glVertexArrayVertexBuffer(vao, 1, m_colors.id(), 0, sizeof(Rgba8));
    glVertexArrayAttribFormat(vao, kAttribColor, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0);
    glVertexArrayAttribBinding(vao, kAttribColor, 1);
    glEnableVertexArrayAttrib(vao, kAttribColor);
  }
  glVertexArrayElementBuffer(vao, m_indices.id());
  gl_check_errors("GlReference::set_scene: vertex array");
  m_index_count = (uint32_t)scene.indices.size();
  m_scene_bytes = total;
}

// The bound multisample framebuffer's sample positions, as offsets from the pixel centre in pixels
// (window y, down the image with GL_UPPER_LEFT), into u_sample_offsets: where reference.frag
// cuts each sample of a cut-out material, the driver's own coverage positions.
void GlReference::set_sample_offsets() {
  float offsets[2 * kMaxSamples] = {};
  GLint samples = 0;  // what the driver allocated: at least m_samples
  glGetIntegerv(GL_SAMPLES, &samples);
  for (int s = 0; s < std::min((int)samples, kMaxSamples); ++s) {
    glGetMultisamplefv(GL_SAMPLE_POSITION, (GLuint)s, &offsets[2 * s]);
    offsets[2 * s] -= 0.5f;
    offsets[2 * s + 1] -= 0.5f;
  }
  glProgramUniform2fv(m_program.id(), m_loc_sample_offsets, kMaxSamples, offsets);
}

void GlReference::draw(const FrameParams& fp, bool write_ids) {
  GLuint fbo = m_samples > 1 ? m_ms_fbo.id() : m_fbo.id();
  const GLenum both[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
  const GLenum color_only[2] = {GL_COLOR_ATTACHMENT0, GL_NONE};
  glNamedFramebufferDrawBuffers(fbo, 2, write_ids ? both : color_only);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  glViewport(0, 0, fp.width, fp.height);
  glClipControl(GL_UPPER_LEFT, GL_NEGATIVE_ONE_TO_ONE);  // see the top of this file
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_DITHER);
  if (m_samples > 1)
    glEnable(GL_MULTISAMPLE);
  else
    glDisable(GL_MULTISAMPLE);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);  // a later triangle at an equal depth loses: ties go to the lower index
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  if (fp.cull_backfaces) {
    glEnable(GL_CULL_FACE);
    glFrontFace(GL_CCW);
    glCullFace(GL_BACK);
  } else {
    glDisable(GL_CULL_FACE);
  }

  // sRGB colour buffers with GL_FRAMEBUFFER_SRGB: the shader writes linear light, GL encodes
  // each sample, and the multisample resolve averages them decoded (in linear light), as facet's
  // resolve does. The clear colour is linear too; it encodes back to the background's bytes.
  glEnable(GL_FRAMEBUFFER_SRGB);
  const Vec3 bg_linear = srgb_to_linear(fp.background);
  const float bg[4] = {bg_linear.x, bg_linear.y, bg_linear.z, fp.background.a / 255.0f};
  const GLuint no_triangle[4] = {~0u, 0, 0, 0};
  const float far_depth = 1.0f;
  glClearNamedFramebufferfv(fbo, GL_COLOR, 0, bg);
  if (write_ids) glClearNamedFramebufferuiv(fbo, GL_COLOR, 1, no_triangle);
  glClearNamedFramebufferfv(fbo, GL_DEPTH, 0, &far_depth);

  if (m_index_count > 0) {
    GLuint p = m_program.id();
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, m_loc_view_proj, 1, GL_FALSE, fp.view_proj.m);
    glProgramUniform1i(p, m_loc_shading, (GLint)fp.shading);
    glProgramUniform3f(p, m_loc_eye, fp.eye.x, fp.eye.y, fp.eye.z);
    glProgramUniform1i(p, m_loc_ortho, fp.orthographic ? 1 : 0);
    glProgramUniform3f(p, m_loc_view_dir, fp.view_dir.x, fp.view_dir.y, fp.view_dir.z);
    glProgramUniform2f(p, m_loc_depth_range, fp.depth_near, fp.depth_far);
    glProgramUniform1i(p, m_loc_filter, (GLint)fp.filter);
    glProgramUniform1i(p, m_loc_clamp_uv, fp.clamp_uv ? 1 : 0);
    glProgramUniform1i(p, m_loc_has_uvs, m_has_uvs ? 1 : 0);
    glProgramUniform1i(p, m_loc_single_material, m_single_material);
    glProgramUniform1i(p, m_loc_has_colors, m_has_colors ? 1 : 0);
    glProgramUniform1i(p, m_loc_has_cutouts, m_has_cutouts ? 1 : 0);
    if (m_has_cutouts && m_samples > 1) set_sample_offsets();
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindTriMaterial, m_tri_material.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindMaterials, m_materials.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindTextures, m_textures.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindTexels, m_texels.id());
    glBindVertexArray(m_vao.id());
    glDrawElements(GL_TRIANGLES, (GLsizei)m_index_count, GL_UNSIGNED_INT, nullptr);
    glBindVertexArray(0);
    glUseProgram(0);
  }
  // Hand the context back with GL's defaults where others (the viewer) may rely on them.
  glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  if (m_samples > 1) resolve_samples(write_ids);
  glDisable(GL_FRAMEBUFFER_SRGB);
}

void GlReference::render(const FrameParams& fp) {
  ensure_framebuffer(fp.width, fp.height, fp.samples);
  FACET_GL_CHECK(draw(fp, true));
  m_ids_valid = true;
}

std::vector<double> GlReference::time_frames(const FrameParams& fp, int warmup, int frames) {
  ensure_framebuffer(fp.width, fp.height, fp.samples);
  for (int i = 0; i < warmup; ++i) draw(fp, false);
  glFinish();
  std::vector<double> ms;
  ms.reserve((size_t)std::max(frames, 0));
  if (m_clock == GlClock::WallClock) {
    for (int i = 0; i < frames; ++i) {
      const auto start = std::chrono::steady_clock::now();
      draw(fp, false);
      glFinish();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  } else {
    std::vector<GlQuery> queries;
    queries.reserve((size_t)std::max(frames, 0));
    for (int i = 0; i < frames; ++i) {
      queries.push_back(make_gl_query(GL_TIME_ELAPSED));
      glBeginQuery(GL_TIME_ELAPSED, queries.back().id());
      draw(fp, false);
      glEndQuery(GL_TIME_ELAPSED);
    }
    for (const GlQuery& q : queries) {
      GLuint64 ns = 0;
      glGetQueryObjectui64v(q.id(), GL_QUERY_RESULT, &ns);  // waits for that frame
      ms.push_back((double)ns * 1e-6);
    }
  }
  gl_check_errors("GlReference::time_frames");
  m_ids_valid = false;  // the id attachment was not written
  return ms;
}

}  // namespace facet
