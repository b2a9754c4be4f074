#!/usr/bin/env python3
"""A real SMTP server for the tests (aiosmtpd), on a free port of 127.0.0.1, that keeps every
message it accepts.

    smtp-sink.py FOLDER [--plain] [--password PASSWORD]

Makes a self-signed certificate for localhost/127.0.0.1 in FOLDER and offers STARTTLS with it,
required before anything else (--plain: no TLS at all, for a relay on loopback). With
--password, AUTH (PLAIN, LOGIN) as user "petspot" is required. Prints one JSON line:
{"port": N, "ca_file": "FOLDER/cert.pem"}. Each message accepted is written as FOLDER/NNNNNN.eml
(the DATA as received) beside NNNNNN.json ({"mail_from", "rcpt_tos", "received_at"}), the .eml
renamed into place last.

Commands on standard input, one per line, each answered "ok" (or "error: …"):
    mode ok            accept mail (the start)
    mode 4xx           answer 451 at the end of DATA (try again later)
    mode 5xx           answer 550 to RCPT (no such user: never)
    mode drop          close the connection in the middle of DATA
    mode slow-ack S    keep the message, then wait S seconds before answering 250
    stop               cut every connection and stop listening (a dead server: refused)
    start              listen again on the same port
    count              answers the number of messages kept
The server stops when standard input closes.
"""
import argparse
import warnings
import asyncio
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult


class State:
    def __init__(self):
        self.mode = "ok"
        self.delay = 0.0
        self.count = 0
        self.lock = threading.Lock()
        # Every open connection's socket transport, to cut them all when the server "dies".
        self.connections = set()


class Handler:
    def __init__(self, folder, state):
        self.folder = folder
        self.state = state

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.state.mode == "5xx":
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.state.mode == "4xx":
            return "451 4.3.0 Temporary local problem, try again later"
        with self.state.lock:
            self.state.count += 1
            number = self.state.count
        base = os.path.join(self.folder, "%06d" % number)
        with open(base + ".json", "w") as meta:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos, "received_at": time.time()}, meta)
        with open(base + ".tmp", "wb") as out:
            out.write(envelope.original_content or envelope.content)
        os.rename(base + ".tmp", base + ".eml")
        if self.state.mode == "slow-ack":
            await asyncio.sleep(self.state.delay)
        return "250 OK: queued"


class SinkSMTP(SMTP):
    """Closes the connection part-way through DATA in the "drop" mode."""

    def __init__(self, handler, state, **kwargs):
        super().__init__(handler, **kwargs)
        self.sink_state = state
        self.socket_transport = None

    def connection_made(self, transport):
        # Called again with the TLS transport after STARTTLS: the first is the socket's.
        if self.socket_transport is None:
            self.socket_transport = transport
            self.sink_state.connections.add(transport)
        super().connection_made(transport)

    def connection_lost(self, error):
        self.sink_state.connections.discard(self.socket_transport)
        super().connection_lost(error)

    async def smtp_DATA(self, arg):
        if self.sink_state.mode != "drop":
            return await super().smtp_DATA(arg)
        if not self.envelope.rcpt_tos:
            return await super().smtp_DATA(arg)
        await self.push("354 End data with <CR><LF>.<CR><LF>")
        try:
            await asyncio.wait_for(self._reader.read(64), 5)
        except Exception:
            pass
        self.transport.close()


class SinkController(Controller):
    def __init__(self, handler, state, **kwargs):
        super().__init__(handler, **kwargs)
        self.sink_state = state

    def factory(self):
        return SinkSMTP(self.handler, self.sink_state, **self.SMTP_kwargs)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_certificate(folder):
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


def main():
    warnings.filterwarnings("ignore")
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--password")
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    state = State()
    handler = Handler(args.folder, state)
    port = free_port()
    options = {"hostname": "127.0.0.1", "port": port, "data_size_limit": 10_000_000}
    cert = None
    if not args.plain:
        cert, key = make_certificate(args.folder)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        options.update(tls_context=context, require_starttls=True)
    if args.password:
        def authenticate(server, session, envelope, mechanism, auth_data):
            # handled=False: aiosmtpd answers 535 itself (handled=True would leave the client waiting).
            return AuthResult(success=auth_data.login == b"petspot" and auth_data.password == args.password.encode(), handled=False)
        options.update(authenticator=authenticate, auth_required=True, auth_require_tls=not args.plain)

    controller = SinkController(handler, state, **options)
    controller.start()
    print(json.dumps({"port": port, "ca_file": cert}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "mode":
                state.mode = words[1]
                state.delay = float(words[2]) if len(words) > 2 else 0.0
                print("ok", flush=True)
            elif words[0] == "stop":
                # As a server that dies: every connection is cut (a client sees it reset), then
                # nothing listens.
                done = threading.Event()
                def cut():
                    for transport in list(state.connections):
                        transport.abort()
                    done.set()
                controller.loop.call_soon_threadsafe(cut)
                done.wait(5)
                controller.stop()
                print("ok", flush=True)
            elif words[0] == "start":
                controller = SinkController(handler, state, **options)
                controller.start()
                print("ok", flush=True)
            elif words[0] == "count":
                print(state.count, flush=True)
            else:
                print("error: unknown command", flush=True)
        except Exception as error:  # a command that failed is said, the sink goes on
            print("error: %s" % error, flush=True)
    try:
        controller.stop()
    except Exception:
        pass


if __name__ == "__main__":
    main()
