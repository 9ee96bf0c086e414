"""The part of Playwright's page API that the page tests use, over WebDriver, so that one
test drives Chromium (Playwright itself) and WebKit (WebKitWebDriver) alike.

Only what a test can do as a person would is here: find elements as Playwright's locators
do (CSS, `:text-is()`, `:text()`, `:visible`, `has_text`, `has`, `get_by_role`), wait for
conditions, click, drag, scroll the wheel and type through the driver's input actions,
which the browser receives as real pointer and key events. `page_api.js` is the in-page
half. A `Driver` (engines.py) carries out five things: run a script, perform input
actions, navigate, size the viewport, take a screenshot.

Differences from Playwright, by design: page errors are collected by an `error` listener
that the first script after a navigation installs (an error while the page's modules
first run, before any test step, is not seen); the server's answers (`page.answers`) by
wrapping the page's WebSocket when it first sends.
"""
import json
import os
import time

PAGE_API = open(os.path.join(os.path.dirname(__file__), "page_api.js"), encoding="utf-8").read()

# WebDriver's codes for keys that are not characters (the WebDriver spec's key table).
KEYS = {"Enter": "\ue007", "Escape": "\ue00c", "Tab": "\ue004", "Backspace": "\ue003",
        "Delete": "\ue017", "ArrowUp": "\ue013", "ArrowDown": "\ue015", "ArrowLeft": "\ue012",
        "ArrowRight": "\ue014", "Home": "\ue011", "End": "\ue010", "PageUp": "\ue00e",
        "PageDown": "\ue00f", "Shift": "\ue008", "Control": "\ue009", "Alt": "\ue00a",
        "Meta": "\ue03d", "Space": " ", **{f"F{i}": chr(0xE031 + i - 1) for i in range(1, 13)}}
BUTTONS = {"left": 0, "middle": 1, "right": 2}


class Unsupported(Exception):
    """What this engine's driver cannot do (a test says so rather than pretend)."""


class PageError(AssertionError):
    """A script failed in the page or a wait timed out."""


class Page:
    """One tab in its own context (a browser session of its own: own storage, own session)."""

    def __init__(self, driver, engine, timeout_ms=5000, touch=False):
        self.driver = driver
        self.engine = engine
        self.touch = touch
        self.timeout = timeout_ms
        self.keyboard = Keyboard(self)
        self.mouse = Mouse(self)
        self._earlier_errors = []  # from documents navigated away from

    # --- scripts ---------------------------------------------------------------
    def _run(self, body, arg=None):
        """Runs `body` (an async function body that may use `arg` and `TW`) in the page."""
        outcome = self.driver.call(PAGE_API + "\n" + body, arg)
        if "error" in outcome:
            raise PageError(outcome["error"])
        return outcome.get("value")

    def evaluate(self, expression, arg=None):
        """As Playwright: a function is called with `arg`, anything else is evaluated."""
        return self._run(f"const v = (\n{expression}\n); return typeof v === 'function' ? await v(arg) : await v;", arg)

    def wait_for_function(self, expression, arg=None, timeout=None):
        return self._run(
            f"const poll = () => {{ const v = (\n{expression}\n); return typeof v === 'function' ? v(arg) : v; }};"
            f" return await TW.until(poll, {self._ms(timeout)}, {json.dumps('function: ' + expression[:120])});", arg)

    def wait_for_timeout(self, ms):
        time.sleep(ms / 1000)

    def _ms(self, timeout):
        return int(self.timeout if timeout is None else timeout)

    # --- locators --------------------------------------------------------------
    def locator(self, selector, has_text=None, has=None):
        return Locator(self, [_step(selector, has_text, has)])

    def get_by_role(self, role, name=None):
        return Locator(self, [{"role": role, "name": name}])

    def wait_for_selector(self, selector, state="visible", timeout=None):
        # Not strict, as Playwright's: the first match decides.
        self._run(f"return await TW.until(() => TW.STATES[{json.dumps(state)}](TW.resolve(arg)[0] ?? null),"
                  f" {self._ms(timeout)}, {json.dumps(f'{selector} to be {state}')});", [{"css": selector}])

    def text_content(self, selector):
        return self.locator(selector).first.text_content()

    def is_visible(self, selector):
        return self.locator(selector).first.is_visible()

    def is_hidden(self, selector):
        return not self.is_visible(selector)

    def click(self, selector, **options):
        self.locator(selector).first.click(**options)

    # --- the document ----------------------------------------------------------
    @property
    def url(self):
        return self.driver.url

    def goto(self, url):
        self._keep_errors()
        self.driver.navigate(url)

    def reload(self):
        self._keep_errors()
        self.driver.reload()

    def _keep_errors(self):
        try:
            self._earlier_errors += self._run("return TW.errors;") or []
        except Exception:  # noqa: BLE001 (no document yet)
            pass

    @property
    def errors(self):
        return self._earlier_errors + (self._run("return TW.errors;") or [])

    @property
    def answers(self):
        """The server's ack and error messages since the page's socket first sent."""
        return self._run("return TW.answers;")

    def set_viewport_size(self, size):
        self.driver.set_viewport(size["width"], size["height"])

    def screenshot(self, path):
        self.driver.screenshot(path)

    def set_default_timeout(self, ms):
        self.timeout = ms

    def on(self, event, _handler):
        raise Unsupported(f"{self.engine}: page.on({event!r}) needs a driver with events")


def _step(selector, has_text=None, has=None):
    step = {"css": selector}
    if has_text is not None:
        step["hasText"] = has_text
    if has is not None:
        step["has"] = has.steps
    return step


class Locator:
    def __init__(self, page, steps):
        self.page = page
        self.steps = steps

    def _with(self, **extra):
        return Locator(self.page, self.steps[:-1] + [{**self.steps[-1], **extra}])

    def locator(self, selector, has_text=None, has=None):
        return Locator(self.page, self.steps + [_step(selector, has_text, has)])

    @property
    def first(self):
        return self._with(nth=0)

    @property
    def last(self):
        return self._with(nth=-1)

    def nth(self, index):
        return self._with(nth=index)

    def _describe(self):
        return json.dumps(self.steps)[:200]

    def _on_one(self, body, arg=None):
        """Runs `body` with `n`, the one element this locator matches (or null)."""
        return self.page._run(f"const n = TW.one(arg.steps, {json.dumps(self._describe())}); {body}",
                              {"steps": self.steps, "arg": arg})

    def _waiting(self, body, arg=None, timeout=None):
        """Runs `body` with `n` once the element is attached (Playwright's auto-wait)."""
        return self.page._run(
            f"const n = await TW.until(() => TW.one(arg.steps, {json.dumps(self._describe())}),"
            f" {self.page._ms(timeout)}, {json.dumps(self._describe() + ' to be attached')}); {body}",
            {"steps": self.steps, "arg": arg})

    def count(self):
        return self.page._run("return TW.resolve(arg).length;", self.steps)

    def all_text_contents(self):
        return self.page._run("return TW.resolve(arg).map((n) => n.textContent);", self.steps)

    def text_content(self):
        return self._waiting("return n.textContent;")

    def get_attribute(self, name):
        return self._waiting("return n.getAttribute(arg.arg);", name)

    def input_value(self):
        return self._waiting("return n.value;")

    def bounding_box(self):
        return self._waiting("const r = n.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height};")

    def evaluate(self, function, arg=None):
        return self._waiting(f"const f = (\n{function}\n); return await f(n, arg.arg);", arg)

    def is_visible(self):
        return self._on_one("return n != null && TW.visible(n);")

    def is_hidden(self):
        return not self.is_visible()

    def wait_for(self, state="visible", timeout=None):
        self.page._run(
            f"return !!await TW.until(() => TW.STATES[arg.arg](TW.one(arg.steps, 'wait_for')),"
            f" {self.page._ms(timeout)}, {json.dumps(self._describe() + ' to be ' + state)});",
            {"steps": self.steps, "arg": state})

    def focus(self):
        self._waiting("n.focus();")

    def _point(self, timeout=None):
        return self.page._run(f"return await TW.target(arg, {json.dumps(self._describe())}, {self.page._ms(timeout)});",
                              self.steps)

    def click(self, button="left", click_count=1, timeout=None):
        p = self._point(timeout)
        self.page.mouse.click(p["x"], p["y"], button=button, click_count=click_count)

    def dblclick(self, timeout=None):
        self.click(click_count=2, timeout=timeout)

    def fill(self, text):
        """Focuses the field, selects what it holds and types over it, key by key."""
        self._waiting("n.focus(); n.select?.();")
        if text:
            self.page.keyboard.type(text)
        else:
            self.page.keyboard.press("Backspace")

    def press(self, key):
        self.focus()
        self.page.keyboard.press(key)


class Mouse:
    """The pointer through WebDriver pointer actions, kept between calls as Playwright's
    mouse is: down, moves and up may come in separate steps. On a page whose driver can
    touch (`page.touch`: Firefox at a phone's size) the left button is a finger — a
    pointer of type "touch", with touch events, the browser free to pan where the page's
    `touch-action` lets it — and the right button and the wheel stay a mouse's."""

    def __init__(self, page):
        self.page = page
        self.x = self.y = 0
        self.size = None
        self.wheels = 0
        self.pressed = False

    def _perform(self, actions, button="left"):
        kind = "touch" if self.page.touch and button == "left" else "mouse"
        self.page.driver.perform([{"type": "pointer", "id": kind, "parameters": {"pointerType": kind},
                                   "actions": actions}])

    def _inside(self, x, y):
        """WebDriver keeps the pointer in the viewport, as a finger stays on the screen."""
        if self.size is None:
            self.size = self.page.driver.viewport()
        return min(max(x, 0), self.size[0] - 1), min(max(y, 0), self.size[1] - 1)

    def move(self, x, y, steps=1):
        self.size = None
        x, y = self._inside(x, y)
        x0, y0 = self.x, self.y
        moves = [{"type": "pointerMove", "duration": 0, "origin": "viewport",
                  "x": round(x0 + (x - x0) * i / steps), "y": round(y0 + (y - y0) * i / steps)}
                 for i in range(1, steps + 1)]
        self.x, self.y = x, y
        if not self.page.touch or self.pressed:  # a finger in the air is nowhere
            self._perform(moves)

    def _at(self):
        return {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": round(self.x), "y": round(self.y)}

    def down(self, button="left"):
        self.pressed = True
        self._perform([self._at(), {"type": "pointerDown", "button": BUTTONS[button]}], button)

    def up(self, button="left"):
        self.pressed = False
        self._perform([self._at(), {"type": "pointerUp", "button": BUTTONS[button]}], button)

    def click(self, x, y, button="left", click_count=1):
        self.x, self.y = x, y
        press = [{"type": "pointerDown", "button": BUTTONS[button]}, {"type": "pointerUp", "button": BUTTONS[button]}]
        self._perform([self._at(), *press * click_count], button)

    def wheel(self, dx, dy):
        # A new wheel source each time: WebKitWebDriver scrolls only once per source.
        self.wheels += 1
        self.page.driver.perform([{"type": "wheel", "id": f"wheel{self.wheels}", "actions": [
            {"type": "scroll", "origin": "viewport", "x": round(self.x), "y": round(self.y),
             "deltaX": round(dx), "deltaY": round(dy), "duration": 0}]}])


class Keyboard:
    def __init__(self, page):
        self.page = page

    @staticmethod
    def _code(name):
        if len(name) == 1:
            return name
        if name not in KEYS:
            raise Unsupported(f"WebDriver has no key {name!r}")
        return KEYS[name]

    def _perform(self, actions):
        self.page.driver.perform([{"type": "key", "id": "keyboard", "actions": actions}])

    def press(self, combo):
        """"Shift+F10", "Alt+ArrowUp", "Enter", "/" … as Playwright names them."""
        names = [combo] if combo == "+" else combo.split("+")
        codes = [self._code(n) for n in names]
        self._perform([*({"type": "keyDown", "value": c} for c in codes),
                       *({"type": "keyUp", "value": c} for c in reversed(codes))])

    def type(self, text):
        self._perform([a for ch in text for a in ({"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch})])
