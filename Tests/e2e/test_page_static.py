"""Rules for Public/ that need no browser: its size, no HTML from strings, and native
ES modules with relative `.js` imports only."""
import os
import re

from page_helpers import PUBLIC

# 64 KiB until access links and the "Access needed" screen (access.js, about 2.3 KB) and
# issue 10: lists past the browser's height cap with a scrubber, self-sizing rows, large
# titles, split view, swipe actions and menus, search and custom cells do not fit in it
# without stripping the comments the code is read by. With split view it is indented with
# tabs (.editorconfig), which saved 2.8 KB of the 96. 97 with issue 25: what WebKit needed
# (swipe buttons after the content, numbers in the page's language) and an indexed list
# without empty sections' headers, 0.6 KB, when 75 bytes were left.
LIMIT = 97 * 1024


def files():
    for folder, _, names in os.walk(PUBLIC):
        for name in names:
            yield os.path.join(folder, name)


def test_the_page_is_at_most_97_kib_uncompressed():
    total = sum(os.path.getsize(f) for f in files())
    assert total <= LIMIT, f"Public/ is {total} bytes"


def test_no_markup_is_built_from_strings():
    for f in files():
        if f.endswith(".js"):
            source = open(f, encoding="utf-8").read()
            assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(", source), f


def test_modules_import_each_other_relatively():
    names = {os.path.basename(f) for f in files()}
    for f in files():
        if f.endswith(".js"):
            for spec in re.findall(r'^import .* from "([^"]+)";', open(f, encoding="utf-8").read(), re.M):
                assert spec.startswith("./") and spec.endswith(".js") and spec[2:] in names, (f, spec)
