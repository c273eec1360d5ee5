#!/usr/bin/env bash
# Scripted `facet view --offscreen` runs for what the viewer keeps between runs and writes out,
# each in a fresh $XDG_CONFIG_HOME (one CTest test per check):
#   remembers_recent: a run adds its model to Recent in viewer.json; `--recent 1` opens it again;
#     `--recent 5` with one entry fails saying so.
#   corrupt_config: a corrupt viewer.json is reported once, naming the file, and the run succeeds.
#   unwritable_config: a config directory that cannot be created is reported and the run succeeds.
#   draws_grid: --grid changes the frame (the ground grid around the model) against the same
#     run without it.
#   draws_ortho: --ortho fit orbiting for a few frames differs from the perspective run, and
#     `facet render` with the final camera the viewer printed (--ortho HEIGHT, a near plane that may
#     lie behind the eye) draws the same frame.
#   measures: --measure with two points prints their distance at the end of the run; three numbers
#     are a usage error (exit 2).
#   frame_sequence: --frames 4 --orbit 20 with a %03d template keeps all four frames, and they
#     differ (the camera turned between them).
# usage: session_test.sh FACET PNG_DIFF MODEL OUT_DIR CHECK
set -euo pipefail
facet=$1 png_diff=$2 model=$3 out=$4 check=$5
rm -rf "$out"
mkdir -p "$out"
export XDG_CONFIG_HOME=$out/config
view() { "$facet" view --offscreen --size 160x120 --backend "${FACET_TEST_BACKEND:-auto}" --no-overlay "$@"; }

case "$check" in
  remembers_recent)
    view "$model" --frames 2 > "$out/first.log"
    grep -qF "\"$(realpath "$model")\"" "$XDG_CONFIG_HOME/facet/viewer.json" ||
      { echo "FAIL: the model is not in Recent"; cat "$XDG_CONFIG_HOME/facet/viewer.json"; exit 1; }
    view --recent 1 --frames 2 > "$out/again.log"
    grep -q "final camera" "$out/again.log" || { echo "FAIL: --recent 1 did not open the model"; exit 1; }
    if view --recent 5 --frames 2 2> "$out/too_far.err"; then echo "FAIL: --recent 5 succeeded"; exit 1; fi
    grep -q "Recent list holds 1" "$out/too_far.err" || { echo "FAIL: no reason given"; cat "$out/too_far.err"; exit 1; }
    ;;
  corrupt_config)
    mkdir -p "$XDG_CONFIG_HOME/facet"
    echo '{"recent": [' > "$XDG_CONFIG_HOME/facet/viewer.json"
    view "$model" --frames 2 2> "$out/run.err"
    [ "$(grep -c "viewer.json: " "$out/run.err")" = 1 ] ||
      { echo "FAIL: the corrupt file was not reported exactly once"; cat "$out/run.err"; exit 1; }
    ;;
  unwritable_config)
    echo "a file, not a directory" > "$out/config"
    view "$model" --frames 2 2> "$out/run.err"
    [ "$(grep -c "config/facet" "$out/run.err")" = 1 ] ||
      { echo "FAIL: the unwritable directory was not reported exactly once"; cat "$out/run.err"; exit 1; }
    ;;
  frame_sequence)
    view "$model" --frames 4 --orbit 20 --screenshot-template "$out/f%03d.png" > "$out/run.log"
    for i in 000 001 002 003; do [ -s "$out/f$i.png" ] || { echo "FAIL: no frame $i"; exit 1; }; done
    "$png_diff" differ "$out/f000.png" "$out/f003.png" 0.01
    ;;
  draws_grid)
    view "$model" --frames 2 --screenshot "$out/plain.png" > /dev/null
    view "$model" --frames 2 --grid --screenshot "$out/grid.png" > /dev/null
    "$png_diff" differ "$out/grid.png" "$out/plain.png" 0.02
    ;;
  draws_ortho)
    view "$model" --frames 3 --orbit 20 --screenshot "$out/persp.png" > /dev/null
    view "$model" --frames 3 --orbit 20 --ortho fit --screenshot "$out/ortho.png" > "$out/ortho.log"
    "$png_diff" differ "$out/ortho.png" "$out/persp.png" 0.02
    camera=$(sed -n 's/^facet view: final camera: //p' "$out/ortho.log")
    case "$camera" in *--ortho*) ;; *) echo "FAIL: the final camera is not orthographic: $camera"; exit 1 ;; esac
    # shellcheck disable=SC2086  # the camera is a list of options
    "$facet" render "$model" -o "$out/render.png" --size 160x120 --backend "${FACET_TEST_BACKEND:-auto}" $camera
    "$png_diff" same "$out/ortho.png" "$out/render.png" 1 0.001 "$out/diff.png"
    ;;
  measures)
    view "$model" --frames 2 --measure 0,0,0,3,4,0 > "$out/measure.log"
    grep -q "^facet view: measured distance 5$" "$out/measure.log" || { echo "FAIL: no distance 5 in:"; cat "$out/measure.log"; exit 1; }
    set +e
    view "$model" --frames 1 --measure 0,0,0 > "$out/short.log" 2>&1
    rc=$?
    set -e
    [ "$rc" = 2 ] || { echo "FAIL: --measure with 3 numbers exited $rc, not 2 (usage)"; exit 1; }
    ;;
  *) echo "unknown check $check"; exit 2 ;;
esac
echo "PASS: $check"
