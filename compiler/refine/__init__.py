"""AGB-RL: thresholds learned back from labelled feedback.  ``model`` reads a bundle's
bounds and rebuilds the bundle around moved ones, ``feedback`` reads the labelled rows,
``agent`` is the Q-learning over bounds, ``config`` its settings."""
