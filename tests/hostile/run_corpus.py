#!/usr/bin/env python3
"""Runs facet on the hostile corpus (make_corpus.py) and judges every case: the judge of issues
#46 ("Tests that can fail") and #52.

Why: each case says what the issues demand (exit code, a message naming the file and the
problem, no flood, no raw control character, no echo of a long value), so a case fails until
facet behaves, and fails again if it ever stops. Beyond each case's own expectations every run
is checked for: a hang (killed after --timeout seconds), death by a signal, a sanitizer report,
peak resident memory above the bound (measured with wait4's ru_maxrss), an input changed,
removed or joined by a stray file, and an output folder holding anything but the expected
outputs (a partial file, a temporary left behind).

    python3 tests/hostile/run_corpus.py BUILD_DIR/app/facet WORK_DIR [-j N] [--only REGEX]
                                        [--timeout S] [--sanitized] [-v]

WORK_DIR/corpus is regenerated each run; WORK_DIR/out/NAME is the case's output folder and
working directory; WORK_DIR/env/NAME holds its HOME, XDG_CACHE_HOME, XDG_CONFIG_HOME and TMPDIR,
so no run sees the user's files. Runs use the CPU backend at 64x48 with the scene cache off
(bench: --no-gl --no-vertices --sizes 64x48 --frames 1), unless a case's own arguments say
otherwise. Prints one line per failing case and a summary; WORK_DIR/results.json holds every
case's command, exit, peak memory and stderr head. Exit status 1 when any case fails.
CTest runs it as `hostile_corpus` (tests/hostile/CMakeLists.txt).
"""
import argparse
import glob
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import corpus_checks as checks  # noqa: E402

# Peak-memory bound of a case: baseline + RSS_SLACK_MIB + RSS_PER_INPUT_BYTE x input bytes.
# The baseline is measured each run on the one-triangle case (the process itself: libraries,
# threads, a 64x48 frame), so a sanitizer build is judged against its own baseline.
RSS_SLACK_MIB = 64          # #46's "64 MB + 8 S": working memory any load may take above that
RSS_PER_INPUT_BYTE = 8      # #46's 8 S: a parsed model may hold several copies of its file
# With --sanitized (a FACET_SANITIZE build): AddressSanitizer keeps up to 256 MiB of freed memory
# in quarantine and adds shadow and redzones, none of it facet's doing.
RSS_SLACK_SANITIZED_MIB = 64 + 256 + 64
# Killed outright this far above its bound: a memory explosion must not take the shared CI
# machine with it (the case fails either way).
RSS_KILL_MARGIN_MIB = 256
RSS_POLL_S = 0.02           # how often the watchdog looks at a running child
TIMEOUT_S = 10              # a case still running after this long hangs
STDERR_KEEP = 4 << 20       # bytes of stderr judged (a flood beyond this is a flood all the same)
RENDER_DEFAULTS = (("--backend", "cpu"), ("--size", "64x48"))
BENCH_DEFAULTS = (("--backend", "cpu"), ("--no-gl", None), ("--no-vertices", None),
                  ("--sizes", "64x48"), ("--frames", "1"))


def with_defaults(args, cache):
    """facet's arguments with the fast, hermetic defaults appended where the case set none."""
    command = next((a for a in args if a in ("render", "bench", "view")), None)
    extra = []
    defaults = RENDER_DEFAULTS if command == "render" else BENCH_DEFAULTS if command == "bench" else ()
    for opt, value in defaults:
        if opt not in args:
            extra += [opt] + ([value] if value else [])
    if command == "render" and not cache and "--no-cache" not in args:
        extra.append("--no-cache")
    return list(args) + extra


class Runner:
    def __init__(self, facet, work, timeout, verbose, slack_mib):
        self.facet, self.work, self.timeout, self.verbose = facet, work, timeout, verbose
        self.slack_mib = slack_mib
        self.baseline_kib = None
        self.lock = threading.Lock()
        self.local = threading.local()
        self.servers = []

    def places(self, case):
        return {"{case}": os.path.join(self.work, "corpus", case["name"]),
                "{out}": os.path.join(self.work, "out", case["name"]),
                "{env}": os.path.join(self.work, "env", case["name"]),
                "{dir}": os.path.join(self.work, "corpus")}

    def expander(self, case):
        places = self.places(case)

        def expand(text):
            for k, v in places.items():
                text = text.replace(k, v)
            return text
        return expand

    def environment(self, case, expand):
        env_dir = expand("{env}")
        env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_") and k not in ("HOME", "TMPDIR")}
        env.update({"HOME": env_dir + "/home", "XDG_CACHE_HOME": env_dir + "/cache",
                    "XDG_CONFIG_HOME": env_dir + "/config", "TMPDIR": env_dir + "/tmp"})
        for d in ("home", "cache", "config", "tmp"):
            os.makedirs(os.path.join(env_dir, d), exist_ok=True)
        env.update({k: expand(v) for k, v in case["env"].items()})
        return env

    def server(self):
        """This thread's spawn_server.py (why it exists: its header)."""
        srv = getattr(self.local, "server", None)
        if srv is None:
            srv = subprocess.Popen([sys.executable, "-S", os.path.join(HERE, "spawn_server.py")],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            self.local.server = srv
            with self.lock:
                self.servers.append(srv)
        return srv

    def spawn(self, argv, cwd, env, bound_kib, tag):
        """Runs one child; returns (status, peak KiB, stdout, stderr, timed_out, killed_for_memory)."""
        out_path, err_path = (os.path.join(env["TMPDIR"], tag + ext) for ext in (".stdout", ".stderr"))
        fields = [cwd, out_path, err_path, str(len(argv))] + argv + ["%s=%s" % kv for kv in env.items()]
        payload = b"\0".join(os.fsencode(f) for f in fields)
        srv = self.server()
        srv.stdin.write(b"%010d" % len(payload) + payload)
        pid = int(srv.stdout.readline().split()[1])
        start, timed_out, killed = time.monotonic(), False, None
        kill_kib = bound_kib + RSS_KILL_MARGIN_MIB * 1024 if bound_kib else None
        while not select.select([srv.stdout], [], [], RSS_POLL_S)[0]:
            if timed_out or killed:
                continue
            rss = proc_status_kib(pid)
            if kill_kib and rss > kill_kib:
                killed = "%.0f MiB and growing" % (rss / 1024)
            elif time.monotonic() - start > self.timeout:
                timed_out = True
            if timed_out or killed:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        _, status, peak = srv.stdout.readline().split()
        return int(status), int(peak), read_text(out_path), read_text(err_path), timed_out, killed

    def close(self):
        for srv in self.servers:
            srv.stdin.close()
            srv.wait()

    def step(self, op, case, expand, env):
        """A setup or post step; returns a problem or None."""
        kind = op["op"]
        if kind == "facet":
            argv = [self.facet] + with_defaults([expand(a) for a in op["args"]],
                                                case["cache"] and not op.get("no_cache"))
            status, _, _, err, timed_out, _ = self.spawn(argv, expand("{out}"), env, None, "step")
            if timed_out or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
                return "step failed: %s: %s" % (shlex.join(op["args"][:2]), checks.printable(err, 200))
        elif kind == "copy":
            shutil.copyfile(expand(op["from"]), expand(op["to"]))
        elif kind == "write":
            os.makedirs(os.path.dirname(expand(op["path"])), exist_ok=True)
            with open(expand(op["path"]), "w") as f:
                f.write(op["data"])
        elif kind == "truncate":
            hits = glob.glob(expand(op["glob"]))
            if not hits:
                return "step found nothing to truncate at " + op["glob"]
            for path in hits:
                os.truncate(path, op["size"])
        return None

    def bound_kib(self, case):
        if self.baseline_kib is None:
            return None
        return self.baseline_kib + self.slack_mib * 1024 + RSS_PER_INPUT_BYTE * case["input_bytes"] // 1024

    def run(self, case):
        expand = self.expander(case)
        os.makedirs(expand("{out}"))
        env = self.environment(case, expand)
        problems = []
        for op in case["setup"]:
            problems += filter(None, [self.step(op, case, expand, env)])
        before = checks.snapshot(expand("{case}"))
        outputs_before = checks.listing(expand("{out}"))
        argv = [self.facet] + with_defaults([expand(a) for a in case["args"]], case["cache"])
        bound = self.bound_kib(case)
        status, peak, out, err, timed_out, killed = self.spawn(argv, expand(case["cwd"]), env, bound, "run")
        for op in case["post"]:
            problems += filter(None, [self.step(op, case, expand, env)])
        problems = checks.check_exit(status, case["exit"], timed_out, killed, self.timeout) + problems
        problems += checks.check_text(case, err, out, self.places(case))
        if bound is not None:
            problems += checks.check_memory(peak, bound)
        problems += checks.check_inputs(before, checks.snapshot(expand("{case}")))
        succeeded = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        problems += checks.check_outputs(expand("{out}"), outputs_before, succeeded, case["outputs"],
                                         case["optional"])
        problems += checks.check_same(case["same"], expand)
        result = {"name": case["name"], "why": case["why"], "classes": case["classes"], "formats": case["formats"],
                  "problems": problems, "command": shlex.join(argv), "cwd": expand(case["cwd"]),
                  "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status),
                  "peak_kib": peak, "bound_kib": bound, "stderr_head": err[:2000]}
        if problems:
            self.report(result)
        return result

    def report(self, r):
        head = " / ".join(checks.printable(line, 160) for line in r["stderr_head"].splitlines()[:2]) or "(empty)"
        with self.lock:
            print("FAIL %s [%s]: %s | stderr: %s" % (r["name"], ",".join(r["classes"]), "; ".join(r["problems"]),
                                                     head), flush=True)
            if self.verbose:
                command = checks.printable(r["command"], 400)
                print("     why: %s\n     cd %s && %s" % (r["why"], shlex.quote(r["cwd"]), command), flush=True)


def proc_status_kib(pid, field="VmRSS:"):
    """A memory figure of a running process (KiB), 0 once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def read_text(path):
    with open(path, "rb") as f:
        return f.read(STDERR_KEEP).decode("utf-8", "surrogateescape")


def fresh_work_dir(work):
    os.makedirs(work, exist_ok=True)
    for sub in ("corpus", "out", "env"):
        shutil.rmtree(os.path.join(work, sub), ignore_errors=True)


def summarize(results, runner, elapsed):
    failed = [r for r in results if r["problems"]]
    print("hostile corpus: %d cases, %d passed, %d failed, %.1f s"
          % (len(results), len(results) - len(failed), len(failed), elapsed))
    by_class = {}
    for r in results:
        for k in r["classes"] or ["baseline"]:
            total, bad = by_class.get(k, (0, 0))
            by_class[k] = (total + 1, bad + (1 if r["problems"] else 0))
    print("  failed by class: " + ", ".join("%s %d/%d" % (k, v[1], v[0]) for k, v in sorted(by_class.items())))
    peak = max(results, key=lambda r: r["peak_kib"])
    print("  peak memory: baseline %.1f MiB (one triangle); bound baseline + %d MiB + %d x input bytes; "
          "highest %.1f MiB (%s)" % (runner.baseline_kib / 1024, runner.slack_mib, RSS_PER_INPUT_BYTE,
                                     peak["peak_kib"] / 1024, peak["name"]))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    ap.add_argument("facet")
    ap.add_argument("work")
    ap.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", help="run only the cases whose name matches this regex")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S)
    ap.add_argument("--sanitized", action="store_true", help="facet is a sanitizer build: room for its allocator")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failing case's reason and command")
    a = ap.parse_args(argv[1:])
    facet, work = os.path.abspath(a.facet), os.path.abspath(a.work)
    if not os.access(facet, os.X_OK):
        print("run_corpus: %s is not an executable" % facet, file=sys.stderr)
        return 2
    start = time.monotonic()
    fresh_work_dir(work)
    corpus = os.path.join(work, "corpus")
    made = subprocess.run([sys.executable, os.path.join(HERE, "make_corpus.py"), corpus], stdout=subprocess.PIPE)
    if made.returncode != 0:
        print("run_corpus: make_corpus.py failed", file=sys.stderr)
        return 2
    with open(os.path.join(corpus, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    runner = Runner(facet, work, a.timeout, a.verbose, RSS_SLACK_SANITIZED_MIB if a.sanitized else RSS_SLACK_MIB)
    base = [c for c in cases if c["name"].startswith("baseline_")]
    rest = [c for c in cases if not c["name"].startswith("baseline_") and (not a.only or re.search(a.only, c["name"]))]
    results = [runner.run(c) for c in base]
    if any(r["problems"] for r in results):
        print("run_corpus: the baseline case fails; nothing else is judged", file=sys.stderr)
        runner.close()
        return 1
    runner.baseline_kib = results[0]["peak_kib"]
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        results += list(pool.map(runner.run, rest))
    runner.close()
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump({"baseline_kib": runner.baseline_kib, "results": results}, f, indent=1)
    summarize(results, runner, time.monotonic() - start)
    return 1 if any(r["problems"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
