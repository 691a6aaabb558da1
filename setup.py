"""Build hook: the C containment kernel is compiled by cffi (API mode) at install."""
from setuptools import setup

setup(cffi_modules=["csrc/build_kernel.py:ffi"])
