// facet.Camera and facet.Renderer: the engine's Renderer behind a Python object. A frame's
// outputs (colour, depth, triangle ids, barycentrics) come back as NumPy arrays (one copy) or
// as DeviceArrays on the GPU (no copy, DLPack); a list of cameras renders a batch (N, H, W, C).
// The GIL is released while the engine renders.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <map>

#include "arrays.h"
#include "bindings.h"
#include "camera_binding.h"
#include "dlpack_array.h"
#include "engine/render/option_names.h"
#include "engine/render/renderer.h"
#include "mesh_binding.h"

namespace facet_py {

namespace {

// One output kind: its name, channels and element type.
struct OutputKind {
  const char* name;
  int64_t channels;  // 0: no channel axis
  char kind;
  int bits;
  const char* dtype;
};
constexpr OutputKind kOutputs[] = {{"color", 4, 'u', 8, "uint8"},
                                   {"depth", 0, 'f', 32, "float32"},
                                   {"triangle_id", 0, 'i', 32, "int32"},
                                   {"barycentrics", 3, 'f', 32, "float32"}};

const OutputKind& output_kind(const std::string& name) {
  for (const OutputKind& k : kOutputs)
    if (name == k.name) return k;
  throw py::value_error("outputs: unknown output '" + name + "' (color, depth, triangle_id, barycentrics)");
}

// Where render's arrays live: the `device` argument's names.
constexpr facet::OptionName<bool> kDeviceNames[] = {{"cpu", false}, {"cuda", true}};

facet::Shading parse_shading(const std::string& s) {
  if (const auto shading = facet::parse_option(facet::kShadingNames, s)) return *shading;
  throw py::value_error("shading: '" + s + "' is not one of " + facet::name_list(facet::kShadingNames, ", "));
}

facet::Backend parse_backend(const std::string& s) {
  if (const auto backend = facet::parse_option(facet::kBackendNames, s)) return *backend;
  throw py::value_error("backend: '" + s + "' is not one of " + facet::name_list(facet::kBackendNames, ", "));
}

// True for device memory.
bool parse_device(const std::string& s) {
  if (const auto on_device = facet::parse_option(kDeviceNames, s)) return *on_device;
  throw py::value_error("device: '" + s + "' is not " + facet::name_list(kDeviceNames, ", ", " or "));
}

class PyRenderer {
 public:
  PyRenderer(int width, int height, const std::string& backend) : m_width(width), m_height(height) {
    if (width <= 0 || height <= 0 || width > facet::kMaxFrameSide || height > facet::kMaxFrameSide)
      throw py::value_error("width, height: each must be 1.." + std::to_string(facet::kMaxFrameSide) + ", got " +
                            std::to_string(width) + "x" + std::to_string(height));
    m_renderer = facet::make_renderer(parse_backend(backend));
  }
  std::string backend() const { return m_renderer->name(); }

  void set_mesh(const Mesh& mesh) {
    py::gil_scoped_release release;
    m_renderer->set_scene(mesh.scene);
    m_scene = mesh.scene;
  }

  py::dict render(py::object cameras, const std::string& shading, const std::vector<std::string>& outputs,
                  const std::string& device, py::object out, const facet::RenderOptions& base);

 private:
  py::object make_output(const OutputKind& k, bool batch, int64_t n, bool on_device) const;

  std::unique_ptr<facet::Renderer> m_renderer;
  std::shared_ptr<const facet::Scene> m_scene;
  int m_width, m_height;
};

py::object PyRenderer::make_output(const OutputKind& k, bool batch, int64_t n, bool on_device) const {
  std::vector<int64_t> shape;
  if (batch) shape.push_back(n);
  shape.push_back(m_height);
  shape.push_back(m_width);
  if (k.channels) shape.push_back(k.channels);
  if (on_device) return py::cast(DeviceArray(shape, k.kind, k.bits));
  if (k.kind == 'u') return py::array_t<uint8_t>(shape);
  if (k.kind == 'i') return py::array_t<int32_t>(shape);
  return py::array_t<float>(shape);
}

py::dict PyRenderer::render(py::object cameras, const std::string& shading, const std::vector<std::string>& outputs,
                            const std::string& device, py::object out, const facet::RenderOptions& base) {
  if (!m_scene) throw py::value_error("render: no mesh set (call set_mesh first)");
  const bool on_device = parse_device(device);
  if (on_device && !m_renderer->capabilities().device_frames)
    throw py::value_error("device='cuda' needs the cuda backend; this renderer is " + backend());
  const bool batch = !py::isinstance<CameraSpec>(cameras);
  std::vector<facet::Camera> cams;
  if (batch)
    for (py::handle c : cameras) cams.push_back(c.cast<const CameraSpec&>().resolve(m_scene->bounds, m_height));
  else
    cams.push_back(cameras.cast<const CameraSpec&>().resolve(m_scene->bounds, m_height));
  if (cams.empty()) throw py::value_error("cameras: an empty list");
  const int64_t n = (int64_t)cams.size();
  facet::RenderOptions settings = base;
  settings.shading = parse_shading(shading);

  py::dict given = out.is_none() ? py::dict() : out.cast<py::dict>();
  py::dict result;
  std::map<std::string, ArrayRef> refs;
  for (const std::string& name : outputs) {
    const OutputKind& k = output_kind(name);
    py::object a = given.contains(name.c_str()) ? py::object(given[name.c_str()]) : make_output(k, batch, n, on_device);
    ArrayRef r = array_ref(a, ("out['" + name + "']").c_str());
    std::vector<int64_t> shape;
    if (batch) shape.push_back(n);
    shape.insert(shape.end(), {m_height, m_width});
    if (k.channels) shape.push_back(k.channels);
    require(r, ("out['" + name + "']").c_str(), k.kind, k.bits, k.dtype, shape);
    if (r.device != on_device || !r.writable)
      throw py::value_error("out['" + name + "']: must be a writable " + (on_device ? "device" : "host") + " array");
    refs[name] = r;
    result[name.c_str()] = a;
  }
  const size_t pixels = (size_t)m_width * m_height;
  auto at = [&](const char* name, size_t bytes_per_pixel, int64_t i) -> void* {
    auto it = refs.find(name);
    return it == refs.end() ? nullptr : static_cast<char*>(it->second.data) + (size_t)i * pixels * bytes_per_pixel;
  };
  py::gil_scoped_release release;
  for (int64_t i = 0; i < n; ++i) {
    // On the GPU the frame resolves straight into the caller's colour array: no copy after it.
    facet::FrameTarget target;
    facet::Rgba8* color = static_cast<facet::Rgba8*>(at("color", 4, i));
    if (on_device && color) {
      target.kind = facet::FrameTarget::Kind::Device;
      target.pixels = color;
      color = nullptr;
    }
    m_renderer->render(cams[(size_t)i], settings, m_width, m_height, target);
    facet::FrameOutputs o;
    o.color = color;
    o.depth = static_cast<float*>(at("depth", 4, i));
    o.triangle_id = static_cast<int32_t*>(at("triangle_id", 4, i));
    o.barycentrics = static_cast<float*>(at("barycentrics", 12, i));
    o.on_device = on_device;
    if (o.color || o.depth || o.triangle_id || o.barycentrics) m_renderer->read_outputs(o);
  }
  return result;
}

}  // namespace

void bind_render(py::module_& m) {
  bind_camera(m);
  py::class_<PyRenderer>(m, "Renderer", R"(facet's renderer: a mesh uploaded once, then frames for cameras.

Renderer(width, height, backend="auto")
  backend  "auto" (CUDA when a device is usable, else the CPU), "cpu" or "cuda" (raises
           RuntimeError where no CUDA device is usable). Both give the same pixels.)")
      .def(py::init<int, int, const std::string&>(), py::arg("width"), py::arg("height"),
           py::arg("backend") = facet::name_of(facet::Backend::Auto))
      .def_property_readonly("backend", &PyRenderer::backend, "'cpu' or 'cuda': the backend in use")
      .def("set_mesh", &PyRenderer::set_mesh, py::arg("mesh"), "Makes `mesh` the one drawn; uploads it once.")
      .def(
          "render",
          [](PyRenderer& r, py::object camera, const std::string& shading, const std::vector<std::string>& outputs,
             const std::string& device, py::object out, std::array<int, 3> background, bool cull_backfaces,
             bool two_sided, bool wireframe, int aa) {
            facet::RenderOptions s;
            if (aa != 1 && aa != 4 && aa != 8) throw py::value_error("aa: " + std::to_string(aa) + " is not 1, 4 or 8");
            s.samples = (uint8_t)aa;
            s.cull_backfaces = cull_backfaces;
            s.two_sided = two_sided;
            s.wireframe = wireframe;
            for (int c : background)
              if (c < 0 || c > 255) throw py::value_error("background: each channel must be 0..255");
            s.background = {(uint8_t)background[0], (uint8_t)background[1], (uint8_t)background[2], 255};
            return r.render(camera, shading, outputs, device, out, s);
          },
          py::arg("camera"), py::arg("shading") = facet::name_of(facet::RenderOptions{}.shading),
          py::arg("outputs") = std::vector<std::string>{"color"},
          py::arg("device") = facet::name_of(kDeviceNames, false), py::arg("out") = py::none(),
          py::arg("background") = std::array<int, 3>{40, 42, 48}, py::arg("cull_backfaces") = false,
          py::arg("two_sided") = false, py::arg("wireframe") = false, py::arg("aa") = 4,
          R"(Renders one frame per camera; returns a dict {output name: array}.

camera   a facet.Camera, or a list of them: a batch, every array gets a leading axis N
shading  "lit", "texture", "normals" or "depth" (the colour output's shading)
outputs  any of "color" uint8 (H, W, 4) RGBA, row 0 = top; "depth" float32 (H, W), distance
         from the eye to the visible surface along the pixel centre's ray, +inf where no
         triangle; "triangle_id" int32 (H, W), -1 where none; "barycentrics" float32
         (H, W, 3), perspective-correct weights of the visible triangle's vertices, 0 where none
device   "cpu": NumPy arrays (one copy from the GPU); "cuda": facet.DeviceArray on the GPU,
         for torch.from_dlpack / cupy.from_dlpack without a copy (cuda backend only)
out      dict {name: array} of arrays to write into instead of new ones (same shapes, dtypes
         and device as above)
aa       anti-aliasing samples a pixel: 1 (none), 4 (default) or 8. With aa > 1, depth,
         triangle_id and barycentrics are those of the pixel's nearest sample's triangle at the
         pixel centre (on an edge the centre may lie just outside it); aa=1 for centre-exact ones
background, cull_backfaces, two_sided, wireframe: as `facet render`'s options)");
}

}  // namespace facet_py
