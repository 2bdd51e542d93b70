"""Reading the physical board: throwing sticks, the square matrix, and their simulation.

Nothing above this package knows about pins. Every backend turns the physical world into the
events of :mod:`hardware.events` and puts them on a queue handed to it by the game loop.
"""
