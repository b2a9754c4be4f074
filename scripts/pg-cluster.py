#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for tests and trials: Debian's PostgreSQL 15 binaries, initdb in
a temporary folder (as the `postgres` user when run as root: initdb and pg_ctl refuse root),
a superuser `petspot` with a random password (scram-sha-256), listening on a free 127.0.0.1 port,
durability off (fsync=off: it is thrown away).

Prints one JSON line {"url", "port", "dir"} and then reads commands, one per line on standard
input, answering each with a line "ok" (or "error: ..."):
  createdb NAME     a database (answers ok if it exists already)
  restart           stops the server at once (-m immediate: connections drop) and starts it again
  stop / start      the same in two steps
When standard input closes (the test process ended, however it ended), the cluster is stopped
and its folder removed.

    scripts/pg-cluster.py            # then: psql "$(... url ...)"
"""
import glob
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def binaries():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        sys.exit("PostgreSQL is not installed (apt-get install postgresql, or run scripts/install-deps.sh)")
    return os.path.dirname(found[-1])


def main():
    bindir = binaries()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    root = tempfile.mkdtemp(prefix="petspot-pg-")
    os.chmod(root, 0o755)
    data = os.path.join(root, "data")
    password = secrets.token_hex(16)
    pwfile = os.path.join(root, "pw")
    with open(pwfile, "w") as f:
        f.write(password + "\n")
    if as_postgres:
        shutil.chown(root, "postgres", "postgres")
        shutil.chown(pwfile, "postgres", "postgres")
    port = free_port()

    def run(*command):
        return subprocess.run(as_postgres + list(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    result = run(f"{bindir}/initdb", "-D", data, "-U", "petspot", f"--pwfile={pwfile}", "--auth=scram-sha-256",
                 "-E", "UTF8", "--no-sync")
    os.unlink(pwfile)
    if result.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        sys.exit("initdb failed: " + result.stderr)
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
               "-c full_page_writes=off -c max_connections=500 -c shared_buffers=64MB")

    def start():
        return run(f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(root, "log"), "-o", options, "-w", "-t", "60", "start")

    def stop():
        return run(f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")

    result = start()
    if result.returncode != 0:
        log = open(os.path.join(root, "log")).read() if os.path.exists(os.path.join(root, "log")) else ""
        shutil.rmtree(root, ignore_errors=True)
        sys.exit("pg_ctl start failed: " + result.stderr + log)
    url = f"postgres://petspot:{password}@127.0.0.1:{port}"
    print(json.dumps({"url": url + "/postgres", "base_url": url, "port": port, "dir": root}), flush=True)
    environment = dict(os.environ, PGPASSWORD=password)
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "createdb" and len(words) == 2:
                created = subprocess.run([f"{bindir}/createdb",
                                          "-h", "127.0.0.1", "-p", str(port), "-U", "petspot", words[1]],
                                         env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                ok = created.returncode == 0 or "already exists" in created.stderr
                print("ok" if ok else "error: " + created.stderr.strip().replace("\n", " "), flush=True)
            elif words[0] in ("restart", "stop", "start"):
                result = None
                if words[0] in ("restart", "stop"):
                    result = stop()
                if words[0] in ("restart", "start") and (result is None or result.returncode == 0):
                    result = start()
                print("ok" if result.returncode == 0 else "error: " + result.stderr.strip().replace("\n", " "), flush=True)
            else:
                print("error: unknown command " + words[0], flush=True)
    finally:
        stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
