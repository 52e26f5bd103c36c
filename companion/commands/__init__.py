"""Subcommands of `companion`. Each module defines ``register(subparsers)``; cli.py lists them."""
