"""The judge's verdicts on one finished run of a hostile case: each check returns a list of
problems, each a short sentence saying what was expected and what happened. It runs nothing:
run_corpus.py runs facet and hands the results here."""
import hashlib
import os
import re
import signal

# A sanitizer build of facet (build-asan) reports through stderr; any such report is a bug
# whatever the exit code.
SANITIZER = re.compile(r"ERROR: (Address|Leak|Thread|Memory|UndefinedBehavior)Sanitizer|runtime error: "
                       r"|SUMMARY: \w+Sanitizer")
# Files above this are compared by size and time only: the corpus's holes are gigabytes that
# hashing would read for nothing.
HASH_LIMIT = 64 << 20


def printable(text, limit=160):
    """Text as a log line can show it: controls escaped, cut to `limit` characters."""
    out = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: "\\x%02x" % ord(m.group()), text)
    out = out.replace("\n", "\\n")
    return out if len(out) <= limit else out[:limit] + "..."


def snapshot(folder):
    """What a case's inputs are: path -> (kind, size, mtime_ns, sha256 or link target)."""
    state = {}
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(top, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, folder)
            if os.path.islink(path):
                state[rel] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                state[rel] = ("dir",)
            elif not os.path.isfile(path):
                state[rel] = ("special", st.st_mode)
            elif st.st_size > HASH_LIMIT:
                state[rel] = ("file", st.st_size, st.st_mtime_ns)
            else:
                with open(path, "rb") as f:
                    state[rel] = ("file", st.st_size, st.st_mtime_ns, hashlib.sha256(f.read()).hexdigest())
    return state


def check_inputs(before, after):
    changed = sorted(k for k in before if k in after and before[k] != after[k])
    gone = sorted(k for k in before if k not in after)
    new = sorted(k for k in after if k not in before)
    problems = []
    if changed:
        problems.append("inputs changed: " + ", ".join(printable(k, 60) for k in changed))
    if gone:
        problems.append("inputs removed: " + ", ".join(printable(k, 60) for k in gone))
    if new:
        problems.append("files appeared beside the inputs: " + ", ".join(printable(k, 60) for k in new))
    return problems


def listing(out_dir):
    present = set()
    for top, dirs, files in os.walk(out_dir):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            present.add(os.path.relpath(os.path.join(top, name), out_dir))
    return present


def check_outputs(out_dir, before, succeeded, required, optional):
    """After a success every required output is there; after a failure none is (nothing
    partial); either way nothing else appeared (a temporary left behind). `before`: the files
    there before the run (a setup step's outputs)."""
    everything = listing(out_dir)
    present = everything - before
    if not succeeded:
        required = []
    problems = []
    missing = [r for r in required if r not in everything]
    extra = sorted(present - set(required) - set(optional))
    if missing:
        problems.append("expected output missing: " + ", ".join(printable(m, 60) for m in missing))
    if extra:
        problems.append(("left behind: " if succeeded else "left behind by a failed run: ")
                        + ", ".join(printable(e, 60) for e in extra))
    return problems


def check_exit(status, expected, timed_out, killed_for_memory, timeout_s):
    if timed_out:
        return ["hang: killed after %g s" % timeout_s]
    if killed_for_memory:
        return ["killed for memory: resident set %s" % killed_for_memory]
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return ["died of signal %d (%s), expected exit %s" % (sig, signal.Signals(sig).name,
                                                               " or ".join(map(str, expected)))]
    code = os.WEXITSTATUS(status)
    if code not in expected:
        return ["exit %d, expected %s" % (code, " or ".join(map(str, expected)))]
    return []


def check_text(case, stderr, stdout, places):
    """stderr and stdout against the case's regexes. `places`: {placeholder: path}; the paths
    are put back as placeholders before any regex is tried, so that a keyword never matches
    the name of the case's own folder."""
    raw_lines = stderr.splitlines()
    for key, path in places.items():
        stderr, stdout = stderr.replace(path, key), stdout.replace(path, key)
    problems = []
    if SANITIZER.search(stderr):
        problems.append("sanitizer report: " + printable(SANITIZER.search(stderr).group()))
    for rx in case["stderr"]:
        if not re.search(rx, stderr):
            problems.append("stderr lacks a line matching %s" % printable(rx, 120))
    for rx in case["stderr_not"]:
        m = re.search(rx, stderr)
        if m:
            line = stderr[stderr.rfind("\n", 0, m.start()) + 1:].split("\n", 1)[0]
            problems.append("stderr has what it must not (%s): %s" % (printable(rx, 40), printable(line, 100)))
    if case.get("stdout") and not re.search(case["stdout"], stdout):
        problems.append("stdout lacks %s" % printable(case["stdout"]))
    for rx in case.get("stdout_not", []):
        if re.search(rx, stdout):
            problems.append("stdout has what it must not (%s)" % printable(rx, 40))
    lines = stderr.splitlines()
    if len(raw_lines) > case["max_lines"]:
        problems.append("%d stderr lines: a flood (at most %d)" % (len(lines), case["max_lines"]))
    longest = max((len(line.encode("utf-8", "surrogateescape")) for line in raw_lines), default=0)
    if longest > case["max_line_bytes"]:
        problems.append("a stderr line of %d bytes echoes the input (at most %d)" % (longest, case["max_line_bytes"]))
    for rx, n in case.get("at_most", []):
        hits = [line for line in lines if re.search(rx, line)]
        if len(hits) > n:
            problems.append("%d stderr lines match %s, at most %d: one problem said too often" % (len(hits), rx, n))
    return problems


def check_memory(peak_kib, bound_kib):
    if peak_kib > bound_kib:
        return ["peak resident set %.1f MiB, bound %.1f MiB" % (peak_kib / 1024, bound_kib / 1024)]
    return []


def check_same(pairs, expand):
    problems = []
    for a, b in pairs:
        pa, pb = expand(a), expand(b)
        try:
            with open(pa, "rb") as fa, open(pb, "rb") as fb:
                if fa.read() != fb.read():
                    problems.append("%s and %s differ" % (os.path.basename(pa), os.path.basename(pb)))
        except OSError as e:
            problems.append("cannot compare %s and %s: %s" % (os.path.basename(pa), os.path.basename(pb),
                                                              e.strerror))
    return problems
