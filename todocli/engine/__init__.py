"""The engine: operations on a list, snapshots, merges and the agents' dialects."""
