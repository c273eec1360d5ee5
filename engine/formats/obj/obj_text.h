// Reading the pieces of one OBJ/MTL line: blanks, words, numbers and face indices. Numbers go
// through fast_float (libfast-float-dev: correctly rounded, no locale, no allocation) with the
// rules facet has always applied to OBJ text: a leading '+' is accepted, a word that is not a
// number reads as the fallback (0 unless said otherwise), a dangling exponent ("5e", "1e+")
// makes the whole word unreadable. Pure functions over [p, e) ranges; nothing here allocates.
// The read_plain_* functions are the one-pass common cases the chunk parser tries first.
#pragma once
#include <fast_float/fast_float.h>

#include <cstdint>

namespace facet {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

inline const char* skip_blanks(const char* p, const char* e) {
  while (p < e && is_blank(*p)) ++p;
  return p;
}

// A byte that ends a word: a blank, or a line end (the plain readers also run over raw text).
inline bool ends_word(char c) { return is_blank(c) || c == '\n' || c == '\r'; }

// End of the word starting at p (the next blank or e).
inline const char* word_end(const char* p, const char* e) {
  while (p < e && !is_blank(*p)) ++p;
  return p;
}

// A word made only of digits, signs, dots and exponent letters, with at least one digit: what
// OBJ writers produce for a number. "nan", "inf", "1.#IND" are not, and mark a vertex unusable.
inline bool is_plain_number(const char* p, const char* e) {
  bool digit = false;
  for (; p < e; ++p) {
    char c = *p;
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c != '+' && c != '-' && c != '.' && c != 'e' && c != 'E')
      return false;
  }
  return digit;
}

// Whether the word [p, e) spells a NaN or an infinity as writers print them ("nan", "-inf",
// "Infinity", MSVC's "1.#IND" and "-1.#QNAN"), rather than something that is no number at all.
inline bool spells_nan_or_infinity(const char* p, const char* e) {
  for (const char* q = p; q + 3 <= e; ++q) {
    const char a = (char)(q[0] | 0x20), b = (char)(q[1] | 0x20), c = (char)(q[2] | 0x20);
    if ((a == 'n' && b == 'a' && c == 'n') || (a == 'i' && b == 'n' && c == 'f') ||
        (q[0] == '#' && (b == 'i' || b == 'q')))
      return true;
  }
  return false;
}

// The number at the start of the word [p, e); false (out untouched) when the word does not
// start with one. Trailing junk after a number is ignored ("1.5abc" reads 1.5).
inline bool read_number(const char* p, const char* e, float* out) {
  bool negative = false;
  if (p < e && (*p == '+' || *p == '-')) negative = (*p++ == '-');
  if (p == e || !((*p >= '0' && *p <= '9') || *p == '.')) return false;  // not "inf", "nan"
  float value = 0;
  auto result = fast_float::from_chars(p, e, value);
  if (result.ec != std::errc()) return false;
  if (result.ptr < e && (*result.ptr == 'e' || *result.ptr == 'E')) return false;  // "5e", "2e+"
  *out = negative ? -value : value;
  return true;
}

// The common case of a word read as a number, in one pass: the word at p is a plain number
// (is_plain_number) that reads whole, finite or not, ending at a blank, a line end or e.
// Returns the word's end with *out set (the value read_number gives); nullptr when the word
// needs the general reading (not a number, trailing junk, a dangling exponent, out of range).
// Short decimals ("-0.0503644", most of what OBJ writers print) are read here without fast_float:
// an integer below 2^24 and a power of ten up to 10^10 are both exact floats, so one IEEE
// division gives the correctly rounded value, the one fast_float gives (its own fast path).
inline const char* read_plain_number(const char* p, const char* e, float* out) {
  constexpr uint64_t kExactMantissa = uint64_t(1) << 24;
  constexpr int kMaxDigits = 18;  // fits a uint64_t whatever the digits
  static constexpr float kPow10[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  bool negative = false;
  if (p < e && (*p == '+' || *p == '-')) negative = (*p++ == '-');
  const char* q = p;
  uint64_t mantissa = 0;
  while (q < e && (unsigned)(*q - '0') < 10) mantissa = mantissa * 10 + (uint64_t)(*q++ - '0');
  int whole = (int)(q - p), fraction = 0;
  if (whole > 0 && q + 1 < e && *q == '.' && (unsigned)(q[1] - '0') < 10) {
    const char* f = ++q;
    while (q < e && (unsigned)(*q - '0') < 10) mantissa = mantissa * 10 + (uint64_t)(*q++ - '0');
    fraction = (int)(q - f);
  }
  if (whole > 0 && whole + fraction <= kMaxDigits && mantissa <= kExactMantissa && fraction <= 10 &&
      (q == e || ends_word(*q))) {
    const float value = (float)mantissa / kPow10[fraction];
    *out = negative ? -value : value;
    return q;
  }
  if (p == e || !((*p >= '0' && *p <= '9') || *p == '.')) return nullptr;
  float value;
  auto result = fast_float::from_chars(p, e, value);
  if (result.ec != std::errc() || (result.ptr < e && !ends_word(*result.ptr))) return nullptr;
  *out = negative ? -value : value;
  return result.ptr;
}

// The next word of the line as a number: advances *p past it (and the blanks before it).
// Returns false when the line has no more words or the word is not a number; *out then
// holds `fallback`.
inline bool next_number(const char** p, const char* e, float fallback, float* out) {
  const char* s = skip_blanks(*p, e);
  const char* w = word_end(s, e);
  *p = w;
  *out = fallback;
  return s < w && read_number(s, w, out);
}

// One face index: optional sign and decimal digits, at most 32-bit signed. Returns false with
// *overflow when it is too large, false alone when malformed.
inline bool read_index(const char*& p, const char* e, int64_t* out, bool* overflow) {
  bool neg = false;
  if (p < e && (*p == '-' || *p == '+')) neg = (*p++ == '-');
  const char* digits = p;
  int64_t v = 0;
  while (p < e && *p >= '0' && *p <= '9') {
    if (v <= INT32_MAX) v = v * 10 + (*p - '0');  // keeps counting digits past the limit
    ++p;
  }
  if (p == digits) return false;
  if (v > INT32_MAX) {
    *overflow = true;
    return false;
  }
  *out = neg ? -v : v;
  return true;
}

// One face corner of the plain forms (v, v/vt, v//vn, v/vt/vn with positive indices below 2^31),
// ending at a blank, a line end or e: returns its end, its parts through parts[] (absent ones
// untouched); nullptr for anything else (relative, zero or too large indices, malformed): the
// general reading's.
inline const char* read_plain_corner(const char* p, const char* e, int32_t* const parts[3]) {
  constexpr int kMaxDigits = 10;  // INT32_MAX has 10; more go to the general reading
  for (int kind = 0; kind < 3; ++kind) {
    if (kind > 0) {
      if (p == e || ends_word(*p)) return p;
      if (*p != '/') return nullptr;
      ++p;
      if (kind == 1 && p < e && *p == '/') continue;  // v//vn: no texcoord
    }
    const char* digits = p;
    const char* limit = e - p > kMaxDigits ? p + kMaxDigits : e;
    uint64_t v = 0;
    while (p < limit && (unsigned)(*p - '0') < 10) v = v * 10 + (uint64_t)(*p++ - '0');
    if (p == digits || v == 0 || v > INT32_MAX) return nullptr;
    *parts[kind] = (int32_t)v;
  }
  return p == e || ends_word(*p) ? p : nullptr;
}

}  // namespace facet
