"""Run a command and write its own peak RSS (kB) to a file: ``python -I -S bench/child_rss.py REPORT CMD ARG…``.

Why a launcher: on Linux a process's ``ru_maxrss`` starts from the peak of the memory it was forked from — at
``execve`` the kernel keeps the old address space's high-water mark (``setmax_mm_hiwater_rss`` in
``fs/exec.c``), and a fork copies the parent's. A CLI forked straight from the fault campaign (157 MB of
imports) reported 157 MB for cases that take 52 MB alone. Forked from this small interpreter instead (``-I -S``:
no site packages, about 10 MB), the command's figure is its own; ``os.wait4`` reads it. The exit status is the
command's (a signal that ended it ends this launcher too), and its process group is this one's, so a
watchdog's ``killpg`` reaches both.
"""

import os
import signal
import sys


def main() -> None:
    report, argv = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    with open(report, "w", encoding="ascii") as handle:
        handle.write(str(usage.ru_maxrss))
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
