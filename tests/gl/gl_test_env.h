// The GL side of facet_gl_tests: one EGL context and one GlReference for the whole test binary,
// created on first use and torn down before static destruction (some drivers crash when EGL is
// torn down from atexit). GL_TEST_SETUP() makes a test fail with the EGL error when no context
// can be made (CI needs these tests to run), or skip when FACET_SKIP_GL=1.
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "app/gl/egl_context.h"
#include "app/gl/gl_reference.h"

namespace facet::test {

struct GlTestEnv {
  std::unique_ptr<EglContext> context;
  std::unique_ptr<GlReference> reference;  // declared after context: destroyed first
  std::string error;                       // why context or reference could not be made
  bool tried = false;

  static GlTestEnv& get() {
    static GlTestEnv env;
    return env;
  }
  // The reference renderer, or nullptr with `error` set.
  GlReference* reference_or_null() {
    if (!tried) {
      tried = true;
      try {
        context = std::make_unique<EglContext>();
        reference = std::make_unique<GlReference>();
        std::printf("[ gl       ] %s\n", context->description().c_str());
      } catch (const std::exception& e) {
        error = e.what();
        reference.reset();
        context.reset();
      }
    }
    return reference.get();
  }
  void tear_down() {
    reference.reset();
    context.reset();
  }
};

inline bool gl_skip_requested() {
  const char* v = std::getenv("FACET_SKIP_GL");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace facet::test

// Declares `GlReference& gl` for the test body, or ends the test: FAIL with the EGL/GL error, or
// SKIP when FACET_SKIP_GL=1 (for machines that knowingly have no EGL at all).
#define GL_TEST_SETUP()                                                                \
  if (::facet::test::gl_skip_requested()) GTEST_SKIP() << "FACET_SKIP_GL=1";           \
  ::facet::GlReference* gl_ptr_ = ::facet::test::GlTestEnv::get().reference_or_null(); \
  if (!gl_ptr_)                                                                        \
    FAIL() << "OpenGL through EGL unavailable (set FACET_SKIP_GL=1 to skip): "         \
           << ::facet::test::GlTestEnv::get().error;                                   \
  ::facet::GlReference& gl = *gl_ptr_
