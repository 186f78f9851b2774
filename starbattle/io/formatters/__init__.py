"""One formatter per output format: values in, pieces of output (lines, notes, files) out."""
