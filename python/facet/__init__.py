"""facet: a real-time software rasterizer (CUDA and CPU), for NumPy, PyTorch and CuPy users.

    import facet
    xy, depth, valid = facet.project(points, R, shift, focus, center=(cx, cy))
    mesh = facet.load("model.obj")            # or facet.Mesh(positions, triangles, ...)
    r = facet.Renderer(1920, 1080)            # backend="auto" | "cpu" | "cuda"
    r.set_mesh(mesh)
    frame = r.render(facet.Camera(eye=(0, 0, 3), target=(0, 0, 0)),
                     outputs=("color", "depth", "triangle_id", "barycentrics"))

Host (NumPy) arrays in give NumPy arrays out; device arrays (PyTorch, CuPy, anything with
``__cuda_array_interface__`` or ``__dlpack__``) give device arrays out, never through the host.
Errors are Python exceptions carrying facet's message: TypeError (wrong dtype, not an array),
ValueError (shape, contiguity, a device array on another GPU, bad arguments), facet.LoadError
(a model file that cannot be shown), RuntimeError (CUDA asked for where there is none).
"""
# NumPy is imported through Python's own import before the extension asks pybind11 for its C API:
# on the H200 machine (torch 2.11, NumPy 2.5) letting the extension import NumPy first made a
# later `import torch` abort ("free(): invalid pointer"), and importing NumPy first did not.
import numpy as _numpy  # noqa: F401

from ._facet import (Camera, DeviceArray, LoadError, Mesh, Renderer, built_with_cuda, load,
                     write_png)
from ._facet import _project
from ._facet import cuda_available as _cuda_available

__all__ = ["project", "Camera", "DeviceArray", "LoadError", "Mesh", "Renderer", "load",
           "write_png", "cuda_available", "built_with_cuda"]


def cuda_available():
    """True when facet was built with CUDA and a device is usable here."""
    return bool(_cuda_available()[0])


def _library_of(array):
    """'torch', 'cupy' or None: the library whose device arrays `array` is one of."""
    module = type(array).__module__.split(".")[0]
    return module if module in ("torch", "cupy") else None


def _as_library(outputs, library):
    if library == "torch":
        import torch
        return tuple(torch.from_dlpack(a) for a in outputs)
    if library == "cupy":
        import cupy
        return tuple(cupy.from_dlpack(a) for a in outputs)
    return outputs


def project(points, R, shift, focus, center=(0.0, 0.0), near=0.0, out=None):
    """The seed's projection, with points behind the camera flagged instead of mirrored.

    For each point p (row of ``points``, float32 (N, 3), C-contiguous)::

        v = R @ (p - shift)          # the seed's (points - shift) @ R.T
        depth = -v.z                 # view space looks down -Z (facet's convention)
        x = cx + focus * v.x / depth
        y = cy - focus * v.y / depth # image y down, row 0 = top

    so that ``R`` = the camera's rotation (rows: right, up, backward) and ``shift`` = its
    position put points on the pixels facet.Renderer draws them at (``Camera.from_seed``).
    A point with ``depth <= near`` (behind the camera, or on the near plane) is not projected:
    ``valid`` is False there and its ``xy`` is NaN. ``depth`` is written for every point.

    Returns ``(xy, depth, valid)``: xy float32 (N, 2) pixels; depth float32 (N,) world units;
    valid bool (N,) for NumPy input, uint8 (N,) for device input (DLPack 0.6 has no bool).

    NumPy input runs on every core with the GIL released and returns NumPy arrays. A PyTorch
    or CuPy CUDA array (or anything offering ``__cuda_array_interface__`` or ``__dlpack__`` on
    the current device) runs in one CUDA kernel with no host copy and returns arrays of the
    same library (facet.DeviceArray for others), written on the legacy default stream without
    the host waiting. ``out=(xy, depth, valid)`` writes into existing arrays of those shapes
    and dtypes (valid: bool or uint8) on the same side, and returns them.
    """
    results = _project(points, R, shift, float(focus), center, float(near), out)
    if out is not None:
        return tuple(out)
    if isinstance(results[0], DeviceArray):
        return _as_library(results, _library_of(points))
    return results
