# Shared fixtures of the facet Python tests: the assets, the facet executable, the `gpu` marker
# and the skips of device tests (with the reason) where torch, cupy or a CUDA device is missing.
import os
import pathlib

import numpy as np
import pytest

import facet

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device (and torch or cupy)")


@pytest.fixture(scope="session")
def assets():
    path = pathlib.Path(os.environ.get("FACET_SHARED_ASSETS", ROOT.parent / "shared" / "assets"))
    if not path.is_dir():
        pytest.skip(f"no shared assets at {path}")
    return path


@pytest.fixture(scope="session")
def spot_path():
    return ROOT / "assets" / "spot" / "spot_triangulated_with_mtl.obj"


@pytest.fixture(scope="session")
def app():
    path = pathlib.Path(os.environ.get("FACET_APP", ROOT / "build" / "app" / "facet"))
    if not path.exists():
        pytest.skip(f"no facet executable at {path}")
    return path


def needs_cuda():
    if not facet.built_with_cuda:
        pytest.skip("facet was built without CUDA")
    if not facet.cuda_available():
        pytest.skip("no usable CUDA device here")


@pytest.fixture
def torch():
    needs_cuda()
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


@pytest.fixture
def cupy():
    needs_cuda()
    return pytest.importorskip("cupy", reason="CuPy is not installed")


def quad_mesh(z=0.0):
    """Two triangles covering the square [-1, 1]^2 at height z, facing +Z."""
    positions = np.array([[-1, -1, z], [1, -1, z], [1, 1, z], [-1, 1, z]], np.float32)
    triangles = np.array([[0, 1, 2], [0, 2, 3]], np.int32)
    return facet.Mesh(positions, triangles)
