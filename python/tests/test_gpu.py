# The device side with PyTorch and CuPy arrays: facet.project on device arrays (the host's bits,
# no host copy, out= reuse, arrays of other devices refused), and Renderer outputs on the GPU as
# DLPack tensors equal to the CPU backend's. Skipped, with the reason, without a device.
import numpy as np
import pytest

import facet
from conftest import quad_mesh

pytestmark = pytest.mark.gpu
W, H = 160, 96
ALL = ("color", "depth", "triangle_id", "barycentrics")


def sample(n=100_003):  # odd: the kernel's four-point path and its scalar tail both run
    rng = np.random.default_rng(3)
    return (rng.standard_normal((n, 3)) * 3).astype(np.float32)


R = np.array([[0.8, 0.0, -0.6], [0.0, 1.0, 0.0], [0.6, 0.0, 0.8]], np.float32)
SHIFT = (0.1, 0.2, 3.0)


def test_torch_points_project_on_the_device_to_the_host_bits(torch):
    points = sample()
    host = facet.project(points, R, SHIFT, 700.0, center=(640, 360), near=0.05)
    dev = facet.project(torch.from_numpy(points).cuda(), R, SHIFT, 700.0, center=(640, 360), near=0.05)
    assert all(isinstance(a, torch.Tensor) and a.is_cuda for a in dev)
    np.testing.assert_array_equal(dev[0].cpu().numpy(), host[0])
    np.testing.assert_array_equal(dev[1].cpu().numpy(), host[1])
    np.testing.assert_array_equal(dev[2].cpu().numpy().astype(bool), host[2])


def test_cupy_points_project_on_the_device_to_the_host_bits(cupy):
    points = sample()
    host = facet.project(points, R, SHIFT, 700.0)
    dev = facet.project(cupy.asarray(points), R, SHIFT, 700.0)
    assert all(isinstance(a, cupy.ndarray) for a in dev)
    np.testing.assert_array_equal(cupy.asnumpy(dev[0]), host[0])
    np.testing.assert_array_equal(cupy.asnumpy(dev[1]), host[1])


def test_device_out_buffers_are_written_in_place(torch):
    points = torch.from_numpy(sample()).cuda()
    n = points.shape[0]
    out = (torch.empty((n, 2), device="cuda"), torch.empty(n, device="cuda"),
           torch.empty(n, dtype=torch.uint8, device="cuda"))
    ptr = out[0].data_ptr()
    got = facet.project(points, R, SHIFT, 700.0, out=out)
    assert got[0] is out[0] and out[0].data_ptr() == ptr
    ref = facet.project(points.cpu().numpy(), R, SHIFT, 700.0)
    np.testing.assert_array_equal(out[0].cpu().numpy(), ref[0])


def test_a_misaligned_device_view_still_projects(torch):
    base = torch.from_numpy(sample(1001)).cuda()
    points = base[1:]  # 12 bytes in: not 16-byte aligned, the scalar kernel takes it
    ref = facet.project(base[1:].cpu().numpy(), R, SHIFT, 700.0)
    got = facet.project(points, R, SHIFT, 700.0)
    np.testing.assert_array_equal(got[0].cpu().numpy(), ref[0])


def test_non_contiguous_device_points_are_refused(torch):
    points = torch.zeros((10, 6), device="cuda")[:, ::2]
    with pytest.raises(ValueError, match="points: the array is not C-contiguous"):
        facet.project(points, R, SHIFT, 1.0)


def test_wrong_dtype_device_points_are_refused(torch):
    with pytest.raises(TypeError, match="points: expected float32, got float64 device array"):
        facet.project(torch.zeros((10, 3), dtype=torch.float64, device="cuda"), R, SHIFT, 1.0)


def test_host_out_for_device_points_is_refused(torch):
    points = torch.zeros((4, 3), device="cuda")
    out = (np.empty((4, 2), np.float32), np.empty(4, np.float32), np.empty(4, bool))
    with pytest.raises(ValueError, match="where the points do"):
        facet.project(points, R, SHIFT, 1.0, out=out)


def test_points_on_another_gpu_are_refused(torch):
    if torch.cuda.device_count() < 2:
        pytest.skip("one CUDA device: no other device to put the points on")
    points = torch.zeros((4, 3), device="cuda:1")
    with pytest.raises(ValueError, match="on CUDA device 1"):
        facet.project(points, R, SHIFT, 1.0)


@pytest.fixture(scope="module")
def spot_mesh(spot_path):
    return facet.load(str(spot_path))


CAMERAS = [facet.Camera(eye=(2, 1, 2), target=(0, 0, 0)), facet.Camera(eye=(-1.5, 0.3, 1.5), target=(0, 0.2, 0), fov_y=35)]


def test_cuda_outputs_equal_the_cpu_backend(torch, spot_mesh):
    cpu, gpu = facet.Renderer(W, H, "cpu"), facet.Renderer(W, H, "cuda")
    cpu.set_mesh(spot_mesh)
    gpu.set_mesh(spot_mesh)
    a = cpu.render(CAMERAS, outputs=ALL)
    b = gpu.render(CAMERAS, outputs=ALL)
    for name in ("color", "depth", "triangle_id"):
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    np.testing.assert_allclose(a["barycentrics"], b["barycentrics"], atol=1e-6)


def test_device_outputs_go_to_torch_and_cupy_without_a_copy(torch, cupy, spot_mesh):
    r = facet.Renderer(W, H, "cuda")
    r.set_mesh(spot_mesh)
    dev = r.render(CAMERAS[0], outputs=ALL, device="cuda")
    host = r.render(CAMERAS[0], outputs=ALL)
    for name in ALL:
        t = torch.from_dlpack(dev[name])
        assert t.data_ptr() == dev[name].data_ptr
        np.testing.assert_array_equal(t.cpu().numpy(), host[name])
        c = cupy.from_dlpack(dev[name])
        assert c.data.ptr == dev[name].data_ptr
    del dev  # the tensors above keep the memory alive; dropping everything frees it


def test_device_outputs_outlive_the_facet_array(torch, spot_mesh):
    r = facet.Renderer(W, H, "cuda")
    r.set_mesh(spot_mesh)
    t = torch.from_dlpack(r.render(CAMERAS[0], outputs=("depth",), device="cuda")["depth"])
    torch.cuda.synchronize()
    ref = r.render(CAMERAS[0], outputs=("depth",))["depth"]
    np.testing.assert_array_equal(t.cpu().numpy(), ref)


def test_a_device_batch_fills_torch_out_buffers(torch):
    r = facet.Renderer(W, H, "cuda")
    r.set_mesh(quad_mesh())
    cams = [facet.Camera(eye=(0, 0, 3), target=(0, 0, 0)), facet.Camera(eye=(0.5, 0, 2), target=(0, 0, 0))]
    ids = torch.full((2, H, W), 7, dtype=torch.int32, device="cuda")
    r.render(cams, outputs=("triangle_id",), device="cuda", out={"triangle_id": ids})
    ref = r.render(cams, outputs=("triangle_id",))["triangle_id"]
    np.testing.assert_array_equal(ids.cpu().numpy(), ref)


@pytest.mark.parametrize("other", ["torch", "cupy"])
def test_importing_facet_first_leaves_other_pybind11_modules_importable(other):
    # In a fresh interpreter: facet must not hand its pybind11 internals to PyTorch's extension.
    import importlib.util
    import subprocess
    import sys
    if importlib.util.find_spec(other) is None:
        pytest.skip(f"{other} is not installed")
    r = subprocess.run([sys.executable, "-c", f"import facet, {other}; print('imported')"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "imported" in r.stdout, r.stderr[-2000:]
