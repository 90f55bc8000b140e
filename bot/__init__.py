"""The application, a package per room: ``service`` (the platform-neutral
table service), ``tournaments``, ``render`` (what a table looks like), ``app``
(the Discord application), ``terminal`` (the terminal table) and ``ops`` (the
operator's side). ARCHITECTURE.md ("The floors") says which may import which;
``tests/test_layers.py`` holds them to it."""
