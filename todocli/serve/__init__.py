"""``todo serve``: a live board in the browser, a door onto the same commands.

``lists`` (which lists a board shows, read and changed through ``todocli.app``),
``page`` (the server-rendered HTML, every text escaped), ``web`` (the Starlette
app: token, Host and Origin checks, server-sent events from watching the files),
``command`` (the command's entry: uvicorn on 127.0.0.1). None of it is imported on
an agent's path (``tests/test_startup.py``)."""
