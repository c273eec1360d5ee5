// The last step of both meshlet builders (meshlets.h): once the triangles are grouped, each
// meshlet's slots are put in Z-order over the patch (patches only) and its culling bounds
// computed. Each meshlet touches only its own ranges of the arrays, so the meshlets are finished
// in parallel, with the same result for any number of threads.
#pragma once
#include "engine/meshlets.h"

namespace facet {

// order: reorder each meshlet's slots along a Z-order curve (order_meshlet) before its bounds.
void finish_meshlets(Meshlets& out, bool order);

}  // namespace facet
