// Our OBJ parser against the oracle (tests/support/oracle: tinyobjloader run through a mesh
// building of its own): on every shared model and every edge-case file, both must accept
// or both refuse, and what both accept must have the same positions, indices, texcoords,
// normals and per-triangle materials. Numbers may differ by one float step: tinyobjloader's
// own number reader is not correctly rounded, fast_float is.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/oracle/tinyobj_oracle.h"
#include "tests/support/scene_edits.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

namespace fs = std::filesystem;
using namespace facet;

namespace {

// a and b equal, or neighbouring floats.
bool same_float(float a, float b) { return a == b || std::nextafter(a, b) == b || (std::isnan(a) && std::isnan(b)); }

bool same_vec(Vec3 a, Vec3 b, float tolerance) {
  return std::fabs(a.x - b.x) <= tolerance && std::fabs(a.y - b.y) <= tolerance && std::fabs(a.z - b.z) <= tolerance;
}

struct Outcome {
  bool loaded = false;
  std::string message;
  Scene scene;
};

template <class Load>
Outcome run(Load load, const std::string& path) {
  Outcome o;
  try {
    o.scene = load(path);
    o.loaded = true;
  } catch (const LoadError& e) {
    o.message = e.what();
  }
  return o;
}

void expect_same_mesh(const Scene& ours, const Scene& oracle) {
  ASSERT_EQ(ours.positions.size(), oracle.positions.size());
  ASSERT_EQ(ours.indices.size(), oracle.indices.size());
  EXPECT_EQ(ours.indices, oracle.indices);
  size_t far_positions = 0;
  for (size_t i = 0; i < ours.positions.size(); ++i) {
    const Vec3 a = ours.positions[i], b = oracle.positions[i];
    far_positions += !(same_float(a.x, b.x) && same_float(a.y, b.y) && same_float(a.z, b.z));
  }
  EXPECT_EQ(far_positions, 0u) << "positions more than one float step apart";
  ASSERT_EQ(ours.uvs.size(), oracle.uvs.size());
  for (size_t i = 0; i < ours.uvs.size(); ++i)
    ASSERT_TRUE(same_float(ours.uvs[i].x, oracle.uvs[i].x) && same_float(ours.uvs[i].y, oracle.uvs[i].y)) << "uv " << i;
  ASSERT_EQ(ours.normals.size(), oracle.normals.size());
  for (size_t i = 0; i < ours.normals.size(); ++i)
    ASSERT_TRUE(same_vec(ours.normals[i], oracle.normals[i], 1e-5f)) << "normal " << i;
  ASSERT_EQ(ours.tri_material.size(), oracle.tri_material.size());
  for (size_t t = 0; t < ours.tri_material.size(); ++t)
    ASSERT_EQ(ours.material_names[ours.tri_material[t]], oracle.material_names[oracle.tri_material[t]])
        << "triangle " << t;
}

void expect_same_outcome(const std::string& path) {
  SCOPED_TRACE(path);
  Outcome ours = run([](const std::string& p) { return test::in_file_order(load_model(p)); }, path);
  Outcome oracle = run(oracle::load_with_tinyobj, path);
  ASSERT_EQ(ours.loaded, oracle.loaded) << "ours: " << ours.message << "\noracle: " << oracle.message;
  if (!ours.loaded) {
    EXPECT_EQ(ours.message, oracle.message);
    return;
  }
  expect_same_mesh(ours.scene, oracle.scene);
}

std::vector<std::string> obj_files_under(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".obj") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST(ObjDifferential, SharedModelsMatchTheOracle) {
  for (const char* rel :
       {"bunny/stanford-bunny.obj", "cornell_box/CornellBox-Original.obj", "dragon/dragon_vrip_res2.obj",
        "dragon/dragon_vrip.obj", "spot/spot_triangulated_with_mtl.obj", "teapot/teapot.obj"})
    expect_same_outcome(test::shared_asset(rel));
}

TEST(ObjDifferential, FormatsObjFilesMatchTheOracle) {
  std::vector<std::string> files = obj_files_under(test::shared_asset("formats/obj"));
  ASSERT_FALSE(files.empty());
  for (const std::string& f : files) expect_same_outcome(f);
}

TEST(ObjDifferential, EdgeCaseFilesMatchTheOracle) {
  std::vector<std::string> files = obj_files_under(test::shared_asset("edge-cases"));
  ASSERT_GT(files.size(), 50u);
  for (const std::string& f : files) expect_same_outcome(f);
}

TEST(ObjDifferential, ManyChunksWithRelativeIndicesMatchTheOracle) {
  // About 6 MB: several chunks, so relative indices, usemtl and smoothing groups cross chunk
  // boundaries. Strips of quads with indices relative to the vertices read so far.
  test::ScratchDir dir;
  dir.write("m.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n");
  std::string text = "mtllib m.mtl\n";
  for (int row = 0; row < 60000; ++row) {
    if (row % 7000 == 0) text += row % 14000 ? "usemtl blue\n" : "usemtl red\n";
    if (row % 5000 == 0) text += "s " + std::to_string(row % 3) + "\n";
    for (int k = 0; k < 4; ++k)
      text += "v " + std::to_string(row * 0.001 + (k & 1)) + " " + std::to_string(k >> 1) + " " +
              std::to_string(row % 13 * 0.01) + "\n";
    text += row % 2 ? "f -4 -3 -1 -2\n" : "f -4 -3 -1\nf -4 -1 -2\n";
  }
  ASSERT_GT(text.size(), 4u << 20);
  expect_same_outcome(dir.write("strips.obj", text));
}

TEST(ObjDifferential, SmallOddFilesMatchTheOracle) {
  // Corners and statements at the edge of the grammar, each after the same three vertices.
  const char* bodies[] = {
      "f 1 2 -\n",
      "f 1/ 2 3\n",
      "f 1// 2 3\n",
      "f 1/1/ 2 3\n",
      "f +1 2 3\n",
      "f 1 2 3x\n",
      "f 1 2 /3\n",
      "f 1 2 3/\n",
      "f - 2 3\n",
      "f 1 2 0\n",
      "f 1 2 -4\n",
      "f 1 -2 3 -1\n",
      "vt 0 0\nf 1/1 2/-1 3/1\n",
      "vn 0 0 1\nf 1//1 2//-2 3//1\n",
      "vn 0 0 1\nf 1//1 2//1 3//2\n",
      "s -1\nf 1 2 3\n",
      "s 1\ns\nf 1 2 3\n",
      "s off\nf 1 2 3\ns 2\nf 1 3 2\n",
      "usemtl\nf 1 2 3\n",
      "f 1 2 3 1 2\n",
      "f\t1\t2\t3\n",
      "f 1 2\nf 1 2 3\n",
      "v 1 2\nf 1 2 4\n",
      "v 1e999 0 0\nf 1 2 4\nf 1 2 3\n",
      "v nan 1 1\nv 2 2\nf 1 4 5 2 3\n",
      "v 5e 1 1\nf 1 2 4\n",
      "v .5 -.5 +1\nf 1 2 4\n",
      "vw 1 1e20 0.5\nf 1 2 3\n",
      "g a b\no x\nt crease 2/1/0 1 2 1.5\nf 1 2 3\n",
      "s 4294967296\nf 1 2 3\ns 4294967297\nf 1 3 2\n",
  };
  test::ScratchDir dir;
  for (const char* body : bodies) {
    SCOPED_TRACE(body);
    expect_same_outcome(dir.write("odd.obj", std::string("v 0 0 0\nv 1 0 0\nv 0 1 0\n") + body));
  }
}
