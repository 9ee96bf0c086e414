"""Access in each engine: an editor and a viewer in two browser contexts, the access link's
fragment, the "Access needed" screen, revocation, and the page's Content-Security-Policy
(a `javascript:` image URL and markup in text run nothing)."""
import subprocess
import time
import urllib.request

import pytest

from conftest import TABLEWEB
from page_helpers import Server, cell, browser, new_page, swipe  # noqa: F401 (fixtures)

MARKUP = "<img src=x onerror=window.pwned=1><script>window.pwned=2</script>"
APP = {
    "title": "Home", "sections": [{"id": "home-s", "rows": [
        {"id": "tasks", "text": "Tasks", "children": {
            "title": "Tasks", "editable": True, "sections": [{"id": "tasks-s", "rows": [
                {"id": "t1", "text": "Milk"}, {"id": "t2", "text": "Eggs"}]}]}},
        {"id": "evil", "text": MARKUP, "image": "javascript:window.pwned=3"},
    ]}],
}


def access(*args, db):
    result = subprocess.run([TABLEWEB, "access", *args, "--db", db], capture_output=True,
                            text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


@pytest.fixture(scope="module")
def server():
    s = Server(APP)
    s.editor = access("grant", "--role", "editor", "--name", "Ed", db=s.db)
    s.viewer = access("grant", "--role", "viewer", "--name", "Vi", db=s.db)
    yield s
    s.close()


def open_with_link(browser, server, credential):
    cm = new_page(browser, f"{server.url}#access={credential}", bypass_csp=False)
    page = cm.__enter__()
    page.wait_for_selector(".page .cell")
    page.close_context = lambda: cm.__exit__(None, None, None)
    return page


def test_editor_and_viewer_in_two_contexts(browser, server):
    editor = open_with_link(browser, server, server.editor)
    viewer = open_with_link(browser, server, server.viewer)
    try:
        for page, who in ((editor, "Ed · editor"), (viewer, "Vi · viewer")):
            assert page.text_content(".whoami") == who
            assert "#access" not in page.url  # taken out of the address bar
            assert page.evaluate("localStorage.getItem('tableweb.access')") is not None
            cell(page, "tasks").click()
            page.wait_for_selector(".page .cell[data-id='t1']")
        assert editor.is_visible(".nav-edit")
        assert not viewer.is_visible(".nav-edit")  # no Edit, so no insert or delete either
        # A swipe opens the editor's Delete, and nothing for the viewer.
        for page in (editor, viewer):
            swipe(page, "t1", -120)
        editor.wait_for_selector(".cell[data-id='t1'] .swipe-actions")
        assert viewer.locator(".swipe-actions").count() == 0
        editor.keyboard.press("Escape")
        editor.click(".nav-edit")
        editor.wait_for_selector(".toolbar:not([hidden])")
        assert viewer.locator(".toolbar:not([hidden])").count() == 0
        # A reload keeps the stored credential.
        viewer.reload()
        viewer.wait_for_selector(".whoami")
        assert viewer.text_content(".whoami") == "Vi · viewer"
        assert editor.errors == [] and viewer.errors == []
    finally:
        editor.close_context()
        viewer.close_context()


def test_no_credential_shows_access_needed_instead_of_reconnecting(browser, server):
    with new_page(browser, server.url, bypass_csp=False) as page:
        page.wait_for_selector(".access-needed")
        assert page.text_content(".access-needed h2") == "Access needed"
        assert "#access=" in page.text_content(".access-needed")
        page.evaluate("""() => {  // counts the sockets the page opens from now on
            window.opened = 0;
            const Base = WebSocket;
            window.WebSocket = class extends Base { constructor(...a) { super(...a); window.opened++; } };
        }""")
        page.wait_for_timeout(1500)
        assert page.evaluate("window.opened") == 0  # it does not try again
        assert page.is_hidden(".banner")


def test_revocation_closes_the_page_within_2_seconds(browser, server):
    credential = access("grant", "--role", "viewer", "--name", "Short", db=server.db)
    page = open_with_link(browser, server, credential)
    try:
        start = time.monotonic()
        access("revoke", "Short", db=server.db)
        page.wait_for_selector(".access-needed", timeout=3000)
        assert time.monotonic() - start < 2.5
        assert "no longer valid" in page.text_content(".access-needed")
    finally:
        page.close_context()


def test_static_responses_carry_the_policy(server):
    with urllib.request.urlopen(server.url) as response:
        policy = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy
        assert response.headers["Referrer-Policy"] == "no-referrer"


def test_a_javascript_image_and_markup_run_nothing(browser, server):
    page = open_with_link(browser, server, server.viewer)
    try:
        page.evaluate("""() => { window.violations = [];
            document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective)); }""")
        evil = cell(page, "evil")
        assert evil.text_content().strip() == MARKUP  # shown as text
        assert evil.locator("script, img[src='x']").count() == 0
        page.wait_for_timeout(300)
        assert page.evaluate("window.pwned") is None
        # Even markup put into the page by other means runs no inline script under the policy.
        page.evaluate("""() => { const s = document.createElement('script');
            s.textContent = 'window.pwned = 4'; document.body.append(s); }""")
        assert page.evaluate("window.pwned") is None
        page.wait_for_function("() => violations.length > 0")
        assert page.evaluate("violations")[0].startswith("script-src")  # and says so
        assert page.errors == []
    finally:
        page.close_context()
