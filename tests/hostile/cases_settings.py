"""Hostile settings: the defaults file (named by --config, or found in $XDG_CONFIG_HOME), the
cameras file (--cameras) and camera values on the command line. Small text files must be read
with a cap, devices, FIFOs and folders refused without blocking, every value checked for being
finite and in range, and each problem blamed on where it came from (#46, #52)."""
import json

from corpus_lib import LONG_VALUE, OBJ_TRIANGLE, REPEATS, Case, said
from cases_obj import NOT_READ, render

CFG_ENV = {"XDG_CONFIG_HOME": "{case}/cfg"}
IMPLICIT = "cfg/facet/facet.toml"


def with_model(c):
    return c.file("model.obj", OBJ_TRIANGLE)


def config_cases(root):
    cases = []
    c = Case(root, "config_dev_zero", ["unbounded-read"], ["config"],
             "--config /dev/zero read forever and exited 0 (#46): refused at once, exit 2")
    cases.append(c.expect(["--config", "/dev/zero"] + render(with_model(c)), 2, said("/dev/zero", NOT_READ)))

    for kind in ("fifo", "directory", "sparse"):
        c = Case(root, "config_explicit_" + kind, ["unbounded-read"], ["config"],
                 "--config naming a %s: a broken file the user named, exit 2 naming it" % kind)
        path = {"fifo": lambda: c.fifo("cfg.toml"), "directory": lambda: c.mkdir("cfg.toml"),
                "sparse": lambda: c.sparse("cfg.toml", 2 << 30, b"[render]\n")}[kind]()
        cases.append(c.expect(["--config", path] + render(with_model(c)), 2, said("cfg.toml", NOT_READ)))

    for kind in ("fifo", "dev_zero", "directory", "sparse"):
        c = Case(root, "config_implicit_" + kind, ["unbounded-read"], ["config"],
                 "$XDG_CONFIG_HOME/facet/facet.toml is a %s: ignored with one warning, facet goes "
                 "on, no hang" % kind.replace("_", " "))
        c.mkdir("cfg/facet")
        {"fifo": lambda: c.fifo(IMPLICIT), "dev_zero": lambda: c.link(IMPLICIT, "/dev/zero"),
         "directory": lambda: c.mkdir(IMPLICIT),
         "sparse": lambda: c.sparse(IMPLICIT, 2 << 30, b"[render]\n")}[kind]()
        cases.append(c.expect(render(with_model(c)), 0, said("facet.toml"), outputs=["out.png"], env=CFG_ENV,
                              at_most=[("facet\\.toml", 1)]))

    def toml_case(name, classes, why, text, keyword, implicit):
        c = Case(root, name, classes, ["config"], why)
        if implicit:
            c.mkdir("cfg/facet")
            c.file(IMPLICIT, text)
            args, exit, env, fname = render(with_model(c)), 0, CFG_ENV, "facet.toml"
        else:
            args = ["--config", c.file("cfg.toml", text)] + render(with_model(c))
            exit, env, fname = [0, 2], None, "cfg.toml"
        out = ["out.png"] if implicit else []
        cases.append(c.expect(args, exit, said(fname, keyword) if keyword else said(fname), outputs=out,
                              optional=[] if implicit else ["out.png"], env=env, at_most=[(fname, REPEATS)]))

    # Keys the runner never sets on the command line (it adds --size and --backend), so that
    # facet has to read the file's value.
    toml_case("config_implicit_bad_shading", ["misleading-message"],
              "shading = \"glossy\" in the defaults file: warned naming the file and key, then ignored",
              '[render]\nshading = "glossy"\n', ("shading",), True)
    toml_case("config_explicit_bad_shading", ["misleading-message"],
              "the same bad value in a file named by --config: blamed on the file, not on a --shading "
              "the user never typed", '[render]\nshading = "glossy"\n', ("shading",), False)
    toml_case("config_explicit_nan_fov", ["nan"],
              "fov-y = nan (a TOML float) passes a range check made with < and >: refused",
              "[render]\nfov-y = nan\n", ("fov",), False)
    toml_case("config_implicit_nan_near", ["nan"], "near = nan in the defaults file: warned, ignored",
              "[render]\nnear = nan\n", ("near",), True)
    toml_case("config_implicit_inf_far", ["nan"], "far = inf in the defaults file: warned, ignored",
              "[render]\nfar = inf\n", ("far",), True)
    toml_case("config_long_value", ["misleading-message"],
              "shading = a 128 KiB string: warned quoting a few hundred bytes at most",
              '[render]\nshading = "%s"\n' % ("S" * LONG_VALUE), None, False)
    toml_case("config_value_with_controls", ["flood-control"],
              "a value whose TOML escapes make an escape sequence and a bell: echoed escaped",
              '[render]\nshading = "\\u001b]0;owned\\u0007"\n', ("shading",), True)
    toml_case("config_deep_array", ["crash"], "shading = [[[[...]]]] 100,000 deep: no stack overflow",
              "[render]\nshading = " + "[" * 100000 + "]" * 100000 + "\n", None, False)
    toml_case("config_unknown_key", ["misleading-message"], "a misspelt key is named with its file",
              "[render]\ncolour = 3\n", ("colour",), False)
    toml_case("config_flood_unknown_keys", ["flood-control"],
              "10,000 unknown keys in the defaults file: one warning, not 10,000",
              "[render]\n" + "".join("key_%d = 1\n" % i for i in range(10000)), None, True)
    toml_case("config_syntax_error", ["misleading-message"], "a TOML syntax error in the defaults file",
              "[render\nsize = = 3\n", None, True)
    return cases


def cameras_cases(root):
    cases = []

    def cams(c, entries, name="cams.json"):
        return c.file(name, entries if isinstance(entries, str) else json.dumps(entries))

    def shot(**kv):
        entry = {"eye": [2, 1, 2], "target": [0.3, 0.3, 0], "output": "a.png"}
        entry.update(kv)
        return entry

    def case(name, classes, why, entries, exit, stderr, **more):
        c = Case(root, name, classes, ["cameras"], why)
        path = entries(c) if callable(entries) else cams(c, entries)
        args = ["render", with_model(c), "--cameras", path] + more.pop("args", [])
        cases.append(c.expect(args, exit, stderr, **more))
        return c

    case("cameras_dev_zero", ["unbounded-read"], "--cameras naming a link to /dev/zero: refused at once",
         lambda c: c.link("cams.json", "/dev/zero"), [1, 2], said("cams.json", NOT_READ))
    case("cameras_fifo", ["unbounded-read"], "--cameras naming a FIFO with no writer: refused, no hang",
         lambda c: c.fifo("cams.json"), [1, 2], said("cams.json", NOT_READ))
    case("cameras_directory", ["misleading-message"], "--cameras naming a folder: the message names it",
         lambda c: c.mkdir("cams.json"), [1, 2], said("cams.json"))
    case("cameras_sparse_2gib", ["unbounded-read", "memory"], "a 2 GiB cameras file (a hole): refused by size",
         lambda c: c.sparse("cams.json", 2 << 30, b"["), [1, 2], said("cams.json"))
    case("cameras_deep_nesting", ["crash"], "a cameras file nested 100,000 deep: refused, no stack overflow",
         "[" * 100000 + "]" * 100000, [1, 2], said("cams.json"))
    case("cameras_fov_infinite", ["nan"], "fov_y 1e999 parses to infinity: refused naming file, camera, key",
         '[{"eye": [2,1,2], "target": [0,0,0], "fov_y": 1e999, "output": "a.png"}]', [1, 2],
         said("cams.json", ("fov", "1e999")))
    case("cameras_eye_infinite", ["nan"], "an eye of 1e999: refused naming the key",
         '[{"eye": [1e999,1,2], "target": [0,0,0], "output": "a.png"}]', [1, 2], said("cams.json", ("eye", "1e999")))
    case("cameras_size_nan", ["nan"], "size \"nanxnan\": refused naming the key",
         [shot(size="nanxnan")], [1, 2], said("cams.json", ("size",)))
    case("cameras_fov_179_5", ["misleading-message"],
         "fov_y 179.5: the command line refuses it (0.01 to 179), so must the file (#52)",
         [shot(fov_y=179.5)], [1, 2], said("cams.json", ("fov",)))
    case("cameras_up_zero", ["misleading-message"], "an up vector of zero is zero, not 'parallel' (#46)",
         [shot(up=[0, 0, 0])], [1, 2], said("cams.json", ("up",)), stderr_not=["(?i)parallel"])
    case("cameras_near_far_from_command_line", ["misleading-message"],
         "--near 10 --far 1 beside a good cameras file: blamed on the options, not the file (#52)",
         [shot()], 2, said(("--near", "--far")), args=["--near", "10", "--far", "1"])
    case("cameras_empty_list", ["false-success"], "[]: no camera, nothing rendered, is not success",
         [], [1, 2], said("cams.json"))
    case("cameras_output_names_model", ["output-names-input"],
         "a camera whose output is the model itself: exit 2, the model untouched",
         lambda c: cams(c, [shot(output=c.path("model.obj"))]), 2, said("model.obj"))
    case("cameras_output_names_itself", ["output-names-input"],
         "a camera whose output is the cameras file: exit 2, the file untouched",
         lambda c: cams(c, [shot(output=c.path("cams.json"))]), 2, said("cams.json"))
    case("cameras_output_dev_full", ["false-success"], "a camera writing to /dev/full: exit 1 naming it",
         [shot(output="/dev/full")], 1, said("/dev/full", ("space", "write")))
    case("cameras_long_output", ["misleading-message"],
         "an output name of 128 KiB: refused, the message quoting a few hundred bytes at most",
         [shot(output="O" * LONG_VALUE + ".png")], [1, 2], said("OOOOOOOO"))
    case("cameras_output_with_controls", ["flood-control"],
         "an output name with an escape sequence: written, and printed escaped on stdout and stderr",
         [shot(output="ev\x1b[31mil.png")], 0, None, outputs=["ev\x1b[31mil.png"])
    return cases


def command_line_cases(root):
    cases = []
    for name, opt, value, key in (("fov_nan", "--fov-y", "nan", "fov"), ("focal_nan", "--focal-px", "nan", "focal"),
                                  ("near_nan", "--near", "nan", "near"), ("far_inf", "--far", "inf", "far"),
                                  ("eye_nan", "--eye", "nan,0,0", "eye"), ("ortho_nan", "--ortho", "nan", "ortho"),
                                  ("background_nan", "--background", "nan,0,0", "background")):
        c = Case(root, "cli_" + name, ["nan"], ["cli"],
                 "%s %s passes a range check made of comparisons: a usage error naming the option" % (opt, value))
        cases.append(c.expect(render(with_model(c), opt, value), 2, said((key,))))

    c = Case(root, "cli_up_zero", ["misleading-message"], ["cli"], "--up 0,0,0 is zero, not 'parallel' (#46)")
    cases.append(c.expect(render(with_model(c), "--up", "0,0,0"), 2, said(("up",)), stderr_not=["(?i)parallel"]))

    c = Case(root, "cli_size_overflow", ["silent-change"], ["cli"],
             "--size 99999999999999999999x1 must not wrap to a small number")
    cases.append(c.expect(render(with_model(c), "--size", "99999999999999999999x1"), 2, said(("size",))))

    c = Case(root, "cli_turntable_printf_template", ["crash"], ["cli", "output"],
             "a turntable template of %n%s: only %d and %0Nd are numbers; a usage error, no crash")
    args = ["render", with_model(c), "-o", "{out}/x%n%s.png", "--turntable", "2"]
    cases.append(c.expect(args, 2, said(("%n", "%s", "template", "%d"))))
    return cases


def all_cases(root):
    return config_cases(root) + cameras_cases(root) + command_line_cases(root)
