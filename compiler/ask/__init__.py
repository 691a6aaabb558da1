"""Questions in words answered from a bundle's rules alone (`rulec ask`): the question
read into a state and a kind, the answer composed from the three paths with citations,
optionally reworded by an LLM under the fidelity filter, and an interactive mode."""
