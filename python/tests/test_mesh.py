# facet.Mesh from arrays and facet.load: what they hold, and every refusal with its message.
import numpy as np
import pytest

import facet

POSITIONS = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
TRIANGLES = np.array([[0, 1, 2]], np.int32)


def test_a_mesh_from_arrays_holds_them():
    m = facet.Mesh(POSITIONS, TRIANGLES.astype(np.uint32), colors=np.array([1, 0, 0], np.float32))
    assert (m.vertex_count, m.triangle_count) == (3, 1)
    np.testing.assert_array_equal(m.positions, POSITIONS)
    np.testing.assert_array_equal(m.triangles, TRIANGLES)
    np.testing.assert_allclose(m.bounds["center"], [0.5, 0.5, 0.0])


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(positions=POSITIONS.astype(np.float64)), TypeError, "positions: expected float32"),
    (dict(positions=POSITIONS[:, :2].copy()), ValueError, "positions: expected shape (N, 3)"),
    (dict(positions=np.asfortranarray(np.zeros((3, 3), np.float32))), ValueError, "not C-contiguous"),
    (dict(triangles=TRIANGLES.astype(np.float32)), TypeError, "triangles: expected int32 or uint32"),
    (dict(triangles=np.array([[0, 1, 3]], np.int32)), ValueError, "index 3 (triangle 0) is out of range for 3 vertices"),
    (dict(triangles=np.array([[0, -1, 2]], np.int32)), ValueError, "index -1"),
    (dict(uvs=np.zeros((2, 2), np.float32)), ValueError, "uvs: expected shape (3, 2)"),
    (dict(normals=np.zeros((3, 3), np.float64)), TypeError, "normals: expected float32"),
    (dict(colors=np.zeros((2, 3), np.float32)), ValueError, "colors: expected shape (1, 3)"),
    (dict(texture=np.zeros((4, 4, 4), np.uint8)), ValueError, "texture: a texture needs uvs"),
    (dict(uvs=np.zeros((3, 2), np.float32), texture=np.zeros((4, 4, 3), np.uint8)), ValueError,
     "texture: expected shape (N, N, 4)"),
])
def test_bad_mesh_arrays_raise_with_a_clear_message(kwargs, error, words):
    args = dict(positions=POSITIONS, triangles=TRIANGLES)
    args.update(kwargs)
    with pytest.raises(error) as e:
        facet.Mesh(**args)
    assert words in str(e.value)


def test_loading_a_missing_file_names_it():
    with pytest.raises(facet.LoadError, match="/no/such/model.obj"):
        facet.load("/no/such/model.obj")


def test_load_error_is_a_runtime_error():
    assert issubclass(facet.LoadError, RuntimeError)


def test_a_loaded_model_has_its_triangles(spot_path):
    m = facet.load(str(spot_path))
    assert m.triangle_count == 5856
    assert m.bounds["closed"]


def test_a_material_library_outside_the_models_folder_is_read_only_when_allowed(tmp_path):
    (tmp_path / "outside.mtl").write_text("newmtl red\nKd 1 0 0\n")
    (tmp_path / "model").mkdir()
    obj = tmp_path / "model" / "m.obj"
    obj.write_text("mtllib ../outside.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n")
    kept_out = facet.load(str(obj))
    assert any("outside the model's folder" in w for w in kept_out.warnings)
    allowed = facet.load(str(obj), read_outside_folder=True)
    assert not any("outside" in w for w in allowed.warnings)


def test_write_png_refuses_a_float_image(tmp_path):
    with pytest.raises(TypeError, match="image: expected uint8"):
        facet.write_png(str(tmp_path / "x.png"), np.zeros((4, 4, 3), np.float32))


def test_write_png_to_an_unwritable_path_names_it():
    with pytest.raises(RuntimeError, match="/no/such/dir/x.png"):
        facet.write_png("/no/such/dir/x.png", np.zeros((4, 4, 3), np.uint8))


def shuffled_grid(n=40, seed=3):
    """A bumpy (n x n)-quad grid whose triangles are shuffled: the load renumbers it."""
    y, x = np.mgrid[0:n + 1, 0:n + 1].astype(np.float32) / n
    z = 0.05 * np.sin(7 * x) * np.cos(5 * y)
    positions = np.stack([x - 0.5, y - 0.5, z], -1).reshape(-1, 3).astype(np.float32)
    i = np.arange(n * (n + 1)).reshape(n, n + 1)[:, :n].ravel()
    faces = np.concatenate([np.stack([i, i + 1, i + n + 2], 1), np.stack([i, i + n + 2, i + n + 1], 1)])
    return positions, faces[np.random.default_rng(seed).permutation(len(faces))].astype(np.uint32)


def test_a_loaded_models_triangles_and_ids_keep_the_files_numbers(tmp_path):
    # facet holds a scan's triangles in the order of its meshlets; what it reports is the file's.
    positions, faces = shuffled_grid()
    path = tmp_path / "grid.obj"
    with open(path, "w") as f:
        f.writelines(f"v {p[0]:.9g} {p[1]:.9g} {p[2]:.9g}\n" for p in positions)
        f.writelines(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces)
    loaded = facet.load(str(path))
    # The loader numbers vertices by first use: the corners' positions are the file's.
    np.testing.assert_array_equal(loaded.positions[loaded.triangles], positions[faces])
    direct = facet.Mesh(positions, faces)
    # A mesh made from arrays is prepared as a load prepares a file, and reports the caller's order.
    np.testing.assert_array_equal(direct.triangles, faces)
    cam = facet.Camera(eye=(0.2, -0.3, 1.5), target=(0, 0, 0))
    ids = []
    for mesh in (loaded, direct):
        r = facet.Renderer(96, 64, "cpu")
        r.set_mesh(mesh)
        ids.append(r.render(cam, outputs=("triangle_id",), aa=1)["triangle_id"])
    assert (ids[1] >= 0).sum() > 2000
    np.testing.assert_array_equal(ids[0], ids[1])
