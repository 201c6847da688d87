"""Storage: where lists live, locks, transactional writes, history and settings."""
