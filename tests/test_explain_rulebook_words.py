"""`rallyc explain` states rules as the rulebook does where an independent reading found it stating them otherwise."""

from __future__ import annotations

from typer.testing import CliRunner

from rallyc.commands.cli import app


def test_core_water_04_says_the_movement_ends_immediately_and_names_the_reading():
    """Core rulebook, Water Hazards: "You must enter these spaces with a Coast or Gear 1 die. If not, your movement
    ends immediately." Where the car stops is the project's reading 4, and is named as one."""
    out = CliRunner().invoke(app, ["explain", "CORE-WATER-04"])
    assert out.exit_code == 0
    first = out.stdout.splitlines()[0]
    assert "Coast die or a Gear 1 die" in first and "the movement ends immediately" in first
    assert "Reading 4" in first and "before the water" in first
