#!/usr/bin/env python3
"""Writes the IndexedDB test databases with a headless Chromium.

Serves page.html on 127.0.0.1, loads it in Debian's chromium-headless-shell
with a fresh profile, waits for the page to post the order its cursors
returned, stops the browser, and copies the origin's LevelDB directory and
that order into the output directory:

    make_indexeddb.py OUT_DIR

    OUT_DIR/chromium_idb/          the *.indexeddb.leveldb directory
    OUT_DIR/chromium_idb.order.json the cursor order, per object store and
                                    index, and the browser's user agent

Needs the chromium-headless-shell package (not a build dependency: the
files it makes are committed).
"""

import http.server
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

HERE = pathlib.Path(__file__).resolve().parent
BROWSER = "/usr/bin/chromium-headless-shell"
TIMEOUT_SECONDS = 120


def to_json(value, indent=""):
    """JSON with one line per cursor entry (a dict with a "key")."""
    inner = indent + " "
    if isinstance(value, dict) and "key" not in value:
        items = [f"{inner}{json.dumps(k)}: {to_json(v, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        items = [inner + to_json(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, separators=(",", ":"))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out_dir = pathlib.Path(sys.argv[1])
    page = (HERE / "page.html").read_bytes()
    result = {}
    posted = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page)

        def do_POST(self):
            length = int(self.headers["Content-Length"])
            result["report"] = json.loads(self.rfile.read(length))
            self.send_response(204)
            self.end_headers()
            posted.set()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    with tempfile.TemporaryDirectory() as profile:
        browser = subprocess.Popen(
            [BROWSER, "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={profile}", f"http://127.0.0.1:{port}/"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if not posted.wait(TIMEOUT_SECONDS):
                sys.exit("the page posted nothing")
        finally:
            # SIGTERM: the browser closes its databases before it exits.
            browser.send_signal(signal.SIGTERM)
            browser.wait(60)
            server.shutdown()
        report = result["report"]
        if "error" in report:
            sys.exit("the page failed: " + report["error"])
        found = sorted(pathlib.Path(profile).rglob("*.indexeddb.leveldb"))
        if len(found) != 1:
            sys.exit(f"expected one IndexedDB directory, found {found}")
        target = out_dir / "chromium_idb"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(found[0], target)
        # The lock and the browser's text log are no part of the data.
        for name in ("LOCK", "LOG", "LOG.old"):
            (target / name).unlink(missing_ok=True)
    version = subprocess.run([BROWSER, "--version"], capture_output=True,
                             text=True).stdout.strip()
    report["browser"] = version
    with open(out_dir / "chromium_idb.order.json", "w") as f:
        f.write(to_json(report) + "\n")
    print(f"wrote {target} with {version}: "
          + ", ".join(sorted(os.listdir(target))))


if __name__ == "__main__":
    main()
