#!/usr/bin/env python3
"""A minimal HTTPS OpenAI-compatible endpoint for llmperf's TLS tests.

Usage: tls_server.py CERT KEY. Listens on a free loopback port, prints
'tls server listening on https://127.0.0.1:PORT' and answers every POST with one
non-stream chat.completion object (with usage) until killed.
"""
import http.server
import json
import ssl
import sys

BODY = json.dumps({
    "id": "chatcmpl-1", "object": "chat.completion", "model": "tls",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hello"},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"tls server listening on https://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
