"""What connects todo to the tools around it: ``todo setup`` (an agent's own
configuration, a git repository's merge driver), ``todo doctor`` (what is wired and
what is wrong), the stop gate and the reminder a harness calls around an agent's
turns (``gate``), and git's merge driver (``gitmerge``, wired by ``gitrepo``). What a
hook answers is ``todocli.app.hooks``: every TodoWrite loads it, and this folder stays
off that path.

Nothing but this docstring: an import of any module here runs this file first."""
