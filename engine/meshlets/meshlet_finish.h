// The last step of both meshlet builders (meshlets.h): once a part's triangles are grouped (a
// range of patches, a chunk of runs), each meshlet's culling bounds are computed. Each meshlet
// touches only its own ranges of the arrays, so each part is finished by the task that grouped it,
// while its arrays are in cache, before the parts are joined: the same bytes as finishing the
// joined result.
#pragma once
#include "engine/meshlets/meshlets.h"

namespace facet {

// Every meshlet of `part`, on the calling thread.
void finish_meshlets(Meshlets& part);

}  // namespace facet
