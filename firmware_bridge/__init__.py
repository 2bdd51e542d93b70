"""Both ends of the USB serial link between a board-scanning microcontroller and the companion."""
