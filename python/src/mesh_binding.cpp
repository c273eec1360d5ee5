// facet.Mesh (a Scene built from NumPy arrays, checked), facet.load (the engine's loader) and
// facet.write_png (the engine's image_io). Host arrays only: a mesh is copied into the scene
// once, and the renderer uploads it from there.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

#include "arrays.h"
#include "bindings.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/triangle_renumber.h"
#include "engine/render/image_io.h"
#include "engine/scene/closed_surface.h"
#include "engine/scene/colour_space.h"
#include "mesh_binding.h"

namespace facet_py {

namespace {

constexpr float kDefaultAlbedo = facet::kDefaultGreyLinear;  // the grey the loader gives a model without materials

ArrayRef host_array(py::handle obj, const char* name, char kind, const char* dtype, const std::vector<int64_t>& shape) {
  ArrayRef a = array_ref(obj, name);
  if (a.device) throw py::value_error(std::string(name) + ": meshes are built from host (NumPy) arrays");
  require(a, name, kind, 32, dtype, shape);
  return a;
}

template <class T>
facet::BigVector<T> copy_rows(const ArrayRef& a) {
  facet::BigVector<T> v((size_t)a.shape[0]);  // unwritten until the copy
  if (!v.empty()) std::memcpy(v.data(), a.data, v.size() * sizeof(T));
  return v;
}

void set_colors(facet::Scene& s, py::handle colors, int32_t texture) {
  const int64_t t = s.triangle_count();
  if (colors.is_none()) {
    s.materials.push_back({{kDefaultAlbedo, kDefaultAlbedo, kDefaultAlbedo}, texture});
    s.tri_material.assign(t, 0);
    return;
  }
  ArrayRef c = array_ref(colors, "colors");
  if (c.shape.size() == 1) {
    require(c, "colors", 'f', 32, "float32", {3});
    const float* k = static_cast<const float*>(c.data);
    s.materials.push_back({{k[0], k[1], k[2]}, texture});
    s.tri_material.assign(t, 0);
    return;
  }
  require(c, "colors", 'f', 32, "float32", {t, 3});
  const float* k = static_cast<const float*>(c.data);
  for (int64_t i = 0; i < t; ++i) {
    s.materials.push_back({{k[3 * i], k[3 * i + 1], k[3 * i + 2]}, texture});
    s.tri_material.push_back((uint32_t)i);
  }
}

int32_t set_texture(facet::Scene& s, py::handle texture) {
  if (texture.is_none()) return -1;
  if (s.uvs.empty()) throw py::value_error("texture: a texture needs uvs");
  ArrayRef a = array_ref(texture, "texture");
  if (a.device) throw py::value_error("texture: expected a host (NumPy) array");
  require(a, "texture", 'u', 8, "uint8", {-1, -1, 4});
  const int h = (int)a.shape[0], w = (int)a.shape[1];
  std::vector<facet::Rgba8> texels((size_t)w * h);
  std::memcpy(texels.data(), a.data, texels.size() * 4);
  return facet::add_texture(s, "<array>", w, h, texels);
}

std::shared_ptr<facet::Scene> mesh_from_arrays(py::handle positions, py::handle triangles, py::handle uvs,
                                               py::handle normals, py::handle colors, py::handle texture) {
  auto s = std::make_shared<facet::Scene>();
  s->source = "<arrays>";
  ArrayRef p = host_array(positions, "positions", 'f', "float32", {-1, 3});
  const int64_t v = p.shape[0];
  ArrayRef t = array_ref(triangles, "triangles");
  const char ikind = t.kind == 'i' ? 'i' : 'u';
  t = host_array(triangles, "triangles", ikind, "int32 or uint32", {-1, 3});
  s->positions = copy_rows<facet::Vec3>(p);
  s->indices.resize((size_t)t.shape[0] * 3);
  if (!s->indices.empty()) std::memcpy(s->indices.data(), t.data, s->indices.size() * 4);
  for (size_t i = 0; i < s->indices.size(); ++i) {
    const int64_t k = ikind == 'i' ? (int64_t)(int32_t)s->indices[i] : (int64_t)s->indices[i];
    if (k < 0 || k >= v)
      throw py::value_error("triangles: index " + std::to_string(k) + " (triangle " + std::to_string(i / 3) +
                            ") is out of range for " + std::to_string(v) + " vertices");
  }
  if (!uvs.is_none()) s->uvs = copy_rows<facet::Vec2>(host_array(uvs, "uvs", 'f', "float32", {v, 2}));
  if (!normals.is_none())
    s->normals = copy_rows<facet::Vec3>(host_array(normals, "normals", 'f', "float32", {v, 3}));
  else
    s->normals = facet::compute_vertex_normals(s->positions, s->indices);
  set_colors(*s, colors, set_texture(*s, texture));
  for (size_t i = 0; i < s->materials.size(); ++i) s->material_names.push_back("material" + std::to_string(i));
  s->bounds = facet::compute_bounds(s->positions);
  s->bounds.closed = facet::closed_outward(s->positions, s->indices);
  // Prepared as a load prepares a file: meshlets built once for every renderer the mesh is given
  // to, and the triangles renumbered in their order where they are patches, so that the device
  // holds no per-slot arrays and a vertex base for 32 triangles (kernels/frame/params.h, about 12 bytes
  // a triangle fewer). What the mesh reports keeps the caller's numbers (Mesh.triangles, the
  // triangle_id output: Scene::file_triangle).
  {
    py::gil_scoped_release release;
    facet::prepare_in_slot_order(*s, facet::MeshletGrouping::Auto);
  }
  return s;
}

template <class T, class A>
py::array copy_out(const std::vector<T, A>& v, int64_t cols) {
  py::array_t<float> a({(int64_t)v.size(), cols});
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

void write_png(const std::string& path, py::handle image) {
  ArrayRef a = array_ref(image, "image");
  if (a.device) throw py::value_error("image: expected a host (NumPy) array");
  const int64_t c = a.shape.size() == 3 ? a.shape[2] : 0;
  if (c != 3 && c != 4) throw py::value_error("image: expected shape (H, W, 3) or (H, W, 4), got " + a.describe());
  require(a, "image", 'u', 8, "uint8", {-1, -1, c});
  const int64_t h = a.shape[0], w = a.shape[1];
  std::vector<facet::Rgba8> rgba((size_t)(w * h));
  const uint8_t* src = static_cast<const uint8_t*>(a.data);
  for (size_t i = 0; i < rgba.size(); ++i)
    rgba[i] = {src[i * c], src[i * c + 1], src[i * c + 2], c == 4 ? src[i * c + 3] : (uint8_t)255};
  py::gil_scoped_release release;
  facet::write_png(path, (int)w, (int)h, rgba);
}

}  // namespace

void bind_mesh(py::module_& m) {
  py::class_<Mesh>(m, "Mesh", R"(A triangle mesh, held on the host; Renderer.set_mesh uploads it.

Mesh(positions, triangles, uvs=None, normals=None, colors=None, texture=None)
  positions  float32 (V, 3), world space
  triangles  int32 or uint32 (T, 3), counter-clockwise = front; every index < V
  uvs        float32 (V, 2), texture coordinates (needed with texture)
  normals    float32 (V, 3); computed (area-weighted) when None
  colors     float32 (3,) one albedo, or (T, 3) one per triangle, linear 0..1 (default grey: sRGB 0.8)
  texture    uint8 (H, W, 4) RGBA, row 0 = top of the image, multiplied with the albedo
Arrays must be C-contiguous NumPy arrays; a wrong dtype raises TypeError, a wrong shape, a
non-contiguous array or an index out of range ValueError.)")
      .def(py::init([](py::handle positions, py::handle triangles, py::handle uvs, py::handle normals,
                       py::handle colors, py::handle texture) {
             return Mesh{mesh_from_arrays(positions, triangles, uvs, normals, colors, texture)};
           }),
           py::arg("positions"), py::arg("triangles"), py::arg("uvs") = py::none(), py::arg("normals") = py::none(),
           py::arg("colors") = py::none(), py::arg("texture") = py::none())
      .def_property_readonly("vertex_count", [](const Mesh& s) { return s.scene->vertex_count(); })
      .def_property_readonly("triangle_count", [](const Mesh& s) { return s.scene->triangle_count(); })
      .def_property_readonly("source", [](const Mesh& s) { return s.scene->source; })
      .def_property_readonly("warnings", [](const Mesh& s) { return s.scene->warnings; })
      .def_property_readonly(
          "positions", [](const Mesh& s) { return copy_out(s.scene->positions, 3); }, "float32 (V, 3), a copy")
      .def_property_readonly(
          "triangles",
          [](const Mesh& s) {
            const facet::Scene& scene = *s.scene;
            py::array_t<uint32_t> a({(int64_t)scene.triangle_count(), (int64_t)3});
            uint32_t* out = a.mutable_data();
            if (scene.file_triangle.empty()) {
              if (!scene.indices.empty()) std::memcpy(out, scene.indices.data(), scene.indices.size() * 4);
            } else {  // in the file's order, the numbers the triangle_id output gives
              for (uint32_t t = 0; t < scene.triangle_count(); ++t)
                std::memcpy(out + 3 * (size_t)scene.file_triangle[t], &scene.indices[3 * (size_t)t], 12);
            }
            return a;
          },
          "uint32 (T, 3), a copy, in the file's order (what the triangle_id output numbers)")
      .def_property_readonly(
          "bounds",
          [](const Mesh& s) {
            const facet::Bounds& b = s.scene->bounds;
            return py::dict(py::arg("min") = py::make_tuple(b.min.x, b.min.y, b.min.z),
                            py::arg("max") = py::make_tuple(b.max.x, b.max.y, b.max.z),
                            py::arg("center") = py::make_tuple(b.center.x, b.center.y, b.center.z),
                            py::arg("radius") = b.radius, py::arg("closed") = b.closed);
          },
          "dict: min, max, center (bounding-sphere centre), radius, closed (a closed surface facing outward)")
      .def("__repr__", [](const Mesh& s) {
        return "facet.Mesh(" + std::to_string(s.scene->triangle_count()) + " triangles, " +
               std::to_string(s.scene->vertex_count()) + " vertices, from " + s.scene->source + ")";
      });
  m.def(
      "load",
      [](const std::string& path, bool read_outside_folder) {
        std::shared_ptr<facet::Scene> s;
        {
          py::gil_scoped_release release;
          facet::LoadOptions options;
          options.read_outside_folder = read_outside_folder;
          s = std::make_shared<facet::Scene>(facet::load_model(path, options));
        }
        return Mesh{s};
      },
      py::arg("path"), py::kw_only(), py::arg("read_outside_folder") = false,
      "Loads a model file (every format facet's loader reads) into a Mesh. Raises facet.LoadError "
      "with 'PATH: problem' when the file cannot be shown. The files the model names (MTLs, textures, "
      "glTF buffers and images) are read from its folder and below only, unless read_outside_folder.");
  m.def("write_png", &write_png, py::arg("path"), py::arg("image"),
        "Writes a uint8 (H, W, 3) or (H, W, 4) NumPy image as a PNG, row 0 at the top.");
}

}  // namespace facet_py
