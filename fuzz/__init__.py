"""Fuzzing for rulec: oracles (importable without atheris), targets, corpora, driver.

See fuzz/README.md.
"""
