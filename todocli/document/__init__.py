"""The document: the task model and the lossless markdown reader and writer."""
