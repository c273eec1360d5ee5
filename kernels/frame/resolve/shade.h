// Resolve and shade one pixel from its visibility key: the design's shading modes (lit,
// texture, normals, depth) and the wireframe overlay. Lit shading applies the material's Kd,
// Ks/Ns, Ka, Ke and vertex colours in linear light; encode_color writes the result as sRGB RGBA8.
#pragma once
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/resolve/interp.h"
#include "kernels/frame/resolve/scene_vertices.h"
#include "kernels/frame/resolve/srgb.h"
#include "kernels/frame/resolve/texture.h"
#include "kernels/frame/view.h"

namespace facet {

// Share of light that does not depend on the normal, so faces seen edge-on stay readable.
constexpr float kAmbient = 0.15f;
// The wireframe overlay's colour in linear light: sRGB 0.05 (code 13), the near-black it has
// always shown.
constexpr float kWireLinear = 0.00393594f;

FACET_HD uint8_t to_unorm8(float v) { return (uint8_t)(clampf(v, 0.0f, 1.0f) * 255.0f + 0.5f); }
// A shaded colour (what the shade_* functions below return: linear light, before any output
// encoding) as the output pixel, encoded to sRGB: the one place the frame's colour encoding is
// decided, and where samples that were averaged in linear light meet the bytes.
FACET_HD Rgba8 encode_color(Vec3 c) {
  // A grey (any untextured grey material under the white headlight) encodes once.
  if (c.x == c.y && c.y == c.z) {
    const uint8_t g = srgb_encode8(c.x);
    return {g, g, g, 255};
  }
  return {srgb_encode8(c.x), srgb_encode8(c.y), srgb_encode8(c.z), 255};
}
// The frame's background as a shaded colour: what an uncovered sample contributes where samples
// are averaged. encode_color(background_color(fp)) gives back fp.background's colour bytes.
FACET_HD Vec3 background_color(const FrameParams& fp) { return srgb_to_linear(fp.background); }
// Normal and depth shading show data, not light: their values are written as bytes directly
// (v * 255, rounded). Returned as the linear colour whose encoding is those
// bytes, so that they pass encode_color (and sample averaging) like every other mode.
FACET_HD Vec3 data_color(Vec3 v) { return srgb_to_linear(Rgba8{to_unorm8(v.x), to_unorm8(v.y), to_unorm8(v.z), 255}); }

// Distance in pixels from the pixel centre to the nearest triangle edge, from the barycentrics
// and their screen-space rates of change.
FACET_HD float edge_distance_px(const Barycentrics& b) {
  float d = 1e30f;
  for (int i = 0; i < 3; ++i) {
    float rate = fmaxf(fabsf(b.ddx[i]), fabsf(b.ddy[i]));
    if (rate > 0.0f) d = fminf(d, fabsf(b.b[i]) / rate);
  }
  return d;
}

// What a covered pixel reads of its triangle before its vertices: where its vertices are and, for
// the modes that use it, the material index, issued together (apart, the material read would wait
// for the vertex math). Apart from the rest so that the CUDA resolve can issue several pixels'.
struct PixelTriangle {
  uint32_t i0, i1, i2, material;
};
FACET_HD PixelTriangle pixel_triangle(const SceneView& s, const FrameParams& fp, uint32_t tri) {
  const bool material = fp.shading == Shading::Lit || fp.shading == Shading::Texture;
  const uint32_t m = !material ? 0u : s.tri_material ? s.tri_material[tri] : s.single_material;
  const TriangleCorners c = triangle_corners(s, tri);
  return {c.i0, c.i1, c.i2, m};
}

FACET_HD float dot_fma(Vec3 a, Vec3 b) { return fmaf(a.x, b.x, fmaf(a.y, b.y, a.z * b.z)); }

// Lit shading's cosine at a pixel with weights `w`: a headlight at the eye (in orthographic,
// along the view direction: view.h toward_viewer), interpolated normal.
// The cosine between the normal n and the direction l to the viewer as |n . l| / sqrt(|n|^2 |l|^2):
// one square root and one division where normalizing both would take two of each (a covered
// pixel's costliest lines after the vertex records). A zero n or l (or one past float range) is
// unlit, as a normalized zero vector is (normalize, hd.h).
FACET_HD float headlight_cosine(const float (&w)[3], const ShadeVertex& v0, const ShadeVertex& v1,
                                const ShadeVertex& v2, const FrameParams& fp) {
  const Vec3 n = interpolate(w, v0.n, v1.n, v2.n);
  // In orthographic the direction is the same at every point: no position to interpolate.
  const Vec3 l = toward_viewer(fp, fp.orthographic ? v0.p : interpolate(w, v0.p, v1.p, v2.p));
  const float lengths = sqrtf(dot_fma(n, n) * dot_fma(l, l));
  // Two-sided: scans have mixed winding.
  return lengths > 0.0f && is_finite(lengths) ? fminf(fabsf(dot_fma(n, l)) / lengths, 1.0f) : 0.0f;
}

// The diffuse light (ambient share included, white ambient colour) at a pixel.
FACET_HD float headlight(const float (&w)[3], const ShadeVertex& v0, const ShadeVertex& v1, const ShadeVertex& v2,
                         const FrameParams& fp) {
  return fmaf(1.0f - kAmbient, headlight_cosine(w, v0, v1, v2, fp), kAmbient);
}

// x to the whole power n >= 0 by repeated squaring: the same products in the same order on both
// backends, where powf's results differ.
FACET_HD float pow_whole(float x, int n) {
  float r = 1.0f;
  for (; n > 0; n >>= 1) {
    if (n & 1) r *= x;
    x *= x;
  }
  return r;
}

// Blinn-Phong's specular factor (n . h)^ns under the headlight. The light sits at the eye, so the
// direction to the light l equals the direction to the eye v and the half-vector
// h = normalize(l + v) is v itself: n . h is the same cosine as the diffuse term's, and the
// highlight is centred where the surface faces the eye head-on (on a sphere, the point on the
// line from the eye to its centre; on a plane, the foot of the perpendicular from the eye).
FACET_HD float headlight_specular(float cosine, float ns) { return pow_whole(cosine, (int)ns); }

// The weights of pixel (px, py) for a triangle from its vertex records: clip coordinates are
// recomputed (the same floats as the vertex stage) rather than read back, since arithmetic is
// cheaper than three more random reads.
struct PixelWeights {
  Vec4 c0, c1, c2;     // clip coordinates of the vertices
  HomogeneousEdges h;  // for derivatives, where a mode needs them
  float w[3];          // perspective-correct weights at the pixel centre
};
FACET_HD PixelWeights pixel_weights(const FrameParams& fp, int px, int py, const ShadeVertex& v0, const ShadeVertex& v1,
                                    const ShadeVertex& v2) {
  PixelWeights r;
  r.c0 = project_vertex(fp.view_proj, v0.p);
  r.c1 = project_vertex(fp.view_proj, v1.p);
  r.c2 = project_vertex(fp.view_proj, v2.p);
  r.h = homogeneous_edges(r.c0, r.c1, r.c2);
  weights_at_pixel(r.h, px, py, fp.width, fp.height, r.w);
  return r;
}

// True when every covered pixel of the frame is plain lit shading: lit, no wireframe, and a
// plain scene (`scene_textured` false: no texture to sample, no specular, emission, ambient
// colour or vertex colours; plain_lit_scene in engine/scene/scene.h). Resolve then runs the short path
// below, whose kernel holds fewer registers.
FACET_HD bool plain_lit_frame(const FrameParams& fp, bool scene_textured) {
  return fp.shading == Shading::Lit && !fp.wireframe && !scene_textured;
}

// shade_covered_pixel for a plain lit frame (above): the same arithmetic on the same values,
// so the same bits, without the other modes' branches and state.
FACET_HD Vec3 shade_plain_lit_pixel(const SceneView& s, const FrameParams& fp, int px, int py, const PixelTriangle& t) {
  const ShadeVertex v0 = shade_vertex(s, t.i0), v1 = shade_vertex(s, t.i1), v2 = shade_vertex(s, t.i2);
  const PixelWeights pw = pixel_weights(fp, px, py, v0, v1, v2);
  return s.materials[t.material].kd * headlight(pw.w, v0, v1, v2, fp);
}

// Texture coordinates at a pixel and their change one pixel right and one down.
struct PixelUv {
  Vec2 uv, duv_dx, duv_dy;
};

// The material samples a texture for lit or texture shading (the model has uvs to sample with).
FACET_HD bool material_textured(const SceneView& s, const Material& m) {
  return s.has_uvs && (m.texture >= 0 || m.specular_texture >= 0 || m.emission_texture >= 0);
}

// The colour of scene texture `index` at the pixel (linear light), or white when there is none.
FACET_HD Vec3 texture_color(const SceneView& s, const FrameParams& fp, int32_t index, const PixelUv& t) {
  if (index < 0 || !s.has_uvs) return {1.0f, 1.0f, 1.0f};
  const Vec4 c = sample_texture(s.texels, s.textures[index], t.uv, t.duv_dx, t.duv_dy, fp.filter, fp.clamp_uv);
  return {c.x, c.y, c.z};
}

// The vertex colours (sRGB, decoded) interpolated at weights `w` (colors follows the vertex
// layout, like the corners).
FACET_HD Vec3 vertex_color(const SceneView& s, const PixelTriangle& t, const float (&w)[3]) {
  return interpolate(w, srgb_to_linear(s.colors[t.i0]), srgb_to_linear(s.colors[t.i1]), srgb_to_linear(s.colors[t.i2]));
}

FACET_HD bool nonzero(Vec3 c) { return c.x != 0.0f || c.y != 0.0f || c.z != 0.0f; }

// Lit or texture shading of material `m` at a pixel with barycentrics `b` (derivatives set when
// material_textured): the albedo Kd x map_Kd x vertex colour; under lit shading, that albedo in
// the headlight's diffuse light with the ambient share tinted by Ka, plus the Blinn-Phong
// highlight Ks x map_Ks and the emission Ke x map_Ke, which no light scales. With Ka white and
// nothing else, the same bits as shade_plain_lit_pixel.
FACET_HD Vec3 shade_material(const SceneView& s, const FrameParams& fp, const Material& m, const PixelTriangle& t,
                             const Barycentrics& b, const ShadeVertex& v0, const ShadeVertex& v1,
                             const ShadeVertex& v2) {
  PixelUv uv{};
  if (material_textured(s, m))
    uv = {interpolate(b.b, v0.uv, v1.uv, v2.uv), interpolate(b.ddx, v0.uv, v1.uv, v2.uv),
          interpolate(b.ddy, v0.uv, v1.uv, v2.uv)};
  Vec3 albedo = m.kd;
  if (m.texture >= 0 && s.has_uvs) albedo = albedo * texture_color(s, fp, m.texture, uv);
  if (s.colors) albedo = albedo * vertex_color(s, t, b.b);
  if (fp.shading != Shading::Lit) return albedo;
  const float cosine = headlight_cosine(b.b, v0, v1, v2, fp);
  const Vec3 light{fmaf(1.0f - kAmbient, cosine, kAmbient * m.ka.x), fmaf(1.0f - kAmbient, cosine, kAmbient * m.ka.y),
                   fmaf(1.0f - kAmbient, cosine, kAmbient * m.ka.z)};
  Vec3 color = albedo * light;
  if (nonzero(m.ks))
    color = color + m.ks * texture_color(s, fp, m.specular_texture, uv) * headlight_specular(cosine, m.ns);
  if (nonzero(m.ke)) color = color + m.ke * texture_color(s, fp, m.emission_texture, uv);
  return color;
}

// The shaded colour (before encode_color) of pixel (px, py) covered by triangle `t`. Everything else
// resolve needs of the triangle is read here: its three vertex records (scene_vertices.h) and its
// material.
FACET_HD Vec3 shade_covered_pixel(const SceneView& s, const FrameParams& fp, int px, int py, const PixelTriangle& t) {
  const ShadeVertex v0 = shade_vertex(s, t.i0), v1 = shade_vertex(s, t.i1), v2 = shade_vertex(s, t.i2);
  const Vec3 p0 = v0.p, p1 = v1.p, p2 = v2.p;
  const PixelWeights pw = pixel_weights(fp, px, py, v0, v1, v2);
  const Vec4 c0 = pw.c0, c1 = pw.c1, c2 = pw.c2;
  const HomogeneousEdges& h = pw.h;
  Barycentrics b{};  // derivatives stay zero where no texture or wireframe needs them
  b.b[0] = pw.w[0];
  b.b[1] = pw.w[1];
  b.b[2] = pw.w[2];
  // Derivatives (two more evaluations) only where a texture's level of detail or the wireframe
  // uses them: the same values as barycentrics_at, skipped elsewhere.
  const Material* m = nullptr;
  bool textured = false;
  if (fp.shading == Shading::Lit || fp.shading == Shading::Texture) {
    m = &s.materials[t.material];
    textured = material_textured(s, *m);
  }
  if (textured || fp.wireframe) weight_derivatives(h, px, py, fp.width, fp.height, b);

  Vec3 color;
  if (fp.shading == Shading::Normals) {
    Vec3 n = normalize(cross(p1 - p0, p2 - p0));
    color = data_color(n * 0.5f + Vec3{0.5f, 0.5f, 0.5f});
  } else if (fp.shading == Shading::Depth) {
    // View distance along -Z: clip w in perspective; w is 1 in orthographic (view.h).
    float w = fp.orthographic ? ray_distance(fp, interpolate(b.b, p0, p1, p2)) : interpolate(b.b, c0.w, c1.w, c2.w);
    float range = fp.depth_far - fp.depth_near;
    float g = range > 0.0f ? 1.0f - (w - fp.depth_near) / range : 1.0f;
    color = data_color({g, g, g});
  } else {
    color = shade_material(s, fp, *m, t, b, v0, v1, v2);
  }
  if (fp.wireframe) {
    float d = edge_distance_px(b);
    float a = clampf(1.5f - d, 0.0f, 1.0f);  // about one pixel wide, softened
    color = color + (Vec3{kWireLinear, kWireLinear, kWireLinear} - color) * a;
  }
  return color;
}

// The output colour of pixel (px, py) from its visibility key.
FACET_HD Rgba8 shade_pixel(const SceneView& s, const FrameParams& fp, int px, int py, uint64_t key) {
  if (!key_current(key, fp.vis_tag)) return fp.background;
  return encode_color(shade_covered_pixel(s, fp, px, py, pixel_triangle(s, fp, key_triangle(key))));
}

}  // namespace facet
