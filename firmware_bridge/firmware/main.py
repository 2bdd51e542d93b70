"""Runs at power-up on the microcontroller (MicroPython starts ``main.py`` by itself)."""

import pico  # type: ignore[import-not-found]

pico.main()
