// Small move-only RAII owners for OpenGL objects (buffers, textures, renderbuffers, framebuffers,
// vertex arrays, queries, shaders, programs), shader compile/link helpers that throw with the info
// log, and FACET_GL_CHECK, which reports glGetError with file, line and expression in debug builds
// and compiles away in Release (NDEBUG). gl_check_errors() is the always-on twin for the places
// that must know (uploads that can run out of memory). Objects are created with GL 4.5 DSA calls.
// Every owner must be destroyed while its context is current; nothing here makes a context current.
#pragma once
#include <glad/gl.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace facet {

class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW:
      return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW:
      return "GL_STACK_UNDERFLOW";
    default:
      return "unknown GL error";
  }
}

// Throws GlError("what: GL_OUT_OF_MEMORY ...") when GL has recorded errors; drains them all.
inline void gl_check_errors(std::string_view what) {
  std::string errors;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
    errors += (errors.empty() ? "" : ", ") + std::string(gl_error_name(e));
  if (!errors.empty()) throw GlError(std::string(what) + ": " + errors);
}

}  // namespace facet

#define FACET_GL_STR2(x) #x
#define FACET_GL_STR(x) FACET_GL_STR2(x)
#ifdef NDEBUG
#define FACET_GL_CHECK(expr) expr
#else
// Debug builds: every checked call is followed by glGetError (a stall on some drivers).
#define FACET_GL_CHECK(expr)                                                  \
  do {                                                                        \
    expr;                                                                     \
    ::facet::gl_check_errors(__FILE__ ":" FACET_GL_STR(__LINE__) ": " #expr); \
  } while (0)
#endif

namespace facet {

// One owned GL name; Traits::destroy(GLuint) frees it. Move-only; 0 means empty.
template <class Traits>
class GlObject {
 public:
  GlObject() = default;
  explicit GlObject(GLuint id) : m_id(id) {}
  ~GlObject() { reset(); }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  GlObject(GlObject&& o) noexcept : m_id(std::exchange(o.m_id, 0)) {}
  GlObject& operator=(GlObject&& o) noexcept {
    if (this != &o) {
      reset();
      m_id = std::exchange(o.m_id, 0);
    }
    return *this;
  }
  GLuint id() const { return m_id; }
  explicit operator bool() const { return m_id != 0; }
  // Frees the object now (needs the context current).
  void reset() {
    if (m_id) Traits::destroy(m_id);
    m_id = 0;
  }
  // Gives up ownership without freeing (e.g. when the context is already gone).
  GLuint release() { return std::exchange(m_id, 0); }

 private:
  GLuint m_id = 0;
};

namespace gl_traits {
struct Buffer {
  static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct Texture {
  static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct Renderbuffer {
  static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct Framebuffer {
  static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct VertexArray {
  static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct Query {
  static void destroy(GLuint id) { glDeleteQueries(1, &id); }
};
struct Shader {
  static void destroy(GLuint id) { glDeleteShader(id); }
};
struct Program {
  static void destroy(GLuint id) { glDeleteProgram(id); }
};
}  // namespace gl_traits

using GlBuffer = GlObject<gl_traits::Buffer>;
using GlTexture = GlObject<gl_traits::Texture>;
using GlRenderbuffer = GlObject<gl_traits::Renderbuffer>;
using GlFramebuffer = GlObject<gl_traits::Framebuffer>;
using GlVertexArray = GlObject<gl_traits::VertexArray>;
using GlQuery = GlObject<gl_traits::Query>;
using GlShader = GlObject<gl_traits::Shader>;
using GlProgram = GlObject<gl_traits::Program>;

inline GlBuffer make_gl_buffer() {
  GLuint id = 0;
  glCreateBuffers(1, &id);
  return GlBuffer(id);
}
inline GlTexture make_gl_texture(GLenum target) {
  GLuint id = 0;
  glCreateTextures(target, 1, &id);
  return GlTexture(id);
}
inline GlRenderbuffer make_gl_renderbuffer() {
  GLuint id = 0;
  glCreateRenderbuffers(1, &id);
  return GlRenderbuffer(id);
}
inline GlFramebuffer make_gl_framebuffer() {
  GLuint id = 0;
  glCreateFramebuffers(1, &id);
  return GlFramebuffer(id);
}
inline GlVertexArray make_gl_vertex_array() {
  GLuint id = 0;
  glCreateVertexArrays(1, &id);
  return GlVertexArray(id);
}
inline GlQuery make_gl_query(GLenum target) {
  GLuint id = 0;
  glCreateQueries(target, 1, &id);
  return GlQuery(id);
}

// The driver's info log of a shader or program (glGetShaderiv + glGetShaderInfoLog, or the
// Program pair), up to its terminating NUL.
template <class GetIv, class GetLog>
std::string gl_info_log(GLuint id, GetIv get_iv, GetLog get_log) {
  GLint log_length = 0;
  get_iv(id, GL_INFO_LOG_LENGTH, &log_length);
  std::string log((size_t)(log_length > 0 ? log_length : 1), '\0');
  get_log(id, (GLsizei)log.size(), nullptr, log.data());
  return log.c_str();
}

// Compiles one stage; throws GlError naming `name` (e.g. the file) with the driver's log.
inline GlShader compile_gl_shader(GLenum stage, std::string_view source, std::string_view name) {
  GlShader s(glCreateShader(stage));
  if (!s) throw GlError("glCreateShader failed for " + std::string(name));
  const char* text = source.data();
  GLint length = (GLint)source.size();
  glShaderSource(s.id(), 1, &text, &length);
  glCompileShader(s.id());
  GLint ok = 0;
  glGetShaderiv(s.id(), GL_COMPILE_STATUS, &ok);
  if (!ok)
    throw GlError(std::string(name) + ": GLSL compile error:\n" +
                  gl_info_log(s.id(), glGetShaderiv, glGetShaderInfoLog));
  return s;
}

// Links a vertex + fragment program; throws GlError naming `name` with the driver's log.
inline GlProgram link_gl_program(std::string_view vertex_source, std::string_view fragment_source,
                                 std::string_view vertex_name, std::string_view fragment_name) {
  GlShader vs = compile_gl_shader(GL_VERTEX_SHADER, vertex_source, vertex_name);
  GlShader fs = compile_gl_shader(GL_FRAGMENT_SHADER, fragment_source, fragment_name);
  GlProgram p(glCreateProgram());
  glAttachShader(p.id(), vs.id());
  glAttachShader(p.id(), fs.id());
  glLinkProgram(p.id());
  glDetachShader(p.id(), vs.id());
  glDetachShader(p.id(), fs.id());
  GLint ok = 0;
  glGetProgramiv(p.id(), GL_LINK_STATUS, &ok);
  if (!ok)
    throw GlError(std::string(vertex_name) + " + " + std::string(fragment_name) + ": GLSL link error:\n" +
                  gl_info_log(p.id(), glGetProgramiv, glGetProgramInfoLog));
  return p;
}

}  // namespace facet
