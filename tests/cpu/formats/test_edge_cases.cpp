// Bad input for the loader: every OBJ under ../shared/assets/edge-cases/ (each with its expected
// outcome in a table, so a change in behaviour shows), and generated files (truncated, binary
// garbage, a directory, an unreadable file, textures that are not images or are 16-bit, grey or
// odd-sized, indices overflowing 32 bits). Each either loads into a consistent scene or is refused
// with one LoadError naming the file. Nothing may crash.
#include <gtest/gtest.h>
#include <stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"
#include "tests/support/unprivileged.h"

namespace fs = std::filesystem;
using namespace facet;

namespace {

const std::string kEdgeCases = test::shared_asset("edge-cases");

// A fresh folder per test, removed afterwards.
using test::ScratchDir;

// Everything the backends rely on, checked on a scene that loaded.
void expect_consistent(const Scene& s) {
  ASSERT_GT(s.triangle_count(), 0u);
  ASSERT_EQ(s.indices.size() % 3, 0u);
  ASSERT_EQ(s.normals.size(), s.positions.size());
  if (!s.uvs.empty()) {
    ASSERT_EQ(s.uvs.size(), s.positions.size());
  }
  ASSERT_EQ(s.tri_material.size(), (size_t)s.triangle_count());
  ASSERT_GE(s.materials.size(), 1u);
  ASSERT_EQ(s.material_names.size(), s.materials.size());
  ASSERT_EQ(s.texture_paths.size(), s.textures.size());
  for (uint32_t i : s.indices) ASSERT_LT(i, s.vertex_count());
  for (uint32_t m : s.tri_material) ASSERT_LT(m, s.materials.size());
  for (const Vec3& p : s.positions)
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) << p.x << " " << p.y << " " << p.z;
  for (const Vec3& n : s.normals) ASSERT_NEAR(std::sqrt(dot(n, n)), 1.0f, 1e-3f);
  for (const Material& m : s.materials) {
    ASSERT_GE(m.texture, -1) << "-1 is no texture";
    if (m.texture >= 0) {
      ASSERT_LT((size_t)m.texture, s.textures.size());
    }
    ASSERT_TRUE(std::isfinite(m.kd.x) && std::isfinite(m.kd.y) && std::isfinite(m.kd.z))
        << "Kd " << m.kd.x << " " << m.kd.y << " " << m.kd.z;
  }
  for (const TextureDesc& d : s.textures) {
    ASSERT_GT(d.width, 0);
    ASSERT_GT(d.height, 0);
    size_t texels = 0;
    int levels = 0;
    for (int w = d.width, h = d.height;; w = std::max(w / 2, 1), h = std::max(h / 2, 1)) {
      texels += (size_t)w * h;
      ++levels;
      if (w == 1 && h == 1) break;
    }
    ASSERT_EQ(d.levels, levels);
    ASSERT_LE(d.offset + texels, s.texels.size());
  }
  ASSERT_GT(s.bounds.radius, 0.0f);
  ASSERT_TRUE(std::isfinite(s.bounds.radius));
  for (const std::string& w : s.warnings) ASSERT_NE(w.find(s.source), std::string::npos) << w;
}

// Loads or refuses; a refusal must name the file. Returns the message, or "" when it loaded.
std::string load_or_message(const std::string& path, Scene* out = nullptr) {
  try {
    Scene s = load_model(path);
    EXPECT_EQ(s.source, path);
    expect_consistent(s);
    if (out) *out = std::move(s);
    return "";
  } catch (const LoadError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << "message must start with the path: " << msg;
    EXPECT_GT(msg.size(), path.size() + 2) << "and say the problem";
    return msg;
  }
}

// What each shared edge-case file gets. For refusals, a piece of the message.
struct Expected {
  bool loads;
  const char* message;  // refusals: text the LoadError must contain; loads: a warning's text or ""
};

const std::map<std::string, Expected>& edge_case_table() {
  static const std::map<std::string, Expected> table = {
      {"assimp/box.obj", {true, "material 'Default' is not defined"}},
      {"assimp/box_UTF16BE.obj", {false, "UTF-16"}},
      {"assimp/box_mat_with_spaces.obj", {true, ""}},
      {"assimp/box_without_lineending.obj", {true, ""}},
      {"assimp/cube_mtllib_after_g.obj", {true, ""}},
      {"assimp/cube_usemtl.obj", {true, "material 'mtl3' is not defined"}},
      {"assimp/cube_with_vertexcolors.obj", {true, ""}},
      {"assimp/empty_mat.obj", {true, ""}},
      {"assimp/invalid/empty.obj", {false, "the file is empty"}},
      {"assimp/invalid/malformed.obj", {false, ":28: index 0"}},
      {"assimp/invalid/malformed2.obj", {true, "material 'DefaultDoesNotExist' is not defined"}},
      {"assimp/mtl_different_folder.obj", {true, "folder/image.jpg"}},
      {"assimp/multiple_spaces.obj", {true, ""}},
      {"assimp/point_cloud.obj", {false, "no triangles"}},
      {"assimp/testline.obj", {false, "no triangles"}},
      {"assimp/testmixed.obj", {true, ""}},
      {"assimp/testpoints.obj", {false, "no triangles"}},
      {"tinyobjloader/models/catmark_torus_creases0.obj", {true, ":93: normal index points at no normal"}},
      {"tinyobjloader/models/colorspace-issue-184.obj", {true, ""}},
      {"tinyobjloader/models/cornell_box.obj", {true, ""}},
      {"tinyobjloader/models/cornell_box_multimaterial.obj", {true, ""}},
      {"tinyobjloader/models/cube-vertex-w-component.obj", {true, ""}},
      {"tinyobjloader/models/cube-vertexcol.obj", {true, ""}},
      {"tinyobjloader/models/cube.obj", {true, ""}},
      {"tinyobjloader/models/invalid-face-definition.obj", {false, "fewer than 3 vertices"}},
      {"tinyobjloader/models/invalid-relative-texture-index.obj", {false, ":2: relative texture coordinate index -2"}},
      {"tinyobjloader/models/invalid-relative-vertex-index.obj", {false, ":1: relative vertex index -4"}},
      {"tinyobjloader/models/issue-138.obj", {true, ""}},
      {"tinyobjloader/models/issue-140-zero-face-idx.obj", {false, ":16: index 0"}},
      {"tinyobjloader/models/issue-161-inconsistent-f.obj", {true, ""}},
      {"tinyobjloader/models/issue-162-smoothing-group.obj", {true, ""}},
      {"tinyobjloader/models/issue-235-usemtl-then-o.obj", {true, ""}},
      {"tinyobjloader/models/issue-244-mtl-searchpaths.obj", {true, "material library 'issue-244.mtl' not found"}},
      {"tinyobjloader/models/issue-246-usemtl-whitespace.obj", {true, ""}},
      {"tinyobjloader/models/issue-248-texres-texopt.obj", {true, "texture 'input.jpg'"}},
      {"tinyobjloader/models/issue-295-trianguation-failure.obj", {true, ""}},
      {"tinyobjloader/models/issue-319-002.obj", {true, ""}},
      {"tinyobjloader/models/issue-319-003.obj", {true, ""}},
      {"tinyobjloader/models/issue-330.obj", {true, ""}},
      {"tinyobjloader/models/issue-356-leading-spaces-newmtl.obj", {false, "no triangles"}},
      {"tinyobjloader/models/issue-92.obj", {true, "texture 'tmp.png'"}},
      {"tinyobjloader/models/issue-95-2.obj", {true, ""}},
      {"tinyobjloader/models/issue-95.obj", {true, ""}},
      {"tinyobjloader/models/leading-decimal-dot-issue-201.obj", {true, ""}},
      {"tinyobjloader/models/leading-zero-in-exponent-notation-issue-210.obj", {true, ""}},
      {"tinyobjloader/models/line-prim.obj", {false, "no triangles"}},
      {"tinyobjloader/models/map-bump.obj", {true, ""}},
      {"tinyobjloader/models/missing_material_file.obj", {true, "material 'white' is not defined"}},
      {"tinyobjloader/models/mtl filename with whitespace issue46.obj", {true, ""}},
      {"tinyobjloader/models/mtllib-multiple-files-issue-112.obj", {true, "'invalid-file-aaa.mtl' not found"}},
      {"tinyobjloader/models/no_material.obj", {true, ""}},
      {"tinyobjloader/models/norm-texopt.obj", {true, ""}},
      {"tinyobjloader/models/pbr-mat-ext.obj", {true, ""}},
      {"tinyobjloader/models/points-prim.obj", {false, "no triangles"}},
      {"tinyobjloader/models/refl.obj", {true, ""}},
      {"tinyobjloader/models/skin-weight.obj", {true, ""}},
      {"tinyobjloader/models/smoothing-group-two-squares.obj", {true, ":22: normal index points at no normal"}},
      {"tinyobjloader/models/smoothing-normal.obj", {true, ""}},
      {"tinyobjloader/models/test-nan.obj", {true, "dropped 2 faces with NaN or infinite"}},
      {"tinyobjloader/models/texture-filename-with-whitespace.obj", {true, "texture 'texture 01.png'"}},
      {"tinyobjloader/models/texture-options-issue-85.obj", {true, "texture 'diffuse.jpg'"}},
      {"tinyobjloader/models/tr-and-d-issue-43.obj", {true, ""}},
      {"tinyobjloader/models/usemtl-issue-104.obj", {true, ""}},
      {"tinyobjloader/models/usemtl-issue-68.obj", {true, ""}},
      {"tinyobjloader/tests/issue-177.obj", {true, ""}},
  };
  return table;
}

// A minimal PNG writer for what stb_image_write cannot make (16-bit samples): stored (not
// compressed) deflate blocks, so no zlib is needed.
uint32_t crc32_of(const std::string& bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}
void put_be32(std::string& s, uint32_t v) {
  for (int k = 3; k >= 0; --k) s.push_back((char)((v >> (8 * k)) & 0xFF));
}
std::string png_chunk(const char* type, const std::string& data) {
  std::string out;
  put_be32(out, (uint32_t)data.size());
  std::string body = std::string(type, 4) + data;
  out += body;
  put_be32(out, crc32_of(body));
  return out;
}
std::string png_bytes(int w, int h, int bit_depth, int colour_type, const std::string& rows) {
  std::string ihdr;
  put_be32(ihdr, (uint32_t)w);
  put_be32(ihdr, (uint32_t)h);
  ihdr += {(char)bit_depth, (char)colour_type, 0, 0, 0};
  std::string z = {0x78, 0x01};  // zlib header, no compression
  uint32_t a = 1, b = 0;
  for (size_t at = 0; at < rows.size() || at == 0;) {
    size_t n = std::min<size_t>(65535, rows.size() - at);
    bool last = at + n >= rows.size();
    z.push_back(last ? 1 : 0);
    z.push_back((char)(n & 0xFF));
    z.push_back((char)(n >> 8));
    z.push_back((char)(~n & 0xFF));
    z.push_back((char)((~n >> 8) & 0xFF));
    z += rows.substr(at, n);
    at += n;
    if (last) break;
  }
  for (unsigned char c : rows) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put_be32(z, (b << 16) | a);
  return std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) + png_chunk("IDAT", z) + png_chunk("IEND", "");
}

// One triangle with texcoords using material "t", whose map_Kd is `texture`.
std::string textured_obj(ScratchDir& dir, const std::string& texture) {
  dir.write("t.mtl", "newmtl t\nKd 1 1 1\nmap_Kd " + texture + "\n");
  return dir.write("t.obj",
                   "mtllib t.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
                   "usemtl t\nf 1/1 2/2 3/3\n");
}

}  // namespace

TEST(EdgeCase, EverySharedFileLoadsOrIsRefusedAsExpected) {
  ASSERT_TRUE(fs::is_directory(kEdgeCases)) << kEdgeCases;
  const auto& table = edge_case_table();
  size_t walked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kEdgeCases)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".obj") continue;
    ++walked;
    std::string rel = fs::relative(entry.path(), kEdgeCases).string();
    std::string path = entry.path().string();
    SCOPED_TRACE(rel);
    Scene scene;
    std::string message = load_or_message(path, &scene);
    auto it = table.find(rel);
    if (it == table.end()) {
      ADD_FAILURE() << rel
                    << " is not in the expectation table: " << (message.empty() ? "loads" : "refused: " + message);
      continue;
    }
    const Expected& want = it->second;
    if (want.loads) {
      EXPECT_EQ(message, "") << "expected to load";
      if (message.empty() && *want.message) {
        bool found = false;
        for (const std::string& w : scene.warnings) found |= w.find(want.message) != std::string::npos;
        EXPECT_TRUE(found) << "no warning containing '" << want.message << "'";
      }
    } else {
      EXPECT_NE(message, "") << "expected to be refused";
      EXPECT_NE(message.find(want.message), std::string::npos) << message;
    }
  }
  EXPECT_EQ(walked, table.size()) << "the table lists files that are no longer there";
}

TEST(EdgeCase, TruncatedFilesLoadOrAreRefused) {
  ScratchDir dir;
  std::ifstream in(test::shared_asset("cornell_box/CornellBox-Original.obj"), std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(text.size(), 1000u);
  // Cut at many points, mid-line and mid-number included; the MTL is not beside it here.
  for (size_t cut = 1; cut < text.size(); cut += 37) {
    std::string path = dir.write("cut.obj", text.substr(0, cut));
    SCOPED_TRACE(cut);
    load_or_message(path);
  }
}

TEST(EdgeCase, BinaryGarbageIsRefused) {
  ScratchDir dir;
  std::mt19937 rng(1234);
  for (int i = 0; i < 20; ++i) {
    std::string bytes(4096, '\0');
    for (char& c : bytes) c = (char)(rng() & 0xFF);
    std::string path = dir.write("garbage.obj", bytes);
    std::string message = load_or_message(path);
    EXPECT_NE(message.find("binary data"), std::string::npos) << message;
  }
}

TEST(EdgeCase, TextWithoutGeometryIsRefused) {
  ScratchDir dir;
  std::string path = dir.write("prose.obj", "This is not a model.\nJust words, and vt 1 2.\n");
  EXPECT_NE(load_or_message(path).find("no triangles"), std::string::npos);
}

TEST(EdgeCase, DirectoryGivenAsFileIsRefused) {
  ScratchDir dir;
  fs::create_directories(dir.path("model.obj"));
  std::string message = load_or_message(dir.path("model.obj"));
  EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
}

TEST(EdgeCase, MissingFileIsRefused) {
  ScratchDir dir;
  std::string message = load_or_message(dir.path("absent.obj"));
  EXPECT_NE(message.find("No such file"), std::string::npos) << message;
}

TEST(EdgeCase, UnreadableFileIsRefused) {
  // Permission bits do not stop root: the load runs in a child that, under root (as in CI), drops
  // to `nobody`. The folder is searchable by everyone, so that only the file's own mode stops it.
  ScratchDir dir("/tmp");
  const std::string path = dir.write("locked.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  ASSERT_EQ(chmod(dir.path("").c_str(), 0755), 0);
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  const test::ChildOutcome child = test::run_unprivileged([&] {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return "the child cannot reach the file: " + std::string(std::strerror(errno));
    try {
      load_model(path);
      return std::string("loaded");
    } catch (const LoadError& e) {
      return std::string(e.what());
    }
  });
  if (child.status == test::ChildOutcome::Status::CannotDrop) GTEST_SKIP() << child.text;
  ASSERT_EQ(child.status, test::ChildOutcome::Status::Ran) << child.text;
  EXPECT_EQ(child.text.rfind(path + ":", 0), 0u) << "the message must start with the path: " << child.text;
  EXPECT_NE(child.text.find("Permission denied"), std::string::npos) << child.text;
}

TEST(EdgeCase, Utf16LittleEndianIsRefused) {
  ScratchDir dir;
  std::string text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", utf16 = "\xFF\xFE";
  for (char c : text) utf16 += std::string{c, '\0'};
  std::string message = load_or_message(dir.write("le.obj", utf16));
  EXPECT_NE(message.find("UTF-16"), std::string::npos) << message;
}

TEST(EdgeCase, IndexOverflowing32BitsIsRefusedWithItsLine) {
  ScratchDir dir;
  std::string path = dir.write("big.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4294967299\n");
  std::string message = load_or_message(path);
  EXPECT_NE(message.find(path + ":4:"), std::string::npos) << message;
  EXPECT_NE(message.find("32 bits"), std::string::npos) << message;
}

TEST(EdgeCase, OutOfRangeIndexIsRefusedWithItsLine) {
  ScratchDir dir;
  std::string path = dir.write("far.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\nf 1 2 9\n");
  std::string message = load_or_message(path);
  EXPECT_NE(message.find(path + ":6: vertex index 9 out of range"), std::string::npos) << message;
}

TEST(EdgeCase, MalformedFaceCornerIsRefused) {
  ScratchDir dir;
  std::string path = dir.write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x3\n");
  std::string message = load_or_message(path);
  EXPECT_NE(message.find(path + ":4: malformed face corner 'x3'"), std::string::npos) << message;
}

TEST(EdgeCase, CollinearPolygonDoesNotCrash) {
  ScratchDir dir;
  // A 6-gon whose points all lie on one line, and a triangle beside it so the file has area.
  std::string path = dir.write("line.obj",
                               "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nv 4 0 0\nv 5 0 0\n"
                               "v 0 1 0\nf 1 2 3 4 5 6\nf 1 2 7\n");
  Scene s;
  EXPECT_EQ(load_or_message(path, &s), "") << "a polygon of no area is not an error";
  bool kept = false;  // the triangle beside it, with its area
  for (uint32_t t = 0; t < s.triangle_count(); ++t) {
    const Vec3 a = s.positions[s.indices[3 * t]], b = s.positions[s.indices[3 * t + 1]],
               c = s.positions[s.indices[3 * t + 2]];
    kept = kept || (a.x == 0 && a.y == 0 && b.x == 1 && b.y == 0 && c.x == 0 && c.y == 1);
  }
  EXPECT_TRUE(kept) << s.triangle_count() << " triangles, none is f 1 2 7";
}

TEST(EdgeCase, TextureThatIsNotAnImageGivesCheckerAndWarning) {
  ScratchDir dir;
  dir.write("notes.png", "these are not pixels\n");
  Scene s;
  std::string path = textured_obj(dir, "notes.png");
  ASSERT_EQ(load_or_message(path, &s), "");
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.texture_paths[0], "<checker>");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("not a readable image"), std::string::npos) << s.warnings[0];
}

TEST(EdgeCase, TruncatedUncompressedTgaIsRefusedBeforeDecoding) {
  // 18-byte header declaring 12334x13600 uncompressed 24-bit pixels, then 12 bytes: stb_image
  // would decode 168 M zero pixels (about 1 GiB) from it. Found by the fuzzer.
  ScratchDir dir;
  std::string tga(30, '\0');
  tga[2] = 2;  // uncompressed true-colour
  tga[12] = (char)(12334 & 0xff);
  tga[13] = (char)(12334 >> 8);
  tga[14] = (char)(13600 & 0xff);
  tga[15] = (char)(13600 >> 8);
  tga[16] = 24;
  dir.write("big.tga", tga);
  Scene s;
  ASSERT_EQ(load_or_message(textured_obj(dir, "big.tga"), &s), "");
  EXPECT_EQ(s.texture_paths[0], "<checker>");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("truncated"), std::string::npos) << s.warnings[0];
}

TEST(EdgeCase, SixteenBitPngTextureLoadsAsEightBit) {
  ScratchDir dir;
  // 2 x 1 RGB, 16 bits per sample: (0xABCD, 0x1234, 0xFFFF) and (0, 0x8000, 0x00FF).
  // One scanline: filter byte 0, then the 12 sample bytes, big-endian.
  std::string rows = std::string(1, '\0') + "\xAB\xCD\x12\x34\xFF\xFF" + std::string("\x00\x00\x80\x00\x00\xFF", 6);
  dir.write("deep.png", png_bytes(2, 1, 16, 2, rows));
  Scene s;
  ASSERT_EQ(load_or_message(textured_obj(dir, "deep.png"), &s), "");
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
  EXPECT_EQ(s.textures[0].width, 2);
  EXPECT_EQ(s.texels[0].r, 0xAB);  // high byte kept
  EXPECT_EQ(s.texels[0].g, 0x12);
  EXPECT_EQ(s.texels[0].b, 0xFF);
  EXPECT_EQ(s.texels[0].a, 255);
  EXPECT_EQ(s.texels[1].g, 0x80);
}

TEST(EdgeCase, GreyscalePngTextureIsExpandedToRgba) {
  ScratchDir dir;
  const unsigned char grey[3 * 2] = {0, 50, 100, 150, 200, 250};
  ASSERT_TRUE(stbi_write_png(dir.path("grey.png").c_str(), 3, 2, 1, grey, 3));
  Scene s;
  ASSERT_EQ(load_or_message(textured_obj(dir, "grey.png"), &s), "");
  ASSERT_EQ(s.textures.size(), 1u);
  const TextureDesc& d = s.textures[0];
  EXPECT_EQ(d.width, 3);
  EXPECT_EQ(d.height, 2);
  EXPECT_EQ(d.levels, 2);  // 3x2, 1x1
  for (int i = 0; i < 6; ++i) {
    const Rgba8& t = s.texels[d.offset + i];
    EXPECT_EQ(t.r, grey[i]);
    EXPECT_EQ(t.g, grey[i]);
    EXPECT_EQ(t.b, grey[i]);
    EXPECT_EQ(t.a, 255);
  }
}

TEST(EdgeCase, OddSizedPngTextureGetsAFullChain) {
  ScratchDir dir;
  std::vector<unsigned char> rgba(5 * 3 * 4, 200);
  ASSERT_TRUE(stbi_write_png(dir.path("odd.png").c_str(), 5, 3, 4, rgba.data(), 5 * 4));
  Scene s;
  ASSERT_EQ(load_or_message(textured_obj(dir, "odd.png"), &s), "");
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.textures[0].levels, 3);  // 5x3, 2x1, 1x1
  EXPECT_EQ(s.texels.size(), 15u + 2 + 1);
  for (const Rgba8& t : s.texels) EXPECT_EQ(t.r, 200);
}

TEST(EdgeCase, NanVerticesDropOnlyTheirFaces) {
  ScratchDir dir;
  std::string path = dir.write("nan.obj",
                               "v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 0\nv 1e999 0 0\n"
                               "f 1 2 3\nf 1 2 4\nf 5 2 3\n");
  Scene s;
  ASSERT_EQ(load_or_message(path, &s), "");
  EXPECT_EQ(s.triangle_count(), 1u);
  EXPECT_EQ(s.vertex_count(), 3u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("dropped 2 faces"), std::string::npos) << s.warnings[0];
}

TEST(EdgeCase, OnlyNanFacesIsRefused) {
  ScratchDir dir;
  std::string path = dir.write("nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  EXPECT_NE(load_or_message(path).find("no triangles left"), std::string::npos);
}
