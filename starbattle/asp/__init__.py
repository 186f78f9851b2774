"""Floor 2, ASP: facts, encodings, the solver and its guard: the only modules importing clingo."""
