#!/usr/bin/env python3
"""Writes facet's hostile input corpus (issues #46 "Tests that can fail" and #52) into a folder.

Why: a suite of inputs facet's authors did not write to pass, generated rather than committed
(FIFOs, device links and sparse "gigabyte" files cannot live in git), covering every class of
harm the two issues name (crash, memory explosion, unbounded read, silent change, false success,
misleading message, output naming an input, NaN, references to nothing, floods and control
characters) in every format and entry point (OBJ/MTL/textures, PLY, STL, glTF/GLB, the defaults
file, the cameras file, camera options, outputs, the scene cache).

    python3 tests/hostile/make_corpus.py DIR [--list]

DIR must not exist or be empty. Each case is a folder DIR/NAME/ holding its inputs;
DIR/manifest.json lists, per case, facet's arguments (placeholders {case}, {out}, {env}), the
exit codes allowed, regexes stderr must and must not match, the files it may leave, and the
bytes of input it wrote (for the peak-memory bound). run_corpus.py runs and judges them.
Everything written takes a few MB of disk; "huge" files are holes.

Fuzz seeds: manifest.json's "seeds" lists model files (path relative to DIR, and format: obj,
ply, stl, gltf with embedded buffers, glb) that stand alone, for scripts/fuzz to copy into its
seed corpus (an STL behind the harness's "#--stl--" line; see tests/fuzz/fuzz_loader.cpp).
Standard library only (Debian 12's python3).
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import cases_gltf  # noqa: E402
import cases_obj  # noqa: E402
import cases_outputs  # noqa: E402
import cases_ply  # noqa: E402
import cases_settings  # noqa: E402
import cases_stl  # noqa: E402
from corpus_lib import CLASSES, FORMATS  # noqa: E402

MODULES = (cases_obj, cases_ply, cases_stl, cases_gltf, cases_settings, cases_outputs)
MANIFEST_VERSION = 1


def make(root):
    """Writes every case under root; returns the manifest (also written as manifest.json)."""
    root = os.path.abspath(root)
    os.makedirs(root, exist_ok=True)
    if os.listdir(root):
        raise SystemExit("make_corpus: %s is not empty" % root)
    cases = [entry for module in MODULES for entry in module.all_cases(root)]
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "two cases share a name"
    seeds = [{"path": c["name"] + "/" + s["path"], "format": s["format"]} for c in cases for s in c["seeds"]]
    manifest = {"version": MANIFEST_VERSION, "root": root, "cases": cases, "seeds": seeds}
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def summary(manifest):
    """Counts of cases per class and per format, as lines."""
    by_class = collections.Counter(k for c in manifest["cases"] for k in c["classes"])
    by_format = collections.Counter(k for c in manifest["cases"] for k in c["formats"])
    lines = ["%d cases, %d fuzz seeds" % (len(manifest["cases"]), len(manifest["seeds"]))]
    lines.append("by class:  " + ", ".join("%s %d" % (k, by_class[k]) for k in CLASSES))
    lines.append("by format: " + ", ".join("%s %d" % (k, by_format[k]) for k in FORMATS))
    return lines


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    manifest = make(argv[1])
    print("\n".join(summary(manifest)))
    if "--list" in argv[2:]:
        for c in manifest["cases"]:
            print("%-44s exit %-6s %s" % (c["name"], ",".join(map(str, c["exit"])), c["why"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
