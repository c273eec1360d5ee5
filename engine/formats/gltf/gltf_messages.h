// What the glTF reader says about a file: the shared quoting and warning counter of
// format_messages.h, under the name the glTF reader's files use.
#pragma once
#include "engine/formats/format_messages.h"

namespace facet {

// Warnings of one glTF load by kind (one a material, one a primitive): FormatWarnings, as a class
// of its own so that headers can declare it ahead.
class GltfWarnings : public FormatWarnings {
 public:
  using FormatWarnings::FormatWarnings;
};

}  // namespace facet
