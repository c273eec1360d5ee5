// CUDA-GL interop (runtime API only, compiled by the host compiler). Compiles to failing stubs
// when the CUDA backend is not built.
#include "app/viewer/window/cuda_interop.h"

#if FACET_HAVE_CUDA
#include <glad/gl.h>  // before cuda_gl_interop.h, whose <GL/gl.h> then sees GL is already declared

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include "kernels/base/cuda_check.h"

#include <cstdio>
#include <stdexcept>

#endif

namespace facet {

#if FACET_HAVE_CUDA

namespace {
cudaGraphicsResource_t as_resource(void* p) { return static_cast<cudaGraphicsResource_t>(p); }
}  // namespace

CudaGlInterop::~CudaGlInterop() { unregister(); }

bool CudaGlInterop::register_texture(unsigned int gl_texture, std::string* why) {
  unregister();
  cudaGraphicsResource_t resource = nullptr;
  cudaError_t e =
      cudaGraphicsGLRegisterImage(&resource, gl_texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls do not report it
    if (why) *why = std::string("cudaGraphicsGLRegisterImage: ") + cudaGetErrorString(e);
    return false;
  }
  m_resource = resource;
  return true;
}

void CudaGlInterop::unregister() {
  if (!m_resource) return;
  unmap();
  // The last frame's kernels may still be storing to the surface: let them finish before the
  // surface and the registration go (a resize, rare enough that a wait costs nothing).
  FACET_CUDA_CHECK_NOTHROW(cudaDeviceSynchronize());
  if (m_surface) FACET_CUDA_CHECK_NOTHROW(cudaDestroySurfaceObject(m_surface));
  FACET_CUDA_CHECK_NOTHROW(cudaGraphicsUnregisterResource(as_resource(m_resource)));
  m_surface = 0;
  m_array = nullptr;
  m_resource = nullptr;
}

FrameTarget CudaGlInterop::map(void* stream) {
  FrameTarget target;
  if (!m_resource) return target;
  cudaGraphicsResource_t resource = as_resource(m_resource);
  FACET_CUDA_CHECK(cudaGraphicsMapResources(1, &resource, static_cast<cudaStream_t>(stream)));
  m_stream = stream;
  m_mapped = true;
  cudaArray_t array = nullptr;
  FACET_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, resource, 0, 0));
  // The array normally stays the same from map to map; the surface object is made again only
  // when it does not, so a frame creates and destroys nothing.
  if (array != m_array) {
    if (m_surface) {
      FACET_CUDA_CHECK_NOTHROW(cudaDeviceSynchronize());
      FACET_CUDA_CHECK_NOTHROW(cudaDestroySurfaceObject(m_surface));
    }
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    cudaSurfaceObject_t surface = 0;
    FACET_CUDA_CHECK(cudaCreateSurfaceObject(&surface, &desc));
    m_surface = surface;
    m_array = array;
  }
  target.kind = FrameTarget::Kind::Surface;
  target.surface = m_surface;
  return target;
}

void CudaGlInterop::unmap() {
  if (!m_mapped) return;
  cudaGraphicsResource_t resource = as_resource(m_resource);
  FACET_CUDA_CHECK_NOTHROW(cudaGraphicsUnmapResources(1, &resource, static_cast<cudaStream_t>(m_stream)));
  m_mapped = false;
}

bool cuda_device_memory_used(size_t* bytes) {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  *bytes = total_bytes - free_bytes;
  return true;
}

#else  // no CUDA backend in this build

CudaGlInterop::~CudaGlInterop() = default;

bool CudaGlInterop::register_texture(unsigned int, std::string* why) {
  if (why) *why = "this facet was built without the CUDA backend";
  return false;
}
void CudaGlInterop::unregister() {}
FrameTarget CudaGlInterop::map(void*) { return {}; }
void CudaGlInterop::unmap() {}

bool cuda_device_memory_used(size_t*) { return false; }

#endif

}  // namespace facet
