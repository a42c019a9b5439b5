"""The browser UI's files as shipped: translated, self-contained, licensed (no browser)."""

from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

from babel.messages.pofile import read_po

from rummykit.i18n import translate

WEB = Path(__file__).resolve().parents[1] / "src" / "rummykit" / "web"
LOCALES = WEB.parent / "i18n" / "locales"
T_CALL = re.compile(r'(?<![\w.$])t\(\s*"((?:[^"\\]|\\.)*)"')


def messages_in_code() -> set[str]:
    """Every ``t("...")`` literal of the page's modules (the vendored ones aside)."""
    found = set()
    for path in (WEB / "js").glob("*.js"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)  # comments show examples
        found.update(json.loads(f'"{m}"') for m in T_CALL.findall(text))
    return found


def test_every_message_of_the_page_is_in_the_catalogs_and_translated() -> None:
    code = messages_in_code()
    assert len(code) > 300
    with (LOCALES / "sv" / "LC_MESSAGES" / "web.po").open("rb") as f:
        catalog = {m.id: m.string for m in read_po(f) if m.id}
    assert code - set(catalog) == set(), "run: python tools/i18n.py update, translate, compile"
    swedish = json.loads((WEB / "i18n" / "sv.json").read_text(encoding="utf-8"))
    assert {m for m in code if not swedish.get(m)} == set()
    for message in code:  # the same {fields} in both languages
        assert set(re.findall(r"\{\w+\}", message)) == set(re.findall(r"\{\w+\}", swedish[message]))


def test_swedish_uses_the_words_swedish_players_use() -> None:
    swedish = json.loads((WEB / "i18n" / "sv.json").read_text(encoding="utf-8"))
    assert swedish["Stock: {n}"] == "Talong: {n}"
    assert swedish["Discard pile: {n}"] == "Hög: {n}"
    assert swedish["group"] == "tretal" and swedish["run"] == "färgföljd"
    assert swedish["Discard"] == "Saka" and swedish["Draw"] == "Dra" and swedish["Pass"] == "Passa"
    assert "förhand" in swedish["You are förhand: take the upcard, or decline it."]
    assert translate("{name} went out! ", "sv", name="Anna") == "Anna gick ut! "  # the log
    # one word for each thing, as the glossary (docs/i18n.md) has it
    everything = " ".join(swedish.values()).lower()
    for word in ("uppvänd", "utspel", "lösaren", "arrangera", "lägg till här"):
        assert word not in everything, word
    assert "det uppslagna kortet" in swedish["You are förhand: take the upcard, or decline it."]
    assert swedish["Lay off here"] == "Bygg på här"
    rule = "table jokers move freely as wild cards when the table is rearranged"
    assert translate(rule, "sv").count("jokrar") == 1  # not "jokrar ... som jokrar"
    rearranged = translate(
        "a play that rearranges the table must add at least one card from your hand;"
        " to play no card, draw (or pass when the stock is empty)",
        "sv",
    )
    assert "ordnar om" in rearranged and "arrangera" not in rearranged
    assert swedish["Contract: {contract}"].startswith("Kontrakt")


def test_nothing_is_loaded_from_the_internet() -> None:
    for path in WEB.rglob("*"):
        if path.suffix not in {".html", ".js", ".css", ".svg", ".json"}:
            continue
        text = path.read_text(encoding="utf-8")
        for url in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", text):
            assert "www.w3.org/2000/svg" in url or "vendor" in path.parts, (path, url)
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for src in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert not src.startswith(("http:", "https:", "//")), src
        assert (WEB / src).exists(), src
    assert "<script>" not in html and "importmap" not in html  # no inline script: the CSP


def test_the_vendored_libraries_are_there_with_their_licences() -> None:
    folder = WEB / "vendor" / "preact"
    assert "MIT License" in (folder / "LICENSE").read_text(encoding="utf-8")
    assert "10.29.8" in (folder / "VERSION").read_text(encoding="utf-8")
    for name in ("preact.module.js", "hooks.module.js"):
        assert "sourceMappingURL" not in (folder / name).read_text(encoding="utf-8")
    qr = WEB / "vendor" / "qrcode-generator"
    licence = (qr / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in licence and "Copyright (c) 2009 Kazuhiko Arase" in licence
    version = (qr / "VERSION").read_text(encoding="utf-8")
    assert "qrcode-generator 2.0.4" in version
    code = (qr / "qrcode.module.js").read_bytes()
    assert hashlib.sha256(code).hexdigest() in version  # unchanged since it was vendored
    assert b"export default qrcode" in code and b"sourceMappingURL" not in code


def test_the_service_worker_keeps_every_file_of_the_page_and_no_other() -> None:
    text = (WEB / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const FILES = \[(.*?)\];", text, re.S)
    assert listed is not None
    kept = set(re.findall(r'"([^"]+)"', listed.group(1)))
    page = {
        p.relative_to(WEB).as_posix()
        for p in WEB.rglob("*")
        if p.is_file() and p.name not in ("sw.js", "LICENSE", "VERSION")
    }
    assert kept - {"./"} == page  # a file added to the page is kept for the offline start
    assert "./" in kept  # the shell, as the manifest's start_url names it


def test_the_manifest_names_the_app_and_its_icons_are_there_at_their_sizes() -> None:
    manifest = json.loads((WEB / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["short_name"] == "rummykit" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    html = (WEB / "index.html").read_text(encoding="utf-8")
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in html
    purposes = set()
    for icon in manifest["icons"]:
        path = WEB / icon["src"]
        assert path.is_file(), icon
        purposes.add(icon["purpose"])
        if icon["type"] == "image/png":
            head = path.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n", icon
            width, height = struct.unpack(">II", head[16:24])
            assert icon["sizes"] == f"{width}x{height}", icon
    sizes = {i["sizes"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes and purposes == {"any", "maskable"}


def test_every_module_the_page_imports_exists() -> None:
    for path in (WEB / "js").glob("*.js"):
        for target in re.findall(r'^import [^;]*? from "(\.\.?/[^"]+)";', path.read_text(), re.M):
            assert (path.parent / target).exists(), (path.name, target)


def test_every_screenshot_and_file_the_docs_show_exists() -> None:
    root = WEB.parents[2]
    for doc in (root / "README.md", root / "docs" / "web.md"):
        text = doc.read_text(encoding="utf-8")
        images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
        assert images, doc
        for target in images:
            assert not target.startswith(("http:", "https:")), (doc.name, target)
            assert (doc.parent / target).is_file(), (doc.name, target)
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            assert not target.startswith(("http:", "https:")), (doc.name, target)
            assert (doc.parent / target).exists(), (doc.name, target)
