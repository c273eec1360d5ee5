"""Hostile outputs and the scene cache: an output that names a file the run reads (model, MTL,
texture, buffer, defaults or cameras file) is a usage error and the input stays as it was; a
write that fails (/dev/full, a missing folder, a FIFO nobody reads) exits 1 naming the path and
leaves nothing behind; the cache notices every file a load read and reports a problem once
(#46, #52)."""
from corpus_lib import OBJ_TRIANGLE, Case, gltf_triangle, png, said
from cases_obj import render
from cases_gltf import write_gltf

OTHER_TRIANGLE = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)]
WRITE_FAIL = ("space", "cannot", "write", "fail", "error")


def model(c, name="model.obj"):
    return c.file(name, OBJ_TRIANGLE)


def names_input_cases(root):
    cases = []

    def case(name, why, build, expect_name, formats=("output",)):
        c = Case(root, name, ["output-names-input"], list(formats), why)
        args, env = build(c)
        cases.append(c.expect(args, 2, said(expect_name), env=env))

    case("out_names_model", "-o model.obj replaced the model with a PNG and exited 0 (#52)",
         lambda c: (["render", model(c), "-o", "{case}/model.obj"], None), "model.obj")
    case("out_names_model_by_symlink", "-o through a symbolic link to the model",
         lambda c: (["render", model(c), "-o", c.link("link.png", "model.obj")], None), "link.png")
    def hardlink(c):
        m = model(c)
        return ["render", m, "-o", c.hardlink("hard.png", "model.obj")], None
    case("out_names_model_by_hardlink", "-o naming a hard link of the model (same device and inode)",
         hardlink, "hard.png")
    case("out_depth_names_model", "--depth naming the model (an OBJ under a .npy name)",
         lambda c: (render(model(c, "model.npy"), "--depth", "{case}/model.npy"), None), "model.npy")
    case("out_ids_names_model", "--ids naming the model (an OBJ under a .npy name)",
         lambda c: (render(model(c, "model.npy"), "--ids", "{case}/model.npy"), None), "model.npy")

    def with_mtl(c, mtllib="m.mtl"):
        c.file(mtllib, "newmtl m\nKd 1 0 0\nmap_Kd tex.png\n")
        c.file("tex.png" if "/" not in mtllib else mtllib.rsplit("/", 1)[0] + "/tex.png", png(2, 2))
        return c.file("model.obj", "mtllib %s\nusemtl m\n%s" % (mtllib, OBJ_TRIANGLE))

    case("out_names_mtl", "-o the model's MTL", lambda c: (["render", with_mtl(c), "-o", "{case}/m.mtl"], None),
         "m.mtl", ("output", "mtl"))
    case("out_names_mtl_in_subfolder", "-o an MTL the model names in a subfolder (not beside it)",
         lambda c: (["render", with_mtl(c, "sub/m.mtl"), "-o", "{case}/sub/m.mtl"], None), "m.mtl",
         ("output", "mtl"))
    case("out_names_texture", "-o the texture the model's MTL names",
         lambda c: (["render", with_mtl(c), "-o", "{case}/tex.png"], None), "tex.png", ("output", "texture"))

    def gltf_bin(c):
        doc, blob = gltf_triangle(uri="geom.bin")
        c.file("geom.bin", blob)
        return write_gltf(c, doc)
    case("out_names_gltf_buffer", "-o the glTF's external .bin (#52: buffers are inputs too)",
         lambda c: (["render", gltf_bin(c), "-o", "{case}/geom.bin"], None), "geom.bin", ("output", "gltf"))
    case("out_names_config", "-o the file --config names",
         lambda c: (["--config", c.file("cfg.toml", "[render]\n"), "render", model(c), "-o", "{case}/cfg.toml"],
                    None), "cfg.toml", ("output", "config"))

    def implicit(c):
        c.mkdir("cfg/facet")
        c.file("cfg/facet/facet.toml", "[render]\n")
        return ["render", model(c), "-o", "{case}/cfg/facet/facet.toml"], {"XDG_CONFIG_HOME": "{case}/cfg"}
    case("out_names_implicit_config", "-o the defaults file found in $XDG_CONFIG_HOME", implicit,
         "facet.toml", ("output", "config"))

    def turntable(c):
        c.file("model1.obj", OBJ_TRIANGLE)
        return ["render", "{case}/model1.obj", "-o", "{case}/model%d.obj", "--turntable", "2"], None
    case("out_turntable_frame_names_model", "a turntable whose second frame's name is the model",
         turntable, "model1.obj")
    case("bench_json_names_model", "bench --json model.obj emptied the model before reading it (#52)",
         lambda c: (["bench", model(c), "--json", "{case}/model.obj"], None), "model.obj", ("output",))
    return cases


def failed_write_cases(root):
    cases = []

    def case(name, classes, why, args, exit, stderr, **more):
        c = Case(root, name, classes, ["output"], why)
        full = [a(c) if callable(a) else a for a in args]
        cases.append(c.expect(full, exit, stderr, **more))

    case("out_png_dev_full", ["false-success"], "-o /dev/full: exit 1 naming it",
         ["render", model, "-o", "/dev/full"], 1, said("/dev/full", WRITE_FAIL))
    for kind in ("depth_npy", "depth_exr", "ids_npy"):
        opt, ext = "--" + kind.split("_")[0], kind.split("_")[1]
        case("out_%s_dev_full" % kind, ["false-success"],
             "%s onto a full device (a .%s link to /dev/full): exit 1 naming it" % (opt, ext),
             render(model, opt, lambda c, e=ext: c.link("full." + e, "/dev/full")), 1,
             said("full." + ext, WRITE_FAIL), optional=["out.png"])
    case("bench_json_dev_full", ["false-success"], "bench --json /dev/full: exit 1 naming it",
         ["bench", model, "--json", "/dev/full"], 1, said("/dev/full", WRITE_FAIL))
    case("out_missing_folder", ["false-success"], "-o into a folder that does not exist",
         ["render", model, "-o", "{out}/no/such/x.png"], 1, said("x.png"))
    case("out_parent_is_file", ["false-success"], "-o under a path whose parent is the model file",
         ["render", model, "-o", "{case}/model.obj/x.png"], [1, 2], said("x.png"))
    case("out_is_directory", ["false-success", "misleading-message"], "-o naming a folder",
         ["render", model, "-o", lambda c: c.mkdir("folder.png")], 1, said("folder.png"))
    case("out_name_too_long", ["misleading-message"], "a 300-byte file name: exit 1, nothing left behind",
         ["render", model, "-o", "{out}/" + "L" * 300 + ".png"], 1, said("LLLLLLLL"))
    case("out_empty_name", ["misleading-message"], "-o '': a usage error or a failed write, named",
         ["render", model, "-o", ""], [1, 2], said(("-o", "output", "empty", "''", '""')))
    case("out_existing_kept_when_load_fails", ["false-success"],
         "a model that fails to load leaves the existing output as it was",
         ["render", lambda c: c.file("model.obj", b"\x01broken"), "-o",
          lambda c: c.file("keep.png", png(2, 2))], 1, said("model.obj"))
    return cases


def cache_cases(root):
    cases = []
    cache = "{env}/cache/facet"

    c = Case(root, "cache_dir_is_file", ["misleading-message"], ["cache"],
             "the cache folder is a regular file: one warning, the render goes on")
    cases.append(c.expect(render(model(c)), 0, said(("cache",)), outputs=["out.png"], cache=True,
                          setup=[{"op": "write", "path": cache, "data": "not a folder"}],
                          at_most=[("(?i)cache", 1)]))

    c = Case(root, "cache_entry_truncated", ["misleading-message"], ["cache"],
             "a damaged cache entry is rebuilt and reported once, not twice (#46)")
    m = model(c)
    cases.append(c.expect(render(m), 0, said(("cache",)), outputs=["out.png", "prime.png"], cache=True,
                          setup=[{"op": "facet", "args": ["render", m, "-o", "{out}/prime.png"]},
                                 {"op": "truncate", "glob": cache + "/*.fscene", "size": 100}],
                          at_most=[("(?i)cache", 1)]))

    c = Case(root, "cache_stale_gltf_buffer", ["silent-change"], ["cache", "gltf"],
             "the glTF's external .bin changes after the first load: the cached scene must not be drawn")
    doc, blob = gltf_triangle(uri="geom.bin")
    c.file("geom.bin", blob)
    c.file("other.bin", gltf_triangle(positions=OTHER_TRIANGLE, uri="x")[1])
    m = write_gltf(c, doc)
    cases.append(stale_case(c, m, "{case}/other.bin", "{case}/geom.bin"))

    c = Case(root, "cache_stale_mtl_in_subfolder", ["silent-change"], ["cache", "mtl"],
             "an MTL named in a subfolder changes colour after the first load")
    c.file("sub/m.mtl", "newmtl m\nKd 1 0 0\n")
    c.file("blue.mtl", "newmtl m\nKd 0 0 1\n")
    m = c.file("model.obj", "mtllib sub/m.mtl\nusemtl m\n" + OBJ_TRIANGLE)
    cases.append(stale_case(c, m, "{case}/blue.mtl", "{case}/sub/m.mtl"))
    return cases


def stale_case(c, model_path, new, dependency):
    """Prime the cache, replace a dependency, render through the cache, then without it: the
    two pictures must be the same."""
    return c.expect(render(model_path), 0, None, outputs=["out.png", "prime.png", "fresh.png"],
                    cache=True, same=[("{out}/out.png", "{out}/fresh.png")],
                    setup=[{"op": "facet", "args": ["render", model_path, "-o", "{out}/prime.png"]},
                           {"op": "copy", "from": new, "to": dependency}],
                    post=[{"op": "facet", "no_cache": True,
                           "args": ["render", model_path, "-o", "{out}/fresh.png"]}])


def all_cases(root):
    return names_input_cases(root) + failed_write_cases(root) + cache_cases(root)
