#!/usr/bin/env bash
# Per-kernel GPU time and counters of `facet bench` scenes under Nsight Compute, clocks left as
# found (--clock-control none). Usage, on a machine with a CUDA device:
#   bench/profile.sh FACET_BINARY OUT_DIR [SCENE...]
# Writes OUT_DIR/times-SCENE.csv (every kernel of 8 frames at 1080p and 4K: duration, registers,
# achieved occupancy, instructions) and, for each kernel named in $DETAIL (default: geometry
# warp_raster_kernel tile_raster_kernel resolve_kernel), OUT_DIR/detail-SCENE-SIZE-KERNEL.txt (stall reasons and
# memory of one frame).
set -u
facet=${1:?usage: bench/profile.sh FACET_BINARY OUT_DIR [SCENE...]}
out=${2:?usage: bench/profile.sh FACET_BINARY OUT_DIR [SCENE...]}
shift 2
scenes=${*:-sphere-2K sphere-200K sphere-2M sphere-20M dragon spot}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
mkdir -p "$out"
metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for s in $scenes; do
  "$ncu" --clock-control none --csv --metrics "$metrics" \
    "$facet" bench "$s" --frames 3 --no-gl --no-vertices >"$out/times-$s.csv" 2>"$out/times-$s.err"
  for size in 1920x1080 3840x2160; do
    for k in ${DETAIL-geometry warp_raster_kernel tile_raster_kernel resolve_kernel}; do
      "$ncu" --clock-control none -k "regex:$k" --launch-skip 5 --launch-count 1 \
        --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
        --section MemoryWorkloadAnalysis --section InstructionStats \
        "$facet" bench "$s" --sizes "$size" --frames 3 --no-gl --no-vertices \
        >"$out/detail-$s-$size-$k.txt" 2>&1
    done
  done
done
