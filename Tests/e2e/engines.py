"""The browser engines the page tests run in, each behind Playwright's shape of a browser:
`launch(name)` returns an object with `new_context(viewport=…, color_scheme=…,
reduced_motion=…, device_scale_factor=…)` whose `new_page()` has the API of
webdriver_page.Page (a subset of Playwright's Page).

- `chromium`: Debian's Chromium through Playwright, as it always was.
- `webkit`: WebKitGTK's MiniBrowser through Debian's WebKitWebDriver (Selenium's
  `webdriver.WebKitGTK`), each window on an Xvfb display of its own. A context is
  a browser process of its own (own storage, so its own tableweb session); finished ones
  are cleared and reused. Dark scheme, reduced motion and the device scale are the process's
  GTK settings (`--dark-mode`, `gtk-enable-animations=0`, GDK_SCALE), so each kind has its
  own processes.

TABLEWEB_ENGINES (comma-separated, default "chromium,webkit") says which run.
"""
import atexit
import base64
import contextlib
import ctypes
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
MINIBROWSER = os.environ.get("MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
ENGINES = [e.strip() for e in os.environ.get("TABLEWEB_ENGINES", "chromium,webkit").split(",") if e.strip()]


def launch(name):
    if name == "chromium":
        return ChromiumBrowser()
    if name == "webkit":
        return WebKitBrowser()
    if name == "firefox":
        return FirefoxBrowser()
    raise ValueError(f"unknown engine {name!r} (chromium, webkit, firefox)")


def steady(read, tries, pause):
    """What `read()` gives twice in a row, `pause` seconds apart (at most `tries` reads;
    then the last, or None if that changed too)."""
    last = None
    for _ in range(tries):
        now = read()
        if now == last:
            return now
        last = now
        time.sleep(pause)
    return None


class ChromiumBrowser:
    """Playwright's Chromium; its own Playwright (and event loop) per browser."""
    name = "chromium"

    def __init__(self):
        from playwright.sync_api import sync_playwright
        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

    def new_context(self, **options):
        return self._browser.new_context(**options)

    def close(self):
        self._browser.close()
        self._playwright.stop()


# --- WebKit ---------------------------------------------------------------------------

class Xvfb:
    """An X display of its own for one browser window. Alone on it, the window has the
    keyboard focus once the pointer is over it (X's default PointerRoot focus; there is no
    window manager to give it), as a browser a person types into has."""

    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1200x24",
                                         "-nolisten", "tcp"], pass_fds=[write],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start (apt-get install xvfb)")
        self.display = f":{number}"

    def point_at(self, x, y):
        """Puts the X pointer at (x, y) of the screen (libX11's XWarpPointer)."""
        x11 = ctypes.CDLL("libX11.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XWarpPointer.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong] + [ctypes.c_int] * 2 \
            + [ctypes.c_uint] * 2 + [ctypes.c_int] * 2
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        connection = x11.XOpenDisplay(self.display.encode())
        if not connection:
            raise RuntimeError(f"cannot open X display {self.display}")
        x11.XWarpPointer(connection, 0, x11.XDefaultRootWindow(connection), 0, 0, 0, 0, x, y)
        x11.XCloseDisplay(connection)  # flushes

    def stop(self):
        self.process.terminate()
        self.process.wait()


def _gtk_config(reduced_motion):
    """An XDG config folder whose GTK theme leaves the page the whole window: MiniBrowser's
    toolbar drawn at its smallest (else no window is narrower than 447 px), animations off
    for reduced motion (WebKitGTK's prefers-reduced-motion follows gtk-enable-animations)."""
    folder = tempfile.mkdtemp(prefix="tableweb-webkit-")
    os.makedirs(os.path.join(folder, "gtk-3.0"))
    shutil.copy(os.path.join(HERE, "webkit-gtk.css"), os.path.join(folder, "gtk-3.0", "gtk.css"))
    with open(os.path.join(folder, "gtk-3.0", "settings.ini"), "w") as f:
        f.write(f"[Settings]\ngtk-enable-animations={0 if reduced_motion else 1}\n")
    atexit.register(shutil.rmtree, folder, True)
    return folder


class WebKitDriver:
    """One MiniBrowser window through WebKitWebDriver: webdriver_page.Page's Driver."""

    def __init__(self, dark, reduced_motion, scale=1):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        if dark:
            options.add_argument("--dark-mode")
        self.x = Xvfb()
        env = dict(os.environ, DISPLAY=self.x.display, XDG_CONFIG_HOME=_gtk_config(reduced_motion),
                   GDK_SCALE=str(scale))  # devicePixelRatio
        try:
            with warnings.catch_warnings():  # Selenium 4.51 warns about its own RemoteConnection use
                warnings.simplefilter("ignore", DeprecationWarning)
                self.session = webdriver.WebKitGTK(options=options, service=Service(WEBKIT_DRIVER, env=env))
        except BaseException:
            self.x.stop()
            raise
        self.session.set_script_timeout(60)
        self.chrome = None  # (width, height) the window has beyond the viewport
        self.session.set_window_rect(0, 0, 400, 300)
        self.x.point_at(1, 1)

    def call(self, body, arg):
        script = ("const arg = arguments[0], done = arguments[arguments.length - 1];\n"
                  f"(async () => {{\n{body}\n}})().then((v) => done({{value: v === undefined ? null : v}}),"
                  " (e) => done({error: String(e?.message ?? e)}));")
        return self.session.execute_async_script(script, arg)

    def perform(self, sources):
        from selenium.webdriver.remote.command import Command
        self.session.execute(Command.W3C_ACTIONS, {"actions": sources})

    def release(self):
        from selenium.webdriver.remote.command import Command
        self.session.execute(Command.W3C_CLEAR_ACTIONS)

    @property
    def url(self):
        return self.session.current_url

    def navigate(self, url):
        self.session.get(url)

    def reload(self):
        self.session.refresh()

    def viewport(self):
        return self.session.execute_script("return [innerWidth, innerHeight]")

    def set_viewport(self, width, height):
        """Sizes the window so that the page gets width × height (GTK resizes a moment later)."""
        if self.viewport() == [width, height]:
            return
        window = [width + (self.chrome or (0, 20))[0], height + (self.chrome or (0, 20))[1]]
        for _ in range(3):
            self.session.set_window_rect(0, 0, *window)
            got = steady(self.viewport, 50, 0.02) or self.viewport()
            if got == [width, height]:
                self.chrome = (window[0] - width, window[1] - height)
                return
            window = [window[0] + width - got[0], window[1] + height - got[1]]
        raise AssertionError(f"WebKit's viewport is {got}, not {width}x{height}")

    def screenshot(self, path):
        self.session.save_screenshot(path)

    def reset(self):
        """Leaves nothing for the next context: storage cleared, off the page, no input held."""
        self.release()
        self.session.execute_script("try { localStorage.clear(); sessionStorage.clear(); } catch {}")
        self.session.delete_all_cookies()
        self.session.get("about:blank")

    def quit(self):
        try:
            self.session.quit()
        finally:
            self.x.stop()


class WebKitBrowser:
    name = "webkit"

    def __init__(self):
        self._idle = {}  # (dark, reduced motion, scale) → drivers ready for a new context
        self._all = []

    def new_context(self, viewport=None, color_scheme=None, reduced_motion=None, bypass_csp=None,
                    device_scale_factor=None):
        kind = (color_scheme == "dark", reduced_motion == "reduce", int(device_scale_factor or 1))
        idle = self._idle.setdefault(kind, [])
        driver = idle.pop() if idle else None
        if driver is None:
            driver = WebKitDriver(*kind)
            self._all.append(driver)
        size = viewport or {"width": 1280, "height": 720}
        driver.set_viewport(size["width"], size["height"])
        return WebDriverContext(self, kind, driver)

    def _done(self, kind, driver):
        try:
            driver.reset()
        except Exception:  # noqa: BLE001 (a browser that broke is not reused)
            if driver in self._all:
                self._all.remove(driver)
                with contextlib.suppress(Exception):
                    driver.quit()
            return
        self._idle[kind].append(driver)

    def close(self):
        for driver in self._all:
            driver.quit()
        self._all.clear()
        self._idle.clear()


class WebDriverContext:
    """Playwright's BrowserContext for a WebDriver engine: one page."""

    def __init__(self, browser, kind, driver):
        self.browser, self.kind, self.driver = browser, kind, driver
        self.timeout = 30_000
        self.page = None

    def set_default_timeout(self, ms):
        self.timeout = ms
        if self.page:
            self.page.set_default_timeout(ms)

    touch = False

    def new_page(self):
        from webdriver_page import Page
        self.page = Page(self.driver, self.browser.name, self.timeout, touch=self.touch)
        return self.page

    def close(self):
        self.browser._done(self.kind, self.driver)


# --- Firefox ------------------------------------------------------------------------------

FIREFOX = os.environ.get("FIREFOX", shutil.which("firefox-esr") or "/usr/bin/firefox-esr")


class BiDi:
    """A WebDriver BiDi session over Firefox's own WebSocket (`--remote-debugging-port`):
    commands answered in order; events, which nothing here asks for, are skipped."""

    def __init__(self, url):
        from websockets.sync.client import connect
        self.socket = connect(url + "/session", max_size=None, open_timeout=20)
        self.last = 0
        self.send("session.new", capabilities={})

    def send(self, method, **params):
        self.last += 1
        self.socket.send(json.dumps({"id": self.last, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=90))
            if message.get("id") == self.last:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message['error']}: {message.get('message')}")
                return message["result"]


class FirefoxProcess:
    """Headless firefox-esr with a fresh profile whose preferences give the scheme and motion."""

    def __init__(self, dark, reduced_motion, scale):
        self.profile = tempfile.mkdtemp(prefix="tableweb-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            f.write(f'user_pref("layout.css.prefers-color-scheme.content-override", {0 if dark else 1});\n'
                    f'user_pref("ui.prefersReducedMotion", {1 if reduced_motion else 0});\n'
                    'user_pref("browser.shell.checkDefaultBrowser", false);\n')
        self.scale = scale
        self.active = None  # the FirefoxDriver whose window has the focus
        self.log = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen([FIREFOX, "--headless", "--no-remote", "--profile", self.profile,
                                         "--remote-debugging-port=0"], stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 60
        url = None
        while url is None:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.quit()
                raise RuntimeError("firefox-esr did not offer WebDriver BiDi")
            time.sleep(0.1)
            self.log.seek(0)
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", self.log.read())
            url = found and found.group(1)
        self.bidi = BiDi(url)

    def quit(self):
        with contextlib.suppress(Exception):
            self.bidi.send("session.end")
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        if self.process.poll() is None:
            self.process.kill()
        shutil.rmtree(self.profile, True)


class FirefoxDriver:
    """A window (a background tab gets no animation frames) in a user context of its own
    (own storage): webdriver_page.Page's Driver."""

    def __init__(self, firefox):
        self.firefox, self.bidi = firefox, firefox.bidi
        self.user_context = self.bidi.send("browser.createUserContext")["userContext"]
        self.context = self.bidi.send("browsingContext.create", type="window", userContext=self.user_context)["context"]
        self.size = None

    def call(self, body, arg):
        function = ("async (json) => { const arg = JSON.parse(json); try { return JSON.stringify({value:"
                    f" await (async () => {{\n{body}\n}})() ?? null}}); }} catch (e) {{"
                    " return JSON.stringify({error: String(e?.message ?? e)}); } }")
        result = self.bidi.send("script.callFunction", functionDeclaration=function, awaitPromise=True,
                                arguments=[{"type": "string", "value": json.dumps(arg)}],
                                target={"context": self.context}, resultOwnership="none")
        if result["type"] == "exception":
            return {"error": result["exceptionDetails"]["text"]}
        return json.loads(result["result"]["value"])

    def perform(self, sources):
        # Keys act (a button's Enter or Space) only in the window that has the focus.
        if self.firefox.active is not self:
            self.bidi.send("browsingContext.activate", context=self.context)
            self.firefox.active = self
        self.bidi.send("input.performActions", context=self.context, actions=sources)

    def release(self):
        self.bidi.send("input.releaseActions", context=self.context)

    @property
    def url(self):
        return self.bidi.send("browsingContext.getTree", root=self.context)["contexts"][0]["url"]

    def navigate(self, url):
        self.bidi.send("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def reload(self):
        self.bidi.send("browsingContext.reload", context=self.context, wait="complete")

    def viewport(self):
        return list(self.size)

    def set_viewport(self, width, height):
        self.bidi.send("browsingContext.setViewport", context=self.context,
                       viewport={"width": width, "height": height}, devicePixelRatio=self.firefox.scale)
        self.size = (width, height)

    def screenshot(self, path):
        data = self.bidi.send("browsingContext.captureScreenshot", context=self.context)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.bidi.send("browser.removeUserContext", userContext=self.user_context)


class FirefoxBrowser:
    name = "firefox"

    def __init__(self):
        self._processes = {}  # (dark, reduced motion, scale) → FirefoxProcess

    def new_context(self, viewport=None, color_scheme=None, reduced_motion=None, bypass_csp=None,
                    device_scale_factor=None):
        kind = (color_scheme == "dark", reduced_motion == "reduce", int(device_scale_factor or 1))
        if kind not in self._processes:
            self._processes[kind] = FirefoxProcess(*kind)
        driver = FirefoxDriver(self._processes[kind])
        size = viewport or {"width": 1280, "height": 720}
        driver.set_viewport(size["width"], size["height"])
        return FirefoxContext(self, driver, touch=size["width"] < 1000)  # a phone is touched

    def close(self):
        for process in self._processes.values():
            process.quit()
        self._processes.clear()


class FirefoxContext(WebDriverContext):
    def __init__(self, browser, driver, touch):
        super().__init__(browser, None, driver)
        self.touch = touch

    def close(self):
        with contextlib.suppress(Exception):
            self.driver.close()
