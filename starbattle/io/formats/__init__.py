"""The board formats, one module each (read and written through `starbattle.io.inputs`)."""
