"""Build hook: the C containment kernel and the C wire codec are compiled by cffi (API
mode) at install."""
from setuptools import setup

setup(cffi_modules=["csrc/build_kernel.py:ffi", "csrc/build_proto.py:ffi"])
