"""Thin command-line handlers, one module per group of ``rulec`` subcommands; each has a
``register(subparsers)`` that ``cli`` calls."""
