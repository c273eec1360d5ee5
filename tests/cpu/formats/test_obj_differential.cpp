// Our OBJ parser against the oracle (tests/support/oracle: tinyobjloader run through a mesh
// building of its own): on every shared model and every edge-case file, both must accept
// or both refuse, and what both accept must have the same positions, indices, texcoords,
// normals and per-triangle materials. Numbers may differ by one float step: tinyobjloader's
// own number reader is not correctly rounded, fast_float is.
// Except for files with polygons of 5 corners or more: tinyobjloader's ear clipping loses pieces
// of concave polygons (and depends on where they sit), and facet cuts them its own way
// (engine/formats/obj/obj_triangulate.h), so their triangles, and with them the order vertices
// are first used in, differ. For those files what must hold is checked against the faces as
// tinyobjloader reads them without triangulating: the same positions; per face n - 2 triangles in
// file order, of its own corners, with its material, covering its area (Newell's) exactly.
#include <gtest/gtest.h>
#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/oracle/obj_scan.h"
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

// A face as tinyobjloader reads it without triangulating.
struct Face {
  std::vector<Vec3> corners;
  bool usable = true;  // no corner's position is NaN, infinite or not a number
  std::string material;
};

std::vector<Face> faces_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const oracle::ObjScan scan = oracle::scan_obj(path, text.data(), text.size());
  std::vector<uint8_t> unusable(scan.v_count, 0);
  for (uint32_t v : scan.nonfinite_vertices) unusable[v] = 1;
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  const std::string folder = fs::path(path).parent_path().string() + "/";
  EXPECT_TRUE(tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), folder.c_str(),
                               /*triangulate=*/false, /*default_vcols_fallback=*/false))
      << err;
  std::vector<Face> faces;
  for (const tinyobj::shape_t& shape : shapes) {
    size_t at = 0;
    for (size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f) {
      Face& face = faces.emplace_back();
      const int id = shape.mesh.material_ids[f];
      face.material = id >= 0 && (size_t)id < materials.size() ? materials[(size_t)id].name : "<default>";
      for (unsigned k = 0; k < shape.mesh.num_face_vertices[f]; ++k) {
        const size_t v = (size_t)shape.mesh.indices[at + k].vertex_index;
        face.corners.push_back({attrib.vertices[3 * v], attrib.vertices[3 * v + 1], attrib.vertices[3 * v + 2]});
        face.usable = face.usable && !unusable[v];
      }
      at += shape.mesh.num_face_vertices[f];
    }
  }
  return faces;
}

// A face statement with 5 corners or more (lines joined where a '\\' ends them).
bool has_polygons(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), line;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find_first_of("\r\n", at);
    if (end == std::string::npos) end = text.size();
    line += text.substr(at, end - at);
    at = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    if (!line.empty() && line.back() == '\\') {
      line.back() = ' ';
      continue;
    }
    std::vector<std::string> words;
    for (size_t i = 0; i < line.size(); ++i)
      if (!std::isspace((unsigned char)line[i]) && (i == 0 || std::isspace((unsigned char)line[i - 1])))
        words.push_back(line.substr(i, line.find_first_of(" \t", i) - i));
    if (!words.empty() && words[0] == "f" && words.size() >= 6) return true;
    line.clear();
  }
  return false;
}

bool same_position(Vec3 a, Vec3 b) { return same_float(a.x, b.x) && same_float(a.y, b.y) && same_float(a.z, b.z); }

// What must hold for a file with polygons (see the top of the file).
void expect_polygons_cut_whole(const Scene& ours, const std::vector<Face>& faces) {
  std::vector<Vec3> kept;  // the usable faces' corners
  for (const Face& face : faces)
    if (face.usable) kept.insert(kept.end(), face.corners.begin(), face.corners.end());
  for (size_t i = 0; i < ours.positions.size(); ++i) {
    bool found = false;
    for (const Vec3& c : kept) found = found || same_position(ours.positions[i], c);
    ASSERT_TRUE(found) << "position " << i << " is no corner of a face";
  }
  for (const Vec3& c : kept) {
    bool found = false;
    for (const Vec3& p : ours.positions) found = found || same_position(p, c);
    ASSERT_TRUE(found) << "a corner's position is missing";
  }
  // The area of a polygon whose outline crosses itself is not defined: facet reports it.
  bool crossing = false;
  for (const std::string& w : ours.warnings) crossing = crossing || w.find("(not simple)") != std::string::npos;
  size_t t = 0;
  for (size_t f = 0; f < faces.size(); ++f) {
    const Face& face = faces[f];
    if (!face.usable) continue;  // dropped whole, as a triangle touching such a corner is
    double newell[3] = {0, 0, 0}, area = 0;
    const Vec3 o = face.corners[0];
    for (size_t k = 1; k + 1 < face.corners.size(); ++k) {
      const Vec3 a = face.corners[k], b = face.corners[k + 1];
      const double u[3] = {(double)a.x - o.x, (double)a.y - o.y, (double)a.z - o.z};
      const double w[3] = {(double)b.x - o.x, (double)b.y - o.y, (double)b.z - o.z};
      newell[0] += u[1] * w[2] - u[2] * w[1], newell[1] += u[2] * w[0] - u[0] * w[2];
      newell[2] += u[0] * w[1] - u[1] * w[0];
    }
    for (size_t k = 0; k + 2 < face.corners.size(); ++k, ++t) {
      ASSERT_LT(t, (size_t)ours.triangle_count()) << "face " << f;
      Vec3 p[3];
      for (int j = 0; j < 3; ++j) {
        p[j] = ours.positions[ours.indices[3 * t + (size_t)j]];
        bool own = false;
        for (const Vec3& c : face.corners) own = own || same_position(p[j], c);
        ASSERT_TRUE(own) << "triangle " << t << " has a corner that is not face " << f << "'s";
      }
      EXPECT_EQ(ours.material_names[ours.tri_material[t]], face.material) << "triangle " << t;
      const double u[3] = {(double)p[1].x - p[0].x, (double)p[1].y - p[0].y, (double)p[1].z - p[0].z};
      const double w[3] = {(double)p[2].x - p[0].x, (double)p[2].y - p[0].y, (double)p[2].z - p[0].z};
      area += std::hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]) / 2;
    }
    // Within what writing the corners as floats can account for (off their plane by a step).
    float largest = 0;
    double perimeter = 0;
    for (size_t k = 0; k < face.corners.size(); ++k) {
      const Vec3 a = face.corners[k], b = face.corners[(k + 1) % face.corners.size()];
      largest = std::max({largest, std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)});
      perimeter += std::hypot((double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z);
    }
    const double step = std::nextafter(largest, INFINITY) - largest;
    const double want = std::hypot(newell[0], newell[1], newell[2]) / 2;
    if (!crossing) {
      EXPECT_NEAR(area, want, 1e-6 * want + 2 * perimeter * step)
          << "face " << f << " of " << face.corners.size() << " corners";
    }
  }
  EXPECT_EQ(t, (size_t)ours.triangle_count()) << "n - 2 triangles a face";
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
  if (has_polygons(path))
    expect_polygons_cut_whole(ours.scene, faces_of(path));
  else
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
      "v nan 1 1\nv 2 2\nf 1 4 5 2 3\nf 1 2 3\n",  // the pentagon dropped whole: the triangle keeps the file
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
