// GlReference's frame: its framebuffers (single-sample, and multisample beside it when a frame
// has N samples), the resolve of the samples into the single-sample frame, and the readback.
// Drawing and timing are gl_reference.cpp's.
#include "app/gl/gl_reference.h"

#include <algorithm>
#include <string>

namespace facet {

// The colour, id and depth attachments of `fbo` at `samples` samples (1: single-sample storage).
static void attach_frame_buffers(GlFramebuffer& fbo, GlRenderbuffer& color, GlRenderbuffer& ids, GlRenderbuffer& depth,
                                 int width, int height, int samples) {
  color = make_gl_renderbuffer();
  ids = make_gl_renderbuffer();
  depth = make_gl_renderbuffer();
  if (samples > 1) {
    glNamedRenderbufferStorageMultisample(color.id(), samples, GL_SRGB8_ALPHA8, width, height);
    glNamedRenderbufferStorageMultisample(ids.id(), samples, GL_R32UI, width, height);
    glNamedRenderbufferStorageMultisample(depth.id(), samples, GL_DEPTH_COMPONENT32F, width, height);
  } else {
    glNamedRenderbufferStorage(color.id(), GL_SRGB8_ALPHA8, width, height);
    glNamedRenderbufferStorage(ids.id(), GL_R32UI, width, height);
    glNamedRenderbufferStorage(depth.id(), GL_DEPTH_COMPONENT32F, width, height);
  }
  fbo = make_gl_framebuffer();
  glNamedFramebufferRenderbuffer(fbo.id(), GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color.id());
  glNamedFramebufferRenderbuffer(fbo.id(), GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, ids.id());
  glNamedFramebufferRenderbuffer(fbo.id(), GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth.id());
  GLenum status = glCheckNamedFramebufferStatus(fbo.id(), GL_FRAMEBUFFER);
  gl_check_errors("GlReference: creating the " + std::to_string(width) + "x" + std::to_string(height) +
                  " framebuffer of " + std::to_string(samples) + " sample(s)");
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw GlError("GlReference: framebuffer of " + std::to_string(samples) +
                  " sample(s) incomplete (glCheckNamedFramebufferStatus " + std::to_string(status) + ")");
}

void GlReference::ensure_framebuffer(int width, int height, int samples) {
  if (m_fbo && width == m_width && height == m_height && samples == m_samples) return;
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width <= 0 || height <= 0 || width > max_size || height > max_size)
    throw GlError("GlReference: frame size " + std::to_string(width) + "x" + std::to_string(height) + " outside 1.." +
                  std::to_string(max_size));
  m_fbo.reset();
  m_color.reset();
  m_ids.reset();
  m_depth.reset();
  m_ms_fbo.reset();
  m_ms_color.reset();
  m_ms_ids.reset();
  m_ms_depth.reset();
  m_width = m_height = 0;
  if (samples > 1) {
    GLint max_samples = 0, max_integer_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    glGetIntegerv(GL_MAX_INTEGER_SAMPLES, &max_integer_samples);
    const int most = std::min(max_samples, max_integer_samples);
    if (samples > most)
      throw GlError("GlReference: " + std::to_string(samples) + " samples a pixel: this driver offers at most " +
                    std::to_string(most) + " (GL_MAX_SAMPLES, GL_MAX_INTEGER_SAMPLES)");
  }
  attach_frame_buffers(m_fbo, m_color, m_ids, m_depth, width, height, 1);
  if (samples > 1) attach_frame_buffers(m_ms_fbo, m_ms_color, m_ms_ids, m_ms_depth, width, height, samples);
  m_width = width;
  m_height = height;
  m_samples = samples;
  m_ids_valid = false;
}

// The multisample frame into the single-sample one: colour (the driver averages the samples),
// then, when drawn, the ids (an integer attachment: one sample's value).
void GlReference::resolve_samples(bool write_ids) {
  const GLenum first[2] = {GL_COLOR_ATTACHMENT0, GL_NONE}, second[2] = {GL_NONE, GL_COLOR_ATTACHMENT1};
  glNamedFramebufferReadBuffer(m_ms_fbo.id(), GL_COLOR_ATTACHMENT0);
  glNamedFramebufferDrawBuffers(m_fbo.id(), 2, first);
  glBlitNamedFramebuffer(m_ms_fbo.id(), m_fbo.id(), 0, 0, m_width, m_height, 0, 0, m_width, m_height,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
  if (write_ids) {
    glNamedFramebufferReadBuffer(m_ms_fbo.id(), GL_COLOR_ATTACHMENT1);
    glNamedFramebufferDrawBuffers(m_fbo.id(), 2, second);
    glBlitNamedFramebuffer(m_ms_fbo.id(), m_fbo.id(), 0, 0, m_width, m_height, 0, 0, m_width, m_height,
                           GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
}

// Reads one colour attachment of the frame. Rows come top first: the frame was drawn with
// GL_UPPER_LEFT as the window origin.
void GlReference::read_attachment(GLenum attachment, GLenum format, GLenum type, void* out, const char* what) {
  glNamedFramebufferReadBuffer(m_fbo.id(), attachment);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo.id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glReadPixels(0, 0, m_width, m_height, format, type, out);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  gl_check_errors(what);
}

void GlReference::read_triangle_ids(std::vector<uint32_t>& out) {
  if (!m_fbo || !m_ids_valid) throw GlError("GlReference::read_triangle_ids: no frame rendered");
  out.resize((size_t)m_width * (size_t)m_height);
  read_attachment(GL_COLOR_ATTACHMENT1, GL_RED_INTEGER, GL_UNSIGNED_INT, out.data(), "GlReference::read_triangle_ids");
}

void GlReference::read_rgba(std::vector<Rgba8>& out) {
  if (!m_fbo) throw GlError("GlReference::read_rgba: no frame rendered");
  out.resize((size_t)m_width * (size_t)m_height);
  read_attachment(GL_COLOR_ATTACHMENT0, GL_RGBA, GL_UNSIGNED_BYTE, out.data(), "GlReference::read_rgba");
}

}  // namespace facet
