// The MTL reader (see mtl_parser.h). Written here rather than taken from tinyobjloader so the
// product has one parser of its own for OBJ and MTL; the rules are tinyobjloader 2.0's, which
// every shared model and edge case was checked against.
#include "engine/mtl_parser.h"

#include <cstring>

#include "engine/obj_text.h"

namespace facet {

namespace {

// Texture options and how many words each takes after its name.
struct TextureOption {
  const char* name;
  int words;
};
const TextureOption kTextureOptions[] = {
    {"-blendu", 1}, {"-blendv", 1}, {"-clamp", 1},   {"-boost", 1}, {"-bm", 1},
    {"-o", 3},      {"-s", 3},      {"-t", 3},       {"-type", 1},  {"-texres", 1},
    {"-imfchan", 1}, {"-mm", 2},    {"-colorspace", 1},
};

bool starts_statement(const char* p, const char* e, const char* keyword) {
  size_t n = std::strlen(keyword);
  return (size_t)(e - p) > n && std::strncmp(p, keyword, n) == 0 && is_blank(p[n]);
}

// A texture statement's file name: options first, then the rest of the line. Leaves `name`
// as it was when the line has options only.
void texture_name(const char* p, const char* e, std::string* name) {
  while (p < e) {
    p = skip_blanks(p, e);
    const TextureOption* option = nullptr;
    for (const TextureOption& o : kTextureOptions)
      if (starts_statement(p, e, o.name)) option = &o;
    if (!option) {
      *name = std::string(p, e);
      return;
    }
    p += std::strlen(option->name);
    for (int k = 0; k < option->words; ++k) p = word_end(skip_blanks(p, e), e);
  }
}

Vec3 three_numbers(const char* p, const char* e) {
  Vec3 c;
  next_number(&p, e, 0, &c.x);
  next_number(&p, e, 0, &c.y);
  next_number(&p, e, 0, &c.z);
  return c;
}

float one_number(const char* p, const char* e) {
  float value;
  next_number(&p, e, 0, &value);
  return value;
}

class MtlReader {
 public:
  void line(const char* p, const char* e) {
    while (e > p && is_blank(e[-1])) --e;
    p = skip_blanks(p, e);
    if (p == e || *p == '#') return;
    if (starts_statement(p, e, "newmtl")) {
      if (!m_current.name.empty()) m_out.push_back(m_current);
      m_current = MtlMaterial{};
      m_has_d = false;
      m_current.name = std::string(p + 7, e);
    } else if (starts_statement(p, e, "Kd")) {
      m_current.kd = three_numbers(p + 2, e);
      m_current.has_kd = true;
    } else if (starts_statement(p, e, "Ks")) {
      m_current.ks = three_numbers(p + 2, e);
    } else if (starts_statement(p, e, "Ke")) {
      m_current.ke = three_numbers(p + 2, e);
    } else if (starts_statement(p, e, "Ns")) {
      m_current.ns = one_number(p + 2, e);
    } else if (starts_statement(p, e, "d")) {
      m_current.d = one_number(p + 1, e);
      m_has_d = true;
    } else if (starts_statement(p, e, "Tr")) {
      if (!m_has_d) m_current.d = 1.0f - one_number(p + 2, e);
    } else {
      texture_line(p, e);
    }
  }

  void texture_line(const char* p, const char* e) {
    struct Map {
      const char* keyword;
      std::string MtlMaterial::*name;
    };
    static const Map kMaps[] = {{"map_Kd", &MtlMaterial::map_kd},
                                {"map_Ks", &MtlMaterial::map_ks},
                                {"map_Ke", &MtlMaterial::map_ke},
                                {"map_d", &MtlMaterial::map_d}};
    for (const Map& m : kMaps)
      if (starts_statement(p, e, m.keyword))
        return texture_name(p + std::strlen(m.keyword) + 1, e, &(m_current.*m.name));
  }

  std::vector<MtlMaterial> finish() {
    m_out.push_back(m_current);  // the last material, even unnamed
    return std::move(m_out);
  }

 private:
  std::vector<MtlMaterial> m_out;
  MtlMaterial m_current;
  bool m_has_d = false;  // `d` seen for the current material: it wins over `Tr`
};

}  // namespace

std::vector<MtlMaterial> parse_mtl(const char* text, size_t size) {
  MtlReader reader;
  const char* p = text;
  const char* const end = text + size;
  while (p < end) {
    const char* eol = p;
    while (eol < end && *eol != '\n' && *eol != '\r') ++eol;
    reader.line(p, eol);
    if (eol < end && *eol == '\r' && eol + 1 < end && eol[1] == '\n') ++eol;
    p = eol + 1;
  }
  return reader.finish();
}

}  // namespace facet
