"""Hostile cases of the OBJ family: the model itself, its MTL libraries and its textures.
Each function writes one case folder and returns its manifest entry; expectations are what
issues #46 and #52 demand, whatever facet does today."""
from corpus_lib import LONG_VALUE, OBJ_TRIANGLE, REPEATS, Case, png, png_header_only, said

NAN = ("nan", "finite", "infinit")
NOT_READ = ("regular", "fifo", "pipe", "device", "director", "cannot", "not a file", "refus", "skip",
            "too large", "too big", "size", "at most", "limit")
OUTSIDE = ("outside", "folder", "director", "absolute", "refus", "not allowed", "above", r"\.\.")


def render(model, *more):
    return ["render", model, "-o", "{out}/out.png", *more]


def obj_with_mtl(mtllib, usemtl="m"):
    return "mtllib %s\nusemtl %s\n%s" % (mtllib, usemtl, OBJ_TRIANGLE)


def model_cases(root):
    cases = []

    c = Case(root, "baseline_obj_triangle", [], ["obj"],
             "one triangle: the peak-memory baseline every bound is measured from")
    cases.append(c.expect(render(c.file("model.obj", OBJ_TRIANGLE, "obj")), 0, outputs=["out.png"]))

    c = Case(root, "obj_nan_some_vertices", ["nan"], ["obj"],
             "a face on a NaN vertex is dropped with a warning naming the file")
    m = c.file("model.obj", OBJ_TRIANGLE + "v nan 0 0\nf 1 2 4\n", "obj")
    cases.append(c.expect(render(m), 0, said("model.obj", NAN), outputs=["out.png"]))

    c = Case(root, "obj_nan_all_vertices", ["nan", "false-success"], ["obj"],
             "nothing finite left to draw: refused, not an empty picture and exit 0")
    m = c.file("model.obj", "v nan nan nan\nv nan 1 0\nv inf 0 1\nf 1 2 3\n", "obj")
    cases.append(c.expect(render(m), 1, said("model.obj", NAN + ("triangle", "nothing"))))

    c = Case(root, "obj_inf_by_overflow", ["nan"], ["obj"],
             "1e39 overflows float to infinity: that face must be named, not drawn as a streak")
    m = c.file("model.obj", OBJ_TRIANGLE + "v 1e39 0 0\nf 1 2 4\n", "obj")
    cases.append(c.expect(render(m), [0, 1], said("model.obj", NAN + ("range", "overflow"))))

    c = Case(root, "obj_nan_texcoords", ["nan", "silent-change"], ["obj"],
             "NaN texture coordinates sample garbage silently; warned or refused naming the file")
    m = c.file("model.obj", "vt nan nan\n" + OBJ_TRIANGLE.replace("f 1 2 3", "f 1/1 2/1 3/1"), "obj")
    cases.append(c.expect(render(m), [0, 1], said("model.obj", NAN)))

    c = Case(root, "obj_nan_normals", ["nan", "silent-change"], ["obj"],
             "a NaN normal is replaced: that is a change to the data, so it is said")
    m = c.file("model.obj", "vn nan 0 1\n" + OBJ_TRIANGLE.replace("f 1 2 3", "f 1//1 2//1 3//1"), "obj")
    cases.append(c.expect(render(m), [0, 1], said("model.obj", NAN + ("normal",))))

    c = Case(root, "obj_index_past_32_bits", ["silent-change"], ["obj"],
             "an index that does not fit 32 bits must not wrap round to a valid one")
    m = c.file("model.obj", OBJ_TRIANGLE + "f 1 2 4294967297\n", "obj")
    cases.append(c.expect(render(m), 1, said("model.obj", ("index", "range"))))

    c = Case(root, "obj_binary_garbage", ["misleading-message"], ["obj"],
             "random bytes under an .obj name: refused as binary, naming the file")
    m = c.file("model.obj", bytes((i * 131 + 7) % 256 for i in range(4096)), "obj")
    cases.append(c.expect(render(m), 1, said("model.obj")))

    c = Case(root, "obj_utf16_text", ["misleading-message"], ["obj"],
             "UTF-16 text is refused as such, not as a control byte at line 1")
    m = c.file("model.obj", b"\xff\xfe" + OBJ_TRIANGLE.encode("utf-16-le"), "obj")
    cases.append(c.expect(render(m), 1, said("model.obj", ("utf-16", "utf16", "encoding"))))

    return cases


def model_file_cases(root):
    """Where the model is not a small text file, is named oddly, or floods."""
    cases = []
    c = Case(root, "obj_sparse_256mib", ["unbounded-read", "memory"], ["obj"],
             "256 MiB of NUL bytes (a hole): refused as binary (not as UTF-16: it has no byte-order "
             "mark), within 64 MB + 8 x its size, in time")
    m = c.sparse("model.obj", 256 << 20, counted=True)
    cases.append(c.expect(render(m), 1, said("model.obj", ("binary", "control", "NUL", "0x00", "zero"))))

    c = Case(root, "obj_model_is_fifo", ["unbounded-read"], ["obj"],
             "a FIFO with no writer where the model should be: refused, no hang")
    cases.append(c.expect(render(c.fifo("model.obj")), 1, said("model.obj", NOT_READ)))

    c = Case(root, "obj_model_is_dev_zero", ["unbounded-read", "memory"], ["obj"],
             "a link to /dev/zero: an endless device, refused without reading it")
    cases.append(c.expect(render(c.link("model.obj", "/dev/zero")), 1, said("model.obj", NOT_READ)))

    c = Case(root, "obj_model_is_directory", ["misleading-message"], ["obj"],
             "a folder named like a model: the message says it is a folder")
    cases.append(c.expect(render(c.mkdir("model.obj")), 1, said("model.obj", ("director", "folder",
                                                                              "regular"))))

    c = Case(root, "obj_line_continuations", ["crash", "memory"], ["obj"],
             "100,000 backslash continuations join into one endless logical line")
    m = c.file("model.obj", "v 0 0 0 \\\n" + "\\\n" * 100000 + OBJ_TRIANGLE, "obj")
    cases.append(c.expect(render(m), [0, 1]))

    c = Case(root, "obj_comb_polygon_40k", ["crash", "memory"], ["obj"],
             "one concave face of 40,000 corners: cut in bounded time, n - 2 triangles")
    n = 20000
    verts = ["v %d %d 0" % (i, 10 if i % 2 else 1) for i in range(n)]
    verts += ["v %d 0 0" % (n - 1 - i) for i in range(n)]
    face = "f " + " ".join(str(i + 1) for i in range(2 * n))
    m = c.file("model.obj", "\n".join(verts) + "\n" + face + "\n")
    cases.append(c.expect(render(m), 0, stdout=r"\b39998 triangles", outputs=["out.png"]))

    c = Case(root, "obj_concave_hexagon_whole", ["silent-change"], ["obj"],
             "an L-shaped hexagon is 4 triangles, not a few slivers (#52)")
    m = c.file("model.obj", "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nf 1 2 3 4 5 6\n", "obj")
    cases.append(c.expect(render(m), 0, stdout=r"\b4 triangles", outputs=["out.png"]))

    c = Case(root, "obj_format_string_name", ["crash"], ["obj", "cli"],
             "a model named like a printf format: printed, never interpreted")
    m = c.file("%n%s%x%n.obj", b"\x01\x02garbage\n")
    cases.append(c.expect(render(m), 1, said("%n%s%x%n.obj")))

    c = Case(root, "obj_name_with_controls", ["flood-control", "misleading-message"], ["obj", "cli"],
             "a file name with an escape sequence and a newline is printed escaped")
    m = c.file("ev\x1b[2Jil\nname.obj", b"\x01\x02garbage\n")
    cases.append(c.expect(render(m), 1, said(("ev.{1,12}il",)), stderr_not=[r"(?m)^name\.obj"]))

    c = Case(root, "obj_flood_short_faces", ["flood-control"], ["obj"],
             "30,000 faces of two corners: one warning with a count, not 30,000 lines")
    m = c.file("model.obj", OBJ_TRIANGLE + "f 1 2\n" * 30000, "obj")
    cases.append(c.expect(render(m), 0, said("model.obj"), outputs=["out.png"]))

    c = Case(root, "obj_flood_unknown_materials", ["flood-control", "missing-reference"], ["obj", "mtl"],
             "10,000 usemtl names that no MTL defines: a few named, then a count")
    c.file("m.mtl", "newmtl known\nKd 1 0 0\n")
    body = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
    body += "".join("usemtl nope_%d\nf 1 2 3\n" % i for i in range(10000))
    m = c.file("model.obj", body)
    cases.append(c.expect(render(m), 0, said(("nope_",)), at_most=[("nope_", REPEATS)]))

    c = Case(root, "obj_flood_missing_mtllibs", ["flood-control", "missing-reference"], ["obj", "mtl"],
             "5,000 mtllib lines naming files that are not there")
    m = c.file("model.obj", "".join("mtllib gone_%d.mtl\n" % i for i in range(5000)) + OBJ_TRIANGLE)
    cases.append(c.expect(render(m), 0, said(("gone_",)), at_most=[("gone_", REPEATS)]))
    return cases


def material_cases(root):
    cases = []
    c = Case(root, "obj_control_bytes_in_mtllib", ["flood-control"], ["obj", "mtl"],
             "an mtllib name carrying an escape sequence and a bell: OBJ text has no control bytes, "
             "so the file is refused with the line, the byte escaped")
    m = c.file("model.obj", obj_with_mtl("ev\x1b[31mil\x07.mtl"), "obj")
    cases.append(c.expect(render(m), 1, said("model.obj:1", ("control", "binary"))))

    c = Case(root, "obj_coordinate_not_a_number", ["misleading-message"], ["obj"],
             "'v 1 0 0x': a word that is no number, not a NaN position; named with its line")
    m = c.file("model.obj", OBJ_TRIANGLE.replace("v 1 0 0", "v 1 0 0x"), "obj")
    cases.append(c.expect(render(m), [0, 1], said("model.obj", ("number", "0x"))))

    c = Case(root, "mtl_long_name", ["misleading-message"], ["mtl"],
             "an mtllib name of 128 KiB: the warning quotes a few hundred bytes at most")
    m = c.file("model.obj", obj_with_mtl("A" * LONG_VALUE + ".mtl"), "obj")
    cases.append(c.expect(render(m), 0, said("AAAAAAAA"), outputs=["out.png"]))

    c = Case(root, "mtl_outside_model_folder", ["silent-change"], ["mtl"],
             "mtllib ../ reads beside the model's folder: refused unless the user allows it (#46)")
    c.file("secret/secret.mtl", "newmtl m\nKd 1 0 0\n")
    m = c.file("model/model.obj", obj_with_mtl("../secret/secret.mtl"), "obj")
    cases.append(c.expect(render(m), 0, said("secret.mtl", OUTSIDE), outputs=["out.png"]))

    c = Case(root, "mtl_is_fifo", ["unbounded-read"], ["mtl"],
             "an MTL that is a FIFO with no writer: skipped with a warning, no hang")
    c.fifo("pipe.mtl")
    m = c.file("model.obj", obj_with_mtl("pipe.mtl"), "obj")
    cases.append(c.expect(render(m), 0, said("pipe.mtl", NOT_READ), outputs=["out.png"]))

    c = Case(root, "mtl_is_dev_zero", ["unbounded-read", "memory"], ["mtl"],
             "an MTL linked to /dev/zero: not read forever")
    c.link("zero.mtl", "/dev/zero")
    m = c.file("model.obj", obj_with_mtl("zero.mtl"), "obj")
    # The link leads out of the folder: refused for that, and, where reading outside is allowed,
    # for being a device.
    cases.append(c.expect(render(m), 0, said("zero.mtl", ("outside",)), outputs=["out.png"]))
    c = Case(root, "mtl_is_dev_zero_outside_allowed", ["unbounded-read", "memory"], ["mtl"],
             "an MTL linked to /dev/zero, reading outside the folder allowed: refused as a device")
    m = c.file("model.obj", obj_with_mtl("zero.mtl"), "obj")
    c.link("zero.mtl", "/dev/zero")
    cases.append(c.expect(render(m, "--read-outside-folder"), 0, said("zero.mtl", NOT_READ), outputs=["out.png"]))

    c = Case(root, "mtl_is_directory", ["misleading-message"], ["mtl"],
             "an mtllib that names a folder: the warning says so")
    c.mkdir("dir.mtl")
    m = c.file("model.obj", obj_with_mtl("dir.mtl"), "obj")
    cases.append(c.expect(render(m), 0, said("dir.mtl", NOT_READ), outputs=["out.png"]))

    c = Case(root, "mtl_sparse_3gib", ["unbounded-read", "memory"], ["mtl"],
             "a 3 GiB MTL (a hole): a material library is small; refused by its size")
    c.sparse("huge.mtl", 3 << 30, b"newmtl m\nKd 1 0 0\n")
    m = c.file("model.obj", obj_with_mtl("huge.mtl"), "obj")
    cases.append(c.expect(render(m), [0, 1], said("huge.mtl"), outputs=["out.png"]))

    c = Case(root, "mtl_nan_values", ["nan"], ["mtl"],
             "Kd, Ns and d of NaN: each warned with the MTL's line")
    c.file("m.mtl", "newmtl m\nKd nan nan nan\nNs nan\nd nan\n")
    m = c.file("model.obj", obj_with_mtl("m.mtl"), "obj")
    cases.append(c.expect(render(m), 0, said(r"m.mtl:", NAN + ("number",)), outputs=["out.png"]))

    c = Case(root, "mtl_flood_bad_lines", ["flood-control"], ["mtl"],
             "30,000 malformed Kd lines: a few named, then a count")
    c.file("m.mtl", "newmtl m\n" + "Kd x y z\n" * 30000)
    m = c.file("model.obj", obj_with_mtl("m.mtl"), "obj")
    cases.append(c.expect(render(m), 0, said("m.mtl"), at_most=[("Kd", REPEATS)]))

    c = Case(root, "mtl_flood_missing_textures", ["flood-control", "missing-reference"], ["mtl", "texture"],
             "2,000 materials whose textures are missing: a few named, then a count")
    c.file("m.mtl", "".join("newmtl m%d\nmap_Kd lost_%d.png\n" % (i, i) for i in range(2000)))
    body = "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n"
    body += "".join("usemtl m%d\nf 1/1 2/1 3/1\n" % i for i in range(2000))
    m = c.file("model.obj", body)
    cases.append(c.expect(render(m), 0, said(("lost_",)), at_most=[("lost_", REPEATS)]))
    return cases


def texture_cases(root):
    cases = []

    def textured(c, tex_name):
        c.file("m.mtl", "newmtl m\nmap_Kd %s\n" % tex_name)
        return c.file("model.obj", "mtllib m.mtl\nusemtl m\nvt 0 0\nvt 1 0\nvt 0 1\n"
                      + OBJ_TRIANGLE.replace("f 1 2 3", "f 1/1 2/2 3/3"), "obj")

    c = Case(root, "texture_is_fifo", ["unbounded-read"], ["texture"],
             "a texture that is a FIFO with no writer: a checker and a warning, no hang")
    c.fifo("pipe.png")
    cases.append(c.expect(render(textured(c, "pipe.png")), 0, said("pipe.png"), outputs=["out.png"]))

    c = Case(root, "texture_is_dev_zero", ["unbounded-read", "memory"], ["texture"],
             "a texture linked to /dev/zero: never read to the end")
    c.link("zero.png", "/dev/zero")
    cases.append(c.expect(render(textured(c, "zero.png")), 0, said("zero.png"), outputs=["out.png"]))

    c = Case(root, "texture_header_100k_square", ["memory"], ["texture"],
             "a PNG whose header claims 100000 x 100000: refused by its header, nothing allocated")
    c.file("big.png", png_header_only(100000, 100000))
    cases.append(c.expect(render(textured(c, "big.png")), 0,
                          said("big.png", ("large", "size", "16384", "dimension", "100000", "wide", "high"))))

    c = Case(root, "texture_decompression_bomb", ["memory"], ["texture"],
             "67 KB of PNG that inflate to an 8192 x 8192 image (256 MiB as RGBA, more with mips): "
             "outside the 64 MiB + 8 x size bound of #46 unless refused or reduced")
    c.file("bomb.png", png(8192, 8192, colour_type=0))
    cases.append(c.expect(render(textured(c, "bomb.png")), 0, said("bomb.png"), outputs=["out.png"]))

    c = Case(root, "texture_truncated_png", ["misleading-message"], ["texture"],
             "a PNG cut after 60 bytes: a checker, with a warning naming the file")
    c.file("cut.png", png(16, 16, lambda y: bytes(range(64)))[:60])
    cases.append(c.expect(render(textured(c, "cut.png")), 0, said("cut.png"), outputs=["out.png"]))

    c = Case(root, "texture_absolute_path_outside", ["silent-change"], ["texture"],
             "map_Kd with an absolute path out of the model's folder: refused unless allowed (#46)")
    c.file("elsewhere/tex.png", png(4, 4, lambda y: b"\xff\x00\x00\xff" * 4))
    c.file("model/m.mtl", "newmtl m\nmap_Kd %s\n" % c.path("elsewhere/tex.png"))
    m = c.file("model/model.obj", "mtllib m.mtl\nusemtl m\nvt 0 0\n"
               + OBJ_TRIANGLE.replace("f 1 2 3", "f 1/1 2/1 3/1"), "obj")
    cases.append(c.expect(render(m), 0, said(("tex.png", "model.obj"), OUTSIDE), outputs=["out.png"]))
    return cases


def all_cases(root):
    return model_cases(root) + model_file_cases(root) + material_cases(root) + texture_cases(root)
