"""Keep the message catalogs (``src/rummykit/i18n/locales``) in step with the code.

    python tools/i18n.py update     # extract the messages, merge them into every .po
    python tools/i18n.py compile    # write the .mo files and the browser's JSON
    python tools/i18n.py check      # what the tests run: nothing untranslated, all compiled

Two domains: ``rummykit`` (Python: strings in ``N_("...")``, ``_("...")`` and
``translate("...")``, so ``Message(N_("..."), ...)``; plural forms in
``Plural("...", "...", n)`` and ``ngettext``) and ``web`` (the browser UI's
JavaScript: ``t("...")``).
The English catalog's translations are left empty (English is the source); a
Swedish entry must be translated before ``check`` passes. Needs Babel (the
``dev`` extra).
"""

from __future__ import annotations

import datetime
import io
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "rummykit"
LOCALES = PACKAGE / "i18n" / "locales"
WEB_JSON = PACKAGE / "web" / "i18n"
LANGUAGES = ("sv", "en")
STAMP = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
DOMAINS = {
    "rummykit": {
        "folder": PACKAGE,
        "method": [("web/**", "ignore"), ("**.py", "python")],
        "keywords": {
            "N_": None,
            "_": None,
            "translate": None,
            "gettext": None,
            "Plural": (1, 2),
            "ngettext": (1, 2),
        },
    },
    "web": {
        "folder": PACKAGE / "web",
        "method": [("vendor/**", "ignore"), ("**.js", "javascript")],
        "keywords": {"t": None},
    },
}


def po_path(language: str, domain: str) -> Path:
    """Where a catalog's .po file is."""
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


def extracted(domain: str) -> Catalog:
    """Every message of ``domain`` in the code now, with where it is."""
    spec = DOMAINS[domain]
    folder = spec["folder"]
    assert isinstance(folder, Path)
    out = Catalog(project="rummykit", domain=domain)
    if not folder.is_dir():
        return out
    found = extract_from_dir(
        folder,
        method_map=spec["method"],  # type: ignore[arg-type]
        keywords=spec["keywords"],  # type: ignore[arg-type]
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, line, message, comments, context in found:
        where = (str((folder / filename).relative_to(ROOT)), line)
        out.add(message, None, [where], auto_comments=comments, context=context)
    return out


def read(path: Path, language: str, domain: str) -> Catalog:
    """A .po file (an empty catalog if there is none yet)."""
    if not path.exists():
        catalog = Catalog(locale=language, domain=domain, project="rummykit")
    else:
        with path.open("rb") as f:
            catalog = read_po(f, locale=language, domain=domain)
    catalog.creation_date = catalog.revision_date = STAMP  # the same bytes every time
    return catalog


def po_text(catalog: Catalog) -> bytes:
    """A catalog as .po text, without the volatile dates."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, omit_header=False, sort_output=True, width=100)
    lines = [
        line
        for line in buffer.getvalue().split(b"\n")
        if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date', b'"Generated-By'))
    ]
    return b"\n".join(lines)


def update() -> None:
    """Extract, then merge into every language's .po (new messages empty, gone ones dropped)."""
    for domain in DOMAINS:
        template = extracted(domain)
        for language in LANGUAGES:
            path = po_path(language, domain)
            catalog = read(path, language, domain)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(po_text(catalog))


def mo_bytes(catalog: Catalog) -> bytes:
    """The compiled .mo of a catalog."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def web_json(catalog: Catalog) -> str:
    """The browser's catalog: message id -> translation (English: empty, the ids stand)."""
    entries = {m.id: m.string for m in catalog if m.id and isinstance(m.id, str) and m.string}
    return json.dumps(entries, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def outputs() -> Iterable[tuple[Path, bytes]]:
    """Every file the catalogs compile to, with its content."""
    for domain in DOMAINS:
        for language in LANGUAGES:
            catalog = read(po_path(language, domain), language, domain)
            yield po_path(language, domain).with_suffix(".mo"), mo_bytes(catalog)
            if domain == "web":
                yield WEB_JSON / f"{language}.json", web_json(catalog).encode("utf-8")


def compile_all() -> None:
    """Write the .mo files and the browser's JSON."""
    for path, content in outputs():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def problems() -> list[str]:
    """What is out of step: messages missing from a .po, Swedish left untranslated, stale
    compiled files."""
    out = []
    for domain in DOMAINS:
        known = {m.id for m in extracted(domain) if m.id}
        for language in LANGUAGES:
            catalog = read(po_path(language, domain), language, domain)
            ids = {m.id for m in catalog if m.id}
            for missing in sorted(map(str, known - ids))[:5]:
                out.append(f"{domain}/{language}: {missing!r} is not in the catalog (update)")
            if language != "en":
                for m in catalog:
                    forms = m.string if isinstance(m.string, list | tuple) else [m.string]
                    if m.id and not all(forms):
                        out.append(f"{domain}/{language}: {str(m.id)!r} is not translated")
    for path, content in outputs():
        if not path.exists() or path.read_bytes() != content:
            out.append(f"{path.relative_to(ROOT)} is not compiled from its .po (compile)")
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
