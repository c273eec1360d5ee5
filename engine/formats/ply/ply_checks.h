// What a PLY header must agree on with the file around it, checked by the loader (ply_loader.h)
// before the body is read or after: the rows it declares against the bytes behind them, an index
// type against the vertex count, and data past the last declared row. No parsing here
// (ply_header.h, ply_body.h).
#pragma once
#include <cstddef>
#include <string>

#include "engine/formats/format_messages.h"
#include "engine/formats/ply/ply_body.h"
#include "engine/formats/ply/ply_header.h"

namespace facet {

// Refuses (LoadError naming the element, its row count and the bytes) a header whose rows cannot
// fit in the body: each row takes at least its scalars and list counts (binary) or two bytes a
// property (ASCII); and more than 2^32 - 1 vertices, which 32-bit indices cannot name. Called
// before anything is sized, so a header that claims 2^40 rows in a small file costs nothing.
// `path` as messages show it.
void check_ply_counts_fit(const std::string& path, const PlyHeader& header, size_t file_size);

// Refuses a face list whose index type cannot name every vertex (uchar indices with 1000
// vertices): its writer must have cut the indices, and the faces would come out as slivers (in
// ASCII, every value must fit its declared type as well: ply_ascii.cpp).
void check_ply_index_type(const std::string& path, const PlyHeader& header, const PlyLayout& layout);

// Warns when the file goes on after the last row the header declares (more faces than it
// counts, say): the header's counts are what is read; the warning says where the rest starts
// (byte, or line in ASCII) and how much was ignored. Blanks alone at the end are no data.
// `end`: the offset just past the last row read.
void warn_ply_trailing_data(const PlyHeader& header, const char* data, size_t size, size_t end,
                            FormatWarnings& warnings);

}  // namespace facet
