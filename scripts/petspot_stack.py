"""Starts what a PetSpot deployment runs on, on 127.0.0.1 and free ports, for the load script
and trials: PostgreSQL (scripts/pg-cluster.py), an S3 emulator (scripts/s3-emulator.py),
petspot-server replicas, and nginx in front of them. Everything is stopped by `Stack.close()`.

    with Stack(binary, backend="postgres-s3", replicas=3, nginx=True) as stack:
        stack.url   # nginx, or the single replica
"""
import base64
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


TICKS = os.sysconf("SC_CLK_TCK")


def process_tree_cpu(pid):
    """Seconds of CPU used by `pid`, its reaped children and every live descendant."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, cutime, cstime (fields 14-17 of stat; 11-14 after the name).
        total += sum(int(value) for value in fields[11:15])
        pending += children.get(current, [])
    return total / TICKS


class Helper:
    """A helper script that prints one JSON line and runs until its standard input closes."""

    def __init__(self, script):
        self.process = subprocess.Popen(["python3", os.path.join(HERE, script)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        try:
            self.info = json.loads(line)
        except json.JSONDecodeError:
            self.close()
            raise RuntimeError(f"{script} did not start: {line!r}")

    def command(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        if answer != "ok":
            raise RuntimeError(f"{line}: {answer}")

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait(timeout=60)


NGINX_CONFIG = """
{user}worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream petspot {{
{servers}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 25m;
        location / {{
            proxy_pass http://petspot;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-ID $request_id;
            # Stream uploads to a replica as they arrive instead of spooling them to disk first.
            proxy_request_buffering off;
            proxy_connect_timeout 2s;
            proxy_read_timeout 120s;
            proxy_send_timeout 120s;
            # Only requests that never reached a replica move on to the next one; a POST that did
            # is the client's to retry (with its Idempotency-Key).
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


class Stack:
    def __init__(self, binary, backend="sqlite", replicas=1, nginx=False, server_args="", log_dir=None):
        self.folder = tempfile.mkdtemp(prefix="petspot-stack-")
        self.postgres = self.s3 = self.nginx = None
        self.replicas = []
        self.backend = backend
        try:
            environment = dict(os.environ)
            arguments = ["--log-level", "warning", *shlex.split(server_args)]
            if backend == "postgres-s3":
                self.postgres = Helper("pg-cluster.py")
                self.postgres.command("createdb petspot")
                self.database_url = self.postgres.info["base_url"] + "/petspot"
                self.s3 = Helper("s3-emulator.py")
                # Every replica checks management passwords with the same key.
                environment.setdefault("PETSPOT_PASSWORD_KEY", "v1:" + base64.b64encode(os.urandom(32)).decode())
                environment.update(PETSPOT_DATABASE_URL=self.database_url,
                                   AWS_ACCESS_KEY_ID=self.s3.info["access_key_id"],
                                   AWS_SECRET_ACCESS_KEY=self.s3.info["secret_access_key"])
                arguments += ["--photo-store", f"s3://{self.s3.info['bucket']}/photos",
                              "--s3-endpoint", self.s3.info["endpoint"]]
            elif replicas != 1:
                raise ValueError("several replicas need --backend postgres-s3")
            self.nginx_port = free_port() if nginx else None
            if nginx:
                # Replicas hand out photo URLs on the balancer, not on themselves.
                arguments += ["--trusted-proxy", "127.0.0.1", "--public-url", f"http://127.0.0.1:{self.nginx_port}"]
            self.environment, self.arguments, self.binary = environment, arguments, binary
            for index in range(replicas):
                self.replicas.append(self.start_replica(index))
            self.url = self.replicas[0]["url"]
            if nginx:
                self.start_nginx()
        except BaseException:
            self.close()
            raise

    def start_replica(self, index):
        data_dir = os.path.join(self.folder, f"replica-{index}")
        log = open(os.path.join(self.folder, f"replica-{index}.log"), "w")
        process = subprocess.Popen([self.binary, "--port", "0", "--data-dir", data_dir, *self.arguments],
                                   env=self.environment, stdout=subprocess.PIPE, stderr=log, text=True)
        # The address line comes after the metrics line when --metrics-port is given.
        line, match = "", None
        for _ in range(3):
            line = process.stdout.readline()
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
            if match or not line:
                break
        if not match:
            process.kill()
            raise RuntimeError(f"replica {index} did not start: {line!r} "
                               + open(os.path.join(self.folder, f"replica-{index}.log")).read()[-2000:])
        return {"process": process, "url": match.group(1), "data_dir": data_dir, "log": log}

    def start_nginx(self):
        port = self.nginx_port
        servers = "\n".join(f"        server {r['url'][len('http://'):]} max_fails=1 fail_timeout=5s;" for r in self.replicas)
        config = os.path.join(self.folder, "nginx.conf")
        with open(config, "w") as f:
            f.write(NGINX_CONFIG.format(user="user root;\n" if os.geteuid() == 0 else "", dir=self.folder,
                                        servers=servers, port=port))
        self.nginx = subprocess.Popen(["nginx", "-c", config, "-p", self.folder, "-e", os.path.join(self.folder, "error.log")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.time() > deadline or self.nginx.poll() is not None:
                    raise RuntimeError("nginx did not start: " + open(os.path.join(self.folder, "error.log")).read()[-2000:])
                time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"

    def kill_replica(self, index):
        self.replicas[index]["process"].send_signal(signal.SIGKILL)
        self.replicas[index]["process"].wait()

    def peak_rss_mb(self):
        peaks = []
        for replica in self.replicas:
            try:
                with open(f"/proc/{replica['process'].pid}/status") as status:
                    peaks.append(next(int(l.split()[1]) / 1024 for l in status if l.startswith("VmHWM:")))
            except (OSError, StopIteration):
                peaks.append(float("nan"))
        return peaks

    def cpu_seconds(self):
        """CPU time (user + system, seconds) used so far by each part of the stack: the replicas,
        PostgreSQL (the cluster's processes and the backends it has reaped), the S3 emulator and
        nginx, read from /proc."""
        parts = {"server": [r["process"].pid for r in self.replicas]}
        if self.postgres:
            # pg_ctl detaches the postmaster: its pid is the first line of postmaster.pid.
            try:
                with open(os.path.join(self.postgres.info["dir"], "data", "postmaster.pid")) as f:
                    parts["postgres"] = [int(f.readline())]
            except (OSError, ValueError):
                parts["postgres"] = []
        if self.s3:
            parts["s3"] = [self.s3.process.pid]
        if self.nginx:
            parts["nginx"] = [self.nginx.pid]
        return {name: sum(process_tree_cpu(pid) for pid in pids) for name, pids in parts.items()}

    def sql(self, query):
        """One value from the database (postgres-s3 only), through psql."""
        result = subprocess.run(["psql", self.database_url, "-At", "-c", query], capture_output=True, text=True, check=True)
        return result.stdout.strip()

    def bucket_keys(self):
        import boto3
        s3 = boto3.client("s3", endpoint_url=self.s3.info["endpoint"], region_name="us-east-1",
                          aws_access_key_id=self.s3.info["access_key_id"],
                          aws_secret_access_key=self.s3.info["secret_access_key"])
        keys = set()
        # Prefix without its "/": moto 5 rejects the signature of a query holding "%2F".
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=self.s3.info["bucket"], Prefix="photos"):
            keys.update(item["Key"][len("photos/"):] for item in page.get("Contents", []) if item["Key"].startswith("photos/"))
        return keys

    def close(self):
        if self.nginx:
            self.nginx.terminate()
            self.nginx.wait(timeout=30)
        for replica in self.replicas:
            if replica["process"].poll() is None:
                replica["process"].terminate()
                try:
                    replica["process"].wait(timeout=40)
                except subprocess.TimeoutExpired:
                    replica["process"].kill()
            replica["log"].close()
        for helper in (self.s3, self.postgres):
            if helper:
                helper.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()
