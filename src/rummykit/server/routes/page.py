"""The browser UI's files (``src/rummykit/web``), served from ``/`` with the types a browser
must be given; without them (a package built without the page) ``/`` says what the server
is."""

from __future__ import annotations

import mimetypes
from importlib import resources

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["WEB_TYPES", "mount_page"]

WEB_TYPES = (
    ("text/javascript", ".js"),
    ("application/manifest+json", ".webmanifest"),
    ("image/svg+xml", ".svg"),
)
"""The page's file types, whatever the host's own table says (a module script must be
JavaScript, and with ``nosniff`` a browser believes the type it is given)."""


def mount_page(app: FastAPI) -> None:
    """Serve the page's files from ``/``: after every API route, which come first."""
    web = resources.files("rummykit") / "web"
    for kind, suffix in WEB_TYPES:
        mimetypes.add_type(kind, suffix)
    if web.is_dir():
        with resources.as_file(web) as folder:
            app.mount("/", StaticFiles(directory=folder, html=True), name="web")
        return

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return JSONResponse({"server": "rummykit-online/1", "api": "/api/tables"})
