"""Rules for Public/ that need no browser: no HTML from strings, and native ES modules with
relative `.js` imports only, in the shape the EmbedPage plugin joins into one module (its
size budget, what the first screen sends compressed, is test_page_loading.py's)."""
import os
import re

from page_helpers import PUBLIC


def files():
    for folder, _, names in os.walk(PUBLIC):
        for name in names:
            yield os.path.join(folder, name)


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


def test_modules_export_only_named_declarations():
    for f in files():
        if f.endswith(".js"):
            for line in open(f, encoding="utf-8").read().splitlines():
                if line.startswith("export "):
                    assert re.match(r"export (async function\*?|function\*?|class|const|let) [\w$]+", line), (f, line)
