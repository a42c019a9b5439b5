"""The HTTP routes of the server, one module per area."""
