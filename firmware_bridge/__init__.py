"""Both ends of the USB serial link between a board-scanning microcontroller and the companion.

What the rest of the companion uses:

- ``hardware.backends.open_backend("serial" | "serial:PORT" | "serial:sim", config)``, which
  calls :func:`firmware_bridge.backend.open_serial_backend`;
- :class:`firmware_bridge.link.SerialBackend`, the backend itself (``start``, ``stop``,
  ``occupied``, ``status``, ``wait_ready``);
- :class:`firmware_bridge.config.SerialConfig`, the ``[serial]`` settings;
- :class:`firmware_bridge.fake_device.FakeDevice`, the firmware on a simulated board behind a
  pseudo-terminal.

``firmware/`` is the microcontroller's firmware; ``docs/protocol.md`` the protocol between them.
"""
