"""The game as a static web app: the page, with the project's own package running under
Pyodide in a Web Worker, installable and playable offline.

:func:`devilsgrip.site.build.build_site` writes the site (``devilsgrip site DIR``,
``make site``); :mod:`devilsgrip.site.worker` is what the Web Worker runs: the browser
game's API (:func:`devilsgrip.web.api.handle`) without HTTP and without threads.
"""
