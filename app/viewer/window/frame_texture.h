// The frame on the GL side: one RGBA8 texture of the render size (what the CUDA backend writes
// through interop, or what the CPU image is uploaded into) and the full-screen pass that shows it
// (shaders/present.*). Needs a current GL 4.5 context for its whole life.
#pragma once
#include <vector>

#include "app/gl/gl_objects.h"
#include "kernels/base/hd.h"

namespace facet {

class FrameTexture {
 public:
  FrameTexture();  // compiles the present program
  // Reallocates the texture when the size changes; returns true when it did (interop must then
  // register the new texture). Storage is immutable, so a new size is a new texture name.
  bool resize(int width, int height);
  // The copy path: the renderer's image (row 0 = top) into the texture.
  void upload(const std::vector<Rgba8>& pixels);
  // Draws the texture over the whole viewport (0, 0, viewport_w, viewport_h) of the bound framebuffer.
  void present(int viewport_w, int viewport_h);

  GLuint texture() const { return m_texture.id(); }
  int width() const { return m_width; }
  int height() const { return m_height; }

 private:
  GlProgram m_program;
  GlVertexArray m_vao;  // empty: the vertex stage makes its positions from gl_VertexID
  GlTexture m_texture;
  int m_width = 0, m_height = 0;
};

}  // namespace facet
