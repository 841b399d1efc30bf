"""``python -m frictionlab ...``: the ``frictionlab`` command without the console script."""

from .cli import main

if __name__ == "__main__":
    main()
