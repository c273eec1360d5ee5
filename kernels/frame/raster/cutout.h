// Alpha-tested cut-outs (leaves, fences): whether a triangle keeps a sample at a window position,
// from its material's alpha (MTL d, glTF baseColor alpha) times its alpha texture (map_d) at the
// perspective-correct uv there, cut below kCutoutThreshold. The raster paths call it per sample
// for scenes with SceneView::has_cutouts; nothing here rasterizes or shades.
#pragma once
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/resolve/interp.h"
#include "kernels/frame/resolve/scene_vertices.h"
#include "kernels/frame/resolve/texture.h"

namespace facet {

// Alpha below which a sample is cut away, as OpenGL's alpha test (and glTF alphaMode MASK with the
// default alphaCutoff) cut.
constexpr float kCutoutThreshold = 0.5f;

// NDC of window position (x, y) in pixels: (0, 0) the top-left corner of the frame, pixel
// centres at +0.5 (pixel_ndc's arithmetic for x = px + 0.5, the same floats at a pixel centre).
FACET_HD Vec2 window_ndc(float x, float y, int width, int height) {
  return {fmaf(x, 2.0f / (float)width, -1.0f), fmaf(-y, 2.0f / (float)height, 1.0f)};
}

// The alpha map's value (its alpha channel, 0..1) at level 0 with the frame's filter (nearest;
// bilinear for the bilinear and trilinear filters, no level of detail at a sample).
FACET_HD float alpha_map_value(const SceneView& s, const FrameParams& fp, const TextureDesc& d, Vec2 uv) {
  if (!is_finite(uv.x) || !is_finite(uv.y)) uv = {0.0f, 0.0f};
  const Level lv = texture_level(d, 0);
  if (fp.filter == Filter::Nearest) return sample_nearest(s.texels, lv, uv, fp.clamp_uv).w;
  return sample_bilinear(s.texels, lv, uv, fp.clamp_uv).w;
}

// True when triangle `tri` keeps its sample at window position (x, y) in pixels: its material's
// alpha times the alpha map's value there is at least kCutoutThreshold. A material without an
// alpha map (or a model without uvs) is decided by its alpha alone, without reading vertices.
FACET_HD bool cutout_keeps(const SceneView& s, const FrameParams& fp, uint32_t tri, float x, float y) {
  const Material& m = s.materials[s.tri_material ? s.tri_material[tri] : s.single_material];
  if (m.alpha_texture < 0 || !s.has_uvs) return m.alpha >= kCutoutThreshold;
  if (!(m.alpha >= kCutoutThreshold)) return false;  // the map can only lower it (NaN cuts too)
  const TriangleCorners c = triangle_corners(s, tri);
  const ShadeVertex v0 = shade_vertex(s, c.i0), v1 = shade_vertex(s, c.i1), v2 = shade_vertex(s, c.i2);
  const HomogeneousEdges h = homogeneous_edges(project_vertex(fp.view_proj, v0.p), project_vertex(fp.view_proj, v1.p),
                                               project_vertex(fp.view_proj, v2.p));
  float w[3];
  weights_at(h, window_ndc(x, y, fp.width, fp.height), w);
  const Vec2 uv = interpolate(w, v0.uv, v1.uv, v2.uv);
  return m.alpha * alpha_map_value(s, fp, s.textures[m.alpha_texture], uv) >= kCutoutThreshold;
}

}  // namespace facet
