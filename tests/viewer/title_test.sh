#!/usr/bin/env bash
# The window title names the model, the backend and the frame size: a windowed `facet view --backend
# cpu` under its own Xvfb, its title read with xwininfo while it runs (polled for up to 30 s), then
# the viewer is stopped.
# usage: title_test.sh FACET MODEL OUT_DIR
set -euo pipefail
if [ "$1" != inner ]; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" inner "$@"
fi
facet=$2 model=$3 out=$4
mkdir -p "$out"
export XDG_CONFIG_HOME=$out/config
"$facet" view "$model" --backend cpu --size 320x240 --frames 100000 --no-vsync > "$out/view.log" 2>&1 &
viewer=$!
want="$(basename "$model") - facet (cpu, 320x240)"
for _ in $(seq 300); do
  if xwininfo -root -tree | grep -qF "\"$want\""; then
    kill "$viewer"
    echo "PASS: the title is \"$want\""
    exit 0
  fi
  kill -0 "$viewer" 2>/dev/null || { echo "FAIL: the viewer exited"; cat "$out/view.log"; exit 1; }
  sleep 0.1
done
kill "$viewer"
echo "FAIL: no window titled \"$want\""
xwininfo -root -tree | grep -i facet || true
exit 1
