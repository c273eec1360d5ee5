// CUDA-GL interop for the frame texture: the GL texture is registered with CUDA once per resize
// (as a surface the kernels can store to), mapped and unmapped every frame, and handed to the
// renderer as FrameTarget::Surface. Without the CUDA backend (FACET_HAVE_CUDA undefined) every
// registration fails with a reason, and the viewer takes the glTexSubImage2D copy path.
#pragma once
#include <cstddef>
#include <string>

#include "engine/render/renderer.h"

namespace facet {

class CudaGlInterop {
 public:
  CudaGlInterop() = default;
  ~CudaGlInterop();
  CudaGlInterop(const CudaGlInterop&) = delete;
  CudaGlInterop& operator=(const CudaGlInterop&) = delete;

  // Registers a GL_TEXTURE_2D RGBA8 texture (after letting go of any previous one). On failure
  // returns false and says why; nothing stays registered.
  bool register_texture(unsigned int gl_texture, std::string* why);
  void unregister();
  bool registered() const { return m_resource != nullptr; }

  // Maps the texture for this frame on `stream` (Renderer::native_stream(): the CUDA backend's
  // stream is non-blocking, so stream 0 would not be ordered against its kernels) and returns
  // the surface to render into; unmap() queues the unmap on the same stream, after the frame's
  // kernels, before GL samples the texture. No host wait either way.
  FrameTarget map(void* stream);
  void unmap();

 private:
  void* m_resource = nullptr;        // cudaGraphicsResource_t
  void* m_array = nullptr;           // cudaArray_t the surface was made for
  unsigned long long m_surface = 0;  // cudaSurfaceObject_t over m_array
  void* m_stream = nullptr;          // cudaStream_t the resource is mapped on
  bool m_mapped = false;
};

// Device memory in use on the current CUDA device (total - free), bytes; false without CUDA.
bool cuda_device_memory_used(size_t* bytes);

}  // namespace facet
