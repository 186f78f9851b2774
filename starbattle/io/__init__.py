"""Floor 3, input and output: reading boards, JSON records, formatters, pictures, files."""
