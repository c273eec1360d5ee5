#include "tests/support/shuffled_obj.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <stdexcept>
#include <vector>

#include "engine/scene/generate.h"

namespace facet::test {

ShuffledSphere write_shuffled_sphere(const std::string& dir, uint64_t triangles, int materials, uint32_t seed) {
  const Scene s = make_sphere(triangles);
  std::vector<uint32_t> order(s.triangle_count());
  for (uint32_t t = 0; t < order.size(); ++t) order[t] = t;
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  std::ofstream mtl(dir + "/shuffled.mtl");
  for (int m = 0; m < materials; ++m)
    mtl << "newmtl m" << m << "\nKd " << 0.2f + 0.6f * (float)m / (float)materials << " 0.5 "
        << 0.8f - 0.6f * (float)m / (float)materials << "\n";
  std::ofstream obj(dir + "/shuffled.obj");
  obj << "mtllib shuffled.mtl\n";
  obj.precision(9);
  for (const Vec3& p : s.positions) obj << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
  for (uint32_t i = 0; i < order.size(); ++i) {
    if (i == 0 || materials > 1) obj << "usemtl m" << i % materials << '\n';
    const uint32_t* v = &s.indices[3 * (size_t)order[i]];
    obj << "f " << v[0] + 1 << ' ' << v[1] + 1 << ' ' << v[2] + 1 << '\n';
  }
  if (!obj || !mtl) throw std::runtime_error("write_shuffled_sphere: cannot write into " + dir);
  return {dir + "/shuffled.obj", s.triangle_count()};
}

}  // namespace facet::test
