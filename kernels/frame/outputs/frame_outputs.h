// Per-pixel outputs of a frame beside its colour, from the visibility buffer: the visible
// triangle's index, the view-space distance along the pixel's ray (eye to the surface point
// under the pixel centre; in orthographic from the plane through the eye, kernels/frame/view.h) and the
// perspective-correct barycentrics resolve shades with. One function for the CPU loop
// (engine/render/frame_outputs.cpp) and the CUDA kernel (frame_outputs.cu), so both backends give the
// same bits. Not shading: colour stays resolve's job (shade.h).
#pragma once
#include "kernels/frame/params.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/resolve/shade.h"

namespace facet {

struct FrameOutputParams {
  SceneView scene;                          // its vertices are read (scene_vertices.h; positions may be null)
  FrameParams frame;                        // the frame the visibility buffer holds (its vis_tag and camera)
  const uint64_t* vis;                      // [frame.samples][height][width] visibility keys (raster.h); a pixel's
                                            //   outputs are its nearest sample's (nearest_key)
  float* depth;                             // [height][width] distance eye -> surface, world units, +inf where no
                                            //   triangle; or null
  int32_t* triangle_id;                     // [height][width] the triangle's index in the file, -1 where none; or
                                            //   null
  float* barycentrics;                      // [height][width][3] weights of the triangle's vertices 0, 1, 2, zero
                                            //   where none; or null
  const uint32_t* file_triangle = nullptr;  // [triangle_count] each scene triangle's index in the
                                            //   file (Scene::file_triangle), or null: the same
};

// Writes pixel i = py * width + px of every non-null output.
FACET_HD void write_pixel_outputs(const FrameOutputParams& p, int px, int py) {
  const FrameParams& fp = p.frame;
  const size_t i = (size_t)py * (size_t)fp.width + (size_t)px;
  const uint32_t tri =
      visible_triangle(nearest_pixel_key(p.vis, (size_t)fp.width * fp.height, i, fp.samples), fp.vis_tag);
  if (tri >= p.scene.triangle_count) {  // no triangle (~0u), or a key of another scene
    if (p.depth) p.depth[i] = INFINITY;
    if (p.triangle_id) p.triangle_id[i] = -1;
    if (p.barycentrics) p.barycentrics[3 * i] = p.barycentrics[3 * i + 1] = p.barycentrics[3 * i + 2] = 0.0f;
    return;
  }
  if (p.triangle_id) p.triangle_id[i] = (int32_t)(p.file_triangle ? p.file_triangle[tri] : tri);
  if (!p.depth && !p.barycentrics) return;
  const SceneView& s = p.scene;
  const TriangleCorners c = triangle_corners(s, tri);
  const ShadeVertex v0 = shade_vertex(s, c.i0), v1 = shade_vertex(s, c.i1), v2 = shade_vertex(s, c.i2);
  const PixelWeights pw = pixel_weights(fp, px, py, v0, v1, v2);
  if (p.depth) p.depth[i] = ray_distance(fp, interpolate(pw.w, v0.p, v1.p, v2.p));
  if (p.barycentrics) {
    p.barycentrics[3 * i] = pw.w[0];
    p.barycentrics[3 * i + 1] = pw.w[1];
    p.barycentrics[3 * i + 2] = pw.w[2];
  }
}

}  // namespace facet
