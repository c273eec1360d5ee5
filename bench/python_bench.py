#!/usr/bin/env python3
"""facet's Python module against PyTorch, CuPy and NumPy, on one CUDA machine, in one run.

    PYTHONPATH=build/python python3 bench/python_bench.py [--points 100000000] [--assets DIR]

Prints a markdown table:
- facet.project on N device-resident points (PyTorch CUDA tensors, out= reused): GB/s of
  memory traffic (12 bytes read + 13 written a point) and its share of a device-to-device copy
  moving the same bytes, measured in the same run; beside the seed's formula
  ((p - shift) @ R.T, xy * focus / |z| + center) in PyTorch and CuPy on the device and NumPy on
  the host.
- facet.project from NumPy host arrays (every core) beside a plain host -> device -> host copy of
  the same bytes (what any GPU library pays to take NumPy arrays and give NumPy arrays back).
- Renderer.render of the 871 K dragon at 1920x1080 in a Python loop: outputs left on the GPU
  (device="cuda", out= reused) and read back to NumPy; one sample a pixel (aa=1), as `facet bench`
  measures by default, so the two figures compare.
Wall-clock medians after warm-up, each GPU measurement closed by a device synchronisation.
"""
import argparse
import os
import statistics
import time

import numpy as np

import facet


def median_time(fn, repeats, sync=lambda: None):
    fn()
    sync()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


LOOP = 100  # renders a loop_time sample spans


def loop_time(fn, repeats, sync):
    """Median over `repeats` of the time of LOOP calls closed by one sync, per call: how a Python
    loop of renders runs when nothing waits for each frame."""
    fn()
    sync()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(LOOP):
            fn()
        sync()
        times.append((time.perf_counter() - t0) / LOOP)
    return statistics.median(times)


def camera(n_points):
    R = np.array([[0.8, 0.0, -0.6], [0.0, 1.0, 0.0], [0.6, 0.0, 0.8]], np.float32)
    return R, np.array([0.1, 0.2, 4.0], np.float32), 1000.0, np.array([960.0, 540.0], np.float32)


def projection_rows(n, repeats):
    import torch
    R, shift, focus, center = camera(n)
    sync = torch.cuda.synchronize
    rows = []
    host = np.random.default_rng(0).standard_normal((n, 3)).astype(np.float32)
    dev = torch.from_numpy(host).cuda()
    traffic = n * (12 + 13)  # bytes a point: 3 floats in; 2 + 1 floats and a flag out
    src = torch.empty(traffic // 2, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    t_copy = median_time(lambda: dst.copy_(src), repeats, sync)
    copy_bw = traffic / t_copy
    rows.append(("device-to-device copy of the same bytes", n, t_copy, copy_bw, 1.0))
    out = (torch.empty((n, 2), device="cuda"), torch.empty(n, device="cuda"), torch.empty(n, dtype=torch.uint8, device="cuda"))
    t = median_time(lambda: facet.project(dev, R, shift, focus, center=center, out=out), repeats, sync)
    rows.append(("facet.project, PyTorch tensors on the device", n, t, traffic / t, traffic / t / copy_bw))
    Rt, sh, ce = (torch.from_numpy(a).cuda() for a in (R, shift, center))

    def seed_torch():
        v = (dev - sh) @ Rt.T
        return v[:, :2] * focus / v[:, 2:3].abs() + ce
    t = median_time(seed_torch, repeats, sync)
    rows.append(("PyTorch, the seed's formula (no flag)", n, t, None, None))
    try:
        import cupy
        cdev, cR, csh, cce = (cupy.asarray(a) for a in (host, R, shift, center))

        def seed_cupy():
            v = (cdev - csh) @ cR.T
            return v[:, :2] * focus / cupy.abs(v[:, 2:3]) + cce
        t = median_time(seed_cupy, repeats, cupy.cuda.Device().synchronize)
        rows.append(("CuPy, the seed's formula (no flag)", n, t, None, None))
        del cdev
    except ImportError:
        rows.append(("CuPy: not installed", n, float("nan"), None, None))
    del dev, out, src, dst
    torch.cuda.empty_cache()

    def seed_numpy():
        v = (host - shift) @ R.T
        return v[:, :2] * focus / np.abs(v[:, 2:3]) + center
    t = median_time(seed_numpy, max(1, repeats // 10))
    rows.append(("NumPy, the seed's formula, host (no flag)", n, t, None, None))

    # From NumPy host arrays: facet's host path beside a host -> device -> host copy.
    t_roundtrip = median_time(lambda: (torch.from_numpy(host).cuda(), torch.empty(traffic - 12 * n, dtype=torch.uint8,
                                                                                  device="cuda").cpu()), max(1, repeats // 4), sync)
    rows.append(("host -> device -> host copy of the same bytes", n, t_roundtrip, traffic / t_roundtrip, None))
    hout = (np.empty((n, 2), np.float32), np.empty(n, np.float32), np.empty(n, bool))
    t = median_time(lambda: facet.project(host, R, shift, focus, center=center, out=hout), max(1, repeats // 4))
    rows.append((f"facet.project, NumPy in and out ({os.cpu_count()} cores; {t / t_roundtrip:.2f}x the copy)", n, t,
                 traffic / t, None))
    return rows


def render_rows(assets, repeats):
    import torch
    path = os.path.join(assets, "dragon", "dragon_vrip.obj")
    mesh = facet.load(path)
    W, H = 1920, 1080
    r = facet.Renderer(W, H, "cuda")
    r.set_mesh(mesh)
    cam = facet.Camera.framing(mesh, W, H)
    rows = []
    for outputs in (("color",), ("color", "depth", "triangle_id")):
        dev = r.render(cam, outputs=outputs, device="cuda", aa=1)
        t = median_time(lambda: r.render(cam, outputs=outputs, device="cuda", out=dev, aa=1), repeats, torch.cuda.synchronize)
        rows.append((f"dragon {mesh.triangle_count / 1e3:.0f} K, {W}x{H}, {'+'.join(outputs)} on the GPU", None, t, None, None))
        t = loop_time(lambda: r.render(cam, outputs=outputs, device="cuda", out=dev, aa=1), repeats, torch.cuda.synchronize)
        rows.append((f"the same, a Python loop of {LOOP} renders, one synchronisation (per render)", None, t, None, None))
        host = r.render(cam, outputs=outputs, aa=1)
        t = median_time(lambda: r.render(cam, outputs=outputs, out=host, aa=1), repeats)
        mb = sum(a.nbytes for a in host.values()) / 1e6
        rows.append((f"dragon, {'+'.join(outputs)} read back to NumPy ({mb:.1f} MB)", None, t, None, None))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=100_000_000)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--assets", default=os.environ.get("FACET_SHARED_ASSETS", "../shared/assets"))
    args = ap.parse_args()
    import torch
    print(f"device: {torch.cuda.get_device_name()}; facet built with CUDA: {facet.built_with_cuda}\n")
    rows = []
    for section, run in (("projection", lambda: projection_rows(args.points, args.repeats)),
                         ("rendering", lambda: render_rows(args.assets, args.repeats * 5))):
        try:
            rows += run()
        except Exception as e:  # one failing section still leaves the other's figures
            print(f"{section} failed: {type(e).__name__}: {e}")
    print("| what | points | ms | GB/s | of copy | G points/s |\n|---|---|---|---|---|---|")
    for name, n, t, bw, share in rows:
        print(f"| {name} | {'' if n is None else f'{n / 1e6:.0f} M'} | {t * 1e3:.3f} | "
              f"{'' if bw is None else f'{bw / 1e9:.0f}'} | {'' if share is None else f'{share * 100:.0f} %'} | "
              f"{'' if n is None else f'{n / t / 1e9:.2f}'} |")


if __name__ == "__main__":
    main()
