#!/usr/bin/env bash
# An interactive `facet view --backend cpu` window under its own Xvfb, in a fresh
# $XDG_CONFIG_HOME, found by its title with xwininfo (polled for up to 30 s). Checks:
#   title: the title names the model, the backend and the frame size.
#   remembers_window: stopped with SIGINT (as Ctrl+C), the viewer saves the window size in
#     viewer.json and the panel layout in imgui.ini, both in the config directory and not in the
#     working directory; the next run opens the window at the remembered size.
# usage: window_session_test.sh FACET MODEL OUT_DIR CHECK
set -euo pipefail
if [ "$1" != inner ]; then
  # A random first display number: xvfb-run -a alone starts at :99 in every process, and two
  # runs starting at once (parallel ctest, several checkouts on one host) race for it. A run that
  # still lost the race (its viewer could not open the display: exit 75) tries another number.
  for attempt in 1 2 3; do
    rc=0
    xvfb-run -a -n $((100 + RANDOM % 800)) -s "-screen 0 1280x800x24" "$0" inner "$@" || rc=$?
    [ "$rc" = 75 ] || exit "$rc"
    echo "display taken by another X server (attempt $attempt); trying another"
  done
  exit 1
fi
facet=$2 model=$3 out=$4 check=$5
rm -rf "$out"
mkdir -p "$out"
export XDG_CONFIG_HOME=$out/config
cd "$out"

wait_for_window() {  # wait_for_window TITLE PID
  for _ in $(seq 300); do
    xwininfo -root -tree | grep -qF "\"$1\"" && return 0
    if ! kill -0 "$2" 2>/dev/null; then
      grep -q "Failed to open display" "$out"/*.log && exit 75  # the Xvfb was not ours
      echo "FAIL: the viewer exited"; cat "$out"/*.log; exit 1
    fi
    sleep 0.1
  done
  echo "FAIL: no window titled \"$1\""
  xwininfo -root -tree | grep -i facet || true
  kill "$2"
  exit 1
}

name=$(basename "$model")
"$facet" view "$model" --backend cpu --size 320x240 > "$out/first.log" 2>&1 &
viewer=$!
wait_for_window "$name - facet (cpu, 320x240)" "$viewer"
case "$check" in
  title)
    kill "$viewer"
    ;;
  remembers_window)
    kill -INT "$viewer"
    wait "$viewer"
    config=$XDG_CONFIG_HOME/facet
    grep -q '"width": 320' "$config/viewer.json" || { echo "FAIL: no window size saved"; cat "$config/viewer.json"; exit 1; }
    [ -s "$config/imgui.ini" ] || { echo "FAIL: no imgui.ini in $config"; exit 1; }
    [ ! -e "$out/imgui.ini" ] || { echo "FAIL: imgui.ini written in the working directory"; exit 1; }
    # Resized by hand to 400x300 in the file: the next run (no --size) opens at that size.
    sed -i 's/"width": 320/"width": 400/; s/"height": 240/"height": 300/' "$config/viewer.json"
    "$facet" view "$model" --backend cpu > "$out/second.log" 2>&1 &
    viewer=$!
    wait_for_window "$name - facet (cpu, 400x300)" "$viewer"
    kill "$viewer"
    ;;
  *) echo "unknown check $check"; exit 2 ;;
esac
echo "PASS: $check"
