# facet.project on NumPy arrays: against a float64 NumPy reference of the documented formula
# (points in front, behind and on the near plane), out= reuse, DLPack input, and every error.
import numpy as np
import pytest

import facet


def rotation(yaw, pitch):
    cy, sy, cp, sp = np.cos(yaw), np.sin(yaw), np.cos(pitch), np.sin(pitch)
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rx = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    return rx @ ry


def reference(points, R, shift, focus, center, near):
    v = (points.astype(np.float64) - shift) @ R.T
    depth = -v[:, 2]
    valid = depth > near
    with np.errstate(divide="ignore", invalid="ignore"):
        x = center[0] + focus * v[:, 0] / depth
        y = center[1] - focus * v[:, 1] / depth
    xy = np.where(valid[:, None], np.stack([x, y], 1), np.nan)
    return xy, depth, valid


@pytest.fixture
def scene():
    rng = np.random.default_rng(7)
    R = rotation(0.3, -0.2)
    shift = np.array([0.5, -0.25, 4.0])
    # Points spread in front of and behind the camera.
    points = (rng.standard_normal((10_000, 3)) * 3).astype(np.float32)
    return points, R, shift


def test_points_in_front_match_the_float64_reference(scene):
    points, R, shift = scene
    xy, depth, valid = facet.project(points, R, shift, 800.0, center=(320, 240), near=0.1)
    rxy, rdepth, rvalid = reference(points, R.astype(np.float32), shift.astype(np.float32), 800.0, (320, 240), 0.1)
    front = rvalid & (rdepth > 0.2)  # away from the plane, where float32 rounding cannot flip the flag
    assert front.sum() > 1000
    np.testing.assert_array_equal(valid[front], True)
    np.testing.assert_allclose(depth[front], rdepth[front], rtol=1e-5, atol=1e-5)
    scale = np.abs(rxy[front]).max()
    np.testing.assert_allclose(xy[front], rxy[front], rtol=1e-4, atol=1e-5 * scale)


def test_points_behind_the_camera_are_flagged_never_mirrored(scene):
    points, R, shift = scene
    xy, depth, valid = facet.project(points, R, shift, 800.0, center=(320, 240), near=0.1)
    _, rdepth, _ = reference(points, R.astype(np.float32), shift.astype(np.float32), 800.0, (320, 240), 0.1)
    behind = rdepth < -1e-3
    assert behind.sum() > 1000
    assert not valid[behind].any()
    assert np.isnan(xy[behind]).all()
    np.testing.assert_allclose(depth[behind], rdepth[behind], rtol=1e-5, atol=1e-5)


def test_points_on_the_near_plane_are_invalid_and_just_beyond_are_valid():
    R = np.eye(3)
    points = np.array([[0.5, 0.5, -1.0], [0.5, 0.5, -np.nextafter(np.float32(1), np.float32(2))],
                       [0, 0, 0]], np.float32)
    xy, depth, valid = facet.project(points, R, (0, 0, 0), 100.0, center=(10, 20), near=1.0)
    assert list(valid) == [False, True, False]
    assert np.isnan(xy[0]).all() and np.isnan(xy[2]).all()
    np.testing.assert_allclose(xy[1], [10 + 50, 20 - 50], rtol=1e-6)


def test_out_arrays_are_filled_and_returned(scene):
    points, R, shift = scene
    n = len(points)
    out = (np.empty((n, 2), np.float32), np.empty(n, np.float32), np.empty(n, np.uint8))
    got = facet.project(points, R, shift, 500.0, center=(1, 2), out=out)
    assert all(a is b for a, b in zip(got, out))
    xy, depth, valid = facet.project(points, R, shift, 500.0, center=(1, 2))
    np.testing.assert_array_equal(out[0], xy)
    np.testing.assert_array_equal(out[1], depth)
    np.testing.assert_array_equal(out[2].astype(bool), valid)


class HostDLPack:
    """A host array seen only through the DLPack protocol."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_host_dlpack_input_gives_the_numpy_result(scene):
    points, R, shift = scene
    a = facet.project(points, R, shift, 500.0)
    b = facet.project(HostDLPack(points), R, shift, 500.0)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_a_strided_host_dlpack_view_is_refused(scene):
    points, R, shift = scene
    wide = np.zeros((len(points), 6), np.float32)
    wide[:, :3] = points
    with pytest.raises(ValueError, match="points: the array is not C-contiguous"):
        facet.project(HostDLPack(wide[:, :3]), R, shift, 500.0)


def test_outputs_round_trip_through_dlpack_without_a_copy(scene):
    points, R, shift = scene
    xy, depth, _ = facet.project(points, R, shift, 500.0)
    back = np.from_dlpack(xy)
    assert back.ctypes.data == xy.ctypes.data
    np.testing.assert_array_equal(back, xy)


def test_an_empty_point_array_gives_empty_outputs():
    xy, depth, valid = facet.project(np.zeros((0, 3), np.float32), np.eye(3), (0, 0, 0), 1.0)
    assert xy.shape == (0, 2) and depth.shape == (0,) and valid.shape == (0,)


@pytest.mark.parametrize("points, error, words", [
    (np.zeros((4, 3), np.float64), TypeError, "expected float32"),
    (np.zeros((4, 2), np.float32), ValueError, "expected shape (N, 3)"),
    (np.zeros((4, 6), np.float32)[:, ::2], ValueError, "not C-contiguous"),
    ([[0.0, 0.0, 1.0]], TypeError, "expected a NumPy array"),
])
def test_bad_points_raise_with_a_clear_message(points, error, words):
    with pytest.raises(error, match="points") as e:
        facet.project(points, np.eye(3), (0, 0, 0), 1.0)
    assert words in str(e.value)


@pytest.mark.parametrize("kwargs, words", [
    (dict(R=np.eye(2)), "R: expected a 3x3"),
    (dict(shift=(0, 0)), "shift: expected 3"),
    (dict(focus=0.0), "focus"),
    (dict(center=(1, 2, 3)), "center: expected 2"),
    (dict(near=-1.0), "near"),
])
def test_bad_camera_arguments_raise_value_error(kwargs, words):
    args = dict(R=np.eye(3), shift=(0, 0, 0), focus=1.0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=words):
        facet.project(np.zeros((2, 3), np.float32), **args)


def test_out_of_the_wrong_shape_is_refused():
    points = np.zeros((5, 3), np.float32)
    out = (np.empty((4, 2), np.float32), np.empty(5, np.float32), np.empty(5, bool))
    with pytest.raises(ValueError, match=r"out\[0\] \(xy\): expected shape \(5, 2\)"):
        facet.project(points, np.eye(3), (0, 0, 0), 1.0, out=out)


def test_read_only_out_is_refused():
    points = np.zeros((5, 3), np.float32)
    depth = np.empty(5, np.float32)
    depth.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        facet.project(points, np.eye(3), (0, 0, 0), 1.0, out=(np.empty((5, 2), np.float32), depth, np.empty(5, bool)))
