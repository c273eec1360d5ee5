#!/usr/bin/env bash
# Issue 5's long run of the viewer: 10,000 frames offscreen with the overlay on, the camera
# orbiting (0.72 deg/frame: every 500 frames is one full turn, so the first and last 500 frames
# see the same views) and the model reloaded every 500 frames. Passes when host memory grows by
# at most 16 MiB (allocator noise; a leak of one scene per reload would be 20 x 5.5 MiB), device
# memory (CUDA builds) by at most 2 MiB, and the median frame time of the last 500 frames is at
# most 1.5 x that of the first 500 plus 1 ms (the machine may be shared). Memory is measured from
# after the first reload (frame 600): that reload grows the overlay's GL buffers, once.
# usage: long_run.sh FACET MODEL OUT_DIR   (FACET_TEST_BACKEND: auto | cpu | cuda, default auto)
set -euo pipefail
facet=$1 model=$2 out=$3
mkdir -p "$out"
"$facet" view "$model" --offscreen --size 320x240 --frames 10000 --orbit 0.72 --reload-every 500 \
  --backend "${FACET_TEST_BACKEND:-auto}" | tee "$out/long_run.log"

python3 - "$out/long_run.log" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
ok = True
m = re.search(r"median ms first \d+ ([\d.]+), last \d+ ([\d.]+); (\d+) models installed", log)
first, last, models = float(m[1]), float(m[2]), int(m[3])
print(f"frame time median first {first} ms, last {last} ms; {models} models installed")
if models != 20: print("FAIL: expected 20 models installed (1 + 19 reloads)"); ok = False
if last > 1.5 * first + 1.0: print("FAIL: frame time grew"); ok = False
h = re.search(r"host memory ([\d.]+) MiB after \d+ warm-up frames, ([\d.]+) MiB at the end", log)
if float(h[2]) - float(h[1]) > 16: print(f"FAIL: host memory grew {float(h[2]) - float(h[1]):.1f} MiB"); ok = False
d = re.search(r"device memory ([\d.]+) MiB after \d+ warm-up frames, ([\d.]+) MiB at the end", log)
if d and float(d[2]) - float(d[1]) > 2: print(f"FAIL: device memory grew {float(d[2]) - float(d[1]):.1f} MiB"); ok = False
sys.exit(0 if ok else 1)
PY
