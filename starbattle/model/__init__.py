"""Floor 1, the model: boards, units, the independent checker and every result value."""
