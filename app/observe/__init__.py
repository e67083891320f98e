"""What an operator sees: metrics, request ids, one log line per request."""
