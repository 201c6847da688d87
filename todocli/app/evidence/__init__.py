"""A task's check and its evidence: running a check and the git state it records
(``checks``), which checks this user approved (``approvals``, ``todo allow`` in
``allow``), and the checks a write runs before it completes a task (``proof``).
Loaded only for a task with a check.

Nothing but this docstring: an import of any module here runs this file first."""
