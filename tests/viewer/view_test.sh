#!/usr/bin/env bash
# A scripted `facet view` run checked two ways (one per CTest test):
#   matches_render: 120 frames orbiting 1.5 deg/frame, overlay off, the last frame saved; then
#     `facet render` draws the camera the viewer printed at the end. The two must agree: the
#     present pass shows the renderer's pixels unchanged (tolerance: channel difference 1 on at most
#     0.1 % of the pixels, for a driver that filters at texel centres less than exactly).
#   draws_overlay: the same run with the overlay on must differ from it off (at least 5 % of a
#     320x240 frame: the statistics window alone covers more).
# MODE window runs under its own xvfb-run (a real GLFW window on Mesa), or on the running $DISPLAY
# when FACET_TEST_USE_DISPLAY=1 or xvfb-run is missing (GPU hosts: gpu-host/enter.sh starts one);
# offscreen uses --offscreen (EGL, no X).
# FACET_TEST_BACKEND (default auto) picks the backend for both programs; FACET_EXPECT_INTEROP=1
# (GPU hosts) also requires the viewer to report the CUDA-GL interop path.
# usage: view_test.sh FACET PNG_DIFF MODEL OUT_DIR window|offscreen matches_render|draws_overlay
set -euo pipefail
facet=$1 png_diff=$2 model=$3 out=$4 mode=$5 check=$6
backend=${FACET_TEST_BACKEND:-auto}
size=320x240
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.log
export XDG_CONFIG_HOME=$out/config  # never the user's remembered settings

run_view() {  # run_view PNG [extra viewer options...]
  local png=$1; shift
  local cmd=("$facet" view "$model" --size "$size" --frames 120 --orbit 1.5 --backend "$backend"
             --screenshot "$png" "$@")
  if [ "$mode" = window ] && { [ "${FACET_TEST_USE_DISPLAY:-0}" = 1 ] || ! command -v xvfb-run >/dev/null; }; then
    [ -n "${DISPLAY:-}" ] || { echo "FAIL: no xvfb-run and no DISPLAY for the window test"; exit 1; }
    "${cmd[@]}"  # the X server already running (a GPU host's, from gpu-host/enter.sh)
  elif [ "$mode" = window ]; then
    # A random first display number: plain -a starts every run at :99, and runs started at once race.
    xvfb-run -a -n $((100 + RANDOM % 800)) -s "-screen 0 1280x800x24" "${cmd[@]}"
  else
    "${cmd[@]}" --offscreen
  fi
}

run_view "$out/plain.png" --no-overlay | tee "$out/plain.log"
if [ "${FACET_EXPECT_INTEROP:-0}" = 1 ] && ! grep -q "present path: CUDA-GL interop (kernels" "$out/plain.log"; then
  echo "FAIL: the viewer did not use CUDA-GL interop"
  exit 1
fi

case "$check" in
  matches_render)
    camera=$(sed -n 's/^facet view: final camera: //p' "$out/plain.log")
    [ -n "$camera" ] || { echo "FAIL: the viewer printed no final camera"; exit 1; }
    # shellcheck disable=SC2086  # the camera is a list of options
    "$facet" render "$model" -o "$out/render.png" --size "$size" --backend "$backend" $camera
    "$png_diff" same "$out/plain.png" "$out/render.png" 1 0.001 "$out/diff.png"
    ;;
  draws_overlay)
    run_view "$out/overlay.png" | tee "$out/overlay.log"
    "$png_diff" differ "$out/overlay.png" "$out/plain.png" 0.05
    ;;
  *) echo "unknown check $check"; exit 2 ;;
esac
