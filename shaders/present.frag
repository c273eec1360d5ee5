// The viewer's present pass, fragment stage: shows the frame texture as it is (RGBA8, already
// shaded by the renderer). Nearest filtering when frame and window sizes match keeps it exact.
#version 450 core
layout(binding = 0) uniform sampler2D u_frame;
in vec2 v_uv;
out vec4 o_color;
void main() { o_color = vec4(texture(u_frame, v_uv).rgb, 1.0); }
