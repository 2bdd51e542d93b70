"""The firmware for the board-scanning microcontroller (MicroPython), importable here for tests.

On the microcontroller these modules sit side by side at the top of its file system, next to a
copy of ``hardware/sensing.py``; see ``firmware_bridge/README.md`` for flashing.
"""
