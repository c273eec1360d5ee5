"""What every case writer of the hostile corpus shares: a case folder with its inputs, the
manifest entry that says how facet must treat them, and the bytes of the formats (PNG, glTF,
GLB, binary PLY and STL) built with the standard library alone.

It decides no expectation itself: the cases_*.py files do. make_corpus.py drives them.
"""
import base64
import json
import os
import re
import struct
import zlib

# The issues' own names for the kinds of harm (#46's six classes, #52's integrity classes).
CLASSES = ("crash", "memory", "unbounded-read", "silent-change", "false-success",
           "misleading-message", "output-names-input", "nan", "missing-reference", "flood-control")
# Every format and entry point a case can stress.
FORMATS = ("obj", "mtl", "texture", "ply-ascii", "ply-binary", "stl-ascii", "stl-binary", "gltf",
           "glb", "config", "cameras", "output", "cli", "cache")

# Warnings given a few times, then as a count (#52): more lines than this on
# stderr is a flood. facet's own lines (load summary, warnings, frame) fit many times over.
FLOOD_LINES = 20
# "No message echoes more than a few hundred bytes of the user's data" (#52): a stderr line
# longer than this echoes a value it should have cut.
ECHO_LINE_BYTES = 600
# "Given a few times, then as a count" (#52), as docs/formats.md words it: the first three, then
# one line with the count. More lines than this about one file's one kind of problem is a flood.
REPEATS = 4
# A raw escape, bell, backspace or carriage return on stderr or stdout: a name printed unescaped.
RAW_CONTROL = r"[\x00-\x08\x0b-\x1f\x7f]"
# The length of the long names and values the echo cases plant: over 200 times ECHO_LINE_BYTES, far
# past any quote a message may make, yet small enough to keep the corpus at a few MB.
LONG_VALUE = 128 << 10


def said(*parts):
    """A stderr regex: one line naming every part (each a literal, or a tuple of alternative
    regexes), in any order, any case. Loose on purpose: any reasonable wording passes."""
    looks = []
    for p in parts:
        alt = "|".join(p) if isinstance(p, tuple) else re.escape(p)
        looks.append("(?=.*(?:%s))" % alt)
    return "(?im)^" + "".join(looks) + ".*$"


class Case:
    """One hostile case: its folder under the corpus and its manifest entry."""

    def __init__(self, root, name, classes, formats, why):
        for c in classes:
            assert c in CLASSES, c
        for f in formats:
            assert f in FORMATS, f
        assert re.fullmatch(r"[a-z0-9_]+", name), name
        self.name = name
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.entry = {"name": name, "classes": list(classes), "formats": list(formats), "why": why,
                      "input_bytes": 0, "seeds": []}

    def path(self, rel):
        return os.path.join(self.dir, rel)

    def file(self, rel, data, seed=None):
        """Writes an input; `seed`: its format when the fuzz targets may start from it."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        full = self.path(rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        self.entry["input_bytes"] += len(data)
        if seed:
            self.entry["seeds"].append({"path": rel, "format": seed})
        return "{case}/" + rel

    def fifo(self, rel):
        os.mkfifo(self.path(rel))
        return "{case}/" + rel

    def sparse(self, rel, size, head=b"", counted=False):
        """A file of `size` bytes of which only `head` is written: a gigabyte costs no disk.
        Counted in input_bytes (the memory bound) only when `counted`: where a small file is
        expected, facet must refuse a big one without reading it."""
        with open(self.path(rel), "wb") as f:
            f.write(head)
            f.truncate(size)
        self.entry["input_bytes"] += size if counted else len(head)
        return "{case}/" + rel

    def link(self, rel, target):
        os.symlink(target, self.path(rel))
        return "{case}/" + rel

    def hardlink(self, rel, existing_rel):
        os.link(self.path(existing_rel), self.path(rel))
        return "{case}/" + rel

    def mkdir(self, rel):
        os.makedirs(self.path(rel), exist_ok=True)
        return "{case}/" + rel

    def expect(self, args, exit, stderr=None, stderr_not=(), stdout=None, outputs=(), optional=(),
               cwd="{out}", env=None, cache=False, setup=(), post=(), same=(), at_most=(),
               max_lines=FLOOD_LINES, max_line_bytes=ECHO_LINE_BYTES):
        """args: facet's arguments (placeholders {case}, {out}, {env}, {dir}); exit: the code, or
        a list of codes any of which is right; stderr: regexes that must all match; outputs: files
        (under {out}) that must exist afterwards, optional: files that may; anything else there is a
        partial or stray file.
        cache: run with the scene cache on. setup/post: steps before and after (see the runner).
        same: pairs of files that must be equal byte for byte; at_most: (regex, n) pairs, the
        regex matching at most n stderr lines (one problem reported once). A case that may exit 0
        writing {out}/out.png expects it then; on any other exit no output may be left."""
        exits = exit if isinstance(exit, list) else [exit]
        if not outputs and 0 in exits and "{out}/out.png" in args:
            outputs = ["out.png"]
        self.entry.update({
            "args": list(args), "exit": exits,
            "stderr": [stderr] if isinstance(stderr, str) else list(stderr or ()),
            "stderr_not": list(stderr_not) + [RAW_CONTROL], "stdout": stdout,
            "stdout_not": [RAW_CONTROL], "at_most": [list(p) for p in at_most],
            "outputs": list(outputs), "optional": list(optional), "cwd": cwd, "env": dict(env or {}), "cache": cache,
            "setup": list(setup), "post": list(post), "same": [list(p) for p in same],
            "max_lines": max_lines, "max_line_bytes": max_line_bytes})
        return self.entry


# ---- Bytes of the formats -------------------------------------------------------------------

def png(width, height, rows=None, colour_type=6, depth=8):
    """A PNG; rows: a function giving row y's raw bytes (default: zeros). Streamed through zlib
    so a large, highly compressible image never sits whole in memory here."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    row_bytes = width * channels * depth // 8
    z = zlib.compressobj(9)
    body = bytearray()
    zero = bytes(row_bytes)
    for y in range(height):
        body += z.compress(b"\x00" + (rows(y) if rows else zero))
    body += z.flush()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", bytes(body)) + chunk(b"IEND", b"")


def png_header_only(width, height):
    """A PNG that states a size and holds one tiny IDAT: a decoder must refuse it by its header."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
            + chunk(b"IEND", b""))


TRIANGLE = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)]


def floats(values):
    return struct.pack("<%df" % len(values), *values)


def gltf_triangle(positions=TRIANGLE, uri=None, extra=None, bin_name="geom.bin"):
    """(json dict, binary buffer) of one triangle primitive: POSITION only, not indexed. uri:
    None embeds the buffer as a data: URI, else names it (the caller writes `bin`)."""
    data = floats([c for p in positions for c in p])
    lo = [min(p[i] for p in positions) for i in range(3)]
    hi = [max(p[i] for p in positions) for i in range(3)]
    buf = {"byteLength": len(data)}
    buf["uri"] = uri if uri is not None else (
        "data:application/octet-stream;base64," + base64.b64encode(data).decode())
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": len(positions),
                       "type": "VEC3", "min": lo, "max": hi}],
        "bufferViews": [{"buffer": 0, "byteLength": len(data)}],
        "buffers": [buf]}
    if extra:
        doc.update(extra)
    return doc, data


def glb(doc, binary=b"", json_length=None, total_length=None):
    """A .glb container; doc: a dict, or JSON text as it should appear; json_length and
    total_length: lie about the sizes."""
    js = doc.encode() if isinstance(doc, str) else json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    binary += b"\x00" * (-len(binary) % 4)
    body = struct.pack("<I4s", json_length if json_length is not None else len(js), b"JSON") + js
    if binary:
        body += struct.pack("<I4s", len(binary), b"BIN\x00") + binary
    total = total_length if total_length is not None else 12 + len(body)
    return struct.pack("<4sII", b"glTF", 2, total) + body


def stl_binary(triangles, header=b"facet hostile corpus", count=None):
    out = bytearray(header.ljust(80, b" ")[:80])
    out += struct.pack("<I", len(triangles) if count is None else count)
    for tri in triangles:
        out += floats([0.0, 0.0, 1.0] + [c for p in tri for c in p]) + b"\x00\x00"
    return bytes(out)


def ply_header(fmt, elements, extra_lines=()):
    """elements: [(name, count, [property lines])]."""
    lines = ["ply", "format %s 1.0" % fmt, *extra_lines]
    for name, count, props in elements:
        lines.append("element %s %s" % (name, count))
        lines += props
    return ("\n".join(lines) + "\nend_header\n").encode()


VERTEX_XYZ = ["property float x", "property float y", "property float z"]
FACE_LIST = ["property list uchar int vertex_indices"]
OBJ_TRIANGLE = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
