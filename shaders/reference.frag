#version 450 core
// The OpenGL reference renderer's fragment stage: the triangle index (gl_PrimitiveID of one
// indexed draw of all triangles) into an R32UI attachment, and colour shaded like
// kernels/frame/resolve/shade.h shade_pixel: lit, texture, normals, depth. Close, not bit-exact: it is the
// oracle for visibility, and gives `facet bench` the cost of a real colour + depth pass.
// The same colour pipeline: sRGB texels decoded to linear before filtering, MTL colours and
// vertex colours linear (decoded on upload and in the vertex stage), Kd/Ks/Ka/Ke lighting in
// linear, the output encoded to sRGB here (normals and depth written as bytes, not encoded);
// samples whose alpha (d x map_d) is below 0.5 are cut, each at its own position (kept_samples).
// No wireframe overlay.

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in vec3 v_color;  // linear vertex colour, (1, 1, 1) when the scene has none

layout(location = 0) out vec4 o_color;   // sRGB RGBA8 attachment: linear light in, encoded by GL
layout(location = 1) out uint o_triangle; // R32UI attachment: index of the triangle in the scene

uniform int u_shading;       // Shading: 0 lit, 1 texture, 2 normals, 3 depth
uniform vec3 u_eye;          // world-space camera position (headlight)
uniform bool u_ortho;        // orthographic (kernels/frame/view.h): headlight and depth along u_view_dir
uniform vec3 u_view_dir;     // unit world-space view direction
uniform vec2 u_depth_range;  // view distances shown white and black in depth shading
uniform int u_filter;        // Filter: 0 nearest, 1 bilinear, 2 trilinear
uniform bool u_clamp_uv;     // clamp instead of repeat
uniform bool u_has_uvs;      // the scene has texture coordinates
uniform bool u_has_cutouts;  // some material can cut fragments away (SceneView::has_cutouts)
// With multisampling and cut-outs: sample s's offset from the pixel centre in pixels, window y (down
// the image), from the driver (glGetMultisamplefv): the positions its coverage uses. llvmpipe's
// 4x are kernels/frame/raster/samples.h's.
uniform vec2 u_sample_offsets[8];
// One material for all triangles (no per-triangle lookup), or -1: read b_tri_material.
uniform int u_single_material;

// std430 packs each int or float into the vec3's fourth slot: 80 bytes, the layout of the C++
// Material (kernels/frame/params.h).
struct Material {
  vec3 kd; int texture;          // Kd, map_Kd index or -1
  vec3 ks; float ns;             // Ks, whole-number Ns
  vec3 ka; int specular_texture; // Ka, map_Ks
  vec3 ke; int emission_texture; // Ke, map_Ke
  float alpha; int alpha_texture; int pad0; int pad1;  // d, map_d
};
// The C++ TextureDesc, 16 bytes.
struct TextureDesc { uint offset; int width; int height; int levels; };

layout(std430, binding = 0) readonly buffer TriMaterial { uint b_tri_material[]; };
layout(std430, binding = 1) readonly buffer Materials { Material b_materials[]; };
layout(std430, binding = 2) readonly buffer Textures { TextureDesc b_textures[]; };
layout(std430, binding = 3) readonly buffer Texels { uint b_texels[]; };  // RGBA8, as Rgba8

const float k_ambient = 0.15;  // kernels/frame/resolve/shade.h kAmbient
const float k_cutout = 0.5;    // kernels/frame/raster/cutout.h kCutoutThreshold

// ---- sRGB, after kernels/frame/resolve/srgb.h (computed here, so near its tables, not equal) ----
vec3 srgb_to_linear(vec3 s) {
  return mix(s / 12.92, pow((s + 0.055) / 1.055, vec3(2.4)), greaterThan(s, vec3(0.04045)));
}

// ---- texture sampling, after kernels/frame/resolve/texture.h ----
struct Level { uint offset; int width; int height; };

Level texture_level(TextureDesc d, int level) {
  uint off = d.offset;
  int w = d.width, h = d.height;
  for (int l = 0; l < level; ++l) {
    off += uint(w) * uint(h);
    w = max(w / 2, 1);
    h = max(h / 2, 1);
  }
  return Level(off, w, h);
}

int address(int i, int size) {
  if (u_clamp_uv) return clamp(i, 0, size - 1);
  int m = i % size;
  return m < 0 ? m + size : m;
}

vec4 fetch(Level lv, int x, int y) {
  x = address(x, lv.width);
  y = address(y, lv.height);
  vec4 t = unpackUnorm4x8(b_texels[lv.offset + uint(y) * uint(lv.width) + uint(x)]);
  return vec4(srgb_to_linear(t.rgb), t.a);  // decoded before filtering, as an sRGB sampler
}

vec2 texel_coords(Level lv, vec2 uv) {
  if (!u_clamp_uv) uv = uv - floor(uv);
  return vec2(uv.x * float(lv.width), (1.0 - uv.y) * float(lv.height));  // v = 0 is the bottom row
}

vec4 sample_bilinear(Level lv, vec2 uv) {
  vec2 f = texel_coords(lv, uv) - 0.5;
  vec2 f0 = floor(f);
  vec2 a = f - f0;
  int x0 = int(f0.x), y0 = int(f0.y);
  vec4 top = mix(fetch(lv, x0, y0), fetch(lv, x0 + 1, y0), a.x);
  vec4 bottom = mix(fetch(lv, x0, y0 + 1), fetch(lv, x0 + 1, y0 + 1), a.x);
  return mix(top, bottom, a.y);
}

vec4 sample_texture(TextureDesc d, vec2 uv, vec2 duv_dx, vec2 duv_dy) {
  if (any(isnan(uv)) || any(isinf(uv))) uv = vec2(0.0);
  if (u_filter == 0) {
    Level lv = texture_level(d, 0);
    vec2 t = texel_coords(lv, uv);
    return fetch(lv, int(floor(t.x)), int(floor(t.y)));
  }
  if (u_filter == 1) return sample_bilinear(texture_level(d, 0), uv);
  vec2 size = vec2(d.width, d.height);
  vec2 a = duv_dx * size, b = duv_dy * size;
  float rho2 = max(dot(a, a), dot(b, b));
  float lod = rho2 > 1.0 ? 0.5 * log2(rho2) : 0.0;
  lod = clamp(lod, 0.0, float(d.levels - 1));
  int l0 = int(floor(lod));
  int l1 = min(l0 + 1, d.levels - 1);
  vec4 c0 = sample_bilinear(texture_level(d, l0), uv);
  float f = lod - float(l0);
  if (f == 0.0 || l1 == l0) return c0;
  return mix(c0, sample_bilinear(texture_level(d, l1), uv), f);
}

// The texture's colour at the fragment, or white without one (kernels/frame/resolve/shade.h texture_color).
vec3 texture_color(int tex, vec2 duv_dx, vec2 duv_dy) {
  if (tex < 0 || !u_has_uvs) return vec3(1.0);
  return sample_texture(b_textures[tex], v_uv, duv_dx, duv_dy).rgb;
}

// True when material m cuts the point of texture coordinates uv away (kernels/frame/raster/cutout.h
// cutout_keeps): alpha x map_d's alpha at level 0 below 0.5.
bool cut_away_at(Material m, vec2 uv) {
  if (m.alpha_texture < 0 || !u_has_uvs) return !(m.alpha >= k_cutout);
  TextureDesc d = b_textures[m.alpha_texture];
  Level lv = texture_level(d, 0);
  uv = any(isnan(uv)) || any(isinf(uv)) ? vec2(0.0) : uv;
  vec2 t = texel_coords(lv, uv);
  float a = u_filter == 0 ? fetch(lv, int(floor(t.x)), int(floor(t.y))).a : sample_bilinear(lv, uv).a;
  return !(m.alpha * a >= k_cutout);
}

// The fragment's texture coordinates anywhere in its pixel: uv/w and 1/w are affine in window
// space, so their values at the centre and their screen derivatives give uv at an offset exactly
// (perspective-correct, as kernels/frame/raster/cutout.h computes it). Not interpolateAtSample: on llvmpipe
// (Mesa 22.3) its values at the samples of a checker quad seen at an angle put 836 pixels a
// sample off facet's cut along the alpha edges (2 with this), as if not perspective-correct.
struct UvPlane { vec2 uvq, uvq_dx, uvq_dy; float q, q_dx, q_dy; };
vec2 uv_at(UvPlane p, vec2 offset) {
  return (p.uvq + p.uvq_dx * offset.x + p.uvq_dy * offset.y) / (p.q + p.q_dx * offset.x + p.q_dy * offset.y);
}

// The fragment's covered samples that m keeps, as a sample mask: with multisampling each at its
// own position, as facet's raster tests each sample, where `discard` would drop all of them at
// once; one sample (or an alpha without a map): the fragment as a whole. The fragment still
// shades once, at the pixel centre, as facet's resolve does.
int kept_samples(Material m, UvPlane plane) {
  if (gl_NumSamples <= 1 || m.alpha_texture < 0 || !u_has_uvs) return cut_away_at(m, v_uv) ? 0 : -1;
  int mask = 0;
  for (int s = 0; s < min(gl_NumSamples, 8); ++s) {
    const bool covered = (gl_SampleMaskIn[0] & (1 << s)) != 0;
    if (covered && !cut_away_at(m, uv_at(plane, u_sample_offsets[s]))) mask |= 1 << s;
  }
  return mask;
}

// Lit or texture shading of material m (kernels/frame/resolve/shade.h shade_material).
vec3 shade_material(Material m, vec2 duv_dx, vec2 duv_dy) {
  vec3 albedo = m.kd * texture_color(m.texture, duv_dx, duv_dy) * v_color;
  if (u_shading != 0) return albedo;
  vec3 n = normalize(v_normal);
  vec3 l = normalize(u_ortho ? -u_view_dir : u_eye - v_world);
  float ndl = min(abs(dot(n, l)), 1.0);  // two-sided, as shade_pixel
  vec3 color = albedo * ((1.0 - k_ambient) * ndl + k_ambient * m.ka);
  // Blinn-Phong with the light at the eye: the half-vector is the view direction.
  if (m.ks != vec3(0.0)) color += m.ks * texture_color(m.specular_texture, duv_dx, duv_dy) * pow(ndl, m.ns);
  if (m.ke != vec3(0.0)) color += m.ke * texture_color(m.emission_texture, duv_dx, duv_dy);
  return color;
}

// Normals and depth show data: their value v is written as the byte round(255 v), returned as the
// linear light the sRGB framebuffer encodes back to that byte (kernels/frame/resolve/shade.h data_color).
vec3 data_bytes(vec3 v) { return srgb_to_linear(floor(clamp(v, 0.0, 1.0) * 255.0 + 0.5) / 255.0); }

void main() {
  o_triangle = uint(gl_PrimitiveID);
  // Derivatives first, in uniform control flow: the material branch below differs across a quad.
  vec2 duv_dx = dFdx(v_uv), duv_dy = dFdy(v_uv);
  vec3 dp_dx = dFdx(v_world), dp_dy = dFdy(v_world);
  UvPlane plane;
  plane.q = gl_FragCoord.w;
  plane.uvq = v_uv * plane.q;
  plane.uvq_dx = dFdxFine(plane.uvq);
  plane.uvq_dy = dFdyFine(plane.uvq);
  plane.q_dx = dFdxFine(plane.q);
  plane.q_dy = dFdyFine(plane.q);
  int mi = u_single_material >= 0 ? u_single_material : int(b_tri_material[gl_PrimitiveID]);
  Material m = b_materials[mi];
  gl_SampleMask[0] = -1;  // every covered sample, unless cut below (every path must write it)
  if (u_has_cutouts) {
    const int kept = kept_samples(m, plane);
    if (kept == 0) discard;
    gl_SampleMask[0] = kept;
  }
  vec3 color;
  if (u_shading == 2) {
    // Geometric face normal from the world position's screen derivatives. The window origin is
    // the upper left (glClipControl), so cross(dx, dy) points away from the viewer; front faces
    // (counter-clockwise in NDC) have cross(p1 - p0, p2 - p0) toward it.
    vec3 away = normalize(cross(dp_dx, dp_dy));
    vec3 n = gl_FrontFacing ? -away : away;
    color = data_bytes(n * 0.5 + 0.5);
  } else if (u_shading == 3) {
    float w = u_ortho ? dot(v_world - u_eye, u_view_dir) : 1.0 / gl_FragCoord.w;  // view distance along -Z
    float range = u_depth_range.y - u_depth_range.x;
    float g = range > 0.0 ? 1.0 - (w - u_depth_range.x) / range : 1.0;
    color = data_bytes(vec3(g));
  } else {
    color = shade_material(m, duv_dx, duv_dy);  // linear: the framebuffer encodes
  }
  o_color = vec4(color, 1.0);
}
