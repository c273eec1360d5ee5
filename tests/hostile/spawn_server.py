"""A small process that starts facet for run_corpus.py and reports its exit status and peak
resident memory (wait4's ru_maxrss, KiB).

Why a process of its own: Linux's ru_maxrss of a child also counts what the process that forked
it held at the fork (exec keeps the larger figure). Forked from the runner (20 MiB and more of
Python and its modules) every child would look at least that big, larger than facet's own
baseline; this server imports nothing but os and sys (run with python3 -S: about 8.5 MiB).

Protocol, on stdin and stdout, one request at a time: the runner writes a 10-digit length and
that many bytes, NUL-separated: cwd, stdout file, stderr file, the argument count, the arguments,
then the environment as KEY=VALUE. The server answers "pid N\\n" once the child runs, then
"done STATUS MAXRSS_KIB\\n" when it has ended (killing it, on a timeout, is the runner's job).
"""
import os
import sys


def read_exact(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def start(fields):
    cwd, out, err, argc = fields[0], fields[1], fields[2], int(fields[3])
    argv, env = fields[4:4 + argc], fields[4 + argc:]
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()  # its own process group, so the runner can kill it and anything it starts
            fd_in = os.open(os.devnull, os.O_RDONLY)
            fd_out = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            fd_err = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            for fd, target in ((fd_in, 0), (fd_out, 1), (fd_err, 2)):
                os.dup2(fd, target)
            os.closerange(3, 1 << 16)
            os.chdir(cwd)
            os.execve(argv[0], argv, dict(kv.split(b"=", 1) for kv in env))
        except OSError as e:
            os.write(2, b"spawn_server: cannot start %s: %s\n" % (argv[0], e.strerror.encode()))
        os._exit(127)
    return pid


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            size = int(read_exact(stdin, 10))
            fields = read_exact(stdin, size).split(b"\0")
        except EOFError:
            return 0
        pid = start(fields)
        stdout.write(b"pid %d\n" % pid)
        stdout.flush()
        _, status, usage = os.wait4(pid, 0)
        stdout.write(b"done %d %d\n" % (status, usage.ru_maxrss))
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
