#!/usr/bin/env python3
"""A turntable of a model to PNGs, with NumPy only (facet.write_png, no PIL).

    PYTHONPATH=build/python python3 examples/render_views.py MODEL.obj OUT_DIR [--views 8] [--size 640x480]

Renders every view in one batched call (cameras as a list), then writes each colour frame as
OUT_DIR/view_NN.png and the depth of view 0 as OUT_DIR/depth_00.png (near = white).
"""
import argparse
import os

import numpy as np

import facet


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("out_dir")
    ap.add_argument("--views", type=int, default=8)
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    mesh = facet.load(args.model)
    framed = facet.Camera.framing(mesh, width, height)
    target = np.array(framed.target)
    offset = np.array(framed.eye) - target
    distance, lift = np.linalg.norm(offset[[0, 2]]), offset[1]
    cameras = []
    for i in range(args.views):
        a = 2 * np.pi * i / args.views
        eye = target + np.array([distance * np.sin(a), lift, distance * np.cos(a)])
        cameras.append(facet.Camera(eye=eye, target=target))
    r = facet.Renderer(width, height, args.backend)
    r.set_mesh(mesh)
    frames = r.render(cameras, outputs=("color", "depth"))
    os.makedirs(args.out_dir, exist_ok=True)
    for i, color in enumerate(frames["color"]):
        facet.write_png(os.path.join(args.out_dir, f"view_{i:02d}.png"), color)
    depth = frames["depth"][0]
    hit = np.isfinite(depth)
    near, far = depth[hit].min(), depth[hit].max()
    grey = np.zeros(depth.shape, np.uint8)
    grey[hit] = (255 * (far - depth[hit]) / max(far - near, 1e-12)).astype(np.uint8)
    facet.write_png(os.path.join(args.out_dir, "depth_00.png"), np.repeat(grey[..., None], 3, axis=2))
    print(f"{args.views} views of {mesh.triangle_count:,} triangles at {width}x{height} on {r.backend} -> {args.out_dir}")


if __name__ == "__main__":
    main()
