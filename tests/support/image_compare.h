// Comparing frames: triangle-id images against a peer (with the rule "only edge pixels may
// differ"), colour images within a tolerance, and a diff PNG for failures.
#pragma once
#include <string>
#include <vector>

#include "kernels/base/hd.h"

namespace facet::test {

struct IdComparison {
  size_t covered = 0;             // pixels covered in the reference image
  size_t differing = 0;           // pixels whose triangle id differs
  size_t interior_differing = 0;  // ... of which are more than `edge_radius` px from any id change
                                  //     in the reference image
  size_t coverage_differing = 0;  // covered in one image and background in the other
};

// Whether a pixel within `radius` of (x, y) (its (2 radius + 1)^2 square, clipped to the frame)
// holds another id than (x, y): (x, y) is then next to an edge, where peers may legitimately differ.
bool near_id_change(const std::vector<uint32_t>& ids, int width, int height, int x, int y, int radius = 1);

// `reference` decides where edges are. ~0u marks background.
IdComparison compare_ids(const std::vector<uint32_t>& reference, const std::vector<uint32_t>& other, int width,
                         int height, int edge_radius = 1);

struct ColorComparison {
  int max_channel_diff = 0;  // largest |a - b| over all channels and pixels
  size_t pixels_over = 0;    // pixels with some channel differing by more than the tolerance
};
ColorComparison compare_rgba(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b, int tolerance);

// "(r, g, b, a)": compared as text, a colour mismatch prints both colours.
std::string rgba_text(Rgba8 c);

// Writes a PNG: black where the ids agree, red where they differ, grey for the reference's
// coverage. Returns the file name written.
std::string write_id_diff(const std::string& name, const std::vector<uint32_t>& reference,
                          const std::vector<uint32_t>& other, int width, int height);

}  // namespace facet::test
