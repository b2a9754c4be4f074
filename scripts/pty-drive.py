#!/usr/bin/env python3
"""Runs a program on a pseudo-terminal and types into it the way a person would: it waits for
what the program shows before typing the next keys, so answers are never typed ahead of their
question (which a line editor handles differently from a person).

The conversation is a JSON list on standard input, one object per step:

    {"expect": "Photo file"}            wait until the program has shown this text (after the
                                        previous expectation's match)
    {"send": "sam\\t"}                   type these keys ("\\t" Tab, "\\r" Enter, "\\u0003" Ctrl-C,
                                        "\\u0004" Ctrl-D)
    {"run": ["petspot", "report", …]}   run another command to its end while the program waits
                                        (its stdin is /dev/null), and record how it ended
    {"expect_exit": true}               wait for the program to end

Prints one JSON object: {"status": exit code (or -signal), "pid": the program's process id,
"transcript": everything the terminal showed, "runs": [{"argv", "status", "stdout", "stderr",
"seconds"}], "terminal": {"echo", "canonical"} (the terminal's settings as the program left
them), "error": null or what went wrong (a step that timed out, with the text it waited for)}. The driver itself exits 0 unless it
is misused, so the caller always gets the transcript.

    scripts/pty-drive.py [--timeout 30] [--stdout FILE] [--line-editor] -- PROGRAM [ARG…] < steps.json

--stdout sends the program's standard output to FILE instead of the terminal (standard input and
standard error stay on the terminal). --line-editor types each "send" only once the terminal is
switched to character-at-a-time input, as a line editor (libedit) does after showing its prompt.
The terminal is 500 columns wide, so long prompts never wrap.
"""
import argparse
import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

# Consecutive 10 ms polls that must find the line editor reading, with no output, before keys are typed.
SETTLE_POLLS = 5
# read(2)'s number in /proc/PID/syscall.
READ_SYSCALL = {"x86_64": "0", "aarch64": "63", "arm64": "63"}.get(os.uname().machine, "0")


class Session:
    def __init__(self, argv, stdout_path, timeout):
        self.timeout = timeout
        self.output = bytearray()
        self.matched = 0
        self.status = None
        pid, fd = pty.fork()
        if pid == 0:
            try:
                if stdout_path:
                    out = os.open(stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    os.dup2(out, 1)
                    os.close(out)
                os.execvp(argv[0], argv)
            except Exception as error:  # the child must never return into the driver
                os.write(2, f"pty-drive: cannot run {argv[0]}: {error}\n".encode())
            os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 500, 0, 0))

    def pump(self, seconds):
        """Reads what the program shows for up to `seconds`; False once the terminal is closed."""
        ready, _, _ = select.select([self.fd], [], [], max(seconds, 0))
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the program ended and the terminal closed
            return False
        if not chunk:
            return False
        self.output += chunk
        return True

    def expect(self, text):
        needle = text.encode()
        deadline = time.monotonic() + self.timeout
        while True:
            found = self.output.find(needle, self.matched)
            if found >= 0:
                self.matched = found + len(needle)
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return f"timed out after {self.timeout} s waiting for {text!r}"
            if not self.pump(min(remaining, 0.5)):
                if self.output.find(needle, self.matched) < 0:
                    return f"the program ended before showing {text!r}"

    def editor_is_reading(self):
        """Whether the terminal reads character by character and the program waits in read(2) on
        its stdin (Linux: /proc/PID/task/*/syscall; elsewhere only the terminal's mode is known)."""
        if termios.tcgetattr(self.fd)[3] & termios.ICANON:
            return False
        tasks = f"/proc/{self.pid}/task"
        if not os.path.isdir(tasks):
            return True
        for task in os.listdir(tasks):
            try:
                with open(f"{tasks}/{task}/syscall") as file:
                    fields = file.read().split()
            except OSError:
                continue
            if len(fields) > 1 and fields[0] == READ_SYSCALL and int(fields[1], 16) == 0:
                return True
        return False

    def send(self, keys, wait_for_editor):
        if wait_for_editor:
            # A line editor prints its prompt, then switches the terminal to character-at-a-time
            # input and reads: keys typed before that are taken by the terminal's own line editing
            # (echoed, Ctrl-D turned into an end-of-file mark), which a person is never fast enough to do.
            # The state must hold, with no output, over a short settle (a few polls), as libedit
            # passes through it briefly while it sets up the terminal for a question.
            deadline = time.monotonic() + self.timeout
            steady = 0
            while steady < SETTLE_POLLS:
                if time.monotonic() >= deadline:
                    return f"timed out after {self.timeout} s waiting for the line editor to read keys"
                before = len(self.output)
                self.pump(0.01)
                steady = steady + 1 if self.editor_is_reading() and len(self.output) == before else 0
        os.write(self.fd, keys.encode())
        return None

    def wait_exit(self):
        deadline = time.monotonic() + self.timeout
        while self.pump(min(max(deadline - time.monotonic(), 0), 0.5)):
            if time.monotonic() >= deadline:
                break
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return None
            time.sleep(0.05)
        return f"timed out after {self.timeout} s waiting for the program to end"

    def kill(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                _, status = os.waitpid(self.pid, 0)
                self.status = os.waitstatus_to_exitcode(status)
            except OSError:
                pass


def run_command(argv, timeout):
    started = time.monotonic()
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        status, out, err = None, expired.stdout or b"", (expired.stderr or b"") + b"\n[timed out]"
    return {"argv": argv, "status": status, "stdout": out.decode(errors="replace"),
            "stderr": err.decode(errors="replace"), "seconds": round(time.monotonic() - started, 3)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=30, help="seconds each step may take")
    parser.add_argument("--stdout", help="a file for the program's standard output")
    parser.add_argument("--line-editor", action="store_true",
                        help="type keys only once the terminal reads character by character (the program edits lines)")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    argv = options.argv[1:] if options.argv[:1] == ["--"] else options.argv
    if not argv:
        parser.error("give the program to run after --")
    steps = json.load(sys.stdin)

    session = Session(argv, options.stdout, options.timeout)
    runs, error = [], None
    for step in steps:
        if "expect" in step:
            error = session.expect(step["expect"])
        elif "send" in step:
            error = session.send(step["send"], options.line_editor)
        elif "run" in step:
            runs.append(run_command(step["run"], step.get("timeout", options.timeout)))
        elif step.get("expect_exit"):
            error = session.wait_exit()
        else:
            error = f"unknown step {step!r}"
        if error:
            break
    if error is None and session.status is None:
        error = session.wait_exit()
    try:
        lflag = termios.tcgetattr(session.fd)[3]
        settings = {"echo": bool(lflag & termios.ECHO), "canonical": bool(lflag & termios.ICANON)}
    except termios.error:
        settings = None
    session.kill()
    json.dump({"status": session.status, "pid": session.pid, "transcript": session.output.decode(errors="replace"),
               "runs": runs, "terminal": settings, "error": error}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
