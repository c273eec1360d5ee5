// facet.Mesh's C++ side: the engine scene it holds, shared with every Renderer it is set on.
#pragma once
#include <memory>

#include "engine/scene/scene.h"

namespace facet_py {

struct Mesh {
  std::shared_ptr<const facet::Scene> scene;  // never null
};

}  // namespace facet_py
