// The model extensions facet opens (engine/formats/model_formats.h): what the viewer's drop target and
// Open panel accept, and how load_model picks a reader.
#include <gtest/gtest.h>

#include "engine/formats/model_formats.h"

using namespace facet;

TEST(ModelFormats, EveryListedExtensionIsAModelPathInAnyCase) {
  for (const char* ext : kModelExtensions) {
    std::string lower = std::string("dir/model") + ext, upper = lower;
    for (char& c : upper) c = (char)std::toupper((unsigned char)c);
    EXPECT_TRUE(is_model_path(lower)) << lower;
    EXPECT_TRUE(is_model_path(upper)) << upper;
  }
}

TEST(ModelFormats, ObjPlyAndStlAreAmongTheListedExtensions) {
  EXPECT_TRUE(is_model_path("a.obj"));
  EXPECT_TRUE(is_model_path("a.Ply"));
  EXPECT_TRUE(is_model_path("a.STL"));
}

TEST(ModelFormats, OtherFilesAreNotModelPaths) {
  for (const char* path : {"picture.png", "model.ply.bak", "scene.mtl", "ply", ".st", "", "obj"})
    EXPECT_FALSE(is_model_path(path)) << path;
}

TEST(ModelFormats, TheExtensionListForMessagesNamesEachFormat) {
  EXPECT_EQ(model_extension_list(), "OBJ, PLY, STL, GLTF, GLB");
}
