"""Hostile STL cases, ASCII and binary: binary files whose header starts with "solid", counts
that lie, NaN corners, floods and echoes. Expectations are those of issues #46 and #52."""
from corpus_lib import LONG_VALUE, TRIANGLE, Case, said, stl_binary
from cases_obj import NAN, NOT_READ, render
from cases_ply import EXTRA

NAN_TRI = [(float("nan"), 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)]


def ascii_stl(facets, name="part"):
    out = "solid %s\n" % name
    for corners in facets:
        out += " facet normal 0 0 1\n  outer loop\n"
        out += "".join("   vertex %s\n" % c for c in corners)
        out += "  endloop\n endfacet\n"
    return out + "endsolid %s\n" % name


GOOD = ["0 0 0", "1 0 0", "0 1 0"]


def binary_cases(root):
    cases = []
    c = Case(root, "stl_solid_header_binary_short", ["misleading-message"], ["stl-binary"],
             "a binary STL whose header says 'solid' and whose count is past its triangles: "
             "reported as truncated binary, not as broken ASCII")
    m = c.file("model.stl", stl_binary([TRIANGLE] * 5, header=b"solid exported by CAD", count=10), "stl")
    cases.append(c.expect(render(m), 1, said("model.stl", ("binary",))))

    c = Case(root, "stl_solid_header_binary_trailing", ["misleading-message"], ["stl-binary"],
             "a binary STL with a 'solid' header and 30 bytes after its triangles: read as binary")
    m = c.file("model.stl", stl_binary([TRIANGLE] * 2, header=b"solid x") + b"\x00" * 30, "stl")
    cases.append(c.expect(render(m), [0, 1], said("model.stl", ("binary",) + EXTRA)))

    c = Case(root, "stl_binary_count_4g", ["memory"], ["stl-binary"],
             "a count of 0xFFFFFFFF over one triangle: refused as truncated before allocating")
    m = c.file("model.stl", stl_binary([TRIANGLE], count=0xFFFFFFFF), "stl")
    cases.append(c.expect(render(m), 1, said("model.stl", ("truncat", "short", "count"))))

    c = Case(root, "stl_binary_sparse_tail", ["unbounded-read", "memory"], ["stl-binary"],
             "one triangle, then 2 GiB of hole: the tail is warned about, never read into memory")
    m = c.sparse("model.stl", 2 << 30, stl_binary([TRIANGLE]))
    cases.append(c.expect(render(m), [0, 1], said("model.stl", EXTRA)))

    c = Case(root, "stl_binary_nan_triangle", ["nan"], ["stl-binary"],
             "one of two triangles on a NaN corner: dropped with a warning")
    m = c.file("model.stl", stl_binary([TRIANGLE, NAN_TRI]), "stl")
    cases.append(c.expect(render(m), 0, said("model.stl", NAN), outputs=["out.png"]))

    c = Case(root, "stl_binary_all_nan", ["nan", "false-success"], ["stl-binary"],
             "every triangle on NaN: refused, not an empty picture")
    m = c.file("model.stl", stl_binary([NAN_TRI] * 3), "stl")
    cases.append(c.expect(render(m), 1, said("model.stl", NAN + ("triangle", "nothing"))))

    c = Case(root, "stl_is_dev_zero", ["unbounded-read"], ["stl-binary"],
             "an .stl linked to /dev/zero: refused, never read")
    cases.append(c.expect(render(c.link("model.stl", "/dev/zero")), 1, said("model.stl", NOT_READ)))

    c = Case(root, "stl_empty", ["false-success"], ["stl-binary"], "a 0-byte STL: refused as empty")
    cases.append(c.expect(render(c.file("model.stl", b"")), 1, said("model.stl", ("empty",))))
    return cases


def ascii_cases(root):
    cases = []
    c = Case(root, "stl_ascii_nan_text", ["nan"], ["stl-ascii"],
             "'vertex nan nan nan': refused as not a number, or dropped with a warning")
    m = c.file("model.stl", ascii_stl([GOOD, ["nan nan nan", "1 0 0", "0 1 0"]]), "stl")
    cases.append(c.expect(render(m), [0, 1], said("model.stl", NAN + ("number",))))

    c = Case(root, "stl_ascii_flood_short_facets", ["flood-control"], ["stl-ascii"],
             "5,000 facets of two corners: one warning with a count")
    m = c.file("model.stl", ascii_stl([GOOD] + [GOOD[:2]] * 5000), "stl")
    cases.append(c.expect(render(m), 0, said("model.stl"), outputs=["out.png"]))

    c = Case(root, "stl_ascii_token_with_controls", ["flood-control", "misleading-message"], ["stl-ascii"],
             "a broken vertex whose word carries an escape sequence: quoted escaped, with the line")
    m = c.file("model.stl", ascii_stl([["0 0 0", "1 0 \x1b[31mred\x1b[0m", "0 1 0"]]), "stl")
    cases.append(c.expect(render(m), 1, said("model.stl")))

    c = Case(root, "stl_ascii_long_token", ["misleading-message"], ["stl-ascii"],
             "a vertex word of 128 KiB: refused, quoting a few hundred bytes at most")
    m = c.file("model.stl", ascii_stl([["0 0 0", "1 0 " + "Z" * LONG_VALUE, "0 1 0"]]), "stl")
    cases.append(c.expect(render(m), 1, said("model.stl")))

    c = Case(root, "stl_ascii_no_facets", ["false-success"], ["stl-ascii"],
             "solid ... endsolid with nothing inside: refused, not an empty picture")
    cases.append(c.expect(render(c.file("model.stl", ascii_stl([]), "stl")), 1,
                          said("model.stl", ("facet", "triangle", "nothing", "empty"))))

    c = Case(root, "stl_ascii_unclosed_loops", ["crash"], ["stl-ascii"],
             "20,000 'outer loop' lines never closed: a grammar error at the second, in bounded time")
    m = c.file("model.stl", "solid x\n facet normal 0 0 1\n" + "  outer loop\n" * 20000, "stl")
    cases.append(c.expect(render(m), 1, said("model.stl")))
    return cases


def all_cases(root):
    return binary_cases(root) + ascii_cases(root)
