// A model file whose triangles are out of any useful order, for the tests of the load's
// renumbering (engine/meshlets/triangle_renumber.h): a UV sphere with its triangles shuffled, so that the
// load groups it into patches, and with several materials, so that per-triangle materials move
// too. CPU and GPU tests alike.
#pragma once
#include <cstdint>
#include <string>

namespace facet::test {

struct ShuffledSphere {
  std::string obj_path;    // the OBJ file (with its MTL beside it)
  uint32_t triangles = 0;  // how many it holds
};

// Writes `dir`/shuffled.obj and shuffled.mtl: a make_sphere(triangles) in an order drawn from
// `seed`, triangle i of the file using material i % materials (each its own Kd).
ShuffledSphere write_shuffled_sphere(const std::string& dir, uint64_t triangles, int materials, uint32_t seed);

}  // namespace facet::test
