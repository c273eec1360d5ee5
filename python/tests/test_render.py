# facet.Renderer on the CPU backend: the same bytes as `facet render`, the per-pixel outputs
# (depth, triangle ids, barycentrics) against analytic answers, batches, and every refusal.
import subprocess

import numpy as np
import pytest

import facet
from conftest import quad_mesh

W, H = 96, 64
ALL = ("color", "depth", "triangle_id", "barycentrics")


@pytest.fixture(scope="module")
def spot(spot_path):
    return facet.load(str(spot_path))


def render_cli(app, model, png, *args):
    subprocess.run([str(app), "render", str(model), "-o", str(png), "--size", f"{W}x{H}", "--backend", "cpu", *args],
                   check=True, capture_output=True)
    return png.read_bytes()


def test_color_bytes_equal_facet_render_png_for_the_same_camera(app, spot_path, spot, tmp_path):
    expected = render_cli(app, spot_path, tmp_path / "cli.png", "--eye", "2,1,2", "--target", "0,0.1,0")
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    color = r.render(facet.Camera(eye=(2, 1, 2), target=(0, 0.1, 0)))["color"]
    facet.write_png(str(tmp_path / "py.png"), color)
    assert (tmp_path / "py.png").read_bytes() == expected


def test_framing_camera_equals_facet_render_default_view(app, spot_path, spot, tmp_path):
    expected = render_cli(app, spot_path, tmp_path / "cli.png", "--shading", "normals")
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    color = r.render(facet.Camera.framing(spot, W, H), shading="normals")["color"]
    facet.write_png(str(tmp_path / "py.png"), color)
    assert (tmp_path / "py.png").read_bytes() == expected


@pytest.fixture(scope="module")
def quad_frame():
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(quad_mesh())
    eye = np.array([0.2, -0.1, 2.0])
    # One sample a pixel: every output is the pixel centre's (with aa > 1, the nearest sample's
    # triangle, whose barycentrics at the centre may lie just outside it on an edge).
    return r.render(facet.Camera(eye=eye, target=(0.2, -0.1, 0), fov_y=60), outputs=ALL, aa=1), eye


def pixel_rays(eye, fov_y_deg):
    """Unit world-space ray of every pixel centre of a camera looking down -Z, y up."""
    f = (H / 2) / np.tan(np.radians(fov_y_deg) / 2)
    x = (np.arange(W) + 0.5 - W / 2) / f
    y = (H / 2 - (np.arange(H) + 0.5)) / f
    d = np.stack(np.broadcast_arrays(x[None, :], y[:, None], -np.ones((H, W))), -1)
    return d / np.linalg.norm(d, axis=-1, keepdims=True)


def test_depth_is_the_distance_along_each_pixel_ray(quad_frame):
    out, eye = quad_frame
    rays = pixel_rays(eye, 60)
    expected = eye[2] / -rays[..., 2]  # the plane z = 0 from height eye.z
    covered = out["triangle_id"] >= 0
    assert covered.sum() > W * H // 4
    np.testing.assert_allclose(out["depth"][covered], expected[covered], rtol=2e-5)


def test_background_pixels_are_infinite_depth_id_minus_one_and_zero_weights(quad_frame):
    out, _ = quad_frame
    empty = out["triangle_id"] == -1
    assert empty.sum() > 0
    assert np.isposinf(out["depth"][empty]).all()
    assert (out["barycentrics"][empty] == 0).all()
    assert (out["color"][empty] == [40, 42, 48, 255]).all()


def test_barycentrics_rebuild_the_surface_point_under_each_pixel(quad_frame):
    out, eye = quad_frame
    positions = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float64)
    triangles = np.array([[0, 1, 2], [0, 2, 3]])
    covered = out["triangle_id"] >= 0
    ids = out["triangle_id"][covered]
    b = out["barycentrics"][covered].astype(np.float64)
    np.testing.assert_allclose(b.sum(-1), 1.0, atol=1e-5)
    assert (b > -1e-5).all()
    points = np.einsum("nk,nkd->nd", b, positions[triangles[ids]])
    hits = eye + pixel_rays(eye, 60)[covered] * out["depth"][covered][:, None]
    np.testing.assert_allclose(points, hits, atol=1e-4)


def test_a_batch_of_cameras_equals_the_frames_one_by_one(spot):
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    cams = [facet.Camera(eye=(2, 1, 2), target=(0, 0, 0)), facet.Camera(eye=(-2, 0.5, 1), target=(0, 0, 0), fov_y=30)]
    batch = r.render(cams, outputs=ALL)
    assert batch["color"].shape == (2, H, W, 4) and batch["barycentrics"].shape == (2, H, W, 3)
    for i, cam in enumerate(cams):
        one = r.render(cam, outputs=ALL)
        for name in ALL:
            np.testing.assert_array_equal(batch[name][i], one[name])


def test_out_buffers_are_reused(spot):
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    cam = facet.Camera(eye=(2, 1, 2), target=(0, 0, 0))
    depth = np.zeros((H, W), np.float32)
    got = r.render(cam, outputs=("depth",), out={"depth": depth})
    assert got["depth"] is depth and np.isfinite(depth).any()


def test_the_seed_camera_and_project_agree_with_the_rendered_pixels():
    """Camera.from_seed draws a triangle exactly where facet.project puts its corners: the
    covered pixel centres are those inside the projected triangle (away from its edges)."""
    positions = np.array([[-0.8, -0.5, 0.3], [0.9, -0.2, -0.4], [0.1, 0.8, 0.0]], np.float32)
    eye = np.array([0.6, 0.4, 2.5], np.float32)
    forward = -eye / np.linalg.norm(eye)
    right = np.cross(forward, [0, 1, 0]); right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    R = np.stack([right, up, -forward]).astype(np.float32)
    focus = 70.0
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(facet.Mesh(positions, np.array([[0, 1, 2]], np.int32)))
    ids = r.render(facet.Camera.from_seed(R, eye, focus), outputs=("triangle_id",), aa=1)["triangle_id"]
    xy, _, valid = facet.project(positions, R, eye, focus, center=(W / 2, H / 2))
    assert valid.all()
    px, py = np.meshgrid(np.arange(W) + 0.5, np.arange(H) + 0.5)
    a, b, c = xy.astype(np.float64)
    def edge(p, q):  # signed distance in pixels of every pixel centre from edge p -> q
        return ((q[0] - p[0]) * (py - p[1]) - (q[1] - p[1]) * (px - p[0])) / np.linalg.norm(q - p)
    e = np.stack([edge(a, b), edge(b, c), edge(c, a)])
    e *= np.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))  # inside positive
    inside, outside = (e > 0.01).all(0), (e < -0.01).any(0)
    assert inside.sum() > 200
    assert (ids[inside] == 0).all()
    assert (ids[outside] == -1).all()


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(shading="toon"), ValueError, "shading: 'toon'"),
    (dict(outputs=("normal",)), ValueError, "unknown output 'normal'"),
    (dict(device="tpu"), ValueError, "device: 'tpu'"),
    (dict(device="cuda"), ValueError, "needs the cuda backend"),
    (dict(out={"color": np.zeros((H, W, 3), np.uint8)}), ValueError, "out['color']: expected shape (64, 96, 4)"),
    (dict(out={"color": np.zeros((H, W, 4), np.float32)}), TypeError, "out['color']: expected uint8"),
    (dict(background=(0, 0, 300)), ValueError, "background"),
])
def test_bad_render_arguments_raise_with_a_clear_message(spot, kwargs, error, words):
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    with pytest.raises(error) as e:
        r.render(facet.Camera(eye=(2, 1, 2), target=(0, 0, 0)), **kwargs)
    assert words in str(e.value)


def test_rendering_without_a_mesh_is_refused():
    with pytest.raises(ValueError, match="no mesh set"):
        facet.Renderer(W, H, "cpu").render(facet.Camera(eye=(0, 0, 1), target=(0, 0, 0)))


@pytest.mark.parametrize("args, words", [((0, 10), "width, height"), ((10, 10, "vulkan"), "backend: 'vulkan'")])
def test_bad_renderer_arguments_raise_value_error(args, words):
    with pytest.raises(ValueError, match=words):
        facet.Renderer(*args)


def test_asking_for_cuda_where_there_is_none_raises():
    if facet.cuda_available():
        pytest.skip("a CUDA device is usable here")
    with pytest.raises(RuntimeError, match="(?i)cuda"):
        facet.Renderer(W, H, "cuda")


@pytest.mark.parametrize("kwargs, words", [
    (dict(eye=(0, 0, 0), target=(0, 0, 0)), "same point"),
    (dict(eye=(0, 1, 0), target=(0, 0, 0)), "up: 0,1,0 is parallel"),
    (dict(eye=(0, 0, 1), target=(0, 0, 0), fov_y=200), "fov_y"),
    (dict(eye=(0, 0, 1), target=(0, 0, 0), fov_y=40, focal_px=100), "not both"),
    (dict(eye=(0, 0), target=(0, 0, 0)), "eye: expected 3"),
])
def test_bad_cameras_raise_value_error(kwargs, words):
    with pytest.raises(ValueError, match=words):
        facet.Camera(**kwargs)


def test_help_shows_the_documented_api():
    doc = facet.Renderer.render.__doc__
    assert "triangle_id" in doc and "barycentrics" in doc
    assert "float32 (N, 3)" in facet.project.__doc__


def test_facet_render_writes_depth_and_ids_equal_to_the_module(app, spot_path, spot, tmp_path):
    subprocess.run([str(app), "render", str(spot_path), "-o", str(tmp_path / "f.png"), "--size", f"{W}x{H}",
                    "--backend", "cpu", "--eye", "2,1,2", "--target", "0,0,0",
                    "--depth", str(tmp_path / "d.npy"), "--ids", str(tmp_path / "i.npy")],
                   check=True, capture_output=True)
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    ref = r.render(facet.Camera(eye=(2, 1, 2), target=(0, 0, 0)), outputs=("depth", "triangle_id"))
    depth, ids = np.load(tmp_path / "d.npy"), np.load(tmp_path / "i.npy")
    assert depth.dtype == np.float32 and ids.dtype == np.int32
    np.testing.assert_array_equal(depth, ref["depth"])
    np.testing.assert_array_equal(ids, ref["triangle_id"])


def test_facet_render_refuses_an_unknown_depth_format(app, spot_path, tmp_path):
    run = subprocess.run([str(app), "render", str(spot_path), "-o", str(tmp_path / "f.png"), "--size", "8x8",
                          "--backend", "cpu", "--depth", str(tmp_path / "d.tiff")], capture_output=True, text=True)
    assert run.returncode != 0
    assert "d.tiff: depth files are .npy or .exr" in run.stderr


def test_facet_render_writes_depth_as_exr(app, spot_path, tmp_path):
    run = subprocess.run([str(app), "render", str(spot_path), "-o", str(tmp_path / "f.png"), "--size", "16x8",
                          "--backend", "cpu", "--depth", str(tmp_path / "d.exr")], capture_output=True, text=True)
    if run.returncode != 0 and "without tinyexr" in run.stderr:
        pytest.skip("facet was built without tinyexr")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "d.exr").read_bytes()[:4] == b"\x76\x2f\x31\x01"  # OpenEXR's magic number


def test_an_orthographic_camera_equals_facet_render_ortho(app, spot_path, spot, tmp_path):
    expected = render_cli(app, spot_path, tmp_path / "cli.png", "--eye", "2,1,2", "--target", "0,0.1,0", "--ortho", "1.5")
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    cam = facet.Camera(eye=(2, 1, 2), target=(0, 0.1, 0), ortho_height=1.5)
    assert cam.ortho_height == 1.5
    facet.write_png(str(tmp_path / "py.png"), r.render(cam)["color"])
    assert (tmp_path / "py.png").read_bytes() == expected


def test_orthographic_depth_is_the_distance_from_the_eye_plane():
    """The quad z = 0 seen straight on from z = 2: every covered pixel is 2 away (parallel rays)."""
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(quad_mesh())
    out = r.render(facet.Camera(eye=(0.1, 0.1, 2.0), target=(0.1, 0.1, 0), ortho_height=1.0), outputs=ALL)
    covered = out["triangle_id"] >= 0
    assert covered.all(), "the 1.5 x 1 view lies inside the 2 x 2 quad"
    np.testing.assert_allclose(out["depth"], 2.0, rtol=1e-6)


def test_a_bad_view_height_is_refused():
    with pytest.raises(ValueError, match="ortho_height"):
        facet.Camera(eye=(0, 0, 2), target=(0, 0, 0), ortho_height=0)


@pytest.mark.parametrize("aa", [1, 8])
def test_aa_gives_the_bytes_of_facet_render_aa(app, spot_path, spot, tmp_path, aa):
    expected = render_cli(app, spot_path, tmp_path / "cli.png", "--eye", "2,1,2", "--target", "0,0.1,0",
                          "--aa", str(aa))
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    color = r.render(facet.Camera(eye=(2, 1, 2), target=(0, 0.1, 0)), aa=aa)["color"]
    facet.write_png(str(tmp_path / "py.png"), color)
    assert (tmp_path / "py.png").read_bytes() == expected


@pytest.mark.parametrize("aa", [0, 2, 16])
def test_aa_other_than_one_four_or_eight_is_refused(spot, aa):
    r = facet.Renderer(W, H, "cpu")
    r.set_mesh(spot)
    with pytest.raises(ValueError, match="aa"):
        r.render(facet.Camera(eye=(2, 1, 2), target=(0, 0.1, 0)), aa=aa)
