"""Floor 6, the command line: options declared once, thin commands over the service."""
