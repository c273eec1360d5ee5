// How facet compiles tinygltf (Debian's libtinygltf-dev header). Every file that includes
// tiny_gltf.h includes it through here, so that all see the same class layout. Images are not
// decoded by tinygltf: external files stay URIs and embedded ones stay bytes, both decoded by
// engine/scene/texture_file.h like every other texture.
#pragma once
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#include <tiny_gltf.h>
#pragma GCC diagnostic pop
