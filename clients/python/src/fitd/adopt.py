"""``import fitd.adopt``: Rich, Textual and urwid, where installed, measure text in cells
through fitd, as the terminal this process runs in draws it (fitd.toolkits.install()).
``fitd.adopt.installed`` names the toolkits patched."""

from .toolkits import install

installed = install()
