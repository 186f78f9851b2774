"""Floor 3, logic: the hint ladder and its techniques, insight, the grade and the generator."""
