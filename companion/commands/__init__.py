"""Sub-commands of ``senet-companion``; each module offers ``register(subparsers)``.

Every command sets ``func`` on its parser; ``func(args)`` returns the exit status. Modules import
their heavy dependencies (Flask, gpiozero, serial) inside the command, so ``senet-companion rules``
starts quickly.
"""
