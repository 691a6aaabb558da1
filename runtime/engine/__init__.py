"""The engine: one loaded bundle answering states and following streams of samples.

``engine`` holds ``Engine`` (queries and the paths behind them), ``box_index`` the exact
geometric index (C or numpy), ``stream`` the stream semantics (durations, deadband,
staleness, latches), ``advisory`` and ``proof`` the words and numbers of an answer,
``related`` and ``procedures`` the rule graph, ``replay`` the CSV of timed samples.
"""
