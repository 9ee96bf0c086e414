"""The trust boundaries seen from a real browser (Chromium): a page on another site that
tries to write to the person's loopback server, and a DNS-rebound name (Chromium told to
resolve evil.example to 127.0.0.1, as a rebinding attack makes it) that tries to load
the page and send commands. Neither applies anything; the page itself still works, on
127.0.0.1 and on localhost."""
import asyncio
import contextlib
import http.server
import threading

from playwright.sync_api import sync_playwright

from engines import CHROMIUM
from test_protocol import Client, app_db, server  # noqa: F401 (fixtures)

ATTACK = """<!doctype html><title>cute cats</title><script>
window.attack = async (target) => {
  // A "simple request": sent without a preflight, its answer unreadable (no-cors).
  await fetch(target + "/api/commands", {method: "POST", mode: "no-cors",
    headers: {"Content-Type": "text/plain"},
    body: JSON.stringify({type: "delete", list: "Ltasks", rows: ["Rmilk"]})});
  return "sent";
};
</script>"""


@contextlib.contextmanager
def attacker_site():
    """Another origin (a port of its own) serving the attacker's page."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = ATTACK.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.2:{site.server_address[1]}/"
    finally:
        site.shutdown()


@contextlib.contextmanager
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--host-resolver-rules=MAP evil.example 127.0.0.1"])
        try:
            yield browser.new_context()
        finally:
            browser.close()


def milk_is_there(server):
    async def look():
        client = await Client.open(server)
        await client.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        await client.close()
        return "Milk" in sum(client.rows(), [])
    return asyncio.run(look())


def test_another_site_cannot_write_through_the_persons_browser(server):
    with attacker_site() as attacker, chromium() as context:
        page = context.new_page()
        page.goto(attacker)
        assert page.evaluate("target => window.attack(target)", server.origin) == "sent"
        page.wait_for_timeout(500)
    assert milk_is_there(server)


def test_a_rebound_name_gets_403_and_cannot_send_commands(server):
    rebound = f"http://evil.example:{server.port}"
    with chromium() as context:
        page = context.new_page()
        response = page.goto(rebound + "/")
        assert response.status == 403
        assert "tableweb" not in page.content().lower().replace("--allowed-host", "")
        # From the rebound origin, a same-origin JSON write: its answer is readable, and 403.
        status = page.evaluate("""async () => (await fetch("/api/commands", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({type: "delete", list: "Ltasks", rows: ["Rmilk"]})})).status""")
        assert status == 403
        opened = page.evaluate("""() => new Promise(done => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws", "tableweb.v1");
            ws.onopen = () => done("open"); ws.onerror = () => done("refused"); })""")
        assert opened == "refused"
    assert milk_is_there(server)


def test_the_page_still_works_on_loopback_names(server):
    with chromium() as context:
        for origin in [server.origin, f"http://localhost:{server.port}"]:
            page = context.new_page()
            page.goto(origin + "/")
            page.get_by_text("Tasks", exact=True).first.click()
            page.get_by_text("Milk", exact=True).first.wait_for(timeout=10_000)
            page.close()
