// EglContext: find a display (device platform, then Mesa surfaceless, then the default display),
// create an OpenGL 4.5 core context on it, make it current without a surface, load GL via glad.
#include "app/gl/egl_context.h"

#include <glad/gl.h>

// Keep EGL's platform header from including X11: this context never talks to a display server.
#define EGL_NO_X11
#define MESA_EGL_NO_X11_HEADERS
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace facet {
namespace {

const char* egl_error_name(EGLint e) {
  switch (e) {
    case EGL_SUCCESS:
      return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
      return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:
      return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
      return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE:
      return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG:
      return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT:
      return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE:
      return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY:
      return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH:
      return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP:
      return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW:
      return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER:
      return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE:
      return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST:
      return "EGL_CONTEXT_LOST";
    default:
      return "unknown EGL error";
  }
}

std::string egl_failure(const char* call) {
  return std::string(call) + " failed (" + egl_error_name(eglGetError()) + ")";
}

// Whether the space-separated `list` holds the word `name`.
bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

template <class F>
F egl_proc(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

// eglGetPlatformDisplay hands out one EGLDisplay per device, shared by everyone in the process;
// eglTerminate would pull it from under other contexts, so we count our own users.
std::mutex g_display_mutex;
std::map<EGLDisplay, int> g_display_users;

void acquire_display(EGLDisplay d) {
  std::lock_guard<std::mutex> lock(g_display_mutex);
  ++g_display_users[d];
}
void release_display(EGLDisplay d) {
  std::lock_guard<std::mutex> lock(g_display_mutex);
  if (--g_display_users[d] == 0) {
    g_display_users.erase(d);
    eglTerminate(d);
  }
}

struct Candidate {
  EGLDisplay display;
  std::string label;
};

// EGL devices, best first: the requested CUDA device, other NVIDIA devices, other hardware, software.
std::vector<Candidate> device_displays(const EglOptions& options, std::string& notes) {
  std::vector<Candidate> out;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_extension(client, "EGL_EXT_platform_device") ||
      !(has_extension(client, "EGL_EXT_device_enumeration") || has_extension(client, "EGL_EXT_device_base"))) {
    notes += "device platform: EGL_EXT_platform_device or EGL_EXT_device_enumeration missing; ";
    return out;
  }
  auto query_devices = egl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto query_string = egl_proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  auto query_attrib = egl_proc<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
  auto get_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (!query_devices || !query_string || !get_display) {
    notes += "device platform: eglQueryDevicesEXT/eglGetPlatformDisplayEXT not found; ";
    return out;
  }
  EGLint count = 0;
  if (!query_devices(0, nullptr, &count) || count <= 0) {
    notes += "device platform: no EGL devices; ";
    return out;
  }
  std::vector<EGLDeviceEXT> devices((size_t)count);
  query_devices(count, devices.data(), &count);
  devices.resize((size_t)count);

  struct Ranked {
    int rank;
    size_t order;
    EGLDeviceEXT device;
    std::string label;
  };
  std::vector<Ranked> ranked;
  for (size_t i = 0; i < devices.size(); ++i) {
    const char* ext = query_string(devices[i], EGL_EXTENSIONS);
    bool nvidia = has_extension(ext, "EGL_NV_device_cuda");
    bool software = has_extension(ext, "EGL_MESA_device_software");
    int rank = nvidia ? 1 : (software ? 3 : 2);
    std::string label = "EGL device " + std::to_string(i);
    if (nvidia) {
      EGLAttrib cuda = -1;
      if (query_attrib && query_attrib(devices[i], EGL_CUDA_DEVICE_NV, &cuda)) {
        label += " (NVIDIA, CUDA device " + std::to_string((long long)cuda) + ")";
        if (options.cuda_device >= 0 && cuda == options.cuda_device) rank = 0;
      } else {
        label += " (NVIDIA)";
      }
    } else if (software) {
      label += " (Mesa software)";
    }
    if (has_extension(ext, "EGL_EXT_device_drm")) {
      const char* file = query_string(devices[i], EGL_DRM_DEVICE_FILE_EXT);
      if (file) label += std::string(" ") + file;
    }
    ranked.push_back({rank, i, devices[i], label});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) { return a.rank < b.rank; });
  for (const Ranked& r : ranked) {
    EGLDisplay d = get_display(EGL_PLATFORM_DEVICE_EXT, r.device, nullptr);
    if (d == EGL_NO_DISPLAY)
      notes += r.label + ": " + egl_failure("eglGetPlatformDisplayEXT") + "; ";
    else
      out.push_back({d, "EGL device platform, " + r.label});
  }
  return out;
}

std::vector<Candidate> fallback_displays(std::string& notes) {
  std::vector<Candidate> out;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (has_extension(client, "EGL_MESA_platform_surfaceless")) {
    auto get_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    EGLDisplay d =
        get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr) : EGL_NO_DISPLAY;
    if (d == EGL_NO_DISPLAY)
      notes += "surfaceless Mesa platform: " + egl_failure("eglGetPlatformDisplayEXT") + "; ";
    else
      out.push_back({d, "EGL surfaceless Mesa platform"});
  } else {
    notes += "surfaceless Mesa platform: EGL_MESA_platform_surfaceless missing; ";
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d == EGL_NO_DISPLAY)
    notes += "default display: " + egl_failure("eglGetDisplay") + "; ";
  else
    out.push_back({d, "EGL default display"});
  return out;
}

struct Created {
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
};

// Initializes `d` and creates a current GL 4.5 core context on it; on failure returns false with
// the reason in `why` and leaves nothing behind (the display reference is released).
bool create_on(EGLDisplay d, const EglOptions& options, Created& out, std::string& why) {
  EGLint major = 0, minor = 0;
  if (!eglInitialize(d, &major, &minor)) {
    why = egl_failure("eglInitialize");
    return false;
  }
  acquire_display(d);
  auto fail = [&](std::string reason) {
    if (out.surface != EGL_NO_SURFACE) eglDestroySurface(d, out.surface);
    if (out.context != EGL_NO_CONTEXT) eglDestroyContext(d, out.context);
    out = {};
    release_display(d);
    why = std::move(reason);
    return false;
  };
  if (major < 1 || (major == 1 && minor < 5))
    return fail("EGL " + std::to_string(major) + "." + std::to_string(minor) + " (1.5 needed)");
  const char* apis = eglQueryString(d, EGL_CLIENT_APIS);
  if (!has_extension(apis, "OpenGL"))  // a space-separated list, like extensions
    return fail(std::string("no desktop OpenGL (client APIs: ") + (apis ? apis : "none") + ")");
  if (!eglBindAPI(EGL_OPENGL_API)) return fail(egl_failure("eglBindAPI(EGL_OPENGL_API)"));

  const char* ext = eglQueryString(d, EGL_EXTENSIONS);
  bool surfaceless = has_extension(ext, "EGL_KHR_surfaceless_context");
  EGLConfig config = nullptr;  // EGL_NO_CONFIG_KHR
  if (!surfaceless || !has_extension(ext, "EGL_KHR_no_config_context")) {
    // A config is needed: for the fallback pbuffer, or because contexts need one here.
    const EGLint attribs[] = {EGL_RENDERABLE_TYPE,
                              EGL_OPENGL_BIT,
                              EGL_SURFACE_TYPE,
                              surfaceless ? 0 : EGL_PBUFFER_BIT,
                              EGL_RED_SIZE,
                              8,
                              EGL_GREEN_SIZE,
                              8,
                              EGL_BLUE_SIZE,
                              8,
                              EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(d, attribs, &config, 1, &n) || n < 1)
      return fail("no EGL config for desktop OpenGL (" + egl_failure("eglChooseConfig") + ")");
  }
  const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                4,
                                EGL_CONTEXT_MINOR_VERSION,
                                5,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                EGL_CONTEXT_OPENGL_DEBUG,
                                options.debug ? EGL_TRUE : EGL_FALSE,
                                EGL_NONE};
  out.context = eglCreateContext(d, config, EGL_NO_CONTEXT, ctx_attribs);
  if (out.context == EGL_NO_CONTEXT)
    return fail("no OpenGL 4.5 core context (" + egl_failure("eglCreateContext") + ")");
  if (!surfaceless) {
    const EGLint pb[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    out.surface = eglCreatePbufferSurface(d, config, pb);
    if (out.surface == EGL_NO_SURFACE)
      return fail("no surfaceless contexts and " + egl_failure("eglCreatePbufferSurface"));
  }
  if (!eglMakeCurrent(d, out.surface, out.surface, out.context)) return fail(egl_failure("eglMakeCurrent"));
  int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress));
  if (version == 0) {
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return fail("gladLoadGL failed (no GL entry points through eglGetProcAddress)");
  }
  if (GLAD_VERSION_MAJOR(version) < 4 || (GLAD_VERSION_MAJOR(version) == 4 && GLAD_VERSION_MINOR(version) < 5)) {
    eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return fail("context is OpenGL " + std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                std::to_string(GLAD_VERSION_MINOR(version)) + ", 4.5 needed");
  }
  return true;
}

}  // namespace

EglContext::EglContext(const EglOptions& options) {
  std::string notes;
  // FACET_EGL_PLATFORM=device|surfaceless|default keeps only that kind of display: for
  // diagnosing a driver whose preferred platform misbehaves, and for testing the fallbacks.
  const char* only = std::getenv("FACET_EGL_PLATFORM");
  std::string only_label = !only || !*only                      ? ""
                           : std::string(only) == "device"      ? "EGL device platform"
                           : std::string(only) == "surfaceless" ? "EGL surfaceless Mesa platform"
                           : std::string(only) == "default"     ? "EGL default display"
                                                                : "?";
  if (only_label == "?")
    throw EglError(std::string("FACET_EGL_PLATFORM=") + only + ": expected device, surfaceless or default");
  std::vector<Candidate> candidates = device_displays(options, notes);
  for (Candidate& c : fallback_displays(notes)) candidates.push_back(c);
  if (!only_label.empty()) {
    candidates.erase(
        std::remove_if(candidates.begin(), candidates.end(),
                       [&](const Candidate& c) { return c.label.compare(0, only_label.size(), only_label) != 0; }),
        candidates.end());
    notes += std::string("FACET_EGL_PLATFORM=") + only + "; ";
  }
  for (const Candidate& c : candidates) {
    Created created;
    std::string why;
    if (!create_on(c.display, options, created, why)) {
      notes += c.label + ": " + why + "; ";
      continue;
    }
    m_display = c.display;
    m_context = created.context;
    m_surface = created.surface;
    m_platform = c.label;
    auto str = [](GLenum name) {
      const GLubyte* s = glGetString(name);
      return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
    };
    m_gl_renderer = str(GL_RENDERER);
    m_gl_version = str(GL_VERSION);
    return;
  }
  if (notes.size() >= 2) notes.resize(notes.size() - 2);
  throw EglError("EGL: could not create an OpenGL 4.5 core context without a display: " + notes);
}

EglContext::~EglContext() {
  if (!m_display) return;
  EGLDisplay d = m_display;
  if (eglGetCurrentContext() == m_context) eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (m_surface) eglDestroySurface(d, m_surface);
  eglDestroyContext(d, m_context);
  release_display(d);
}

void EglContext::make_current() {
  if (!eglBindAPI(EGL_OPENGL_API) || !eglMakeCurrent(m_display, m_surface, m_surface, m_context))
    throw EglError("EGL: " + egl_failure("eglMakeCurrent") + " for " + m_platform);
}

void EglContext::release_current() {
  if (eglGetCurrentContext() == m_context) eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

std::string EglContext::description() const {
  return m_gl_renderer + ", OpenGL " + m_gl_version + ", via " + m_platform;
}

bool egl_available(std::string* why) {
  static std::once_flag once;
  static bool available = false;
  static std::string reason;
  std::call_once(once, [] {
    // Whatever context the caller has current stays current afterwards.
    EGLDisplay d = eglGetCurrentDisplay();
    EGLContext c = eglGetCurrentContext();
    EGLSurface draw = eglGetCurrentSurface(EGL_DRAW), read = eglGetCurrentSurface(EGL_READ);
    try {
      EglContext probe;
      available = true;
    } catch (const std::exception& e) {
      reason = e.what();
    }
    if (c != EGL_NO_CONTEXT) eglMakeCurrent(d, draw, read, c);
  });
  if (why) *why = reason;
  return available;
}

}  // namespace facet
