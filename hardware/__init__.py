"""Reading the physical board: throwing sticks, the square matrix, and their simulation.

Nothing above this package knows about pins. Every backend turns the physical world into the
events of :mod:`hardware.events` and puts them on a queue handed to it by the game loop.

- :func:`hardware.backends.open_backend` opens ``"sim"``, ``"plain"``, ``"gpio"`` or
  ``"serial:PORT"``; every backend keeps the :class:`hardware.backend.Backend` interface.
- :class:`hardware.simulation.SimulatedBoard` is the board in software (place, lift, press,
  throw), read through gpiozero mock pins by the ``sim`` backend.
- :mod:`hardware.sensing` is the debounce, throw-settling and phantom-square logic shared with
  the microcontroller firmware; :mod:`hardware.config` the ``[hardware]`` configuration.
- ``hardware/README.md`` is the wiring guide.
"""
