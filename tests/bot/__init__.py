"""End-to-end tests: the real bot over HTTP against the fake Bot API server."""
