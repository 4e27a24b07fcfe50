#!/usr/bin/env python3
"""A logging HTTP proxy for scripts/same_prompts.sh: forwards every request to an upstream server
(llmperf-mock) and appends what the client sent to a log, so two llmperf builds can be compared by
the bodies they send.

Usage: capture_proxy.py UPSTREAM_BASE_URL LOG_FILE
Prints 'capture_proxy listening on http://127.0.0.1:PORT' once it listens. Each POST is logged as
one line, 'POST <path> <body>'; GETs (/v1/models, /metrics, /health...) are forwarded but not
logged, as their number depends on timing. Responses are passed back whole, with a Content-Length
(a stream arrives at once: fine for comparing what was sent, not for measuring).
"""
import http.client
import http.server
import sys
import threading
import urllib.parse

UPSTREAM = urllib.parse.urlsplit(sys.argv[1])
LOG = open(sys.argv[2], "ab")
LOG_LOCK = threading.Lock()
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "te", "trailer",
              "upgrade", "proxy-connection", "expect"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.command == "POST":
            with LOG_LOCK:
                LOG.write(b"POST " + self.path.encode() + b" " + body.replace(b"\n", b"\\n") + b"\n")
                LOG.flush()
        upstream = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=300)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        upstream.request(self.command, self.path, body=body or None, headers=headers)
        reply = upstream.getresponse()
        data = reply.read()
        self.send_response(reply.status, reply.reason)
        for key, value in reply.getheaders():
            if key.lower() not in HOP_BY_HOP:
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    do_GET = forward
    do_POST = forward


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"capture_proxy listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
