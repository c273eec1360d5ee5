"""Hostile glTF 2.0 cases (.gltf with external or embedded buffers, and .glb): nesting that
overflows a recursive parser, node graphs that loop or multiply, accessors that ask for memory
no buffer backs, URIs that leave the model's folder, references to nothing, NaN, floods.
Expectations are those of issues #46 and #52 and of docs/formats.md."""
import json

from corpus_lib import LONG_VALUE, Case, floats, glb, gltf_triangle, said
from cases_obj import NAN, NOT_READ, OUTSIDE, render

MISSING = ("missing", "not found", "no such", "cannot", "does not exist", "not there")
NESTED = ("nest", "deep", "depth", "level")
LOOP = ("cycle", "ancestor", "loop", "own child", "itself")
SHARED = ("two parents", "parent", "shared", "instanc", "multipl", "twice")


def write_gltf(c, doc, name="model.gltf", raw=None):
    text = json.dumps(doc, separators=(",", ":")) if raw is None else raw
    return c.file(name, text, "gltf" if "data:" in text else None)


def indexed_triangle(indices, stride=None):
    """(doc, geom.bin) of one triangle drawn through unsigned-short indices; stride: a
    byteStride on the indices' buffer view, each index padded to it."""
    pos = floats([0, 0, 0, 1, 0, 0, 0, 1, 0])
    step = stride or 2
    idx = b"".join(i.to_bytes(2, "little") + bytes(step - 2) for i in indices)
    doc, _ = gltf_triangle(uri="geom.bin")
    doc["buffers"][0]["byteLength"] = len(pos) + len(idx)
    view = {"buffer": 0, "byteOffset": len(pos), "byteLength": len(idx)}
    if stride:
        view["byteStride"] = stride
    doc["bufferViews"].append(view)
    doc["accessors"].append({"bufferView": 1, "componentType": 5123, "count": len(indices),
                             "type": "SCALAR"})
    doc["meshes"][0]["primitives"][0]["indices"] = 1
    return doc, pos + idx


def structure_cases(root):
    cases = []
    deep = "[" * 100000 + "]" * 100000
    doc, _ = gltf_triangle(extra={"extras": "@DEEP@"})
    c = Case(root, "gltf_deep_extras", ["crash"], ["gltf"],
             "extras nested 100,000 deep: refused by depth before a recursive parser overflows")
    m = write_gltf(c, None, raw=json.dumps(doc).replace('"@DEEP@"', deep))
    cases.append(c.expect(render(m), 1, said("model.gltf", NESTED)))

    c = Case(root, "glb_deep_extras", ["crash"], ["glb"], "the same nesting inside a .glb's JSON chunk")
    m = c.file("model.glb", glb(json.dumps(doc).replace('"@DEEP@"', deep)), "glb")
    cases.append(c.expect(render(m), 1, said("model.glb", NESTED)))

    c = Case(root, "gltf_node_cycle", ["memory"], ["gltf"],
             "node 0 -> 1 -> 0: the loop is named, not followed until memory runs out")
    doc, _ = gltf_triangle()
    doc["nodes"] = [{"mesh": 0, "children": [1]}, {"children": [0]}]
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", LOOP)))

    c = Case(root, "gltf_node_own_child", ["memory"], ["gltf"], "a node that is its own child")
    doc, _ = gltf_triangle()
    doc["nodes"] = [{"mesh": 0, "children": [0]}]
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", LOOP)))

    c = Case(root, "glb_dag_2_pow_40", ["memory"], ["glb"],
             "40 levels of two nodes, each pointing at both of the next: 2^40 instances of one mesh")
    doc, data = gltf_triangle(uri="")
    del doc["buffers"][0]["uri"]
    nodes = []
    for level in range(40):
        kids = [2 * level + 2, 2 * level + 3] if level < 39 else []
        nodes += [{"children": kids, "mesh": 0}, {"children": kids}]
    doc["nodes"], doc["scenes"] = nodes, [{"nodes": [0]}]
    m = c.file("model.glb", glb(doc, data), "glb")
    cases.append(c.expect(render(m), 1, said("model.glb", SHARED + LOOP)))

    c = Case(root, "gltf_node_chain_50k", ["crash"], ["gltf"],
             "a legal chain of 50,000 nested nodes: drawn or refused, never a stack overflow")
    doc, _ = gltf_triangle()
    doc["nodes"] = [{"children": [i + 1]} for i in range(49999)] + [{"mesh": 0}]
    cases.append(c.expect(render(write_gltf(c, doc)), [0, 1], optional=["out.png"]))

    return cases


def reference_cases(root):
    """Indices that point at nothing or would be misread, and what is left to draw."""
    cases = []
    c = Case(root, "gltf_scene_names_missing_node", ["missing-reference"], ["gltf"],
             "scene 0 names node 9 of 1")
    doc, _ = gltf_triangle()
    doc["scenes"] = [{"nodes": [9]}]
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("node",), ("9",))))

    c = Case(root, "gltf_default_scene_missing", ["missing-reference"], ["gltf"],
             "'scene': 3 with one scene: refused, not drawn with a substitute (#52)")
    doc, _ = gltf_triangle(extra={"scene": 3})
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("scene",))))

    c = Case(root, "gltf_material_missing", ["missing-reference"], ["gltf"],
             "a primitive naming material 5 of none")
    doc, _ = gltf_triangle()
    doc["meshes"][0]["primitives"][0]["material"] = 5
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("material",))))

    c = Case(root, "gltf_texture_missing", ["missing-reference"], ["gltf"],
             "a material whose base-colour texture is index 7 of none")
    doc, _ = gltf_triangle(extra={"materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 7}}}]})
    doc["meshes"][0]["primitives"][0]["material"] = 0
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("texture",))))

    c = Case(root, "gltf_material_index_fraction", ["missing-reference", "silent-change"], ["gltf"],
             "'material': 0.5 is not an index; tinygltf would read it as none")
    doc, _ = gltf_triangle(extra={"materials": [{}]})
    doc["meshes"][0]["primitives"][0]["material"] = 0.5
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("material",))))

    c = Case(root, "gltf_mesh_index_2_pow_32", ["silent-change"], ["gltf"],
             "'mesh': 4294967296 would wrap to 0 in 32 bits")
    doc, _ = gltf_triangle()
    doc["nodes"][0]["mesh"] = 4294967296
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("mesh",))))

    c = Case(root, "gltf_required_draco", ["false-success"], ["gltf"],
             "a required extension facet does not read: refused naming it")
    doc, _ = gltf_triangle(extra={"extensionsRequired": ["KHR_draco_mesh_compression"],
                                  "extensionsUsed": ["KHR_draco_mesh_compression"]})
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("draco",))))

    c = Case(root, "gltf_only_points", ["false-success"], ["gltf"],
             "nothing but a point primitive: refused as nothing to draw, not an empty picture")
    doc, _ = gltf_triangle()
    doc["meshes"][0]["primitives"][0]["mode"] = 0
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf")))

    c = Case(root, "gltf_flood_point_primitives", ["flood-control"], ["gltf"],
             "5,000 point primitives beside one triangle: a few warnings, then a count")
    doc, _ = gltf_triangle()
    doc["meshes"][0]["primitives"] += [{"attributes": {"POSITION": 0}, "mode": 0}] * 5000
    cases.append(c.expect(render(write_gltf(c, doc)), 0, said("model.gltf"), outputs=["out.png"]))
    return cases


def accessor_cases(root):
    cases = []
    c = Case(root, "gltf_accessor_2_pow_26_no_view", ["memory", "false-success"], ["gltf"],
             "POSITION of 2^26 VEC3 with no buffer view: refused, not 8 GB of zeros and exit 0")
    doc, _ = gltf_triangle()
    doc["accessors"][0] = {"componentType": 5126, "count": 1 << 26, "type": "VEC3",
                           "min": [0, 0, 0], "max": [0, 0, 0]}
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("accessor", "POSITION"))))

    c = Case(root, "gltf_accessor_2_pow_24_no_view", ["memory", "false-success"], ["gltf"],
             "2^24 VEC3 with no data: within the bound, skipped without allocating; nothing left to draw")
    doc, _ = gltf_triangle()
    doc["accessors"][0] = {"componentType": 5126, "count": 1 << 24, "type": "VEC3",
                           "min": [0, 0, 0], "max": [0, 0, 0]}
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf")))

    c = Case(root, "glb_accessor_count_past_view", ["memory"], ["glb"],
             "an accessor of 2^26 VEC3 over a 36-byte view: refused with the bytes it needs")
    doc, data = gltf_triangle(uri="")
    del doc["buffers"][0]["uri"]
    doc["accessors"][0]["count"] = 1 << 26
    m = c.file("model.glb", glb(doc, data), "glb")
    cases.append(c.expect(render(m), 1, said("model.glb", ("accessor",))))

    c = Case(root, "gltf_index_past_vertices", ["missing-reference"], ["gltf"],
             "indices 0 1 7 over three vertices")
    doc, data = indexed_triangle([0, 1, 7])
    c.file("geom.bin", data)
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("index", "7"))))

    c = Case(root, "gltf_indices_with_byte_stride", ["silent-change"], ["gltf"],
             "a byteStride on the buffer view of indices, which glTF forbids")
    doc, data = indexed_triangle([0, 1, 2], stride=4)
    c.file("geom.bin", data)
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("stride",))))

    c = Case(root, "gltf_nan_positions", ["nan"], ["gltf"],
             "one of two triangles on a NaN position: dropped with a warning naming the file")
    tris = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (float("nan"), 0, 0), (1, 0, 0), (0, 1, 0)]
    doc, data = gltf_triangle(positions=tris, uri="geom.bin")
    doc["accessors"][0]["min"], doc["accessors"][0]["max"] = [0, 0, 0], [1, 1, 0]
    c.file("geom.bin", data)
    cases.append(c.expect(render(write_gltf(c, doc)), 0, said("model.gltf", NAN), outputs=["out.png"]))

    c = Case(root, "gltf_matrix_infinite", ["nan"], ["gltf"],
             "a node matrix holding 1e999 (infinity once parsed): refused naming the node")
    doc, _ = gltf_triangle()
    raw = json.dumps(doc).replace('{"mesh": 0}', '{"mesh": 0, "matrix": [1e999,0,0,0, 0,1,0,0, '
                                                 '0,0,1,0, 0,0,0,1]}')
    cases.append(c.expect(render(write_gltf(c, None, raw=raw)), 1,
                          said("model.gltf", NAN + ("node", "matrix", "1e999"))))

    c = Case(root, "gltf_translation_overflows_float", ["nan"], ["gltf"],
             "a translation of 1e39: finite as a double, infinite as a float")
    doc, _ = gltf_triangle()
    doc["nodes"][0]["translation"] = [1e39, 0, 0]
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", NAN + ("node", "range"))))
    return cases


def file_cases(root):
    cases = []

    def named_buffer(c, uri, name="model/model.gltf"):
        doc, blob = gltf_triangle(uri=uri)
        return write_gltf(c, doc, name=name), blob

    c = Case(root, "gltf_missing_bin_decoy_in_cwd", ["silent-change", "missing-reference"], ["gltf"],
             "geom.bin is missing beside the model but present in the working directory: refused, "
             "never another file's geometry")
    m, blob = named_buffer(c, "geom.bin")
    c.file("cwd/geom.bin", blob)
    cases.append(c.expect(render(m), 1, said("geom.bin", MISSING), cwd="{case}/cwd"))

    for name, uri in (("dotdot", "../secret/geom.bin"), ("percent_dotdot", "%2e%2e/secret/geom.bin"),
                      ("absolute", "@ABS@"), ("file_scheme", "file://@ABS@")):
        c = Case(root, "gltf_buffer_uri_" + name, ["silent-change"], ["gltf"],
                 "a buffer URI that leaves the model's folder (%s): refused naming it" % uri)
        uri = uri.replace("@ABS@", c.path("secret/geom.bin"))
        m, blob = named_buffer(c, uri)
        c.file("secret/geom.bin", blob)
        cases.append(c.expect(render(m), 1, said("model.gltf", OUTSIDE + ("file:", "scheme"))))

    c = Case(root, "gltf_image_uri_dotdot", ["silent-change"], ["gltf", "texture"],
             "a base-colour image ../secret/tex.png: refused, or a checker with a warning naming it")
    doc, _ = gltf_triangle(extra={"images": [{"uri": "../secret/tex.png"}], "textures": [{"source": 0}],
                                  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]})
    doc["meshes"][0]["primitives"][0]["material"] = 0
    c.file("secret/tex.png", b"\x89PNG not really")
    cases.append(c.expect(render(write_gltf(c, doc, name="model/model.gltf")), [0, 1],
                          said(("secret",), OUTSIDE)))

    c = Case(root, "gltf_buffer_is_fifo", ["unbounded-read"], ["gltf"],
             "a buffer that is a FIFO with no writer: refused, no hang")
    m, _ = named_buffer(c, "pipe.bin", name="model.gltf")
    c.fifo("pipe.bin")
    cases.append(c.expect(render(m), 1, said("pipe.bin", NOT_READ)))

    c = Case(root, "gltf_buffer_is_dev_zero", ["unbounded-read", "memory"], ["gltf"],
             "a buffer linked to /dev/zero: refused, never read")
    m, _ = named_buffer(c, "zero.bin", name="model.gltf")
    c.link("zero.bin", "/dev/zero")
    cases.append(c.expect(render(m), 1, said("zero.bin", ("outside",))))
    c = Case(root, "gltf_buffer_is_dev_zero_outside_allowed", ["unbounded-read", "memory"], ["gltf"],
             "a buffer linked to /dev/zero, reading outside the folder allowed: refused as a device")
    m, _ = named_buffer(c, "zero.bin", name="model.gltf")
    c.link("zero.bin", "/dev/zero")
    cases.append(c.expect(render(m, "--read-outside-folder"), 1, said("zero.bin", NOT_READ)))

    c = Case(root, "gltf_buffer_sparse_20gib", ["unbounded-read", "memory"], ["gltf"],
             "a 20 GiB buffer file (a hole) behind a 36-byte buffer: over the bound, refused by size")
    m, blob = named_buffer(c, "big.bin", name="model.gltf")
    c.sparse("big.bin", 20 << 30, blob)
    cases.append(c.expect(render(m), 1, said("big.bin")))

    c = Case(root, "gltf_model_sparse_5gib", ["unbounded-read", "memory"], ["gltf"],
             "a 5 GiB .gltf (a hole after a brace): over the 4 GiB bound, refused by size")
    m = c.sparse("model.gltf", 5 << 30, b"{")
    cases.append(c.expect(render(m), 1, said("model.gltf")))

    c = Case(root, "gltf_uri_with_controls", ["flood-control"], ["gltf"],
             "a missing buffer whose URI carries an escape sequence: named, escaped")
    m, _ = named_buffer(c, "ev\x1b[31mil.bin", name="model.gltf")
    cases.append(c.expect(render(m), 1, said(("ev.{1,16}il",))))

    c = Case(root, "gltf_long_uri", ["misleading-message"], ["gltf"],
             "a missing buffer URI of 128 KiB: quoted in a few hundred bytes at most")
    m, _ = named_buffer(c, "B" * LONG_VALUE + ".bin", name="model.gltf")
    cases.append(c.expect(render(m), 1, said("BBBBBBBB")))

    return cases


def container_cases(root):
    """The .glb container's sizes, data: URIs and images that are not files."""
    cases = []
    c = Case(root, "glb_total_length_lies", ["memory"], ["glb"],
             "a .glb header stating 4 GB: refused as running past the file")
    doc, data = gltf_triangle(uri="")
    del doc["buffers"][0]["uri"]
    m = c.file("model.glb", glb(doc, data, total_length=0xFFFFFFF0), "glb")
    cases.append(c.expect(render(m), 1, said("model.glb")))

    c = Case(root, "glb_json_chunk_length_lies", ["memory"], ["glb"],
             "a JSON chunk stating 2 GB: refused as running past the file")
    m = c.file("model.glb", glb(doc, data, json_length=0x7FFFFFF0), "glb")
    cases.append(c.expect(render(m), 1, said("model.glb")))

    c = Case(root, "glb_bin_chunk_short", ["false-success"], ["glb"],
             "a buffer of 36 bytes whose BIN chunk holds 12: refused, not read past the chunk")
    doc, data = gltf_triangle(uri="")
    del doc["buffers"][0]["uri"]
    m = c.file("model.glb", glb(doc, data[:12]), "glb")
    cases.append(c.expect(render(m), 1, said("model.glb", ("buffer", "chunk", "byte", "size"))))

    c = Case(root, "gltf_data_uri_bad_base64", ["false-success"], ["gltf"],
             "a data: URI whose base64 is broken: refused naming the buffer, not zeros drawn")
    doc, _ = gltf_triangle()
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64,@@@@not*base64@@@@"
    cases.append(c.expect(render(write_gltf(c, doc)), 1, said("model.gltf", ("buffer", "base64", "data"))))

    c = Case(root, "gltf_image_is_fifo", ["unbounded-read"], ["gltf", "texture"],
             "a base-colour image that is a FIFO with no writer: no hang; a checker and a warning, or "
             "a refusal, naming it")
    doc, _ = gltf_triangle(extra={"images": [{"uri": "pipe.png"}], "textures": [{"source": 0}],
                                  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]})
    doc["meshes"][0]["primitives"][0]["material"] = 0
    c.fifo("pipe.png")
    cases.append(c.expect(render(write_gltf(c, doc)), [0, 1], said("pipe.png")))
    return cases


def all_cases(root):
    return (structure_cases(root) + reference_cases(root) + accessor_cases(root) + file_cases(root)
            + container_cases(root))
