// Registers the teardown of the shared EGL context (gl_test_env.h) with GoogleTest, so that it
// runs after the last test and before static destruction.
#include "tests/gl/gl_test_env.h"

namespace {

class GlEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { facet::test::GlTestEnv::get().tear_down(); }
};

[[maybe_unused]] ::testing::Environment* const g_gl_environment =
    ::testing::AddGlobalTestEnvironment(new GlEnvironment);

}  // namespace
