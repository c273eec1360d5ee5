// The frame texture and its present pass.
#include "app/viewer/window/frame_texture.h"

#include "shaders/shader_source.h"

namespace facet {

FrameTexture::FrameTexture()
    : m_program(link_gl_program(shader_source("present.vert"), shader_source("present.frag"), "present.vert",
                                "present.frag")),
      m_vao(make_gl_vertex_array()) {}

bool FrameTexture::resize(int width, int height) {
  if (width == m_width && height == m_height && m_texture) return false;
  m_texture.reset();  // the old name goes first: interop has already let go of it
  m_texture = make_gl_texture(GL_TEXTURE_2D);
  FACET_GL_CHECK(glTextureStorage2D(m_texture.id(), 1, GL_RGBA8, width, height));
  gl_check_errors("frame texture storage (out of GL memory?)");
  glTextureParameteri(m_texture.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(m_texture.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  m_width = width;
  m_height = height;
  return true;
}

void FrameTexture::upload(const std::vector<Rgba8>& pixels) {
  if (pixels.size() != (size_t)m_width * (size_t)m_height) return;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  FACET_GL_CHECK(
      glTextureSubImage2D(m_texture.id(), 0, 0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data()));
}

void FrameTexture::present(int viewport_w, int viewport_h) {
  // One texel per pixel: nearest keeps the image bit-exact; otherwise (resolution scale) bilinear.
  GLint filter = (viewport_w == m_width && viewport_h == m_height) ? GL_NEAREST : GL_LINEAR;
  glTextureParameteri(m_texture.id(), GL_TEXTURE_MIN_FILTER, filter);
  glTextureParameteri(m_texture.id(), GL_TEXTURE_MAG_FILTER, filter);
  glViewport(0, 0, viewport_w, viewport_h);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);
  glUseProgram(m_program.id());
  glBindTextureUnit(0, m_texture.id());
  glBindVertexArray(m_vao.id());
  FACET_GL_CHECK(glDrawArrays(GL_TRIANGLES, 0, 3));
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace facet
