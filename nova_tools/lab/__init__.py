"""`nova lab`: the browser lab, a local web app over the api (DESIGN section 6, "Lab").

    nova lab [--root DIR] [--port PORT] [--no-browser]

A replay viewer (the board on a canvas, a round scrubber, an inspector, the round's events, a
score chart with its contributors), a Run panel, Match › Host / Join and an Arena page, served on
127.0.0.1 only. The page is TypeScript (``web/src``) bundled with the pinned esbuild into
``static/``, which ships in the package; it draws the frames the api gives it and never decides
a rule itself.

Modules: ``server`` (bind, print the URL, serve), ``app`` (the endpoints), ``guard`` (only this
machine's pages; refusals as one JSON sentence), ``folder`` (games and scripts under the root,
nothing outside it), ``reads`` (the api reads, kept while a file is unchanged), ``jobs`` and
``work`` (runs, matches and arena runs in threads, with progress streamed to the page), ``wire``
(the lab's request and answer models), ``typegen`` (the page's TypeScript types, generated from
those models and the api's results) and ``build`` (type-check and bundle the page).
"""

from __future__ import annotations

DEFAULT_PORT = 7420  # on 127.0.0.1; 0 picks any free port


def serve(root=".", port: int = DEFAULT_PORT, open_browser: bool = True, out=None) -> None:
    """Serve the lab for ``root`` until interrupted (:func:`nova_tools.lab.server.serve`). Imported
    on use: ``nova --help`` does not load the web stack."""
    from .server import serve as run

    run(root, port, open_browser, out)


__all__ = ["DEFAULT_PORT", "serve"]
