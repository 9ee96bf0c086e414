#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/corpus/NAME/) from the tests' inputs.

The inputs are the raw string literals (#"…"# and #\"\"\"…\"\"\"#) of the test files each target
reads, plus the JSON examples of the docs and the e2e suites' data file. Each seed is a
file named after the SHA-1 of its bytes, so running this again adds only what is new.
Seeds written by hand (app-file/every-field.json: every field of the format) and inputs
that once crashed a target (crash-*) are kept in the same folders.

    python3 Fuzz/seeds.py
"""
import hashlib
import pathlib
import re
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent

SOURCES = {
    "json": {
        "swift": ["Tests/TableModelTests/JSONParserTests.swift",
                  "Tests/TableModelTests/JSONSerializerTests.swift",
                  "Tests/TableModelTests/ServerMessageDecodingTests.swift",
                  "Tests/TableModelTests/ProtocolCoreExampleTests.swift"],
        "markdown": ["docs/protocol.md"],
        "files": [],
    },
    "client-message": {
        "swift": ["Tests/TableModelTests/ClientMessageDecodingTests.swift",
                  "Tests/TableModelTests/MessageRoundTripTests.swift",
                  "Tests/TableModelTests/ProtocolCoreExampleTests.swift"],
        "markdown": ["docs/protocol.md"],
        "files": [],
    },
    "app-file": {
        "swift": ["Tests/TableStoreTests/DataFormatTests.swift",
                  "Tests/TableStoreTests/CustomCellTests.swift",
                  "Tests/TableStoreTests/RowActionTests.swift"],
        "markdown": ["docs/data-format.md"],
        "files": ["Tests/e2e/test_protocol_app.json"],
    },
}

MULTILINE = re.compile(r'#"""\n(.*?)\n([ \t]*)"""#', re.S)
SINGLE = re.compile(r'#"(.*?)"#')


def swift_literals(text):
    """The raw string literals of a Swift file, without interpolations or escapes."""
    literals = []
    for match in MULTILINE.finditer(text):
        indent = match.group(2)
        lines = [line[len(indent):] if line.startswith(indent) else line
                 for line in match.group(1).split("\n")]
        literals.append("\n".join(lines))
    for line in MULTILINE.sub("", text).split("\n"):
        literals.extend(SINGLE.findall(line))
    # Expected error messages are literals too: only what may be a JSON document is a seed.
    return [literal for literal in literals
            if "\\#" not in literal and literal.lstrip()[:1] in tuple('{["-0123456789tfn')]


def markdown_examples(text):
    """The ```json blocks and the `{"type":…}` spans of a document."""
    examples = [block.split("```", 1)[0] for block in text.split("```json\n")[1:]]
    examples += re.findall(r'`(\{"type":[^`]*)`', text)
    return examples


def main():
    for name, sources in SOURCES.items():
        folder = ROOT / "Fuzz" / "corpus" / name
        folder.mkdir(parents=True, exist_ok=True)
        seeds = []
        for path in sources["swift"]:
            seeds += swift_literals((ROOT / path).read_text())
        for path in sources["markdown"]:
            seeds += markdown_examples((ROOT / path).read_text())
        for path in sources["files"]:
            seeds.append((ROOT / path).read_text())
        written = 0
        for seed in seeds:
            data = seed.encode()
            target = folder / hashlib.sha1(data).hexdigest()
            if not target.exists():
                target.write_bytes(data)
                written += 1
        total = sum(1 for _ in folder.iterdir())
        print(f"{name}: {written} new seeds, {total} in {folder.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
