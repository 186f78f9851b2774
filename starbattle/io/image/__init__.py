"""Reading a board from a screenshot or photo (PNG, JPEG, WebP): grid, regions, drawn marks.

The cost is bounded: the picture's size is checked from its header before it is decoded (a
large JPEG is decoded reduced), then it is reduced, a strip at a time, to at most WORK_LONG
pixels long. The method: find square outlines (edges and non-background blobs), straighten
each; find N from the grid lines' spacing (strong at every N-th position, weak mid-cell);
when no outline shows a clear grid, or the grid leaves out cells, read the block of alike
square cells seen between the grid lines instead (a frame with buttons beside the board);
take each cell's colour from a ring that skips the drawn marks; measure the ink on every
cell border and split thin lines from thick walls; join neighbouring cells across non-walls
in order of colour likeness until N regions remain. A reading that is unsure, or whose
puzzle has no or several solutions, is refused with one line saying what was read (and, if
asked, a debug picture). Needs the `image` extra (Pillow, numpy, OpenCV), imported only when
an image is read.

`read` reads (`read_image`); `decode` turns the file into pixels, `grid` finds the grid,
`regions` reads colours, walls, regions and marks, `debug` draws what was read.
"""
