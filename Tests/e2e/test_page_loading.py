"""The page as `tableweb serve` serves it from its binary (no --public): what the first
screen costs on the wire. One HTML file naming the page's code (every module joined) and
style by content hash, kept by browsers for good; each sent compressed when the browser
accepts it; the WebSocket opened by the HTML's inline script, its hello carried in the
upgrade, so the first screen follows the upgrade at once."""
import base64
import gzip
import hashlib
import http.client
import json
import os
import re

import pytest
from websockets.asyncio.client import connect

from page_helpers import PUBLIC, Server, browser, new_page  # noqa: F401 (fixtures)
from test_transport import TIMEOUT, run

BUDGET = 40 * 1024  # everything the first screen needs, as sent (compressed)


@pytest.fixture(scope="module")
def server():
    s = Server(public=None)
    yield s
    s.close()


def get(server, path, **headers):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def page_files(server):
    """The HTML (identity) and the names of the code and style it loads."""
    _, _, html = get(server, "/")
    html = html.decode()
    scripts = re.findall(r'<script type="module" src="([^"]+)">', html)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
    return html, scripts, styles


def test_the_html_names_one_script_and_one_style_by_content_hash(server):
    html, scripts, styles = page_files(server)
    assert len(scripts) == 1 and re.fullmatch(r"page-[0-9a-f]{12}\.js", scripts[0]), scripts
    assert len(styles) == 1 and re.fullmatch(r"style-[0-9a-f]{12}\.css", styles[0]), styles
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == ["data:,", styles[0], scripts[0]]
    _, _, code = get(server, "/" + scripts[0])
    assert hashlib.sha256(code).hexdigest()[:12] == scripts[0][5:17]
    assert not re.search(rb"^(import|export) ", code, re.M)  # joined: no module syntax left


def test_hashed_files_are_kept_for_good_and_the_html_is_revalidated(server):
    _, scripts, styles = page_files(server)
    for path in ("/" + scripts[0], "/" + styles[0]):
        status, headers, _ = get(server, path)
        assert status == 200 and headers["cache-control"] == "public, max-age=31536000, immutable", path
    status, headers, _ = get(server, "/")
    assert status == 200 and headers["cache-control"] == "no-cache"
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    again, headers304, body = get(server, "/", **{"If-None-Match": headers["etag"]})
    assert again == 304 and body == b"" and headers304["etag"] == headers["etag"]
    assert get(server, "/", **{"If-None-Match": '"other"'})[0] == 200


def test_each_file_is_sent_as_the_browser_accepts_it(server):
    _, scripts, _ = page_files(server)
    path = "/" + scripts[0]
    _, plain_headers, plain = get(server, path)
    assert "content-encoding" not in plain_headers and plain_headers["vary"] == "Accept-Encoding"
    _, headers, zipped = get(server, path, **{"Accept-Encoding": "gzip, deflate"})
    assert headers["content-encoding"] == "gzip" and gzip.decompress(zipped) == plain
    _, headers, brotli = get(server, path, **{"Accept-Encoding": "gzip, deflate, br"})
    assert headers["content-encoding"] == "br" and len(brotli) < len(zipped)
    _, headers, body = get(server, path, **{"Accept-Encoding": "br;q=0, gzip"})
    assert headers["content-encoding"] == "gzip"
    _, headers, body = get(server, path, **{"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in headers and body == plain


def test_the_first_screen_needs_at_most_40_kib_on_the_wire(server):
    _, scripts, styles = page_files(server)
    sizes = {path: len(get(server, path, **{"Accept-Encoding": "gzip"})[2])
             for path in ("/", "/" + scripts[0], "/" + styles[0])}
    assert sum(sizes.values()) <= BUDGET, sizes


def test_the_inline_boot_script_is_allowed_by_its_hash_alone(server):
    html, _, _ = page_files(server)
    [inline] = re.findall(r"<script>(.*?)</script>", html, re.S)
    with open(os.path.join(PUBLIC, "boot.js"), encoding="utf-8") as f:
        assert inline == f.read()
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    _, headers, _ = get(server, "/")
    policy = headers["content-security-policy"]
    assert f"script-src 'self' 'sha256-{digest}';" in policy and "unsafe-inline" not in policy


def test_every_file_of_public_is_also_served_under_its_own_name(server):
    for name in sorted(os.listdir(PUBLIC)):
        if name in ("index.html", "sw.js"):  # sw.js is served built (test_page_worker.py)
            continue
        status, headers, body = get(server, "/" + name, **{"Accept-Encoding": "gzip"})
        if headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        with open(os.path.join(PUBLIC, name), "rb") as f:
            assert status == 200 and body == f.read() and headers["cache-control"] == "no-cache", name


def test_a_hello_in_the_upgrade_is_answered_without_a_message(server):
    hello = base64.urlsafe_b64encode(json.dumps({"type": "hello", "session": None}).encode()).rstrip(b"=")

    async def first_two():
        async with connect(server.server.ws_url, subprotocols=["tableweb.v1", "tableweb.hello." + hello.decode()],
                           open_timeout=TIMEOUT) as ws:
            assert ws.subprotocol == "tableweb.v1"
            return [json.loads(await ws.recv()) for _ in range(2)]

    welcome, screen = run(first_two())
    assert welcome["type"] == "welcome" and welcome["resumed"] is False
    assert screen["type"] == "screen"


def test_a_hello_in_the_upgrade_that_is_not_json_gets_bad_json(server):
    async def first():
        async with connect(server.server.ws_url, subprotocols=["tableweb.v1", "tableweb.hello.e30x"],
                           open_timeout=TIMEOUT) as ws:
            return json.loads(await ws.recv())

    assert run(first())["code"] == "bad_json"


def test_the_page_loads_with_two_requests_and_sends_no_hello(browser, server):
    with new_page(browser, bypass_csp=False) as page:  # the inline script passes the CSP
        sent = []
        if page.engine == "chromium":
            page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
        page.goto(server.url)
        page.wait_for_selector(".page .cell")
        _, scripts, styles = page_files(server)
        loaded = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name.split('/').pop())")
        # WebKit lists the service worker's script, fetched once the page has loaded.
        assert sorted(n for n in loaded if n != "sw.js") == sorted(scripts + styles)
        assert page.evaluate("localStorage.getItem('tableweb.session')")
        assert not [f for f in sent if '"hello"' in f]  # it rode in the upgrade
