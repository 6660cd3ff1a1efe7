"""The small shared core: errors, lattices, polyomino shapes and the solver backends."""
