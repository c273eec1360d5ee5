# facet.Camera's and facet.project's numbers go through the checks the command line uses
# (engine/render/camera_values.h): nan, infinities and numbers beyond single precision raise
# ValueError naming the argument, with the words `facet render` uses for the same value.
import math
import subprocess

import numpy as np
import pytest

import facet

EYE = dict(eye=(0, 0, 3), target=(0, 0, 0))
BAD_NUMBERS = [math.nan, math.inf, -math.inf, 1e39]


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize("name", ["fov_y", "focal_px", "near", "far", "ortho_height"])
def test_a_number_that_is_not_finite_is_refused_naming_the_argument(name, value):
    with pytest.raises(ValueError, match=f"^{name}: must be"):
        facet.Camera(**EYE, **{name: value})


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize("name", ["eye", "target", "up"])
def test_a_vector_that_is_not_finite_is_refused_naming_the_argument(name, value):
    args = dict(EYE, up=(0, 1, 0))
    args[name] = (1.0, value, 2.0)
    with pytest.raises(ValueError, match=f"^{name}: must be three finite numbers"):
        facet.Camera(**args)


def test_a_number_beyond_single_precision_is_said_to_be():
    with pytest.raises(ValueError, match="beyond single precision"):
        facet.Camera(**EYE, focal_px=1e39)


def test_a_zero_up_is_called_zero_and_an_up_along_the_view_parallel():
    with pytest.raises(ValueError, match="^up: is the zero vector") as e:
        facet.Camera(**EYE, up=(0, 0, 0))
    assert "parallel" not in str(e.value)
    with pytest.raises(ValueError, match="^up: 0,0,1 is parallel"):
        facet.Camera(**EYE, up=(0, 0, 1))


def test_far_alone_and_the_framing_field_of_view_are_checked_too(spot_path):
    with pytest.raises(ValueError, match="^far: must be a positive distance, got nan"):
        facet.Camera(**EYE, far=math.nan)
    mesh = facet.load(str(spot_path))
    with pytest.raises(ValueError, match="^fov_y: must be"):
        facet.Camera.framing(mesh, 32, 24, fov_y=math.nan)


# 0.01 to 179 degrees, both ends included: stated here, so that a range both sides got wrong fails.
@pytest.mark.parametrize("fov, accepted", [
    (0.005, False), (0.009, False), (0.01, True), (90, True), (179, True), (179.5, False), (180, False),
])
def test_the_field_of_view_range_is_the_command_lines(app, spot_path, tmp_path, fov, accepted):
    cli = subprocess.run([str(app), "render", str(spot_path), "-o", str(tmp_path / "a.png"), "--size", "16x12",
                          "--backend", "cpu", "--fov-y", str(fov)], capture_output=True)
    try:
        facet.Camera(**EYE, fov_y=fov)
        python = True
    except ValueError:
        python = False
    assert python == accepted
    assert (cli.returncode == 0) == accepted, cli.stderr


@pytest.mark.parametrize("kwargs, words", [
    (dict(focus=math.nan), "^focus: must be a positive number of pixels, got nan"),
    (dict(focus=1e39), "^focus: .*beyond single precision"),
    (dict(near=math.inf), "^near: must be a finite distance, got inf"),
    (dict(shift=(0, math.nan, 0)), "^shift: must be three finite numbers"),
    (dict(R=np.full((3, 3), math.nan)), r"^R: row 0 must be three finite numbers, got nan,nan,nan$"),
    (dict(R=[[1, 0, 0], [0, math.inf, 0], [0, 0, 1]]), r"^R: row 1 must be three finite numbers, got 0,inf,0$"),
    (dict(R=[[1, 0, 0], [0, 1, 0], [0, 0, 1e39]]),
     r"^R: row 2 must be three finite numbers, got 0,0,1e\+39, beyond single precision"),
    (dict(center=(math.nan, 0)), r"^center: must be two finite numbers, got nan,0$"),
    (dict(center=(0, math.inf)), r"^center: must be two finite numbers, got 0,inf$"),
    (dict(center=(-math.inf, 0)), r"^center: must be two finite numbers, got -inf,0$"),
    (dict(center=(1e39, 0)), r"^center: must be two finite numbers, got 1e\+39,0, beyond single precision"),
])
def test_project_refuses_numbers_that_are_not_finite(kwargs, words):
    args = dict(R=np.eye(3), shift=(0, 0, 0), focus=1.0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=words):
        facet.project(np.zeros((2, 3), np.float32), **args)


def test_from_seed_refuses_a_focal_length_that_is_not_finite():
    with pytest.raises(ValueError, match="^focus: must be"):
        facet.Camera.from_seed(np.eye(3), (0, 0, 3), math.nan)
