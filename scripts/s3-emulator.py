#!/usr/bin/env python3
"""An S3-compatible store for tests and trials: moto_server (PyPI `moto[server]`) on a free
127.0.0.1 port, checking SigV4 signatures, with a user, its access key, an inline policy on one
bucket, and the bucket — made through moto's own IAM and S3 APIs in its first unauthenticated
calls (INITIAL_NO_AUTH_ACTION_COUNT).

Prints one JSON line {"endpoint", "bucket", "access_key_id", "secret_access_key", "pid"} and runs
until it gets SIGTERM or its standard input closes (so a test that dies takes it along).

    scripts/s3-emulator.py --bucket petspot-photos
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

# Calls made before signatures are checked: create user, access key, policy, bucket (+ slack
# for the readiness probe). Everything after these is signed and checked.
SETUP_CALLS = 4


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bucket", default="petspot-photos")
    parser.add_argument("--region", default="us-east-1")
    arguments = parser.parse_args()

    import boto3  # noqa: E402 - only needed once the arguments are fine
    from botocore.config import Config

    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    environment = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT=str(SETUP_CALLS))
    server = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)], env=environment,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def stop(*_):
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    deadline = time.time() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                sys.exit("moto_server did not start")
            time.sleep(0.1)

    setup = dict(endpoint_url=endpoint, region_name=arguments.region, aws_access_key_id="setup",
                 aws_secret_access_key="setup", config=Config(retries={"max_attempts": 1}))
    iam = boto3.client("iam", **setup)
    iam.create_user(UserName="petspot")
    key = iam.create_access_key(UserName="petspot")["AccessKey"]
    iam.put_user_policy(UserName="petspot", PolicyName="photos", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3:*"],
                       "Resource": [f"arn:aws:s3:::{arguments.bucket}", f"arn:aws:s3:::{arguments.bucket}/*"]}],
    }))
    boto3.client("s3", **setup).create_bucket(Bucket=arguments.bucket)

    print(json.dumps({"endpoint": endpoint, "bucket": arguments.bucket, "region": arguments.region,
                      "access_key_id": key["AccessKeyId"], "secret_access_key": key["SecretAccessKey"],
                      "pid": server.pid}), flush=True)

    def watch_stdin():
        sys.stdin.read()
        stop()

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.wait()


if __name__ == "__main__":
    main()
