// The MTL reader (see mtl_parser.h). Written here rather than taken from tinyobjloader so the
// product has one parser of its own for OBJ and MTL; the rules are tinyobjloader 2.0's, against
// which the differential tests check every shared model and edge case.
#include "engine/formats/obj/mtl_parser.h"

#include <cmath>
#include <cstring>

#include "engine/formats/format_messages.h"
#include "engine/formats/obj/obj_text.h"

namespace facet {

namespace {

// Texture options and how many words each takes after its name.
struct TextureOption {
  const char* name;
  int words;
};
const TextureOption kTextureOptions[] = {
    {"-blendu", 1}, {"-blendv", 1}, {"-clamp", 1},  {"-boost", 1},   {"-bm", 1}, {"-o", 3},          {"-s", 3},
    {"-t", 3},      {"-type", 1},   {"-texres", 1}, {"-imfchan", 1}, {"-mm", 2}, {"-colorspace", 1},
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

// The values of a statement: `count` numbers, missing or unreadable ones 0. False when one is
// missing, unreadable or not finite, or when more words follow (other than a # comment).
bool numbers(const char* p, const char* e, int count, float* out) {
  bool ok = true;
  for (int i = 0; i < count; ++i) ok = next_number(&p, e, 0, &out[i]) && std::isfinite(out[i]) && ok;
  p = skip_blanks(p, e);
  return ok && (p == e || *p == '#');
}

class MtlReader {
 public:
  MtlReader(const std::string& path, std::vector<std::string>* warnings) : m_counted(path), m_warnings(warnings) {}

  void line(const char* p, const char* e, size_t line_number) {
    m_line = line_number;
    while (e > p && is_blank(e[-1])) --e;
    p = skip_blanks(p, e);
    if (p == e || *p == '#') return;
    if (starts_statement(p, e, "newmtl")) {
      if (!m_current.name.empty()) m_out.push_back(m_current);
      m_current = MtlMaterial{};
      m_has_d = false;
      m_current.name = std::string(p + 7, e);
    } else if (starts_statement(p, e, "Kd")) {
      m_current.has_kd = colour("Kd", p + 2, e, &m_current.kd);
    } else if (starts_statement(p, e, "Ks")) {
      m_current.has_ks = colour("Ks", p + 2, e, &m_current.ks);
    } else if (starts_statement(p, e, "Ka")) {
      m_current.has_ka = colour("Ka", p + 2, e, &m_current.ka);
    } else if (starts_statement(p, e, "Ke")) {
      m_current.has_ke = colour("Ke", p + 2, e, &m_current.ke);
    } else if (starts_statement(p, e, "Ns")) {
      m_current.ns = number("Ns", p + 2, e, 0.0f, 1e30f);
    } else if (starts_statement(p, e, "d")) {
      m_current.d = number("d", p + 1, e, 0.0f, 1.0f);
      m_has_d = true;
    } else if (starts_statement(p, e, "Tr")) {
      const float tr = number("Tr", p + 2, e, 0.0f, 1.0f);
      if (!m_has_d) m_current.d = 1.0f - tr;
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

  // A colour statement's three numbers, or one for a grey (the MTL specification: g and b equal
  // r when only r is given); always true: the statement was given, with 0 for what cannot be
  // read. Warns when they are malformed or negative.
  bool colour(const char* keyword, const char* p, const char* e, Vec3* out) {
    float v[3];
    if (numbers(p, e, 1, v)) {
      v[1] = v[2] = v[0];
      if (v[0] < 0) warn(kNegative, std::string(keyword) + " has a negative value (read as 0)");
    } else if (!numbers(p, e, 3, v)) {
      warn("malformed colours", std::string(keyword) + " needs three numbers (or one for a grey), not " +
                                    quoted(std::string(skip_blanks(p, e), e)));
    } else if (v[0] < 0 || v[1] < 0 || v[2] < 0) {
      warn(kNegative, std::string(keyword) + " has a negative value (read as 0)");
    }
    *out = {v[0], v[1], v[2]};
    return true;
  }
  // A one-number statement's value, warning when it is malformed or outside [lo, hi].
  float number(const char* keyword, const char* p, const char* e, float lo, float hi) {
    float v;
    if (!numbers(p, e, 1, &v))
      warn("malformed numbers",
           std::string(keyword) + " needs one number, not " + quoted(std::string(skip_blanks(p, e), e)));
    else if (v < lo || v > hi)
      warn("numbers out of range", std::string(keyword) + " " + std::to_string(v) + " is outside " +
                                       std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  }
  // `kind` names what repeats, for the count that follows the first few of a kind.
  void warn(const char* kind, const std::string& problem) {
    if (m_warnings) m_counted.add_at_line(kind, m_line, problem);
  }

  std::vector<MtlMaterial> finish() {
    m_out.push_back(m_current);  // the last material, even unnamed
    if (m_warnings) m_counted.finish(*m_warnings);
    return std::move(m_out);
  }

 private:
  std::vector<MtlMaterial> m_out;
  MtlMaterial m_current;
  bool m_has_d = false;  // `d` seen for the current material: it wins over `Tr`
  static constexpr const char* kNegative = "negative colours";
  FormatWarnings m_counted;  // the warnings until finish(), a few of each kind
  std::vector<std::string>* m_warnings;
  size_t m_line = 0;  // 1-based number of the line being read
};

}  // namespace

std::vector<MtlMaterial> parse_mtl(const char* text, size_t size, const std::string& path,
                                   std::vector<std::string>* warnings) {
  MtlReader reader(path, warnings);
  const char* p = text;
  const char* const end = text + size;
  size_t number = 0;
  while (p < end) {
    const char* eol = p;
    while (eol < end && *eol != '\n' && *eol != '\r') ++eol;
    reader.line(p, eol, ++number);
    if (eol < end && *eol == '\r' && eol + 1 < end && eol[1] == '\n') ++eol;
    p = eol + 1;
  }
  return reader.finish();
}

}  // namespace facet
