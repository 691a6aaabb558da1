"""The optional LLM extractor: ``client`` asks an OpenAI-compatible endpoint for rule
objects, ``fidelity`` refuses any answer the statement's own words do not support,
``merge`` reconciles them with the offline extractor, ``flags`` are the shared options."""
