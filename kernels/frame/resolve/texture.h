// Texture addressing and filtering (nearest, bilinear, trilinear across mips; repeat or clamp),
// on sRGB RGBA8 texels stored level after level, decoded to linear light texel by texel before
// they are filtered (what a GPU's sRGB sampler does); alpha is linear. Texture v = 0 is the bottom
// of the image (OBJ), and texel row 0 is the top, hence the flip.
#pragma once
#include "kernels/frame/params.h"
#include "kernels/frame/resolve/srgb.h"

namespace facet {

// An sRGB texel as linear colour and linear alpha (0..1).
FACET_HD Vec4 texel_to_vec(Rgba8 c) {
  return {srgb_to_linear(c.r), srgb_to_linear(c.g), srgb_to_linear(c.b), c.a * (1.0f / 255.0f)};
}

// Wraps or clamps an integer texel coordinate into [0, size).
FACET_HD int32_t address(int32_t i, int32_t size, bool clamp) {
  if (clamp) return i < 0 ? 0 : (i >= size ? size - 1 : i);
  int32_t m = i % size;
  return m < 0 ? m + size : m;
}

FACET_HD uint32_t level_offset(const TextureDesc& d, int level) {
  uint32_t off = d.offset;
  int w = d.width, h = d.height;
  for (int l = 0; l < level; ++l) {
    off += (uint32_t)w * (uint32_t)h;
    w = maxi(w / 2, 1);
    h = maxi(h / 2, 1);
  }
  return off;
}

struct Level {
  uint32_t offset;
  int32_t width, height;
};

FACET_HD Level texture_level(const TextureDesc& d, int level) {
  return {level_offset(d, level), maxi(d.width >> level, 1), maxi(d.height >> level, 1)};
}

FACET_HD Vec4 fetch(const Rgba8* texels, const Level& lv, int32_t x, int32_t y, bool clamp) {
  x = address(x, lv.width, clamp);
  y = address(y, lv.height, clamp);
  return texel_to_vec(texels[lv.offset + (uint32_t)y * (uint32_t)lv.width + (uint32_t)x]);
}

// uv -> continuous texel coordinates with texel centres at +0.5; the v flip puts v = 0 at the
// bottom row. Large uv are reduced first so float precision survives repeat addressing.
FACET_HD Vec2 texel_coords(const Level& lv, Vec2 uv, bool clamp) {
  if (!clamp) {
    uv.x = uv.x - floorf(uv.x);
    uv.y = uv.y - floorf(uv.y);
  }
  return {uv.x * (float)lv.width, (1.0f - uv.y) * (float)lv.height};
}

FACET_HD Vec4 sample_nearest(const Rgba8* texels, const Level& lv, Vec2 uv, bool clamp) {
  Vec2 t = texel_coords(lv, uv, clamp);
  return fetch(texels, lv, (int32_t)floorf(t.x), (int32_t)floorf(t.y), clamp);
}

FACET_HD Vec4 sample_bilinear(const Rgba8* texels, const Level& lv, Vec2 uv, bool clamp) {
  Vec2 t = texel_coords(lv, uv, clamp);
  float fx = t.x - 0.5f, fy = t.y - 0.5f;
  float x0f = floorf(fx), y0f = floorf(fy);
  float ax = fx - x0f, ay = fy - y0f;
  int32_t x0 = (int32_t)x0f, y0 = (int32_t)y0f;
  Vec4 c00 = fetch(texels, lv, x0, y0, clamp), c10 = fetch(texels, lv, x0 + 1, y0, clamp);
  Vec4 c01 = fetch(texels, lv, x0, y0 + 1, clamp), c11 = fetch(texels, lv, x0 + 1, y0 + 1, clamp);
  Vec4 top = c00 + (c10 - c00) * ax;
  Vec4 bottom = c01 + (c11 - c01) * ax;
  return top + (bottom - top) * ay;
}

// Level of detail from the uv footprint of one pixel step (derivatives in uv units per pixel).
FACET_HD float texture_lod(const TextureDesc& d, Vec2 duv_dx, Vec2 duv_dy) {
  float ax = duv_dx.x * (float)d.width, ay = duv_dx.y * (float)d.height;
  float bx = duv_dy.x * (float)d.width, by = duv_dy.y * (float)d.height;
  float rho2 = fmaxf(ax * ax + ay * ay, bx * bx + by * by);
  if (!(rho2 > 1.0f)) return 0.0f;  // magnification (or NaN): level 0
  return 0.5f * log2f(rho2);
}

FACET_HD Vec4 sample_texture(const Rgba8* texels, const TextureDesc& d, Vec2 uv, Vec2 duv_dx, Vec2 duv_dy,
                             Filter filter, bool clamp) {
  if (!is_finite(uv.x) || !is_finite(uv.y)) uv = {0.0f, 0.0f};
  if (filter == Filter::Nearest) return sample_nearest(texels, texture_level(d, 0), uv, clamp);
  if (filter == Filter::Bilinear) return sample_bilinear(texels, texture_level(d, 0), uv, clamp);
  float lod = clampf(texture_lod(d, duv_dx, duv_dy), 0.0f, (float)(d.levels - 1));
  int l0 = (int)floorf(lod);
  int l1 = mini(l0 + 1, d.levels - 1);
  float f = lod - (float)l0;
  Vec4 a = sample_bilinear(texels, texture_level(d, l0), uv, clamp);
  if (f == 0.0f || l1 == l0) return a;
  Vec4 b = sample_bilinear(texels, texture_level(d, l1), uv, clamp);
  return a + (b - a) * f;
}

}  // namespace facet
