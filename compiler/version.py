"""The compiler's version: in every bundle's meta and its id, so its own module, at
the bottom of the layers."""

__version__ = "0.1.0"
