"""A worker process's tie to the bot: `follow(bot_pid)`, run as the worker starts, ends
the worker as soon as the bot's process is gone, however it went. Without it a worker
of a bot killed with SIGKILL (which runs no clean-up) waits for its next task forever,
holding the bot's stdout and stderr open and keeping multiprocessing's resource
tracker alive, which ends only once every process that writes to it has.

On Linux the kernel kills the worker when its parent dies. On any POSIX system, and
for a bot that died before that was set, a daemon thread looks at the worker's parent
twice a second and ends the worker once it is no longer the bot (an orphan is adopted by
another process; on Windows, where none is, the thread only waits). Only the standard
library is imported here, so that a worker's start stays cheap."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

EVERY = 0.5  # seconds between two looks at the parent
PR_SET_PDEATHSIG = 1  # prctl's option (linux/prctl.h): a signal when the parent dies


def follow(bot_pid: int) -> None:
    """End this process when `bot_pid`, its parent, is gone."""
    if sys.platform.startswith("linux"):
        _kill_me_with_my_parent()
    if os.getppid() != bot_pid:  # the bot is gone already: this process was adopted
        os._exit(1)
    threading.Thread(target=watch, args=(bot_pid,), name="lifeline", daemon=True).start()


def _kill_me_with_my_parent() -> None:
    """Have Linux send SIGKILL to this process when its parent dies. Linux counts the
    thread that started the process as its parent: the AI's pool starts its workers
    from the event loop's thread, which lives as long as the bot."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no C library to call: the thread watches alone
        pass


def watch(bot_pid: int) -> None:
    """Wait while this process's parent is `bot_pid`, then end the process (what
    `follow` does where Linux sends no signal)."""
    while os.getppid() == bot_pid:
        time.sleep(EVERY)
    os._exit(1)


__all__ = ["follow", "watch"]
