// The one translation unit that compiles tinyobjloader (Debian's libtinyobjloader-dev header,
// not its shared library). Nothing else belongs here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
#pragma GCC diagnostic pop
