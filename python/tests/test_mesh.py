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


def test_write_png_refuses_a_float_image(tmp_path):
    with pytest.raises(TypeError, match="image: expected uint8"):
        facet.write_png(str(tmp_path / "x.png"), np.zeros((4, 4, 3), np.float32))


def test_write_png_to_an_unwritable_path_names_it():
    with pytest.raises(RuntimeError, match="/no/such/dir/x.png"):
        facet.write_png("/no/such/dir/x.png", np.zeros((4, 4, 3), np.uint8))
