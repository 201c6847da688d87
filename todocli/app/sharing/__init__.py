"""Several agents on one plan: when each last wrote a list (``agent_state``: a live
claim from a stale one), claims seen by every worktree of a repository
(``shared_claims``), and the sessions' own lists (``sessions``: ``todo sessions``,
``todo gc``). Loaded only when several agents or sessions need it.

Nothing but this docstring: an import of any module here runs this file first."""
