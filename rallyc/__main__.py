"""``python -m rallyc``: the same command as ``rallyc`` (and named so in its usage lines)."""

from rallyc.cli import app

if __name__ == "__main__":
    app(prog_name="rallyc")
