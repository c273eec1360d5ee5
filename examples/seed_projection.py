#!/usr/bin/env python3
"""The seed's projection loop in NumPy and in facet, side by side, with timings.

    PYTHONPATH=build/python python3 examples/seed_projection.py [MODEL.obj] [--points N] [--frames F]

The seed projects a model's vertices for every frame of a turning camera with
    v = (points - shift) @ R.T;  xy = v[:, :2] * focus / abs(v[:, 2:3]) + center
abs(z) mirrors what is behind the camera into view. facet.project does the same math (view
space looks down -Z, image y down) and flags those points instead. With PyTorch or CuPy on a
CUDA machine the points stay on the GPU and so do the results.
"""
import argparse
import time

import numpy as np

import facet


def look_at_rotation(eye, target):
    """Rows: camera right, up, backward (view space looks down -Z)."""
    forward = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(forward, [0.0, 1.0, 0.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    return np.stack([right, up, -forward]).astype(np.float32)


def seed_numpy(points, R, shift, focus, center):
    v = (points - shift) @ R.T
    return v[:, :2] * focus / np.abs(v[:, 2:3]) + center


def timed(fn, frames):
    fn(0)  # warm-up
    t0 = time.perf_counter()
    for f in range(frames):
        fn(f)
    return (time.perf_counter() - t0) / frames


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", help="OBJ whose vertices to project (default: a random cloud)")
    ap.add_argument("--points", type=int, default=2_000_000, help="cloud size without a model")
    ap.add_argument("--frames", type=int, default=10)
    args = ap.parse_args()
    if args.model:
        points = facet.load(args.model).positions
    else:
        points = np.random.default_rng(0).standard_normal((args.points, 3)).astype(np.float32)
    center_of_mass = points.mean(0)
    spread = float(np.linalg.norm(points - center_of_mass, axis=1).mean())
    width, height, focus = 1920, 1080, 1000.0
    center = np.array([width / 2, height / 2], np.float32)

    def camera(frame):  # a turntable whose eye sits inside the cloud's sphere: some points behind
        a = 2 * np.pi * frame / max(args.frames, 1)
        eye = center_of_mass + 1.5 * spread * np.array([np.sin(a), 0.2, np.cos(a)], np.float32)
        return look_at_rotation(eye, center_of_mass), eye.astype(np.float32)

    R, eye = camera(0)
    xy_seed = seed_numpy(points, R, eye, focus, center)
    xy, depth, valid = facet.project(points, R, eye, focus, center=center)
    print(f"{len(points):,} points; frame 0: {np.count_nonzero(~valid):,} behind the camera, which the "
          f"seed mirrors into view ({np.count_nonzero(~valid & (np.abs(xy_seed - center) < center).all(1)):,} "
          "of them land inside the frame)")
    rows = [("NumPy, the seed's formula (mirrors)", timed(lambda f: seed_numpy(points, *camera(f), focus, center), args.frames)),
            ("facet.project, NumPy in and out", timed(lambda f: facet.project(points, *camera(f), focus, center=center), args.frames))]
    try:
        import torch
        if torch.cuda.is_available() and facet.cuda_available():
            dev = torch.from_numpy(points).cuda()

            def on_device(f):
                facet.project(dev, *camera(f), focus, center=center)
                torch.cuda.synchronize()
            rows.append(("facet.project, PyTorch CUDA tensors", timed(on_device, args.frames)))
    except ImportError:
        pass
    print(f"\n| {'per frame':38} | ms | G points/s |\n|---|---|---|")
    for name, s in rows:
        print(f"| {name:38} | {s * 1e3:.2f} | {len(points) / s / 1e9:.3f} |")


if __name__ == "__main__":
    main()
