"""Hostile PLY cases, ASCII and binary: headers that lie, bodies that say more or less than
their header, lists whose count type is too small, NaN values, floods and echoes.
Expectations are those of issues #46 and #52, whatever facet does today."""
import struct

from corpus_lib import LONG_VALUE, FACE_LIST, VERTEX_XYZ, Case, floats, ply_header, said
from cases_obj import NAN, NOT_READ, render

EXTRA = ("extra", "beyond", "more", "trailing", "after", "left over", "leftover", "declare", "remain",
         "ignored")
AGAIN = ("second", "twice", "duplicat", "more than one", "again", "another", "repeat")
BIN = "binary_little_endian"
ASCII_TRIANGLE = "0 0 0\n1 0 0\n0 1 0\n"


def bin_tri_verts():
    return floats([0, 0, 0, 1, 0, 0, 0, 1, 0])


def bin_face(indices, count_fmt="B", count=None):
    n = len(indices) if count is None else count
    return struct.pack("<" + count_fmt, n) + struct.pack("<%di" % len(indices), *indices)


def ascii_ply(vertices, faces, rows, props=VERTEX_XYZ, face_props=FACE_LIST):
    return ply_header("ascii", [("vertex", vertices, props), ("face", faces, face_props)]) + rows.encode()


def header_cases(root):
    cases = []
    c = Case(root, "ply_binary_no_end_header", ["misleading-message"], ["ply-binary"],
             "a header that never ends, then binary data: 'no end_header', not a cut at the first NUL")
    head = ply_header(BIN, [("vertex", 3, VERTEX_XYZ), ("face", 1, FACE_LIST)]).replace(b"end_header\n", b"")
    m = c.file("model.ply", head + bin_tri_verts() + bin_face([0, 1, 2]), "ply")
    cases.append(c.expect(render(m), 1, said("model.ply", ("end_header",))))

    c = Case(root, "ply_ascii_no_end_header", ["misleading-message"], ["ply-ascii"],
             "an ASCII header that never ends: the message names the missing end_header")
    head = ascii_ply(3, 1, ASCII_TRIANGLE + "3 0 1 2\n").replace(b"end_header\n", b"")
    cases.append(c.expect(render(c.file("model.ply", head, "ply")), 1, said("model.ply", ("end_header",))))

    c = Case(root, "ply_comment_long_unterminated", ["unbounded-read", "misleading-message"],
             ["ply-ascii"], "a 128 KiB comment with no line end and no end_header: refused, echo cut")
    m = c.file("model.ply", b"ply\nformat ascii 1.0\ncomment " + b"x" * LONG_VALUE, "ply")
    cases.append(c.expect(render(m), 1, said("model.ply")))

    c = Case(root, "ply_duplicate_property", ["silent-change"], ["ply-ascii"],
             "x declared twice: the second silently wins today; refuse or warn naming it")
    m = c.file("model.ply", ascii_ply(3, 1, "0 0 0 5\n1 0 0 5\n0 1 0 5\n3 0 1 2\n",
                                      props=VERTEX_XYZ + ["property float x"]), "ply")
    cases.append(c.expect(render(m), [0, 1], said("model.ply", AGAIN)))

    c = Case(root, "ply_second_vertex_element", ["silent-change"], ["ply-binary"],
             "two vertex elements: the second is ignored without a word today")
    head = ply_header(BIN, [("vertex", 3, VERTEX_XYZ), ("vertex", 3, VERTEX_XYZ), ("face", 1, FACE_LIST)])
    m = c.file("model.ply", head + bin_tri_verts() * 2 + bin_face([0, 1, 2]), "ply")
    cases.append(c.expect(render(m), [0, 1], said("model.ply", AGAIN)))

    c = Case(root, "ply_keyword_with_controls", ["flood-control", "misleading-message"], ["ply-ascii"],
             "an unknown header keyword carrying an OSC escape and a bell: quoted escaped")
    body = ascii_ply(3, 1, ASCII_TRIANGLE + "3 0 1 2\n").replace(b"element face",
                                                                 b"elem\x1b]0;owned\x07ent face")
    cases.append(c.expect(render(c.file("model.ply", body, "ply")), 1, said("model.ply")))

    c = Case(root, "ply_long_keyword", ["misleading-message"], ["ply-ascii"],
             "a header line of 128 KiB: refused with its line, quoting a few hundred bytes at most")
    body = ascii_ply(3, 1, ASCII_TRIANGLE + "3 0 1 2\n").replace(b"element face", b"Q" * LONG_VALUE)
    cases.append(c.expect(render(c.file("model.ply", body, "ply")), 1, said("model.ply")))

    c = Case(root, "ply_negative_element_count", ["misleading-message"], ["ply-ascii"],
             "element vertex -3: refused naming the count")
    m = c.file("model.ply", ascii_ply(-3, 1, ASCII_TRIANGLE + "3 0 1 2\n"), "ply")
    cases.append(c.expect(render(m), 1, said("model.ply")))

    c = Case(root, "ply_float_list_count", ["misleading-message"], ["ply-ascii"],
             "a list whose count type is float: refused naming the property")
    m = c.file("model.ply", ascii_ply(3, 1, ASCII_TRIANGLE + "3 0 1 2\n",
                                      face_props=["property list float int vertex_indices"]), "ply")
    cases.append(c.expect(render(m), 1, said("model.ply", ("vertex_indices", "float", "count", "list"))))

    c = Case(root, "ply_is_fifo", ["unbounded-read"], ["ply-ascii"],
             "a .ply that is a FIFO with no writer: refused, no hang")
    cases.append(c.expect(render(c.fifo("model.ply")), 1, said("model.ply", NOT_READ)))
    return cases


def body_cases(root):
    cases = []
    c = Case(root, "ply_ascii_faces_beyond_count", ["silent-change"], ["ply-ascii"],
             "three faces under a header that declares one: the extra two are dropped silently today")
    rows = "0 0 0\n1 0 0\n0 1 0\n1 1 0\n3 0 1 2\n3 1 3 2\n3 0 3 2\n"
    m = c.file("model.ply", ascii_ply(4, 1, rows), "ply")
    cases.append(c.expect(render(m), [0, 1], said("model.ply", EXTRA)))

    c = Case(root, "ply_binary_faces_beyond_count", ["silent-change"], ["ply-binary"],
             "binary rows past the declared face count: warned or refused, not dropped silently")
    head = ply_header(BIN, [("vertex", 4, VERTEX_XYZ), ("face", 1, FACE_LIST)])
    body = bin_tri_verts() + floats([1, 1, 0]) + bin_face([0, 1, 2]) + bin_face([1, 3, 2]) * 2
    cases.append(c.expect(render(c.file("model.ply", head + body, "ply")), [0, 1], said("model.ply", EXTRA)))

    c = Case(root, "ply_ascii_list_count_too_big_for_uchar", ["silent-change"], ["ply-ascii"],
             "a 300-corner face under a uchar count: 300 does not fit; refused, not wrapped to 44")
    n = 300
    verts = "".join("%d %d 0\n" % (i % 2, i) for i in range(n))
    m = c.file("model.ply", ascii_ply(n, 1, verts + "%d %s\n" % (n, " ".join(map(str, range(n))))), "ply")
    cases.append(c.expect(render(m), 1, said("model.ply", ("uchar", "range", "fit", "too", "255", "300"))))

    c = Case(root, "ply_binary_list_count_wrapped", ["silent-change"], ["ply-binary"],
             "a 256-corner face whose uchar count wrapped to 0 (as a careless writer makes it): the "
             "rest of the body is left over, and that must be said")
    n = 256
    head = ply_header(BIN, [("vertex", n, VERTEX_XYZ), ("face", 2, FACE_LIST)])
    verts = floats([v for i in range(n) for v in (i % 2, i, 0)])
    body = verts + bin_face([0, 1, 2]) + bin_face(list(range(n)), count=0)
    m = c.file("model.ply", head + body, "ply")
    cases.append(c.expect(render(m), [0, 1], said("model.ply", EXTRA + ("count",))))

    for kind in ("ascii", "binary"):
        c = Case(root, "ply_%s_4g_vertices_declared" % kind, ["memory"], ["ply-" + kind],
                 "a header declaring 4e9 vertices over a body of three: refused before allocating")
        if kind == "ascii":
            data = ascii_ply(4000000000, 1, ASCII_TRIANGLE + "3 0 1 2\n")
        else:
            data = ply_header(BIN, [("vertex", 4000000000, VERTEX_XYZ), ("face", 1, FACE_LIST)])
            data += bin_tri_verts() + bin_face([0, 1, 2])
        m = c.file("model.ply", data, "ply")
        cases.append(c.expect(render(m), 1, said("model.ply")))

    c = Case(root, "ply_binary_list_count_4g", ["memory"], ["ply-binary"],
             "one face whose uint list count is 0xFFFFFFFF: refused as truncated, not reserved")
    head = ply_header(BIN, [("vertex", 3, VERTEX_XYZ), ("face", 1, ["property list uint int vertex_indices"])])
    m = c.file("model.ply", head + bin_tri_verts() + struct.pack("<I", 0xFFFFFFFF) + b"\0" * 12, "ply")
    cases.append(c.expect(render(m), 1, said("model.ply")))

    c = Case(root, "ply_ascii_list_count_4g", ["memory"], ["ply-ascii"],
             "an ASCII face list of 4e9 corners followed by three: refused, not reserved")
    m = c.file("model.ply", ascii_ply(3, 1, ASCII_TRIANGLE + "4000000000 0 1 2\n",
                                      face_props=["property list uint int vertex_indices"]), "ply")
    cases.append(c.expect(render(m), 1, said("model.ply")))

    return cases


def body_value_cases(root):
    """Values in the body: indices, truncation, NaN, floods."""
    cases = []
    c = Case(root, "ply_binary_index_out_of_range", ["missing-reference"], ["ply-binary"],
             "a face naming vertex 99 of 3: refused with the face and the index")
    head = ply_header(BIN, [("vertex", 3, VERTEX_XYZ), ("face", 1, FACE_LIST)])
    m = c.file("model.ply", head + bin_tri_verts() + bin_face([0, 1, 99]), "ply")
    cases.append(c.expect(render(m), 1, said("model.ply", ("99",))))

    c = Case(root, "ply_binary_truncated_row", ["false-success"], ["ply-binary"],
             "a body that stops inside a vertex: refused as truncated, never half a model")
    head = ply_header(BIN, [("vertex", 3, VERTEX_XYZ), ("face", 1, FACE_LIST)])
    m = c.file("model.ply", head + bin_tri_verts()[:30], "ply")
    cases.append(c.expect(render(m), 1, said("model.ply", ("truncat", "end", "short"))))

    c = Case(root, "ply_binary_nan_positions", ["nan"], ["ply-binary"],
             "one of two triangles on a NaN vertex: dropped with a warning")
    head = ply_header(BIN, [("vertex", 4, VERTEX_XYZ), ("face", 2, FACE_LIST)])
    body = bin_tri_verts() + floats([float("nan"), 0, 0]) + bin_face([0, 1, 2]) + bin_face([0, 1, 3])
    m = c.file("model.ply", head + body, "ply")
    cases.append(c.expect(render(m), 0, said("model.ply", NAN), outputs=["out.png"]))

    c = Case(root, "ply_ascii_nan_normals", ["nan"], ["ply-ascii"],
             "NaN normals are replaced by computed ones, with a warning naming the file")
    props = VERTEX_XYZ + ["property float nx", "property float ny", "property float nz"]
    rows = "0 0 0 nan 0 1\n1 0 0 0 0 1\n0 1 0 0 0 1\n3 0 1 2\n"
    m = c.file("model.ply", ascii_ply(3, 1, rows, props=props), "ply")
    cases.append(c.expect(render(m), 0, said("model.ply", NAN + ("normal",)), outputs=["out.png"]))

    c = Case(root, "ply_ascii_inf_text", ["nan"], ["ply-ascii"],
             "'inf' and '-nan' as ASCII values: refused as not numbers, or dropped with a warning")
    m = c.file("model.ply", ascii_ply(4, 2, ASCII_TRIANGLE + "inf -nan 0\n3 0 1 2\n3 0 1 3\n"), "ply")
    cases.append(c.expect(render(m), [0, 1], said("model.ply", NAN + ("number",))))

    c = Case(root, "ply_flood_short_faces", ["flood-control"], ["ply-ascii"],
             "30,000 two-corner faces: one warning with a count")
    m = c.file("model.ply", ascii_ply(3, 30001, ASCII_TRIANGLE + "3 0 1 2\n" + "2 0 1\n" * 30000), "ply")
    cases.append(c.expect(render(m), 0, said("model.ply"), outputs=["out.png"]))
    return cases


def all_cases(root):
    return header_cases(root) + body_cases(root) + body_value_cases(root)
