// The by-position OBJ mesh (obj_mesh_by_position.h) on a text of several parse chunks whose faces
// use positions from anywhere in the file, some never, and one not finite: the vertices numbered
// in order of first use among kept faces and the faces kept in file order, the same bytes at 1, 2,
// 3 and 7 workers (which also cut the text into different chunks).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <unordered_map>

#include "engine/base/parallel.h"
#include "engine/formats/obj/obj_mesh_by_position.h"
#include "engine/formats/obj/obj_stitch.h"

using namespace facet;

namespace {

constexpr int kPositions = 70000, kFaces = 120000, kNanPosition = 4321;  // about 4 MB of text

std::string scattered_obj() {
  std::mt19937 rng(15);
  std::uniform_int_distribution<int> coordinate(0, 999999), position(1, kPositions);
  std::string text;
  for (int v = 1; v <= kPositions; ++v) {
    if (v == kNanPosition)
      text += "v nan 0 0\n";
    else
      text += "v " + std::to_string(coordinate(rng)) + " " + std::to_string(coordinate(rng)) + " 1\n";
    if (v % 7000 == 0)  // faces between the vertices, so that chunks use positions ahead of them
      for (int f = 0; f < kFaces / 20; ++f)
        text += "f " + std::to_string(1 + (int)(rng() % (unsigned)v)) + " " +
                std::to_string(1 + (int)(rng() % (unsigned)v)) + " " + std::to_string(1 + (int)(rng() % (unsigned)v)) +
                "\n";
  }
  for (int f = 0; f < kFaces / 2; ++f)
    text += "f " + std::to_string(position(rng) / 2 + 1) + " " + std::to_string(position(rng)) + " " +
            std::to_string(position(rng)) + "\n";
  return text;
}

Scene built(const std::string& text, unsigned workers, size_t* dropped) {
  worker_count_override() = workers;
  ObjModel model = stitch_obj_chunks("scattered.obj", parse_obj_text(text.data(), text.size()));
  triangulate_obj_faces(model);
  EXPECT_GT(model.chunks.size(), 2u);
  EXPECT_TRUE(obj_vertices_are_positions(model, false));
  Scene scene;
  *dropped = build_obj_mesh_by_position(model, scene);
  worker_count_override() = 0;
  return scene;
}

}  // namespace

TEST(ObjMeshByPosition, NumbersVerticesByFirstUseAndKeepsFacesInOrderForAnyThreadCount) {
  const std::string text = scattered_obj();
  size_t dropped = 0;
  const Scene one = built(text, 1, &dropped);
  // The definition, from the faces in file order: a position's first kept use numbers it.
  ASSERT_GT(dropped, 0u) << "some faces use the NaN position";
  ASSERT_EQ(one.indices.size() % 3, 0u);
  std::unordered_map<uint64_t, uint32_t> seen;  // position bits -> vertex
  for (size_t c = 0; c < one.indices.size(); ++c) {
    const uint32_t v = one.indices[c];
    ASSERT_LT(v, one.positions.size());
    uint64_t key;
    std::memcpy(&key, &one.positions[v], sizeof key);  // x and y tell the random positions apart
    const uint32_t next = (uint32_t)seen.size();
    EXPECT_EQ(seen.emplace(key, next).first->second, v) << "vertices out of first-use order at corner " << c;
  }
  EXPECT_EQ(seen.size(), one.positions.size()) << "every vertex is used";
  for (unsigned workers : {2u, 3u, 7u}) {
    size_t dropped_many = 0;
    const Scene many = built(text, workers, &dropped_many);
    EXPECT_EQ(dropped_many, dropped) << workers << " workers";
    EXPECT_EQ(many.indices, one.indices) << workers << " workers";
    EXPECT_EQ(many.tri_material, one.tri_material) << workers << " workers";
    ASSERT_EQ(many.positions.size(), one.positions.size()) << workers << " workers";
    EXPECT_EQ(std::memcmp(many.positions.data(), one.positions.data(), one.positions.size() * sizeof(Vec3)), 0);
  }
}
