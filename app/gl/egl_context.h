// An OpenGL 4.5 core context with no display server and no window, through EGL: for the OpenGL
// reference renderer (tests, `facet bench`) and the viewer's --offscreen mode. Prefers the EGL
// device platform (the NVIDIA device when there is one), then Mesa's surfaceless platform, then the
// default display; makes the context current without a surface; loads GL through glad.
// FACET_EGL_PLATFORM=device|surfaceless|default (environment) restricts the choice, for diagnosis.
// It does not create framebuffers: render into your own FBO. Not tied to GLFW.
#pragma once
#include <stdexcept>
#include <string>

namespace facet {

class EglError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct EglOptions {
  // Prefer the EGL device of this CUDA device ordinal (EGL_NV_device_cuda), so that CUDA-GL
  // interop stays on one GPU; -1: the first NVIDIA device, else any.
  int cuda_device = -1;
  // Request a debug context (GL_KHR_debug messages); off for timing.
  bool debug = false;
};

// Owns the EGL display reference, the context and (only where surfaceless contexts are not
// supported) a 1x1 pbuffer. Current on the constructing thread when the constructor returns.
// Not copyable or movable: GL objects made in it must die first (hold it in a unique_ptr and
// destroy it last).
class EglContext {
 public:
  // Throws EglError naming every platform tried and why each failed.
  explicit EglContext(const EglOptions& options = {});
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  // Binds the context to the calling thread (a context is current on one thread at a time).
  void make_current();
  // Unbinds it from the calling thread.
  void release_current();

  // Which platform and device were used, e.g. "EGL device platform (EGL_NV_device_cuda, ...)".
  const std::string& platform() const { return m_platform; }
  // GL_RENDERER and GL_VERSION, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa ...".
  const std::string& gl_renderer() const { return m_gl_renderer; }
  const std::string& gl_version() const { return m_gl_version; }
  // "GL_RENDERER, GL_VERSION, via PLATFORM" in one line, for logs and bench output.
  std::string description() const;

  // The raw EGLDisplay / EGLContext / EGLSurface (EGL_NO_SURFACE when surfaceless), as void*
  // so that this header does not pull in EGL's (X11-tainted) headers.
  void* egl_display() const { return m_display; }
  void* egl_context() const { return m_context; }
  void* egl_surface() const { return m_surface; }

 private:
  void* m_display = nullptr;
  void* m_context = nullptr;
  void* m_surface = nullptr;
  std::string m_platform;
  std::string m_gl_renderer;
  std::string m_gl_version;
};

// Whether an EglContext can be created here; `why` gets the EglError message when not.
// Tries once per process and remembers the answer.
bool egl_available(std::string* why = nullptr);

}  // namespace facet
