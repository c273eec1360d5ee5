// The viewer's present pass, vertex stage: one triangle that covers the screen, no vertex buffer.
// The frame texture holds row 0 = top of the image (as the renderer writes it) while GL's texture
// row 0 is the bottom, so v is flipped here.
#version 450 core
out vec2 v_uv;
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  v_uv = vec2(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5);
  gl_Position = vec4(p, 0.0, 1.0);
}
