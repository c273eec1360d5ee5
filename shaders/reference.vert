#version 450 core
// The OpenGL reference renderer's vertex stage (app/gl/gl_reference.cpp): the same world -> clip
// transform as kernels/frame/geometry/project.h, written out term by term in mul_point's order and marked
// `precise` so the driver may not fuse it into FMAs: GL then rasterizes exactly the clip-space
// positions our backends do, and only GL's own snapping and tie rules can make pixels differ.

layout(location = 0) in vec3 a_position;  // world space
layout(location = 1) in vec3 a_normal;    // unit vertex normal, world space
layout(location = 2) in vec2 a_uv;        // OBJ texture coordinates (v up); (0, 0) when absent
layout(location = 3) in vec4 a_color;     // sRGB vertex colour (normalized bytes), when u_has_colors

uniform mat4 u_view_proj;  // FrameParams::view_proj, column-major as uploaded
uniform bool u_has_colors; // the scene has vertex colours (else a_color is not read)

out vec3 v_world;   // world position, perspective-correct in the fragment stage
out vec3 v_normal;
out vec2 v_uv;
out vec3 v_color;  // linear light: interpolated as kernels/frame/resolve/shade.h vertex_color interpolates

void main() {
  const mat4 m = u_view_proj;  // m[col][row], as Mat4::m[col * 4 + row]
  const vec3 p = a_position;
  precise vec4 c;
  c.x = m[0][0] * p.x + m[1][0] * p.y + m[2][0] * p.z + m[3][0];
  c.y = m[0][1] * p.x + m[1][1] * p.y + m[2][1] * p.z + m[3][1];
  c.z = m[0][2] * p.x + m[1][2] * p.y + m[2][2] * p.z + m[3][2];
  c.w = m[0][3] * p.x + m[1][3] * p.y + m[2][3] * p.z + m[3][3];
  gl_Position = c;
  v_world = a_position;
  v_normal = a_normal;
  v_uv = a_uv;
  const vec3 s = a_color.rgb;
  v_color = u_has_colors ? mix(s / 12.92, pow((s + 0.055) / 1.055, vec3(2.4)), greaterThan(s, vec3(0.04045)))
                         : vec3(1.0);
}
