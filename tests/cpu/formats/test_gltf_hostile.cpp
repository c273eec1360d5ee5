// The glTF reader under hostile input: no crash, no silent change, no false
// success. Each case is a small glTF written here: JSON nested far too deep, node hierarchies with
// loops, shared subtrees or roots that are children, accessors that ask for gigabytes, files named
// outside the model's folder or missing from it, indices that point at nothing (or that tinygltf
// would cut to 32 bits), a byteStride on indices, a .glb whose chunk runs past its end. Each must
// be refused quickly with a LoadError that names the element and what it points at; the valid
// neighbours of the cases still load.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/gltf_bytes.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

// A refusal must come before anything large is read or built: well inside this.
constexpr double kQuickSeconds = 2.0;

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "in: " << (text)

// One triangle's buffer: 3 float positions (bytes 0..36), 3 uint16 indices (36..42), 2 bytes of
// padding.
std::string triangle_bin() {
  std::string bin;
  append(bin, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
  append(bin, std::vector<uint16_t>{0, 1, 2, 0});
  return bin;
}

// A glTF written by hand: one buffer (`bin`, embedded as a data: URI, or named `buffer_uri`, or
// the .glb's BIN chunk) and the other top-level members as JSON text, each replaceable.
struct Doc {
  std::string bin = triangle_bin();
  std::string buffer_uri;   // "": a data: URI
  bool glb_buffer = false;  // the buffer is the .glb's BIN chunk (no URI)
  std::string scene;        // the "scene" member's value, or none
  std::string scenes = R"([{"nodes": [0]}])";
  std::string nodes = R"([{"mesh": 0}])";
  std::string primitive = R"({"attributes": {"POSITION": 0}, "indices": 1})";
  std::string meshes;  // "": one mesh of `primitive`
  std::string buffer_views =
      R"([{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}])";
  std::string accessors = R"([{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                                "min": [0, 0, 0], "max": [1, 1, 0]},
                               {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}])";
  std::string extra;  // more top-level members, each followed by ", "

  std::string json() const {
    std::string uri = glb_buffer           ? ""
                      : buffer_uri.empty() ? R"(, "uri": "data:application/octet-stream;base64,)" + base64(bin) + "\""
                                           : R"(, "uri": ")" + buffer_uri + "\"";
    return R"({"asset": {"version": "2.0"}, )" + extra + (scene.empty() ? "" : R"("scene": )" + scene + ", ") +
           R"("scenes": )" + scenes + R"(, "nodes": )" + nodes + R"(, "meshes": )" +
           (meshes.empty() ? R"([{"primitives": [)" + primitive + "]}]" : meshes) + R"(, "buffers": [{"byteLength": )" +
           std::to_string(bin.size()) + uri + R"(}], "bufferViews": )" + buffer_views + R"(, "accessors": )" +
           accessors + "}";
  }
};

void put_u32(std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }

// A .glb of `json` and a BIN chunk of `bin` (none when empty); `bin_length_delta` is added to the
// BIN chunk's stated length (not to the file's).
std::string glb(std::string json, std::string bin, long bin_length_delta = 0) {
  while (json.size() % 4) json += ' ';
  while (bin.size() % 4) bin += '\0';
  const size_t total = 12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size());
  std::string out = "glTF";
  put_u32(out, 2);
  put_u32(out, (uint32_t)total);
  put_u32(out, (uint32_t)json.size());
  out += "JSON";
  out += json;
  if (!bin.empty()) {
    put_u32(out, (uint32_t)((long)bin.size() + bin_length_delta));
    out.append("BIN\0", 4);
    out += bin;
  }
  return out;
}

// The problem of the LoadError that loading `path` gives (the message without "PATH: "), checked
// to come quickly; "" and a failure when it loads or throws anything else.
std::string refusal(const std::string& path) {
  const auto start = std::chrono::steady_clock::now();
  try {
    Scene s = load_model(path);
    ADD_FAILURE() << path << " loaded (" << s.triangle_count() << " triangles)";
  } catch (const LoadError& e) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string what = e.what();
    EXPECT_LT(seconds, kQuickSeconds) << what;
    EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
    EXPECT_LT(what.size(), path.size() + 600) << "a message repeats a few hundred bytes of the file at most";
    return what.substr(std::min(what.size(), path.size() + 2));
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a LoadError: " << e.what();
  }
  return "";
}

std::string refusal(const ScratchDir& dir, const Doc& d) { return refusal(dir.write("m.gltf", d.json())); }

TEST(GltfHostile, TheHandMadeTriangleLoads) {
  // The cases below start from this file: it must load as it is, embedded, beside a .bin and as
  // a .glb.
  ScratchDir dir;
  Doc d;
  EXPECT_EQ(load_model(dir.write("m.gltf", d.json())).triangle_count(), 1u);
  d.buffer_uri = "m.bin";
  dir.write("m.bin", d.bin);
  EXPECT_EQ(load_model(dir.write("b.gltf", d.json())).triangle_count(), 1u);
  d.glb_buffer = true;
  EXPECT_EQ(load_model(dir.write("m.glb", glb(d.json(), d.bin))).triangle_count(), 1u);
}

// ---- JSON nesting (the stack overflowed inside tinygltf) ----

TEST(GltfHostile, JsonNestedTensOfThousandsDeepIsRefusedBeforeItIsParsed) {
  ScratchDir dir;
  Doc d;
  d.extra = R"("extras": )" + std::string(100000, '[') + std::string(100000, ']') + ", ";
  const std::string json = d.json();
  // The root object is level 1: the 256th bracket of `extras` is level 257.
  const size_t first = json.find(R"("extras": [)") + 10;
  const std::string what = refusal(dir.write("m.gltf", json));
  EXPECT_EQ(what, "JSON nested deeper than 256 levels (at byte " + std::to_string(first + 255) + ")");
}

TEST(GltfHostile, DeepObjectsInANodesExtrasAreRefusedToo) {
  ScratchDir dir;
  Doc d;
  std::string deep;
  for (int i = 0; i < 50000; ++i) deep += R"({"a": )";
  deep += "0" + std::string(50000, '}');
  d.nodes = R"([{"mesh": 0, "extras": )" + deep + "}]";
  EXPECT_HAS(refusal(dir, d), "JSON nested deeper than 256 levels");
}

TEST(GltfHostile, DeepJsonInAGlbIsRefusedAtItsByteInTheFile) {
  ScratchDir dir;
  Doc d;
  d.glb_buffer = true;
  d.extra = R"("extras": )" + std::string(100000, '[') + std::string(100000, ']') + ", ";
  const std::string json = d.json();
  const size_t first = json.find(R"("extras": [)") + 10;
  EXPECT_EQ(refusal(dir.write("m.glb", glb(json, d.bin))),
            "JSON nested deeper than 256 levels (at byte " + std::to_string(20 + first + 255) + ")");
}

TEST(GltfHostile, BracketsInsideStringsAreNotNesting) {
  // Quotes and backslashes escaped in the string must not end it early.
  ScratchDir dir;
  Doc d;
  d.extra = R"("extras": {"text": "\\\")" + std::string(100000, '[') + R"(\\"}, )";
  EXPECT_EQ(load_model(dir.write("m.gltf", d.json())).triangle_count(), 1u);
}

// ---- The node hierarchy (loops and shared subtrees multiplied into gigabytes) ----

TEST(GltfHostile, ANodeLoopIsNamed) {
  ScratchDir dir;
  Doc d;
  d.nodes = R"([{"mesh": 0, "children": [1]}, {"mesh": 0, "children": [2]}, {"mesh": 0, "children": [1]}])";
  EXPECT_EQ(refusal(dir, d), "node 1 is its own ancestor (1 -> 2 -> 1)");
}

TEST(GltfHostile, ALoopAwayFromTheSceneIsNamedToo) {
  ScratchDir dir;
  Doc d;
  d.nodes = R"([{"mesh": 0}, {"children": [2]}, {"children": [3]}, {"children": [1]}])";
  EXPECT_EQ(refusal(dir, d), "node 1 is its own ancestor (1 -> 2 -> 3 -> 1)");
}

TEST(GltfHostile, ANodeThatIsItsOwnChildIsNamed) {
  ScratchDir dir;
  Doc d;
  d.nodes = R"([{"mesh": 0, "children": [0]}])";
  EXPECT_EQ(refusal(dir, d), "node 0 is its own child");
}

// Nodes 0..levels-1 where node i names node i + 1 twice: 2^levels instances of the last node.
std::string doubling_chain(int levels) {
  std::string nodes = "[";
  for (int i = 0; i < levels; ++i)
    nodes += R"({"children": [)" + std::to_string(i + 1) + ", " + std::to_string(i + 1) + "]}, ";
  return nodes + R"({"mesh": 0}])";
}

TEST(GltfHostile, AChildNamedTwiceIsRefusedBeforeTheInstancesMultiply) {
  ScratchDir dir;
  Doc d;
  d.nodes = doubling_chain(40);  // 2^40 instances of the triangle
  EXPECT_EQ(refusal(dir, d), "node 0 names child node 1 twice");
}

TEST(GltfHostile, SharedSubtreesAreRefusedBeforeTheInstancesMultiply) {
  // Two nodes a level, both parents of both nodes of the next level: 2^40 paths to the last
  // level, each with a mesh of 300 triangles.
  ScratchDir dir;
  Doc d;
  std::vector<float> pos;
  for (int t = 0; t < 300; ++t) pos.insert(pos.end(), {0, 0, (float)t, 1, 0, (float)t, 0, 1, (float)t});
  d.bin.clear();
  append(d.bin, pos);
  d.primitive = R"({"attributes": {"POSITION": 0}})";
  d.buffer_views = R"([{"buffer": 0, "byteLength": )" + std::to_string(d.bin.size()) + "}]";
  d.accessors = R"([{"bufferView": 0, "componentType": 5126, "count": 900, "type": "VEC3"}])";
  std::string nodes = R"([{"children": [1, 2]}, )";
  for (int level = 0; level < 40; ++level) {
    const int a = 1 + 2 * level;
    const std::string children = level + 1 < 40
                                     ? R"("children": [)" + std::to_string(a + 2) + ", " + std::to_string(a + 3) + "]"
                                     : R"("mesh": 0)";
    nodes += "{" + children + "}, {" + children + "}" + (level + 1 < 40 ? ", " : "]");
  }
  d.nodes = nodes;
  EXPECT_EQ(refusal(dir, d), "node 3 is a child of both node 1 and node 2 (a glTF node has one parent at most)");
}

TEST(GltfHostile, ASceneRootThatIsAlsoAChildIsRefused) {
  // It would be drawn twice, once on its own and once under its parent.
  ScratchDir dir;
  Doc d;
  d.scenes = R"([{"nodes": [0, 1]}])";
  d.nodes = R"([{"children": [1]}, {"mesh": 0}])";
  EXPECT_EQ(refusal(dir, d), "scene 0 names node 1 as a root, but it is a child of node 0");
}

TEST(GltfHostile, ANodeWithAMatrixAndATranslationIsRefused) {
  ScratchDir dir;
  Doc d;
  d.nodes = R"([{"mesh": 0, "translation": [1, 0, 0], "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,0,0,1]}])";
  EXPECT_HAS(refusal(dir, d), "node 0 has both a matrix and a translation, rotation or scale");
}

// ---- Accessors that ask for gigabytes ----

TEST(GltfHostile, AnAccessorLongerThanItsBufferViewIsRefusedWithTheBytesItNeeds) {
  ScratchDir dir;
  Doc d;
  d.buffer_views =
      R"([{"buffer": 0, "byteOffset": 0, "byteLength": 12}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}])";
  d.accessors = R"([{"bufferView": 0, "componentType": 5126, "count": 67108864, "type": "VEC3"},
                    {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}])";
  EXPECT_EQ(refusal(dir, d),
            "accessor 0 (mesh 0 primitive 0 POSITION): 67108864 VEC3 of float (12 bytes each) need 805306368 bytes "
            "from byte 0, past the end of buffer view 0 (12 bytes)");
}

TEST(GltfHostile, PositionsWithNoDataAreSkippedNotAllocated) {
  // 2^26 - 1 zero vertices (no buffer view, no sparse values; a whole number of triangles) draw
  // nothing: skipped with a warning, never allocated, and with nothing else to draw the file is
  // refused, not shown as an empty image.
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 2}})";
  d.accessors.insert(d.accessors.rfind(']'), R"(, {"componentType": 5126, "count": 67108863, "type": "VEC3"})");
  const std::string what = refusal(dir, d);
  EXPECT_HAS(what, "no triangles to show");
  EXPECT_HAS(what, "1 primitives whose POSITION has no data skipped");
}

TEST(GltfHostile, APrimitiveWithNoPositionDataBesideARealOneIsSkippedWithAWarning) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1}, {"attributes": {"POSITION": 2}})";
  d.accessors.insert(d.accessors.rfind(']'), R"(, {"componentType": 5126, "count": 67108864, "type": "VEC3"})");
  Scene s = load_model(dir.write("m.gltf", d.json()));
  EXPECT_EQ(s.triangle_count(), 1u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_HAS(s.warnings[0], "mesh 0 primitive 1: POSITION (accessor 2, 67108864 elements) has no buffer view");
}

TEST(GltfHostile, ASparseAccessorOfTwoTo26ZerosIsRefusedBeforeItIsAllocated) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 2}})";
  d.buffer_views.insert(d.buffer_views.rfind(']'), R"(, {"buffer": 0, "byteOffset": 36, "byteLength": 1})");
  d.accessors.insert(d.accessors.rfind(']'), R"(, {"componentType": 5126, "count": 67108864, "type": "VEC3",
      "sparse": {"count": 1, "indices": {"bufferView": 2, "componentType": 5121},
                 "values": {"bufferView": 0}}})");
  EXPECT_HAS(refusal(dir, d), "67108864 elements with no buffer view (at most 16777216)");
}

// A mesh of 2^24 / 3 triangles (POSITION: 2^24 zeros but for one sparse value, so it costs the
// file nothing) under `instances` nodes.
Doc instanced(int instances) {
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 2}})";
  d.buffer_views.insert(d.buffer_views.rfind(']'), R"(, {"buffer": 0, "byteOffset": 36, "byteLength": 1})");
  d.accessors.insert(d.accessors.rfind(']'), R"(, {"componentType": 5126, "count": 16777215, "type": "VEC3",
      "sparse": {"count": 1, "indices": {"bufferView": 2, "componentType": 5121},
                 "values": {"bufferView": 0}}})");
  std::string roots = "[", nodes = "[";
  for (int i = 0; i < instances; ++i) {
    roots += (i ? ", " : "") + std::to_string(i);
    nodes += std::string(i ? ", " : "") + R"({"mesh": 0, "translation": [)" + std::to_string(i) + ", 0, 0]}";
  }
  d.scenes = R"([{"nodes": )" + roots + "]}]";
  d.nodes = nodes + "]";
  return d;
}

TEST(GltfHostile, TrianglesMultipliedByInstancingAreCountedAndRefusedBeforeTheyAreBuilt) {
  ScratchDir dir;
  // 400 x 5592405 triangles: 2.2 G.
  EXPECT_EQ(refusal(dir, instanced(400)),
            "the default scene has 2236962000 triangles with its instancing multiplied out (400 node instances), "
            "more than facet's bound of 2147483648 (2^31)");
}

TEST(GltfHostile, VerticesMultipliedByInstancingPast32BitsAreRefusedBeforeTheyAreBuilt) {
  ScratchDir dir;
  // 257 x 16777215 vertices: past 2^32 - 1, while 1.4 G triangles stay under their bound.
  EXPECT_HAS(refusal(dir, instanced(257)), "the default scene has 4311744255 vertices");
}

// ---- Files outside the model's folder (silent changes) ----

// Makes `dir` the working directory while it lives.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::string& dir) : m_old(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~WorkingDirectory() { std::filesystem::current_path(m_old); }

 private:
  std::filesystem::path m_old;
};

TEST(GltfHostile, AMissingBufferIsNotLookedUpInTheWorkingDirectory) {
  // tinygltf's fallback would find another model's data.bin in the working directory and draw it.
  ScratchDir dir;
  Doc d;
  d.buffer_uri = "data.bin";
  const std::string path = dir.write("model/m.gltf", d.json());
  dir.write("elsewhere/data.bin", d.bin);
  WorkingDirectory cwd(dir.path("elsewhere"));
  const std::string what = refusal(path);
  EXPECT_HAS(what, "the buffer file 'data.bin' is not in the model's folder");
}

TEST(GltfHostile, BufferUrisThatLeaveTheModelsFolderAreRefused) {
  ScratchDir dir;
  Doc d;
  dir.write("x.bin", d.bin);  // beside the folder, the right size: only the rule refuses it
  for (const std::string uri : {"../x.bin", "%2E%2E/x.bin", "inner/../../x.bin", "./../x.bin"}) {
    d.buffer_uri = uri;
    const std::string decoded = uri[0] == '%' ? "../x.bin" : uri;  // tinygltf decodes it first
    EXPECT_EQ(refusal(dir.write("model/m.gltf", d.json())),
              "the buffer URI '" + decoded + "' leads outside the model's folder (" + kOutsideFolderHint + ")");
  }
}

TEST(GltfHostile, AnAbsoluteOrFileUriIsRefused) {
  ScratchDir dir;
  Doc d;
  const std::string bin = dir.write("x.bin", d.bin);
  d.buffer_uri = bin;
  EXPECT_HAS(refusal(dir.write("model/m.gltf", d.json())),
             "is an absolute path; facet reads only files in the model's folder");
  d.buffer_uri = "file://" + bin;
  EXPECT_HAS(refusal(dir.write("model/m.gltf", d.json())), "is a 'file' URI");
}

TEST(GltfHostile, DotDotThatStaysInsideTheFolderIsRead) {
  ScratchDir dir;
  Doc d;
  dir.write("model/data.bin", d.bin);
  d.buffer_uri = "inner/../data.bin";
  EXPECT_EQ(load_model(dir.write("model/m.gltf", d.json())).triangle_count(), 1u);
}

TEST(GltfHostile, ImageUrisThatLeaveTheModelsFolderAreRefused) {
  // Not a checker with a warning: the file names something it may not read.
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1, "material": 0})";
  for (const std::string uri : {"../secret.png", "/etc/passwd", "sub/../../secret.png"}) {
    d.extra = R"("materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
                 "textures": [{"source": 0}], "images": [{"uri": ")" +
              uri + R"("}], )";
    const std::string what = refusal(dir.write("model/m.gltf", d.json()));
    EXPECT_HAS(what, "image 0's URI '" + uri + "'");
  }
}

TEST(GltfHostile, AHugeUriIsNotRepeatedWhole) {
  ScratchDir dir;
  Doc d;
  d.buffer_uri = "../" + std::string(100000, 'a') + ".bin";
  EXPECT_HAS(refusal(dir, d), "... (100007 bytes)");  // refusal() checks the length
}

// ---- Indices that point at nothing ----

TEST(GltfHostile, ADefaultSceneThatDoesNotExistIsRefused) {
  ScratchDir dir;
  Doc d;
  d.scene = "3";
  EXPECT_EQ(refusal(dir, d), "the default scene is scene 3, which does not exist (the file has 1)");
}

TEST(GltfHostile, AMaterialThatDoesNotExistIsRefused) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1, "material": 5})";
  d.extra = R"("materials": [{}], )";
  EXPECT_EQ(refusal(dir, d), "mesh 0 primitive 0: material 5 does not exist (the file has 1)");
}

TEST(GltfHostile, ATextureThatDoesNotExistIsRefused) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1, "material": 0})";
  d.extra = R"("materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 2}}}], )";
  EXPECT_EQ(refusal(dir, d), "material 0 baseColorTexture: texture 2 does not exist (the file has 0)");
  // Also one the material does not draw.
  d.extra = R"("materials": [{"normalTexture": {"index": 0}}], )";
  EXPECT_EQ(refusal(dir, d), "material 0 normalTexture: texture 0 does not exist (the file has 0)");
}

TEST(GltfHostile, ImagesAndSamplersThatDoNotExistAreRefused) {
  ScratchDir dir;
  Doc d;
  d.extra = R"("textures": [{"source": 3}], )";
  EXPECT_EQ(refusal(dir, d), "texture 0: image 3 does not exist (the file has 0)");
  d.extra = R"("textures": [{"sampler": 1}], "samplers": [{}], )";
  EXPECT_EQ(refusal(dir, d), "texture 0: sampler 1 does not exist (the file has 1)");
}

TEST(GltfHostile, AccessorsThatDoNotExistAreRefused) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0, "NORMAL": 7}, "indices": 1})";
  EXPECT_EQ(refusal(dir, d), "mesh 0 primitive 0 NORMAL: accessor 7 does not exist (the file has 2)");
  // tinygltf refuses this one itself, without naming it.
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 9})";
  EXPECT_EQ(refusal(dir, d), "/meshes/0/primitives/0/indices: accessor 9 does not exist (the file has 2)");
}

TEST(GltfHostile, MeshesNodesAndBufferViewsThatDoNotExistAreRefused) {
  ScratchDir dir;
  Doc d;
  d.nodes = R"([{"mesh": 4}])";
  EXPECT_EQ(refusal(dir, d), "node 0: mesh 4 does not exist (the file has 1)");
  d.nodes = R"([{"mesh": 0, "children": [6]}])";
  EXPECT_EQ(refusal(dir, d), "node 0: child node 6 does not exist (the file has 1)");
  d = Doc();
  d.scenes = R"([{"nodes": [0, 2]}])";
  EXPECT_EQ(refusal(dir, d), "scene 0: node 2 does not exist (the file has 1)");
  d = Doc();
  d.accessors = R"([{"bufferView": 5, "componentType": 5126, "count": 3, "type": "VEC3"},
                    {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}])";
  EXPECT_EQ(refusal(dir, d), "accessor 0 (mesh 0 primitive 0 POSITION): buffer view 5 does not exist (the file has 2)");
}

TEST(GltfHostile, IndicesTinygltfWouldCutTo32BitsOrReadAsNoneAreRefused) {
  // 4294967296 would become material 0, 4294967295 and -1 "no material", 0.5 and "0" be ignored.
  ScratchDir dir;
  Doc d;
  d.extra = R"("materials": [{}], )";
  for (const std::string v : {"4294967296", "4294967295", "-1", "0.5", R"("0")"}) {
    d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1, "material": )" + v + "}";
    const std::string shown = v[0] == '"' ? "'0'" : v;
    EXPECT_EQ(refusal(dir, d), "the JSON's /meshes/0/primitives/0/material is " + shown +
                                   ", not an index (glTF: a whole number from 0 to 2147483647)");
  }
  d = Doc();
  d.nodes = R"([{"mesh": 4294967296}])";
  EXPECT_HAS(refusal(dir, d), "the JSON's /nodes/0/mesh is 4294967296, not an index");
  // A key spelled with escapes is the same key to tinygltf.
  d.nodes = R"([{"m\u0065sh": 4294967296}])";
  EXPECT_HAS(refusal(dir, d), "the JSON's /nodes/0/mesh is 4294967296, not an index");
}

TEST(GltfHostile, SizesPastTwoTo53AreRefused) {
  ScratchDir dir;
  Doc d;
  d.buffer_views = R"([{"buffer": 0, "byteOffset": 18446744073709551615, "byteLength": 36},
                       {"buffer": 0, "byteOffset": 36, "byteLength": 6}])";
  EXPECT_HAS(refusal(dir, d), "the JSON's /bufferViews/0/byteOffset is 18446744073709551615, not a size");
}

// ---- What glTF forbids of buffers and accessors ----

TEST(GltfHostile, AByteStrideOnTheBufferViewOfIndicesIsRefused) {
  // Read with the stride, these indices would be 0, 1, 2: a triangle drawn from a forbidden file.
  ScratchDir dir;
  Doc d;
  d.bin.clear();
  append(d.bin, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
  append(d.bin, std::vector<uint16_t>{0, 9, 1, 9, 2, 9});
  d.buffer_views = R"([{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                       {"buffer": 0, "byteOffset": 36, "byteLength": 12, "byteStride": 4}])";
  EXPECT_EQ(refusal(dir, d),
            "mesh 0 primitive 0 indices: accessor 1 lies in buffer view 1, which has byteStride 4 (glTF forbids a "
            "byteStride on the buffer view of indices)");
}

TEST(GltfHostile, AMisalignedAccessorIsRefused) {
  ScratchDir dir;
  Doc d;
  // Read unaligned, these floats would be the bytes of the triangle's positions shifted by 2.
  d.buffer_views =
      R"([{"buffer": 0, "byteOffset": 0, "byteLength": 40}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}])";
  d.accessors = R"([{"bufferView": 0, "byteOffset": 2, "componentType": 5126, "count": 3, "type": "VEC3"},
                    {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}])";
  EXPECT_EQ(refusal(dir, d),
            "accessor 0 (mesh 0 primitive 0 POSITION): byteOffset 2 is not a multiple of its component size (4 "
            "bytes)");
}

TEST(GltfHostile, AGlbWhoseBinChunkRunsPastTheFileIsRefused) {
  // The chunk holds 44 bytes and says 52, the last 8 bytes of the file: tinygltf checks the chunk's
  // length without its 8-byte header and would copy the buffer's 52 bytes, 8 of them past the end
  // of the file.
  ScratchDir dir;
  Doc d;
  d.glb_buffer = true;
  const std::string data = d.bin;
  d.bin += std::string(8, '\0');  // the buffer's byteLength: 52
  const std::string what = refusal(dir.write("m.glb", glb(d.json(), data, 8)));
  EXPECT_HAS(what, "(52 bytes of data) runs past the stated length");
}

TEST(GltfHostile, AnImageBufferViewPastItsBufferIsRefused) {
  // tinygltf hands the image's bytes over without checking the view: they would be read past the
  // end of the buffer.
  ScratchDir dir;
  Doc d;
  d.buffer_views.insert(d.buffer_views.rfind(']'), R"(, {"buffer": 0, "byteOffset": 40, "byteLength": 100000})");
  d.extra = R"("images": [{"bufferView": 2, "mimeType": "image/png"}], )";
  EXPECT_EQ(refusal(dir, d), "image 0: buffer view 2 (bytes 40..100040) runs past the end of buffer 0 (44 bytes)");
}

// ---- Messages: repeated warnings counted, the file's text escaped and cut short ----

TEST(GltfHostile, AWarningForManyPrimitivesIsGivenThreeTimesThenCounted) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1})";
  for (int i = 0; i < 10; ++i) d.primitive += R"(, {"attributes": {"POSITION": 2}})";
  d.accessors.insert(d.accessors.rfind(']'), R"(, {"componentType": 5126, "count": 3, "type": "VEC3"})");
  Scene s = load_model(dir.write("m.gltf", d.json()));
  ASSERT_EQ(s.warnings.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_HAS(s.warnings[(size_t)i], "primitive " + std::to_string(i + 1) + ": POSITION");
  EXPECT_HAS(s.warnings[3], "7 more primitives whose POSITION has no data (10 in all; the first 3 are named)");
}

TEST(GltfHostile, NamesInMessagesHaveTheirControlCharactersEscapedAndAreCutShort) {
  ScratchDir dir;
  Doc d;
  d.primitive = R"({"attributes": {"POSITION": 0}, "indices": 1, "material": 0})";
  d.extra = R"("materials": [{"name": "red\u001b[31m\nline\t\u0000end", "alphaMode": "BLEND",
                              "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.5]}}], )";
  Scene s = load_model(dir.write("m.gltf", d.json()));
  ASSERT_EQ(s.warnings.size(), 1u);
  const std::string& w = s.warnings[0];
  EXPECT_HAS(w, R"(material 'red\x1B[31m\nline\t\x00end' blends by a uniform alpha)");
  for (char c : w) EXPECT_FALSE((unsigned char)c < 0x20 || c == 0x7f) << "a raw control character in: " << w;
  d.extra = R"("materials": [{"name": ")" + std::string(10000, 'n') +
            R"(", "alphaMode": "BLEND", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.5]}}], )";
  s = load_model(dir.write("m.gltf", d.json()));
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_LT(s.warnings[0].size(), 400u) << s.warnings[0];
  EXPECT_HAS(s.warnings[0], "... (10000 bytes)");
}

}  // namespace
}  // namespace facet::test
